/*
 * The divergence plugin: the book's simpleDivergence.  math1 branches on
 * tid % 2, so every warp runs both branches one after the other; math2
 * branches on whole warps and never diverges; math3 is math1 written as
 * two ifs.  The branches do real work (work.cuh) so the difference
 * survives optimisation; the *_debug exercises are the book's own
 * kernels built with -G, as the book measured them.
 */
#include "debug.h"
#include "kernels.cuh"
#include "lab.cuh"

#include <cinttypes>
#include <new>
#include <vector>

namespace {

struct variant {
	int which;   /* mathKernel 1, 2 or 3 */
	bool debug;  /* the book's kernel, built with -G */
};

struct state {
	float *c = nullptr;
	size_t len = 0;           /* elements allocated: whole blocks */
	int iters = 0;
	std::vector<float> want;
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
state *st(gpulab_ctx *ctx) { return static_cast<state *>(ctx->state); }
unsigned grid(const gpulab_ctx *ctx) { return (unsigned)lab::div_up(ctx->n, ctx->block); }

int plan(gpulab_ctx *ctx)
{
	uint64_t iters = 0;
	if (ctx->n > 0xffffffffull - 1024) {
		ctx->error(ctx, "n = %" PRIu64 " is more than these kernels index (2^32 - 1024)", ctx->n);
		return GPULAB_EPARAM;
	}
	if (ctx->block > 1024) {
		ctx->error(ctx, "block size %u: at most 1024 threads", ctx->block);
		return GPULAB_EPARAM;
	}
	if (!of(ctx)->debug && (ctx->param_u64(ctx, "iters", &iters) != GPULAB_OK || iters > 1000000)) {
		ctx->error(ctx, "-p iters=%s: expected a count up to 1000000", ctx->param(ctx, "iters"));
		return GPULAB_EPARAM;
	}
	ctx->bytes_read = 0;
	ctx->bytes_written = ctx->n * sizeof(float);
	ctx->device_bytes = (uint64_t)grid(ctx) * ctx->block * sizeof(float);
	return GPULAB_OK;
}

/* What thread tid stores: the branch it takes, and that branch's result
 * (jump[b]: branch b's iters steps as one). */
float expected(const variant *v, uint64_t tid, const lcg jump[2])
{
	bool a = v->which == 2 ? (tid / 32) % 2 == 0 : tid % 2 == 0;
	if (v->debug)
		return a ? 100.0f : 200.0f;
	return work_reference((uint32_t)tid, jump[a ? 0 : 1]);
}

int setup(gpulab_ctx *ctx)
{
	state *s = new (std::nothrow) state;
	uint64_t iters = 0;
	if (!(ctx->state = s))
		return GPULAB_ENOMEM;
	if (!of(ctx)->debug)
		ctx->param_u64(ctx, "iters", &iters); /* checked in plan() */
	s->iters = (int)iters;
	s->len = (size_t)grid(ctx) * ctx->block;
	try {
		s->want.resize(ctx->n);
	} catch (const std::bad_alloc &) {
		ctx->error(ctx, "no host memory for %" PRIu64 " floats", ctx->n);
		return GPULAB_ENOMEM;
	}
	const lcg jump[2] = { lcg_power(branch_lcg(0), iters), lcg_power(branch_lcg(1), iters) };
	for (uint64_t i = 0; i < ctx->n; i++)
		s->want[i] = expected(of(ctx), i, jump);
	LAB_TRY(ctx, cudaMalloc(&s->c, s->len * sizeof(float)));
	return GPULAB_OK;
}

/* Poison the output (NaN), so an element nobody wrote cannot pass. */
int reset(gpulab_ctx *ctx)
{
	LAB_TRY(ctx, cudaMemsetAsync(st(ctx)->c, 0xff, st(ctx)->len * sizeof(float), lab::stream(ctx)));
	return GPULAB_OK;
}

int run(gpulab_ctx *ctx)
{
	const variant *v = of(ctx);
	state *s = st(ctx);
	cudaStream_t q = lab::stream(ctx);
	unsigned n = (unsigned)ctx->n;
	if (v->debug) {
		LAB_TRY(ctx, launch_debug(v->which, s->c, grid(ctx), ctx->block, q));
		return GPULAB_OK;
	}
	switch (v->which) {
	case 1: mathKernel1<<<grid(ctx), ctx->block, 0, q>>>(s->c, n, s->iters, s->iters); break;
	case 2: mathKernel2<<<grid(ctx), ctx->block, 0, q>>>(s->c, n, s->iters, s->iters); break;
	default: mathKernel3<<<grid(ctx), ctx->block, 0, q>>>(s->c, n, s->iters, s->iters); break;
	}
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

int verify(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	std::vector<float> got(ctx->n);
	LAB_TRY(ctx, cudaMemcpy(got.data(), s->c, ctx->n * sizeof(float), cudaMemcpyDeviceToHost));
	for (uint64_t i = 0; i < ctx->n; i++)
		if (!(got[i] == s->want[i])) { /* NaN (never written) fails too */
			ctx->error(ctx, "c[%" PRIu64 "]: expected %.9g, got %.9g", i, s->want[i], got[i]);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

void teardown(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (!s)
		return;
	cudaFree(s->c);
	delete s;
	ctx->state = nullptr;
}

const gpulab_param work_params[] = {
	{ "iters", "256", "iterations of each branch's loop" },
	{ nullptr, nullptr, nullptr }
};

const variant v_math1 = { 1, false }, v_math2 = { 2, false }, v_math3 = { 3, false };
const variant v_math1_debug = { 1, true }, v_math2_debug = { 2, true }, v_math3_debug = { 3, true };

/* --metrics default: the chapter's evidence that warps diverge. */
const char lesson_metrics[] = "warp_execution_efficiency,branch_efficiency,inst_per_warp";

#define EXERCISE(name, summary, params, v) \
	{ name, summary, GPULAB_FLOAT32, 1u << 22, 64, params, lesson_metrics, \
	  plan, setup, reset, run, nullptr, verify, teardown, &v }

const gpulab_exercise exercises[] = {
	EXERCISE("warmup", "the book's warmingup: mathKernel2, run first so start-up costs land here", work_params, v_math2),
	EXERCISE("math1", "branch on tid % 2: both branches run in every warp, one after the other", work_params, v_math1),
	EXERCISE("math2", "branch on (tid / warpSize) % 2: whole warps take one branch, no divergence", work_params, v_math2),
	EXERCISE("math3", "math1's branch as two ifs on a predicate: still divergent", work_params, v_math3),
	EXERCISE("math1_debug", "the book's mathKernel1, one assignment per branch, built with -G", nullptr, v_math1_debug),
	EXERCISE("math2_debug", "the book's mathKernel2, built with -G", nullptr, v_math2_debug),
	EXERCISE("math3_debug", "the book's mathKernel3, built with -G", nullptr, v_math3_debug),
};

const gpulab_plugin plugin = {
	GPULAB_ABI_VERSION, "divergence", "warp divergence: branches within a warp run one after the other",
	exercises, sizeof exercises / sizeof exercises[0], "math1", nullptr
};

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
