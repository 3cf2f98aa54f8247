/*
 * The sum_matrix plugin: the book's sumMatrixOnGPU2D, C = A + B on an
 * nx x ny int matrix with a 2D grid of 2D blocks.  The four exercises are
 * the chapter's four block shapes, so `gpulab run sum_matrix` is its
 * comparison in one table; -p block=WxH tries any other shape, and
 * -p nx / -p ny any matrix (bounds are checked, so nothing need divide).
 */
#include "lab.cuh"

#include <cinttypes>
#include <cstdio>
#include <new>
#include <vector>

namespace {

/* sumMatrixOnGPU2D, as in the book, on ints. */
__global__ void sumMatrixOnGPU2D(const int *A, const int *B, int *C, int nx, int ny)
{
	unsigned ix = threadIdx.x + blockIdx.x * blockDim.x;
	unsigned iy = threadIdx.y + blockIdx.y * blockDim.y;
	size_t idx = (size_t)iy * nx + ix;
	if (ix < (unsigned)nx && iy < (unsigned)ny)
		C[idx] = A[idx] + B[idx];
}

struct shape {
	uint64_t nx, ny;
	unsigned bx, by;
};

struct state {
	int *a = nullptr, *b = nullptr, *c = nullptr;
	shape sh{};
	std::vector<int> want;
};

state *st(gpulab_ctx *ctx) { return static_cast<state *>(ctx->state); }

int read_shape(gpulab_ctx *ctx, shape *sh)
{
	const char *block = ctx->param(ctx, "block");
	char tail;
	if (std::sscanf(block, "%ux%u%c", &sh->bx, &sh->by, &tail) != 2 || !sh->bx || !sh->by
	    || sh->bx > 1024 || sh->by > 1024 || sh->bx * sh->by > 1024) {
		ctx->error(ctx, "-p block=%s: expected WxH with W*H from 1 to 1024 threads, e.g. 32x16", block);
		return GPULAB_EPARAM;
	}
	if (ctx->param_u64(ctx, "nx", &sh->nx) != GPULAB_OK || ctx->param_u64(ctx, "ny", &sh->ny) != GPULAB_OK)
		return GPULAB_EPARAM;
	if (!sh->nx || !sh->ny || sh->nx > 0x7fffffff || sh->ny > 0x7fffffff
	    || lab::div_up(sh->ny, sh->by) > 65535) {
		ctx->error(ctx, "matrix %" PRIu64 "x%" PRIu64 ": each side from 1 to 2^31 - 1, and at most 65535 block rows",
			   sh->nx, sh->ny);
		return GPULAB_EPARAM;
	}
	return GPULAB_OK;
}

int plan(gpulab_ctx *ctx)
{
	shape sh;
	if (read_shape(ctx, &sh) != GPULAB_OK)
		return GPULAB_EPARAM;
	ctx->n = sh.nx * sh.ny;
	ctx->bytes_read = 2 * ctx->n * sizeof(int);
	ctx->bytes_written = ctx->n * sizeof(int);
	ctx->device_bytes = 3 * ctx->n * sizeof(int);
	return GPULAB_OK;
}

int setup(gpulab_ctx *ctx)
{
	state *s = new (std::nothrow) state;
	uint64_t seed;
	if (!(ctx->state = s))
		return GPULAB_ENOMEM;
	if (read_shape(ctx, &s->sh) != GPULAB_OK || lab::seed(ctx, &seed) != GPULAB_OK)
		return GPULAB_EPARAM;
	size_t n = ctx->n, bytes = n * sizeof(int);
	std::vector<int> a, b;
	try {
		a.resize(n);
		b.resize(n);
		s->want.resize(n);
	} catch (const std::bad_alloc &) {
		ctx->error(ctx, "no host memory for three %" PRIu64 "-element matrices", ctx->n);
		return GPULAB_ENOMEM;
	}
	lab::fill(a.data(), n, seed);
	lab::fill(b.data(), n, seed + 1);
	for (size_t i = 0; i < n; i++)
		s->want[i] = a[i] + b[i];
	LAB_TRY(ctx, cudaMalloc(&s->a, bytes));
	LAB_TRY(ctx, cudaMalloc(&s->b, bytes));
	LAB_TRY(ctx, cudaMalloc(&s->c, bytes));
	LAB_TRY(ctx, cudaMemcpy(s->a, a.data(), bytes, cudaMemcpyHostToDevice));
	LAB_TRY(ctx, cudaMemcpy(s->b, b.data(), bytes, cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* Poison C, so an element the grid misses cannot pass. */
int reset(gpulab_ctx *ctx)
{
	LAB_TRY(ctx, cudaMemsetAsync(st(ctx)->c, 0xff, ctx->n * sizeof(int), lab::stream(ctx)));
	return GPULAB_OK;
}

int run(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	dim3 block(s->sh.bx, s->sh.by);
	dim3 grid((unsigned)lab::div_up(s->sh.nx, block.x), (unsigned)lab::div_up(s->sh.ny, block.y));
	sumMatrixOnGPU2D<<<grid, block, 0, lab::stream(ctx)>>>(s->a, s->b, s->c, (int)s->sh.nx, (int)s->sh.ny);
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

int verify(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	std::vector<int> got(ctx->n);
	LAB_TRY(ctx, cudaMemcpy(got.data(), s->c, ctx->n * sizeof(int), cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < ctx->n; i++)
		if (got[i] != s->want[i]) {
			ctx->error(ctx, "C[%" PRIu64 "][%" PRIu64 "]: expected %d, got %d", (uint64_t)(i / s->sh.nx),
				   (uint64_t)(i % s->sh.nx), s->want[i], got[i]);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

void teardown(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (!s)
		return;
	cudaFree(s->a);
	cudaFree(s->b);
	cudaFree(s->c);
	delete s;
	ctx->state = nullptr;
}

#define PARAMS(shape) \
	{ { "block", shape, "block shape WxH (threads in x and y)" }, \
	  { "nx", "16384", "matrix columns" }, \
	  { "ny", "16384", "matrix rows" }, \
	  { "seed", "random", "input seed; a number reproduces a run" }, \
	  { nullptr, nullptr, nullptr } }

const gpulab_param p32x32[] = PARAMS("32x32"), p32x16[] = PARAMS("32x16"),
		   p16x32[] = PARAMS("16x32"), p16x16[] = PARAMS("16x16");

/* --metrics default: the chapter's table for the block shapes. */
const char lesson_metrics[] = "achieved_occupancy,gld_throughput,gld_efficiency";

#define EXERCISE(name, summary, params) \
	{ name, summary, GPULAB_INT32, 16384ull * 16384, 0, params, lesson_metrics, \
	  plan, setup, reset, run, nullptr, verify, teardown, nullptr }

const gpulab_exercise exercises[] = {
	EXERCISE("block32x32", "C = A + B with 32x32 blocks (1024 threads: fewest blocks)", p32x32),
	EXERCISE("block32x16", "C = A + B with 32x16 blocks", p32x16),
	EXERCISE("block16x32", "C = A + B with 16x32 blocks (half-warp rows)", p16x32),
	EXERCISE("block16x16", "C = A + B with 16x16 blocks (most blocks, half-warp rows)", p16x16),
};

const gpulab_plugin plugin = {
	GPULAB_ABI_VERSION, "sum_matrix", "2D grids and blocks: how block shape changes a matrix sum",
	exercises, sizeof exercises / sizeof exercises[0], "block32x32", nullptr
};

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
