/* skeleton: a gpulab plugin from `gpulab new`; built with -fvisibility=hidden,
 * so only LAB_PLUGIN's entry point is exported. Its one exercise scales a
 * vector, out = k * in, checked against the CPU after every run. Make it
 * yours: the kernel, then plan (the bytes a run moves), setup (input and
 * reference), verify. <gpulab/lab.cuh> lists its helpers; gpulab(1) and
 * <gpulab/plugin.h> say the rest.
 *
 * Rename first the exercise, "scale" below (and its summary): it is what
 * `gpulab run skeleton.scale` and every record name, so a record made
 * before a rename matches nothing after.  The plugin's name, "skeleton",
 * is already the directory's: it must stay the same in LAB_PLUGIN, in
 * skeleton.ini's [plugin skeleton] and in the .so's file name.
 *
 * It takes int and float (its .dtypes; -t int,float runs both), each step
 * a template that LAB_TYPED instantiates for both.  For one element type
 * alone, say an int histogram, give .dtypes = GPULAB_INT32: LAB_TYPED
 * still works (only int<> is ever called); or make state and the steps
 * plain (no template) and give .teardown = lab::teardown<state>.
 *
 * No .reset here: run() writes every element of out, so runs may follow
 * each other as they are, and setup's poison (0xff) catches an element
 * the kernel never writes.  Give a reset (untimed, before every run)
 * where a run reads what the last one left: a kernel that accumulates
 * into its output (atomicAdd into bins) needs it zeroed there, else the
 * second run counts twice and verify fails; flag the exercise
 * GPULAB_REPEATS where the reset only clears or poisons, so that --batch
 * may still time runs back to back. */
#include <gpulab/lab.cuh>

struct opts { int64_t k; uint64_t seed; }; /* the keys, filled in by gpulab */

template <typename T>
struct state : lab::state { /* what lab::state allocates, teardown frees */
	T *in = nullptr, *out = nullptr; std::vector<T> host;
};

/* Strides by the grid: lab::grid clamps the blocks to what a grid holds
 * (2^31 - 1), so n = 2^32 with -b 1 is covered too. */
template <typename T>
__global__ void scale(T *out, const T *in, T k, uint64_t n)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		out[i] = k * in[i];
}

/* The bytes one run must move, each counted once: the GB/s reported is
 * that over the time.  With atomics, bytes_written is still the output
 * the run leaves (bins * sizeof(T); one element for a sum), not one
 * write per atomicAdd: their read-modify-writes land in L2, and the
 * counters (--metrics) show that traffic. */
int plan(gpulab_ctx *ctx) /* checks, and declares traffic; allocates nothing */
{
	ctx->bytes_read = ctx->bytes_written = lab::bytes(ctx, ctx->elements);
	ctx->device_bytes = 2 * ctx->bytes_read;
	return GPULAB_OK;
}

template <typename T>
int setup(gpulab_ctx *ctx) /* input, reference; no timing */
{
	state<T> *s;
	int rc = lab::make_state(ctx, &s);
	if (rc || (rc = lab::host_vector(ctx, s->host, ctx->elements))
	    || (rc = s->alloc(ctx, &s->in, ctx->elements)) || (rc = s->alloc(ctx, &s->out, ctx->elements)))
		return rc;
	lab::fill(s->host.data(), ctx->elements, lab::opts<opts>(ctx).seed);
	LAB_TRY(ctx, cudaMemcpy(s->in, s->host.data(), lab::bytes(ctx, ctx->elements), cudaMemcpyHostToDevice));
	return lab::poison(ctx, s->out, lab::bytes(ctx, ctx->elements)); /* unwritten elements fail */
}

template <typename T>
int run(gpulab_ctx *ctx) /* timed: only enqueue on ctx's stream */
{
	state<T> *s = lab::state_of<state<T>>(ctx);
	T k = (T)lab::opts<opts>(ctx).k;
	scale<<<lab::grid(ctx), ctx->block, 0, lab::stream(ctx)>>>(s->out, s->in, k, ctx->elements);
	return lab::launched(ctx);
}

template <typename T>
int verify(gpulab_ctx *ctx)
{
	state<T> *s = lab::state_of<state<T>>(ctx);
	std::vector<T> want(s->host); /* the CPU's answer */
	for (T &v : want)
		v *= (T)lab::opts<opts>(ctx).k;
	return lab::expect_device(ctx, "out", s->out, want.data(), ctx->elements);
}

const gpulab_param params[] = {
	{ .key = "k", .type = GPULAB_PARAM_INT, .offset = offsetof(opts, k), .def = "3", .help = "the factor",
	  .min = -8, .max = 8 },
	LAB_SEED(opts, seed), { nullptr }
};

const gpulab_exercise exercises[] = {
	{ .name = "scale", .summary = "out = k * in, a grid-stride loop", .dtypes = GPULAB_INT32 | GPULAB_FLOAT32,
	  .n = 1 << 24, .n_max = 1ull << 32, .block = 256, .params = params, .params_size = sizeof(opts), .plan = plan,
	  .setup = LAB_TYPED(setup), .run = LAB_TYPED(run), .verify = LAB_TYPED(verify),
	  .teardown = LAB_TEARDOWN(state) },
};

LAB_PLUGIN("skeleton", "skeleton's exercises (gpulab new)", exercises)
