/*
 * The sum_matrix plugin: the book's sumMatrixOnGPU2D, C = A + B on an
 * nx x ny int matrix with a 2D grid of 2D blocks.  The four block*
 * exercises are the chapter's four block shapes, so `gpulab run
 * sum_matrix` is its comparison in one table; -p block=WxH tries any
 * other shape, and -p nx / -p ny any matrix (bounds are checked, so
 * nothing need divide).  Beside them, the ceiling: `copy`, the same bytes
 * moved by cudaMemcpyAsync, and `best`, the fastest correct C = A + B
 * (best.cuh), so the table ends where the hardware does.
 */
#include "best.cuh"

#include <gpulab/lab.cuh>

#include <algorithm>
#include <cinttypes>
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

enum kind { BOOK, COPY, BEST };

struct opts {
	gpulab_shape block;   /* BOOK only */
	uint64_t nx, ny, seed;
};

struct state : lab::state {
	int *a = nullptr, *b = nullptr, *c = nullptr;
	size_t b_at = 0;      /* B's offset from A: n rounded up to 64 ints, so B is 256-byte aligned */
	size_t copied = 0;    /* COPY: ints moved, the sum's traffic as a copy */
	unsigned grid = 0;    /* BEST: one block per best_block vectors */
	std::vector<int> want;
};

kind of(const gpulab_ctx *ctx) { return *static_cast<const kind *>(ctx->data); }
const opts &shape_of(const gpulab_ctx *ctx) { return lab::opts<opts>(ctx); }

/* What the declarations cannot say: a block of at most 1024 threads and
 * at most 65535 block rows for the book's 2D grid; and at most 2^40
 * elements (the core's limit on n), so that no byte count below wraps. */
int plan(gpulab_ctx *ctx)
{
	const opts &o = shape_of(ctx);
	if (of(ctx) == BOOK) {
		uint64_t threads = (uint64_t)o.block.x * o.block.y, block_rows = lab::div_up(o.ny, o.block.y);
		bool wide = threads > 1024;
		if (wide || block_rows > 65535) {
			ctx->error(ctx, "-p block=%ux%u on %" PRIu64 " rows: at most %s, not %" PRIu64, o.block.x, o.block.y,
				   o.ny, wide ? "1024 threads a block" : "65535 block rows", wide ? threads : block_rows);
			return GPULAB_EPARAM;
		}
	}
	if (o.nx * o.ny > (1ull << 40)) {
		ctx->error(ctx, "matrix %" PRIu64 "x%" PRIu64 ": at most 2^40 elements", o.nx, o.ny);
		return GPULAB_EPARAM;
	}
	ctx->elements = o.nx * o.ny;
	/* read A and B, write C; the copy moves as many bytes */
	ctx->bytes_read = 2 * ctx->elements * sizeof(int);
	ctx->bytes_written = ctx->elements * sizeof(int);
	ctx->device_bytes = (3 * ctx->elements + 2 * 64) * sizeof(int); /* and B's alignment */
	return GPULAB_OK;
}

/* The input, and the expected output: the sum for BOOK and BEST, for COPY
 * the copied one and a half matrices (A, its padding, then B, as one
 * array). */
int setup(gpulab_ctx *ctx)
{
	state *s;
	size_t n = ctx->elements;
	int rc;
	if ((rc = lab::make_state(ctx, &s)) != GPULAB_OK)
		return rc;
	/* A and B in one buffer, so the copy reads them as one array; B at a
	 * 256-byte boundary, since best loads it 16 bytes at a time */
	s->b_at = lab::div_up(n, 64) * 64;
	if ((rc = s->alloc(ctx, &s->a, s->b_at + n)) || (rc = s->alloc(ctx, &s->c, s->b_at + n)))
		return rc;
	s->b = s->a + s->b_at;
	s->copied = (3 * n) / 2;
	std::vector<int> ab;
	if ((rc = lab::host_vector(ctx, ab, s->b_at + n))
	    || (rc = lab::host_vector(ctx, s->want, of(ctx) == COPY ? s->copied : n)))
		return rc;
	lab::fill(ab.data(), s->b_at + n, shape_of(ctx).seed);
	for (size_t i = 0; i < s->want.size(); i++)
		s->want[i] = of(ctx) == COPY ? ab[i] : ab[i] + ab[s->b_at + i];
	s->grid = (unsigned)best_blocks(n); /* at most 2^30 at 2^40 elements */
	LAB_TRY(ctx, cudaMemcpy(s->a, ab.data(), ab.size() * sizeof(int), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* Poison C, so an element the grid misses cannot pass. */
int reset(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	return lab::poison(ctx, s->c, s->want.size() * sizeof(int));
}

int run(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	const opts &o = shape_of(ctx);
	cudaStream_t q = lab::stream(ctx);
	switch (of(ctx)) {
	case COPY:
		LAB_TRY(ctx, cudaMemcpyAsync(s->c, s->a, s->copied * sizeof(int), cudaMemcpyDeviceToDevice, q));
		return GPULAB_OK;
	case BEST:
		sumMatrixBest<<<s->grid, best_block, 0, q>>>(s->a, s->b, s->c, ctx->elements);
		break;
	default: {
		dim3 block(o.block.x, o.block.y);
		dim3 grid((unsigned)lab::div_up(o.nx, block.x), (unsigned)lab::div_up(o.ny, block.y));
		sumMatrixOnGPU2D<<<grid, block, 0, q>>>(s->a, s->b, s->c, (int)o.nx, (int)o.ny);
	}
	}
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

int verify(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	std::vector<int> got;
	int rc = lab::copy_back(ctx, got, s->c, s->want.size());
	if (rc != GPULAB_OK)
		return rc;
	return lab::expect_equal(ctx, "C", got.data(), s->want.data(), s->want.size(),
				 lab::where{ of(ctx) == COPY ? 0 : shape_of(ctx).nx });
}

/* nx and ny from 1 to 2^31 - 1: the book's kernel indexes with int. */
#define SIDES \
	{ .key = "nx", .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, nx), .def = "16384", \
	  .help = "matrix columns", .min = 1, .max = 0x7fffffff }, \
	{ .key = "ny", .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, ny), .def = "16384", \
	  .help = "matrix rows", .min = 1, .max = 0x7fffffff }, \
	LAB_SEED(opts, seed), { nullptr }
#define PARAMS(shape) \
	{ { .key = "block", .type = GPULAB_PARAM_SHAPE, .offset = offsetof(opts, block), .def = shape, \
	    .help = "block shape WxH (threads in x and y)", .min = 1, .max = 1024 }, SIDES }

const gpulab_param p32x32[] = PARAMS("32x32"), p32x16[] = PARAMS("32x16"), p16x32[] = PARAMS("16x32"),
		   p16x16[] = PARAMS("16x16"), p_flat[] = { SIDES };

const kind k_book = BOOK, k_copy = COPY, k_best = BEST;

/* --metrics default: the chapter's table for the block shapes. */
const char lesson_metrics[] = "achieved_occupancy,gld_throughput,gld_efficiency,dram__throughput.avg.pct_of_peak_sustained_elapsed";

/* Ints only, sized by nx and ny (no -n), no -b: the book's shape is its
 * own key, and copy and best choose theirs. */
#define SUM(p, k) \
	.dtypes = GPULAB_INT32, .params = p, .params_size = sizeof(opts), .plan = plan, .setup = setup, .reset = reset, \
	.run = run, .verify = verify, .teardown = lab::teardown<state>, .data = &k, .metrics = lesson_metrics, \
	.flags = GPULAB_REPEATS

const gpulab_exercise exercises[] = {
	{ .name = "block32x32", .summary = "C = A + B with 32x32 blocks (1024 threads: fewest blocks)", SUM(p32x32, k_book) },
	{ .name = "block32x16", .summary = "C = A + B with 32x16 blocks", SUM(p32x16, k_book) },
	{ .name = "block16x32", .summary = "C = A + B with 16x32 blocks (half-warp rows)", SUM(p16x32, k_book) },
	{ .name = "block16x16", .summary = "C = A + B with 16x16 blocks (most blocks, half-warp rows)", SUM(p16x16, k_book) },
	{ .name = "copy", .summary = "ceiling: cudaMemcpyAsync of 1.5 nx ny ints, the sum's bytes (2 reads, 1 write) as a copy",
	  SUM(p_flat, k_copy) },
	{ .name = "best", .summary = "the matrix as one flat stream: a 16-byte streaming load of A and B per thread",
	  SUM(p_flat, k_best) },
};

} // namespace

LAB_PLUGIN("sum_matrix",
	   "2D grids and blocks: how block shape changes a matrix sum",
	   exercises,
	   .baseline = "block32x32",
	   .reference = "copy")
