/*
 * An example gpulab plugin, written only against the installed
 * <gpulab/plugin.h> (found through `pkg-config gpulab`): y = a * x + y on
 * floats, checked against the CPU.  Build it with the Makefile beside it.
 */
#include <gpulab/plugin.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdlib>
#include <vector>

namespace {

struct state {
	float *x = nullptr, *y = nullptr;
	std::vector<float> hx, hy;
	float a = 2.5f;
};

__global__ void axpy(float a, const float *x, float *y, uint64_t n)
{
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

int check(gpulab_ctx *ctx, cudaError_t e, const char *what)
{
	if (e == cudaSuccess)
		return GPULAB_OK;
	ctx->error(ctx, "%s: %s", what, cudaGetErrorString(e));
	return GPULAB_ECUDA;
}

int plan(gpulab_ctx *ctx)
{
	if (ctx->block % 32 || ctx->block > 1024) {
		ctx->error(ctx, "block size %u: use a multiple of 32 up to 1024", ctx->block);
		return GPULAB_EPARAM;
	}
	ctx->bytes_read = 2 * ctx->n * sizeof(float);
	ctx->bytes_written = ctx->n * sizeof(float);
	ctx->device_bytes = 2 * ctx->n * sizeof(float);
	return GPULAB_OK;
}

int setup(gpulab_ctx *ctx)
{
	state *s = new state;
	ctx->state = s;
	s->hx.resize(ctx->n);
	s->hy.resize(ctx->n);
	for (uint64_t i = 0; i < ctx->n; i++) {
		s->hx[i] = (float)(i % 7) - 3;
		s->hy[i] = (float)(i % 5);
	}
	size_t bytes = ctx->n * sizeof(float);
	int rc = check(ctx, cudaMalloc(&s->x, bytes), "cudaMalloc");
	if (!rc) rc = check(ctx, cudaMalloc(&s->y, bytes), "cudaMalloc");
	if (!rc) rc = check(ctx, cudaMemcpy(s->x, s->hx.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
	return rc;
}

/* y is updated in place: restore it before every run, untimed. */
int reset(gpulab_ctx *ctx)
{
	state *s = static_cast<state *>(ctx->state);
	return check(ctx, cudaMemcpyAsync(s->y, s->hy.data(), ctx->n * sizeof(float), cudaMemcpyHostToDevice,
					  reinterpret_cast<cudaStream_t>(ctx->stream)), "cudaMemcpyAsync");
}

int run(gpulab_ctx *ctx)
{
	state *s = static_cast<state *>(ctx->state);
	unsigned grid = (unsigned)((ctx->n + ctx->block - 1) / ctx->block);
	axpy<<<grid, ctx->block, 0, reinterpret_cast<cudaStream_t>(ctx->stream)>>>(s->a, s->x, s->y, ctx->n);
	return check(ctx, cudaGetLastError(), "axpy launch");
}

int verify(gpulab_ctx *ctx)
{
	state *s = static_cast<state *>(ctx->state);
	std::vector<float> got(ctx->n);
	int rc = check(ctx, cudaMemcpy(got.data(), s->y, ctx->n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
	for (uint64_t i = 0; !rc && i < ctx->n; i++) {
		float want = s->a * s->hx[i] + s->hy[i]; /* exact: small integers and halves */
		if (got[i] != want) {
			ctx->error(ctx, "y[%llu]: expected %g, got %g", (unsigned long long)i, want, got[i]);
			return GPULAB_WRONG;
		}
	}
	return rc;
}

void teardown(gpulab_ctx *ctx)
{
	state *s = static_cast<state *>(ctx->state);
	if (!s)
		return;
	cudaFree(s->x);
	cudaFree(s->y);
	delete s;
}

const gpulab_exercise exercises[] = {
	{ "axpy", "y = a*x + y on floats: 2 reads and 1 write per element", GPULAB_FLOAT32, 1u << 24, 256,
	  nullptr, nullptr, plan, setup, reset, run, nullptr, verify, teardown, nullptr },
};

const gpulab_plugin plugin = { GPULAB_ABI_VERSION, "axpy", "an example plugin built out of tree",
			       exercises, 1, nullptr, nullptr };

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
