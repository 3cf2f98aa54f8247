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

#include <gpulab/lab.cuh>

#include <cinttypes>
#include <vector>

namespace {

struct variant {
	int which;   /* mathKernel 1, 2 or 3; 4: mathUniform, no branch */
	bool debug;  /* the book's kernel, built with -G */
};

/* The parameters of the kernels with real work; the *_debug ones have none. */
struct work_opts {
	uint64_t iters;
};

struct state : lab::state {
	float *c = nullptr;
	size_t len = 0;           /* elements allocated: whole blocks */
	int iters = 0;
	std::vector<float> want;
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
uint64_t grid(const gpulab_ctx *ctx) { return lab::div_up(ctx->elements, ctx->block); }

/* CUDA's limit on a grid's blocks. */
const uint64_t max_grid = 0x7fffffff;

/* n and block are bounded by their declarations; one thread per element
 * must still fit in a grid. */
int plan(gpulab_ctx *ctx)
{
	if (grid(ctx) > max_grid) {
		ctx->error(ctx, "n = %" PRIu64 " with block %u needs %" PRIu64 " blocks; a grid has at most 2^31 - 1 "
			   "(use a larger block)", ctx->n, ctx->block, grid(ctx));
		return GPULAB_EPARAM;
	}
	ctx->bytes_read = 0;
	ctx->bytes_written = ctx->elements * sizeof(float);
	ctx->device_bytes = grid(ctx) * ctx->block * sizeof(float);
	return GPULAB_OK;
}

/* What thread tid stores: the branch it takes, and that branch's result
 * (jump[b]: branch b's iters steps as one). */
float expected(const variant *v, uint64_t tid, const lcg jump[2])
{
	bool a = v->which == 4 || (v->which == 2 ? (tid / 32) % 2 == 0 : tid % 2 == 0);
	if (v->debug)
		return a ? 100.0f : 200.0f;
	return work_reference((uint32_t)tid, jump[a ? 0 : 1]);
}

int setup(gpulab_ctx *ctx)
{
	state *s;
	int rc = lab::make_state(ctx, &s);
	if (rc != GPULAB_OK)
		return rc;
	uint64_t iters = of(ctx)->debug ? 0 : lab::opts<work_opts>(ctx).iters;
	s->iters = (int)iters;
	s->len = (size_t)(grid(ctx) * ctx->block);
	if ((rc = lab::host_vector(ctx, s->want, ctx->elements)) != GPULAB_OK)
		return rc;
	const lcg jump[2] = { lcg_power(branch_lcg(0), iters), lcg_power(branch_lcg(1), iters) };
	for (uint64_t i = 0; i < ctx->elements; i++)
		s->want[i] = expected(of(ctx), i, jump);
	return s->alloc(ctx, &s->c, s->len);
}

/* Poison the output (NaN), so an element nobody wrote cannot pass. */
int reset(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	return lab::poison(ctx, s->c, s->len * sizeof(float));
}

int run(gpulab_ctx *ctx)
{
	const variant *v = of(ctx);
	state *s = lab::state_of<state>(ctx);
	cudaStream_t q = lab::stream(ctx);
	unsigned n = (unsigned)ctx->elements, blocks = (unsigned)grid(ctx);
	if (v->debug) {
		LAB_TRY(ctx, launch_debug(v->which, s->c, blocks, ctx->block, q));
		return GPULAB_OK;
	}
	switch (v->which) {
	case 1: mathKernel1<<<blocks, ctx->block, 0, q>>>(s->c, n, s->iters, s->iters); break;
	case 2: mathKernel2<<<blocks, ctx->block, 0, q>>>(s->c, n, s->iters, s->iters); break;
	case 4: mathUniform<<<blocks, ctx->block, 0, q>>>(s->c, n, s->iters); break;
	default: mathKernel3<<<blocks, ctx->block, 0, q>>>(s->c, n, s->iters, s->iters); break;
	}
	return lab::launched(ctx);
}

/* Exactly the reference; a NaN (never written) fails too. */
int verify(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	std::vector<float> got;
	int rc = lab::copy_back(ctx, got, s->c, ctx->elements);
	if (rc != GPULAB_OK)
		return rc;
	return lab::expect_equal(ctx, "c", got.data(), s->want.data(), ctx->elements);
}

const gpulab_param work_params[] = {
	{ .key = "iters", .type = GPULAB_PARAM_COUNT, .offset = offsetof(work_opts, iters), .def = "256",
	  .help = "iterations of each branch's loop", .min = 0, .max = 1000000 },
	{}
};

const variant v_math1 = { 1, false }, v_math2 = { 2, false }, v_math3 = { 3, false }, v_uniform = { 4, false };
const variant v_math1_debug = { 1, true }, v_math2_debug = { 2, true }, v_math3_debug = { 3, true };

/* --metrics default: the chapter's evidence that warps diverge. */
const char lesson_metrics[] = "warp_execution_efficiency,branch_efficiency,inst_per_warp";

/* The optimised kernels index with unsigned: up to 2^32 - 1024 elements,
 * so that a last block of up to 1024 threads still has an index. */
#define WORK WORK_BLOCK(64)
#define WORK_BLOCK(b) .dtypes = GPULAB_FLOAT32, .n = 1u << 22, .n_max = (1ull << 32) - 1024, .block = b, \
	.params = work_params, .params_size = sizeof(work_opts), STEPS
/* The book's kernels index with int (and have no bounds test): 2^31 - 1024. */
#define BOOK .dtypes = GPULAB_FLOAT32, .n = 1u << 22, .n_max = (1ull << 31) - 1024, .block = 64, STEPS
#define STEPS .plan = plan, .setup = setup, .reset = reset, .run = run, .verify = verify, .teardown = lab::teardown<state>
/* reset only poisons the output: runs can follow each other (--batch) */
#define LESSON .metrics = lesson_metrics, .flags = GPULAB_REPEATS
/* the book's trivial kernels do other work than math1's: no speedup over it */
#define DEBUG_LESSON .metrics = lesson_metrics, .flags = GPULAB_REPEATS | GPULAB_UNLIKE

const gpulab_exercise exercises[] = {
	{ .name = "warmup", .summary = "the book's warmingup: mathKernel2, run first so start-up costs land here",
	  WORK, .data = &v_math2, LESSON },
	{ .name = "math1", .summary = "branch on tid % 2: both branches run in every warp, one after the other",
	  WORK, .data = &v_math1, LESSON },
	{ .name = "math2", .summary = "branch on (tid / warpSize) % 2: whole warps take one branch, no divergence",
	  WORK, .data = &v_math2, LESSON },
	{ .name = "math3", .summary = "math1's branch as two ifs on a predicate: still divergent",
	  WORK, .data = &v_math3, LESSON },
	{ .name = "partial", .summary = "no branch, 80-thread blocks: 3 warps a block, the last with 16 threads (partial warps)",
	  WORK_BLOCK(80), .data = &v_uniform, LESSON },
	{ .name = "math1_debug", .summary = "the book's mathKernel1, one assignment per branch, built with -G",
	  BOOK, .data = &v_math1_debug, DEBUG_LESSON },
	{ .name = "math2_debug", .summary = "the book's mathKernel2, built with -G",
	  BOOK, .data = &v_math2_debug, DEBUG_LESSON },
	{ .name = "math3_debug", .summary = "the book's mathKernel3, built with -G",
	  BOOK, .data = &v_math3_debug, DEBUG_LESSON },
};

} // namespace

LAB_PLUGIN("divergence", "warp divergence: branches within a warp run one after the other", exercises,
	   .baseline = "math1")
