/*
 * Two GPU exercises for the core's timing (core/run/hold.h), in plain C on
 * the CUDA runtime: `async` only enqueues its work, so the core holds its
 * stream while it does; `sync` waits for the GPU inside run(), as a
 * careless plugin might, so a held stream would never move: the core must
 * notice, time it unheld, and still finish.  Both fill a buffer with a
 * byte and verify it, so the work is known to have run.  Their reset only
 * poisons the buffer, so both can be batched (--batch).
 */
#include <gpulab/plugin.h>

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

struct state {
	unsigned char *dev;
	unsigned char *host;
};

static int plan(struct gpulab_ctx *ctx)
{
	ctx->bytes_written = ctx->elements;
	ctx->device_bytes = ctx->elements;
	return GPULAB_OK;
}

static int setup(struct gpulab_ctx *ctx)
{
	struct state *s = calloc(1, sizeof *s);
	if (!(ctx->state = s) || !(s->host = malloc(ctx->elements)))
		return GPULAB_ENOMEM;
	if (cudaMalloc((void **)&s->dev, ctx->elements) != cudaSuccess) {
		ctx->error(ctx, "cudaMalloc failed");
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

static int reset(struct gpulab_ctx *ctx)
{
	struct state *s = ctx->state;
	return cudaMemsetAsync(s->dev, 0, ctx->elements, (cudaStream_t)ctx->stream) == cudaSuccess ? GPULAB_OK
												   : GPULAB_ECUDA;
}

static int run_async(struct gpulab_ctx *ctx)
{
	struct state *s = ctx->state;
	return cudaMemsetAsync(s->dev, 0x5a, ctx->elements, (cudaStream_t)ctx->stream) == cudaSuccess ? GPULAB_OK
												      : GPULAB_ECUDA;
}

static int run_sync(struct gpulab_ctx *ctx)
{
	int rc = run_async(ctx);
	if (rc == GPULAB_OK && cudaStreamSynchronize((cudaStream_t)ctx->stream) != cudaSuccess)
		rc = GPULAB_ECUDA;
	return rc;
}

static int verify(struct gpulab_ctx *ctx)
{
	struct state *s = ctx->state;
	if (cudaMemcpy(s->host, s->dev, ctx->elements, cudaMemcpyDeviceToHost) != cudaSuccess)
		return GPULAB_ECUDA;
	for (uint64_t i = 0; i < ctx->elements; i++)
		if (s->host[i] != 0x5a) {
			ctx->error(ctx, "byte %llu is %d, not 0x5a", (unsigned long long)i, s->host[i]);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

static void teardown(struct gpulab_ctx *ctx)
{
	struct state *s = ctx->state;
	if (!s)
		return;
	cudaFree(s->dev);
	free(s->host);
	free(s);
}

static const struct gpulab_exercise exercises[] = {
	{ .name = "async", .summary = "enqueues a memset", .dtypes = GPULAB_INT32, .n = 1 << 20, .block = 256,
	  .plan = plan, .setup = setup, .reset = reset, .run = run_async, .verify = verify, .teardown = teardown,
	  .flags = GPULAB_REPEATS },
	{ .name = "sync", .summary = "enqueues a memset and waits for it", .dtypes = GPULAB_INT32, .n = 1 << 20,
	  .block = 256, .plan = plan, .setup = setup, .reset = reset, .run = run_sync, .verify = verify,
	  .teardown = teardown, .flags = GPULAB_REPEATS },
};

static const struct gpulab_plugin plugin = {
	.abi = GPULAB_ABI_VERSION, .abi_minor = GPULAB_ABI_MINOR, .size = sizeof(struct gpulab_plugin),
	.exercise_size = sizeof(struct gpulab_exercise), .param_size = sizeof(struct gpulab_param),
	.name = "waits", .summary = "GPU exercises for the core's timing tests",
	.exercises = exercises, .n_exercises = sizeof exercises / sizeof exercises[0],
};

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
