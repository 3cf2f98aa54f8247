/*
 * The transpose plugin: out = in^T for a rows x cols matrix, between two
 * ceilings (cudaMemcpyAsync, and copyRow with the transposes' tiling), by
 * the naive kernels and the shared-memory tiles with and without bank
 * conflicts; then today's: tiles staged by cp.async in a persistent grid
 * (staged.cuh) and tiles moved by Hopper's copy engine (tma.cuh); the
 * alignment lesson, rows padded to whole lines (pitched) or a dense
 * matrix's tiles moved onto sectors (peeled, aligned.cuh); and the
 * library, cuBLAS geam, where this build has it.  The copy engine's
 * exercises keep their matrices in the pitched layout, so they take any
 * shape.  Every kernel is compared with memcpy ("of ref") and with the
 * theoretical peak; GB/s count bytes read plus written, padding not.
 */
#include "aligned.cuh"
#include "kernels.cuh"
#include "staged.cuh"
#include "tma.cuh"

#include <gpulab/lab.cuh>

#ifdef GPULAB_CUBLAS
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

namespace {

struct dims {
	unsigned rows, cols;
	cudaStream_t s;
	const CUtensorMap *maps; /* tma: the input's and the output's */
	unsigned grid;           /* staged: the persistent grid */
	unsigned in_pitch, out_pitch; /* elements from a row to the next: cols and rows, or padded */
	void *blas;              /* geam: the cuBLAS handle */
	int *blas_status;        /* geam: what cublasSgeam returned */
	unsigned align;          /* peeled: enum align */
	bool down;               /* peeled: the grid's x down the input's rows */
	unsigned group;          /* tma: column tiles side by side in the walk down */
};

template <typename T> using launch_fn = void (*)(const T *, T *, const dims &);

enum needs { PLAIN = 0, TMA, PERSISTENT, GEAM }; /* what setup prepares */
enum align { ALIGN_STORES = 0, ALIGN_LOADS, ALIGN_LINES }; /* peeled's -p align, in its choices' order */
enum order { ORDER_AUTO = 0, ORDER_DOWN, ORDER_ACROSS };      /* -p order, likewise */

struct variant {
	bool transposes;          /* false: a copy (memcpy, copy_row) */
	launch_fn<int> launch_int;
	launch_fn<float> launch_float;
	needs setup = PLAIN;
	const void *kernel[2] = {}; /* PERSISTENT: its kernel for ints, for floats */
	bool pitched = false;     /* rows padded to whole 128-byte lines (aligned::pitch_of) */
};

template <typename T> launch_fn<T> launcher(const variant *v);
template <> launch_fn<int> launcher<int>(const variant *v) { return v->launch_int; }
template <> launch_fn<float> launcher<float>(const variant *v) { return v->launch_float; }

template <typename T> void memcpy_d2d(const T *in, T *out, const dims &d)
{
	cudaMemcpyAsync(out, in, (size_t)d.rows * d.cols * sizeof(T), cudaMemcpyDeviceToDevice, d.s);
}

/* Launch over the W x W tiles of the input, or of the output (OVER_OUTPUT). */
template <int W, int ROWS, bool OVER_OUTPUT, typename T, typename K>
void tiles(K kernel, const T *in, T *out, const dims &d)
{
	unsigned across = OVER_OUTPUT ? d.rows : d.cols, down = OVER_OUTPUT ? d.cols : d.rows;
	dim3 grid((unsigned)lab::div_up(across, W), (unsigned)lab::div_up(down, W));
	kernel<<<grid, dim3(32, ROWS), 0, d.s>>>(in, out, d.rows, d.cols);
}

/* copy_row, smem_unroll and smem_swizzle use 64-wide tiles: a warp's row
 * access is then a 256-byte run instead of 128, which took them from 86%
 * to 93-95% of memcpy on an H200 (32 x 4 threads on 32-wide tiles: 87-89%). */
template <typename T> void copy_row(const T *in, T *out, const dims &d) { tiles<64, 8, false>(copyRow<T, 64, 8>, in, out, d); }
template <typename T> void naive_row(const T *in, T *out, const dims &d) { tiles<32, 32, false>(transposeNaiveRow<T, 32, 32>, in, out, d); }
template <typename T> void naive_col(const T *in, T *out, const dims &d) { tiles<32, 32, true>(transposeNaiveCol<T, 32, 32>, in, out, d); }
/* The shared-memory tiles, rows d.in_pitch and d.out_pitch apart, the
 * grid's x across the input's columns or, DOWN, down its rows. */
template <int W, int ROWS, int PAD, bool SWIZZLE, bool DOWN = false, typename T>
void smem_tiles(const T *in, T *out, const dims &d)
{
	unsigned across = (unsigned)lab::div_up(d.cols, W), down = (unsigned)lab::div_up(d.rows, W);
	dim3 grid = DOWN ? dim3(down, across) : dim3(across, down);
	transposeSmem<T, W, ROWS, PAD, SWIZZLE, DOWN><<<grid, dim3(32, ROWS), 0, d.s>>>(in, out, d.rows, d.cols,
											d.in_pitch, d.out_pitch);
}
template <typename T> void smem(const T *in, T *out, const dims &d) { smem_tiles<32, 32, 0, false>(in, out, d); }
/* peeled: -p align picks the side and unit, -p order the grid's walk
 * (down: x down the input's rows, as tiles<> walks the output). */
template <typename T, bool DOWN> void peeled_by(const T *in, T *out, const dims &d)
{
	if (d.align == ALIGN_LOADS)
		tiles<64, 8, DOWN>(aligned::transposePeeled<T, 64, 8, false, DOWN>, in, out, d);
	else if (d.align == ALIGN_LINES)
		tiles<64, 8, DOWN>(aligned::transposePeeled<T, 64, 8, true, DOWN, aligned::LINE>, in, out, d);
	else
		tiles<64, 8, DOWN>(aligned::transposePeeled<T, 64, 8, true, DOWN>, in, out, d);
}
template <typename T> void peeled(const T *in, T *out, const dims &d)
{
	if (d.down)
		peeled_by<T, true>(in, out, d);
	else
		peeled_by<T, false>(in, out, d);
}
template <typename T> void smem_pad(const T *in, T *out, const dims &d) { smem_tiles<32, 32, 1, false>(in, out, d); }
template <typename T> void smem_unroll(const T *in, T *out, const dims &d) { smem_tiles<64, 8, 1, false>(in, out, d); }
template <typename T> void smem_swizzle(const T *in, T *out, const dims &d) { smem_tiles<64, 8, 0, true>(in, out, d); }
/* pitched: smem_unroll's kernel on the pitched layout (dims' pitches),
 * its grid walking down (-p order), as peeled's does. */
template <typename T> void pitched(const T *in, T *out, const dims &d)
{
	if (d.down)
		smem_tiles<64, 8, 1, false, true>(in, out, d);
	else
		smem_unroll(in, out, d);
}

/* The copy engine's tiles: 64 x 64, one block of 128 threads each, the
 * grid's x along the input's columns or, DOWN, along its rows. */
template <bool TRANSPOSE, bool DOWN> void tma_tiles(const dims &d)
{
	unsigned across = (unsigned)lab::div_up(d.cols, tma::TILE), down = (unsigned)lab::div_up(d.rows, tma::TILE);
	dim3 grid = DOWN ? dim3(down, across) : dim3(across, down);
	tma::transposeTma<TRANSPOSE, DOWN><<<grid, tma::THREADS, tma::SMEM, d.s>>>(d.maps[0], d.maps[1], d.group);
}
template <typename T> void tma_copy(const T *, T *, const dims &d) { tma_tiles<false, false>(d); }
template <typename T> void tma_rows(const T *, T *, const dims &d) { tma_tiles<true, false>(d); }
template <typename T> void tma_down(const T *, T *, const dims &d) { tma_tiles<true, true>(d); }

template <typename T, bool ASYNC> void staged_tiles(const T *in, T *out, const dims &d)
{
	staged::transposeStaged<T, 64, 8, ASYNC><<<d.grid, dim3(32, 8), 0, d.s>>>(in, out, d.rows, d.cols);
}
template <typename T> void smem_staged(const T *in, T *out, const dims &d) { staged_tiles<T, false>(in, out, d); }
template <typename T> void smem_async(const T *in, T *out, const dims &d) { staged_tiles<T, true>(in, out, d); }

/* cuBLAS's C = alpha op(A) + beta op(B), column-major: our row-major
 * rows x cols input is its cols x rows A, and C = A^T its rows x cols
 * output.  beta = 0, with B the input again (read as rows x cols, within
 * it): nothing poisoned is read.  Ints go through the same 4 bytes as
 * floats: 1 * x + 0 keeps every int this lab draws (0-255, denormal
 * floats) bit for bit, which the check confirms on every run. */
#ifdef GPULAB_CUBLAS
template <typename T> void geam(const T *in, T *out, const dims &d)
{
	const float one = 1, zero = 0;
	auto h = static_cast<cublasHandle_t>(d.blas);
	cublasStatus_t e = cublasSetStream(h, d.s);
	if (e == CUBLAS_STATUS_SUCCESS)
		e = cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)d.rows, (int)d.cols, &one, (const float *)in, (int)d.cols,
				&zero, (const float *)in, (int)d.rows, (float *)out, (int)d.rows);
	*d.blas_status = (int)e;
}
#endif

#define BOTH(f) f<int>, f<float>
const variant v_memcpy = { false, BOTH(memcpy_d2d) }, v_copy_row = { false, BOTH(copy_row) },
	      v_naive_row = { true, BOTH(naive_row) }, v_naive_col = { true, BOTH(naive_col) },
	      v_smem = { true, BOTH(smem) }, v_smem_pad = { true, BOTH(smem_pad) },
	      v_smem_unroll = { true, BOTH(smem_unroll) }, v_smem_swizzle = { true, BOTH(smem_swizzle) },
	      v_smem_staged = { true, BOTH(smem_staged), PERSISTENT,
				{ (const void *)staged::transposeStaged<int, 64, 8, false>,
				  (const void *)staged::transposeStaged<float, 64, 8, false> } },
	      v_smem_async = { true, BOTH(smem_async), PERSISTENT,
			       { (const void *)staged::transposeStaged<int, 64, 8, true>,
				 (const void *)staged::transposeStaged<float, 64, 8, true> } },
	      v_tma_copy = { false, BOTH(tma_copy), TMA, {}, true }, v_tma_rows = { true, BOTH(tma_rows), TMA, {}, true },
	      v_tma = { true, BOTH(tma_down), TMA, {}, true }, v_peeled = { true, BOTH(peeled) },
	      v_pitched = { true, BOTH(pitched), PLAIN, {}, true };
#ifdef GPULAB_CUBLAS
const variant v_geam = { true, BOTH(geam), GEAM };
#endif

struct opts {
	uint64_t rows, cols, seed, per_sm, lines;
	unsigned align; /* peeled: enum align */
	unsigned order; /* peeled, pitched: enum order */
	uint64_t group; /* tma: column tiles side by side */
};

struct state : lab::state {
	void *in = nullptr, *out = nullptr;
	void *dense = nullptr;               /* pitched: the output without its padding, to check */
	std::vector<unsigned char> host_in;  /* the input, to check against */
	CUtensorMap maps[2];                 /* tma */
	unsigned grid = 0;                   /* staged */
	void *blas = nullptr;                /* geam: its cuBLAS handle */
	int blas_status = 0;
	~state() override
	{
#ifdef GPULAB_CUBLAS
		if (blas)
			cublasDestroy(static_cast<cublasHandle_t>(blas));
#endif
	}
};

/* The matrices' row pitches, in elements: dense, or padded to whole
 * 128-byte lines (the pitched layout, which the copy engine's tensor
 * maps need at shapes whose rows are not whole 16-byte units). */
struct layout {
	unsigned in_pitch, out_pitch, out_rows; /* out_rows: the output's rows */
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
const opts &dims_of(const gpulab_ctx *ctx) { return lab::opts<opts>(ctx); }

layout layout_of(const gpulab_ctx *ctx)
{
	const opts &o = dims_of(ctx);
	unsigned rows = (unsigned)o.rows, cols = (unsigned)o.cols, out_cols = of(ctx)->transposes ? rows : cols;
	if (!of(ctx)->pitched)
		return { cols, out_cols, of(ctx)->transposes ? cols : rows };
	unsigned extra = (unsigned)dims_of(ctx).lines * aligned::LINE;
	return { aligned::pitch_of(cols) + extra, aligned::pitch_of(out_cols) + extra, of(ctx)->transposes ? cols : rows };
}

/* Each side is declared; what the kernels index is checked here. */
int plan(gpulab_ctx *ctx)
{
	const opts &o = dims_of(ctx);
	if (o.rows * o.cols > 0xffffffffull) {
		ctx->error(ctx, "matrix %" PRIu64 "x%" PRIu64 ": fewer than 2^32 elements", o.rows, o.cols);
		return GPULAB_EPARAM;
	}
	ctx->elements = o.rows * o.cols;
	size_t e = ctx->dtype == GPULAB_INT32 ? sizeof(int) : sizeof(float);
	ctx->bytes_read = ctx->bytes_written = ctx->elements * e; /* padding is neither read nor written */
	layout l = layout_of(ctx);
	ctx->device_bytes = ((size_t)o.rows * l.in_pitch + (size_t)l.out_rows * l.out_pitch) * e
			    + (of(ctx)->pitched ? ctx->elements * e : 0);
	return GPULAB_OK;
}

/* A tensor map of a height x width row-major matrix of 4-byte elements
 * at p, rows `pitch` elements apart (a multiple of 4: the map's strides
 * are whole 16-byte units), in boxes of tma::TILE rows of tma::BOX,
 * swizzled 128 bytes. */
int encode_map(gpulab_ctx *ctx, PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap *m, CUtensorMapDataType type,
	       void *p, uint64_t height, uint64_t width, uint64_t row_pitch)
{
	cuuint64_t sides[2] = { width, height }, pitch[1] = { row_pitch * 4 };
	cuuint32_t box[2] = { tma::BOX, tma::TILE }, step[2] = { 1, 1 };
	CUresult r = encode(m, type, 2, p, sides, pitch, box, step, CU_TENSOR_MAP_INTERLEAVE_NONE,
			    CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		ctx->error(ctx, "cuTensorMapEncodeTiled of a %" PRIu64 "x%" PRIu64 " matrix: CUresult %d", height, width, (int)r);
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

/* tma: a GPU with the copy engine, this build's code for it, and the
 * tensor maps of the input and the output.  cuTensorMapEncodeTiled is
 * the driver's: the runtime hands us its address, so the plugin does not
 * link libcuda. */
int prepare_tma(gpulab_ctx *ctx, state *s, CUtensorMapDataType type, bool transposed)
{
	int dev, major, minor;
	LAB_TRY(ctx, cudaGetDevice(&dev));
	LAB_TRY(ctx, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	LAB_TRY(ctx, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	if (major < 9) {
		ctx->error(ctx, "needs the Tensor Memory Accelerator (sm_90 or later); this GPU is sm_%d%d", major, minor);
		return GPULAB_EPARAM;
	}
	int rc = lab::need_code(ctx, (const void *)tma::transposeTma<true, true>, 90);
	if (rc)
		return rc;
	void *fn = nullptr;
	cudaDriverEntryPointQueryResult found;
	LAB_TRY(ctx, cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
	if (found != cudaDriverEntryPointSuccess || !fn) {
		ctx->error(ctx, "the CUDA driver has no cuTensorMapEncodeTiled");
		return GPULAB_ECUDA;
	}
	auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
	const opts &o = dims_of(ctx);
	layout l = layout_of(ctx);
	if ((rc = encode_map(ctx, encode, &s->maps[0], type, s->in, o.rows, o.cols, l.in_pitch)))
		return rc;
	return transposed ? encode_map(ctx, encode, &s->maps[1], type, s->out, o.cols, o.rows, l.out_pitch)
			  : encode_map(ctx, encode, &s->maps[1], type, s->out, o.rows, o.cols, l.out_pitch);
}

/* staged: -p per_sm blocks on each SM (0: as many as fit, and the
 * record says how many that was), and no more blocks than tiles. */
int prepare_staged(gpulab_ctx *ctx, state *s, const void *kernel)
{
	const opts &o = dims_of(ctx);
	int dev, sms, fit = 0;
	LAB_TRY(ctx, cudaGetDevice(&dev));
	LAB_TRY(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	LAB_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, 32 * 8, 0));
	if (o.per_sm > (uint64_t)fit) {
		ctx->error(ctx, "per_sm=%" PRIu64 ": at most %d of its blocks fit an SM of this GPU", o.per_sm, fit);
		return GPULAB_EPARAM;
	}
	uint64_t per_sm = o.per_sm ? o.per_sm : (uint64_t)fit, tiles = lab::div_up(o.rows, 64) * lab::div_up(o.cols, 64);
	s->grid = (unsigned)std::min<uint64_t>(per_sm * (uint64_t)sms, tiles);
	char chosen[24];
	std::snprintf(chosen, sizeof chosen, "%" PRIu64, per_sm);
	return ctx->chose(ctx, "per_sm", chosen);
}

template <typename T> CUtensorMapDataType tma_type()
{
	return std::is_same_v<T, int> ? CU_TENSOR_MAP_DATA_TYPE_INT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

/* geam: a cuBLAS handle, made here so that its cost stays out of the
 * timed runs.  A build without cuBLAS does not list geam. */
int prepare_geam(gpulab_ctx *ctx, state *s)
{
#ifdef GPULAB_CUBLAS
	cublasHandle_t h;
	cublasStatus_t e = cublasCreate(&h);
	if (e != CUBLAS_STATUS_SUCCESS) {
		ctx->error(ctx, "cublasCreate: status %d", (int)e);
		return GPULAB_ECUDA;
	}
	s->blas = h;
	return GPULAB_OK;
#else
	(void)s; /* not listed: setup never asks */
	ctx->error(ctx, "this build has no cuBLAS");
	return GPULAB_EPARAM;
#endif
}

template <typename T>
int setup_t(gpulab_ctx *ctx)
{
	state *s;
	int rc;
	const opts &o = dims_of(ctx);
	size_t n = ctx->elements;
	layout l = layout_of(ctx);
	if ((rc = lab::make_state(ctx, &s)) || (rc = lab::host_vector(ctx, s->host_in, n * sizeof(T))))
		return rc;
	lab::fill(reinterpret_cast<T *>(s->host_in.data()), n, o.seed);
	if ((rc = s->alloc(ctx, (T **)&s->in, (size_t)o.rows * l.in_pitch))
	    || (rc = s->alloc(ctx, (T **)&s->out, (size_t)l.out_rows * l.out_pitch))
	    || (of(ctx)->pitched && (rc = s->alloc(ctx, (T **)&s->dense, n))))
		return rc;
	LAB_TRY(ctx, cudaMemset(s->in, 0xff, (size_t)o.rows * l.in_pitch * sizeof(T))); /* the padding: never read */
	LAB_TRY(ctx, cudaMemcpy2D(s->in, l.in_pitch * sizeof(T), s->host_in.data(), o.cols * sizeof(T), o.cols * sizeof(T),
				  o.rows, cudaMemcpyHostToDevice));
	switch (of(ctx)->setup) {
	case TMA:
		return prepare_tma(ctx, s, tma_type<T>(), of(ctx)->transposes);
	case PERSISTENT:
		return prepare_staged(ctx, s, of(ctx)->kernel[std::is_same_v<T, float>]);
	case GEAM:
		return prepare_geam(ctx, s);
	default:
		return GPULAB_OK;
	}
}

/* Poison the output before every run, so stale data cannot pass. */
template <typename T>
int reset_t(gpulab_ctx *ctx)
{
	layout l = layout_of(ctx);
	return lab::poison(ctx, lab::state_of<state>(ctx)->out, (size_t)l.out_rows * l.out_pitch * sizeof(T));
}

/* -p order=auto, from the walks measured on an H200 at six shapes near
 * 2^28 ints (docs/bench-transpose-shapes-b.md): peeled down where it
 * peels (5793 x 46341: 89.8% of memcpy against 80.0 across), across where
 * every row is already on a sector (8192 x 32768: 94.2 against 90.5);
 * pitched down (93.0 against 87.6 at 12289 x 20483). */
bool walks_down(const gpulab_ctx *ctx)
{
	const opts &o = dims_of(ctx);
	if (o.order != ORDER_AUTO)
		return o.order == ORDER_DOWN;
	return of(ctx)->pitched || o.rows % aligned::SECTOR;
}

template <typename T>
int run_t(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	const opts &o = dims_of(ctx);
	layout l = layout_of(ctx);
	launcher<T>(of(ctx))((const T *)s->in, (T *)s->out,
			     dims{ (unsigned)o.rows, (unsigned)o.cols, lab::stream(ctx), s->maps, s->grid, l.in_pitch,
				   l.out_pitch, s->blas, &s->blas_status, o.align, walks_down(ctx), (unsigned)o.group });
	LAB_LAUNCHED(ctx);
	if (s->blas_status) {
		ctx->error(ctx, "cublasSgeam: status %d", s->blas_status);
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

/* Bit-exact: a transpose moves values, it computes nothing. */
template <typename T>
int verify_t(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	const T *out = (const T *)s->out;
	layout l = layout_of(ctx);
	if (of(ctx)->pitched) { /* the output's rows without their padding */
		size_t width = of(ctx)->transposes ? dims_of(ctx).rows : dims_of(ctx).cols;
		LAB_TRY(ctx, cudaMemcpy2D(s->dense, width * sizeof(T), s->out, l.out_pitch * sizeof(T), width * sizeof(T),
					  l.out_rows, cudaMemcpyDeviceToDevice));
		out = (const T *)s->dense;
	}
	return lab::expect_moved(ctx, out, reinterpret_cast<const T *>(s->host_in.data()), dims_of(ctx).rows,
				 dims_of(ctx).cols, of(ctx)->transposes);
}

/* Each side from 1 to what a 2D grid of 32-wide tiles reaches. */
#define SIDE(name, help_text) \
	{ .key = #name, .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, name), .def = "8192", .help = help_text, \
	  .min = 1, .max = 65535 * 32 }
/* What every transpose takes: its shape and its input's seed. */
#define SHAPE_PARAMS SIDE(rows, "rows of the input matrix"), SIDE(cols, "columns of the input matrix"), LAB_SEED(opts, seed)
const gpulab_param params[] = {
	SHAPE_PARAMS,
	{ nullptr }
};
/* The persistent exercises: also how many of their blocks share an SM. */
const gpulab_param staged_params[] = {
	SHAPE_PARAMS,
	{ .key = "per_sm", .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, per_sm), .def = "0",
	  .help = "blocks on each SM; 0: as many as fit", .min = 0, .max = 32 },
	{ nullptr }
};
#define LINES_PARAM(def_lines)                                                                             \
	{ .key = "lines", .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, lines), .def = def_lines,              \
	  .help = "128 B lines a row past its round-up", .min = 0, .max = 64 }
/* The copy engine's exercises: also lines of padding past those that
 * round a row up.  One more by default: a pitch off a large power of two
 * spreads a tile's rows over more of the memory's channels (8192 x 32768
 * ints on an H200: tma 90.9% of memcpy without it, 95.0 with it).  Of six
 * shapes near 2^28 it helped at three and cost 0.5-2.3 points at three;
 * with it four reach 95%, without it two (docs/hopper.md, "Any shape"). */
const gpulab_param tma_copy_params[] = {
	SHAPE_PARAMS,
	LINES_PARAM("1"),
	{ nullptr }
};
#define ORDER_PARAM                                                                                        \
	{ .key = "order", .type = GPULAB_PARAM_ENUM, .offset = offsetof(opts, order), .def = "auto",                 \
	  .help = "grid x down the rows or across (auto: docs/hopper.md)",                                             \
	  .choices = "auto|down|across" }
/* pitched: its padding, and its grid's walk. */
const gpulab_param pitched_rung_params[] = {
	SHAPE_PARAMS,
	LINES_PARAM("0"),
	ORDER_PARAM,
	{ nullptr }
};
/* tma: also how many column tiles its walk down takes side by side. */
const gpulab_param tma_params[] = {
	SHAPE_PARAMS,
	LINES_PARAM("1"),
	{ .key = "group", .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, group), .def = "1",
	  .help = "column tiles side by side, walking down",
	  .min = 1, .max = 64 },
	{ nullptr }
};
/* peeled: also which side's accesses start on sectors. */
const gpulab_param peeled_params[] = {
	SHAPE_PARAMS,
	{ .key = "align", .type = GPULAB_PARAM_ENUM, .offset = offsetof(opts, align), .def = "stores",
	  .help = "whose tiles start on 32 B sectors (lines: 128 B)",
	  .choices = "stores|loads|lines" },
	ORDER_PARAM,
	{ nullptr }
};
/* --metrics default: coalescing in global memory, conflicts in shared. */
const char lesson_metrics[] = "gld_transactions_per_request,gst_transactions_per_request,shared_load_transactions_per_request,shared_store_transactions_per_request,shared_ld_bank_conflict,shared_st_bank_conflict";

/* Every transpose takes both types, its size from rows and cols (no -n)
 * and no block size: the tiling is part of each kernel. */
#define TRANSPOSE_WITH(v, p) \
	.dtypes = GPULAB_FLOAT32 | GPULAB_INT32, .params = p, .params_size = sizeof(opts), .plan = plan, \
	.setup = LAB_TYPED(setup_t), .reset = LAB_TYPED(reset_t), .run = LAB_TYPED(run_t), .verify = LAB_TYPED(verify_t), \
	.teardown = lab::teardown<state>, .data = &v, .metrics = lesson_metrics, .flags = GPULAB_REPEATS
#define TRANSPOSE(v) TRANSPOSE_WITH(v, params)

const gpulab_exercise exercises[] = {
	{ .name = "memcpy", .summary = "ceiling: cudaMemcpyAsync device to device, the hardware's copy rate", TRANSPOSE(v_memcpy) },
	{ .name = "copy_row", .summary = "ceiling: a copy kernel with the best transposes' tiling (64x64 tiles, 32x8 threads)",
	  TRANSPOSE(v_copy_row) },
	{ .name = "naive_row", .summary = "naive: coalesced reads along rows, strided writes down columns", TRANSPOSE(v_naive_row) },
	{ .name = "naive_col", .summary = "naive: strided reads down columns, coalesced writes along rows", TRANSPOSE(v_naive_col) },
	{ .name = "smem", .summary = "tile[32][32] in shared memory: coalesced both ways, 32-way bank conflict on the column read",
	  TRANSPOSE(v_smem) },
	{ .name = "smem_pad", .summary = "tile[32][33]: one word of padding per row removes the bank conflict", TRANSPOSE(v_smem_pad) },
	{ .name = "smem_unroll", .summary = "padded 64x64 tile, 32x8 threads each moving 16 elements", TRANSPOSE(v_smem_unroll) },
	{ .name = "smem_swizzle", .summary = "smem_unroll without padding: element (r, c) at tile[r][c ^ (r % 32)]",
	  TRANSPOSE(v_smem_swizzle) },
	{ .name = "smem_staged", .summary = "smem_swizzle in a persistent grid: load a tile, sync, store it, the next",
	  TRANSPOSE_WITH(v_smem_staged, staged_params) },
	{ .name = "smem_async", .summary = "smem_staged double-buffered: cp.async loads the next tile while this one is stored",
	  TRANSPOSE_WITH(v_smem_async, staged_params) },
	{ .name = "peeled", .summary = "dense, any shape: output rows' tiles on sectors, heads peeled",
	  TRANSPOSE_WITH(v_peeled, peeled_params) },
	{ .name = "pitched", .summary = "smem_unroll on rows padded to whole 128-byte lines (a pitch)",
	  TRANSPOSE_WITH(v_pitched, pitched_rung_params) },
#ifdef GPULAB_CUBLAS
	{ .name = "geam", .summary = "the library: cuBLAS cublasSgeam, C = A^T (ints as the same bytes)",
	  TRANSPOSE(v_geam) },
#endif
	{ .name = "tma_copy", .summary = "ceiling: the copy engine's 64x64 tiles loaded and stored back, no transpose; sm_90 on",
	  TRANSPOSE_WITH(v_tma_copy, tma_copy_params) },
	{ .name = "tma_rows", .summary = "the copy engine moves 64x64 tiles (cp.async.bulk.tensor, 128-byte swizzle), grid along rows; sm_90 on",
	  TRANSPOSE_WITH(v_tma_rows, tma_copy_params) },
	{ .name = "tma", .summary = "tma_rows with the grid down the columns: the writes of neighbouring blocks meet; sm_90 on",
	  TRANSPOSE_WITH(v_tma, tma_params) },
};

} // namespace

LAB_PLUGIN("transpose",
	   "matrix transpose: coalescing, shared-memory tiles and bank conflicts",
	   exercises,
	   .baseline = "naive_row",
	   .reference = "memcpy")
