/*
 * An example gpulab plugin, written only against the installed headers
 * <gpulab/plugin.h> and <gpulab/lab.cuh> (found through `pkg-config
 * gpulab`): y = a * x + y on floats, checked against the CPU.  Build it
 * with the Makefile beside it.
 *
 * What a plugin does, in order: declare its parameters (here `a` and the
 * seed) in a table the core parses and checks; plan the traffic; set up
 * the input and the reference; run; verify.  Nothing here parses a
 * string or frees a buffer by hand.
 */
#include <gpulab/lab.cuh>

#include <vector>

namespace {

/* The parameters, as the core hands them over (ctx->params). */
struct opts {
	int64_t a;
	uint64_t seed;
};

struct state : lab::state {
	float *x = nullptr, *y = nullptr;
	std::vector<float> hx, hy;
};

__global__ void axpy(float a, const float *x, float *y, uint64_t n)
{
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

/* What the declarations cannot say: a whole number of warps a block.
 * ctx->elements, the count one run processes, starts as -n; an exercise
 * whose size comes from keys of its own would set it here. */
int plan(gpulab_ctx *ctx)
{
	if (ctx->block % 32) {
		ctx->error(ctx, "block size %u: use a multiple of 32", ctx->block);
		return GPULAB_EPARAM;
	}
	ctx->bytes_read = 2 * ctx->elements * sizeof(float);
	ctx->bytes_written = ctx->elements * sizeof(float);
	ctx->device_bytes = 2 * ctx->elements * sizeof(float);
	return GPULAB_OK;
}

int setup(gpulab_ctx *ctx)
{
	state *s;
	int rc;
	if ((rc = lab::make_state(ctx, &s)) || (rc = lab::host_vector(ctx, s->hx, ctx->elements))
	    || (rc = lab::host_vector(ctx, s->hy, ctx->elements)))
		return rc;
	lab::fill(s->hx.data(), ctx->elements, lab::opts<opts>(ctx).seed);
	lab::fill(s->hy.data(), ctx->elements, lab::opts<opts>(ctx).seed + 1);
	if ((rc = s->alloc(ctx, &s->x, ctx->elements)) || (rc = s->alloc(ctx, &s->y, ctx->elements)))
		return rc;
	LAB_TRY(ctx, cudaMemcpy(s->x, s->hx.data(), ctx->elements * sizeof(float), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* y is updated in place: restore it before every run, untimed. */
int reset(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	size_t bytes = ctx->elements * sizeof(float);
	LAB_TRY(ctx, cudaMemcpyAsync(s->y, s->hy.data(), bytes, cudaMemcpyHostToDevice, lab::stream(ctx)));
	return GPULAB_OK;
}

int run(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	unsigned grid = (unsigned)lab::div_up(ctx->elements, ctx->block);
	axpy<<<grid, ctx->block, 0, lab::stream(ctx)>>>((float)lab::opts<opts>(ctx).a, s->x, s->y, ctx->elements);
	return lab::launched(ctx);
}

/* Exact: the inputs are multiples of 1/256 and a is small, so a*x + y
 * rounds the same on the GPU and the CPU. */
int verify(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	float a = (float)lab::opts<opts>(ctx).a;
	std::vector<float> got, want;
	int rc = lab::host_vector(ctx, want, ctx->elements);
	if (rc)
		return rc;
	for (uint64_t i = 0; i < ctx->elements; i++)
		want[i] = a * s->hx[i] + s->hy[i];
	if ((rc = lab::copy_back(ctx, got, s->y, ctx->elements)))
		return rc;
	return lab::expect_equal(ctx, "y", got.data(), want.data(), ctx->elements);
}

const gpulab_param params[] = {
	{ .key = "a", .type = GPULAB_PARAM_INT, .offset = offsetof(opts, a), .def = "3", .help = "the scalar a",
	  .min = -8, .max = 8 },
	LAB_SEED(opts, seed),
	{ nullptr }
};

const gpulab_exercise exercises[] = {
	{ .name = "axpy", .summary = "y = a*x + y on floats: 2 reads and 1 write per element", .dtypes = GPULAB_FLOAT32,
	  .n = 1u << 24, .n_max = 1ull << 32, .block = 256, .params = params, .params_size = sizeof(opts), .plan = plan,
	  .setup = setup, .reset = reset, .run = run, .verify = verify, .teardown = lab::teardown<state> },
};

} // namespace

/* The descriptor and the one symbol the plugin exports. */
LAB_PLUGIN("axpy", "an example plugin built out of tree", exercises)
