/*
 * The transpose plugin: out = in^T for a rows x cols matrix, between two
 * ceilings (cudaMemcpyAsync, and copyRow with the transposes' tiling), by
 * the naive kernels and the shared-memory tiles with and without bank
 * conflicts.  Every kernel is compared with memcpy ("of ref") and with
 * the theoretical peak; GB/s count bytes read plus written.
 */
#include "kernels.cuh"

#include <gpulab/lab.cuh>

#include <cinttypes>
#include <vector>

namespace {

struct dims {
	unsigned rows, cols;
	cudaStream_t s;
};

template <typename T> using launch_fn = void (*)(const T *, T *, const dims &);

struct variant {
	bool transposes;          /* false: a copy (memcpy, copy_row) */
	launch_fn<int> launch_int;
	launch_fn<float> launch_float;
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
template <typename T> void smem(const T *in, T *out, const dims &d) { tiles<32, 32, false>(transposeSmem<T, 32, 32, 0, false>, in, out, d); }
template <typename T> void smem_pad(const T *in, T *out, const dims &d) { tiles<32, 32, false>(transposeSmem<T, 32, 32, 1, false>, in, out, d); }
template <typename T> void smem_unroll(const T *in, T *out, const dims &d) { tiles<64, 8, false>(transposeSmem<T, 64, 8, 1, false>, in, out, d); }
template <typename T> void smem_swizzle(const T *in, T *out, const dims &d) { tiles<64, 8, false>(transposeSmem<T, 64, 8, 0, true>, in, out, d); }

#define BOTH(f) f<int>, f<float>
const variant v_memcpy = { false, BOTH(memcpy_d2d) }, v_copy_row = { false, BOTH(copy_row) },
	      v_naive_row = { true, BOTH(naive_row) }, v_naive_col = { true, BOTH(naive_col) },
	      v_smem = { true, BOTH(smem) }, v_smem_pad = { true, BOTH(smem_pad) },
	      v_smem_unroll = { true, BOTH(smem_unroll) }, v_smem_swizzle = { true, BOTH(smem_swizzle) };

struct opts {
	uint64_t rows, cols, seed;
};

struct state : lab::state {
	void *in = nullptr, *out = nullptr;
	std::vector<unsigned char> host_in;  /* the input, to check against */
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
const opts &dims_of(const gpulab_ctx *ctx) { return lab::opts<opts>(ctx); }

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
	ctx->bytes_read = ctx->bytes_written = ctx->elements * e;
	ctx->device_bytes = 2 * ctx->elements * e;
	return GPULAB_OK;
}

template <typename T>
int setup_t(gpulab_ctx *ctx)
{
	state *s;
	int rc;
	size_t n = ctx->elements;
	if ((rc = lab::make_state(ctx, &s)) || (rc = lab::host_vector(ctx, s->host_in, n * sizeof(T))))
		return rc;
	lab::fill(reinterpret_cast<T *>(s->host_in.data()), n, dims_of(ctx).seed);
	if ((rc = s->alloc(ctx, (T **)&s->in, n)) || (rc = s->alloc(ctx, (T **)&s->out, n)))
		return rc;
	LAB_TRY(ctx, cudaMemcpy(s->in, s->host_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

/* Poison the output before every run, so stale data cannot pass. */
template <typename T>
int reset_t(gpulab_ctx *ctx)
{
	return lab::poison(ctx, lab::state_of<state>(ctx)->out, ctx->elements * sizeof(T));
}

template <typename T>
int run_t(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	const opts &o = dims_of(ctx);
	launcher<T>(of(ctx))((const T *)s->in, (T *)s->out, dims{ (unsigned)o.rows, (unsigned)o.cols, lab::stream(ctx) });
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

/* Bit-exact: a transpose moves values, it computes nothing. */
template <typename T>
int verify_t(gpulab_ctx *ctx)
{
	state *s = lab::state_of<state>(ctx);
	return lab::expect_moved(ctx, (const T *)s->out, reinterpret_cast<const T *>(s->host_in.data()), dims_of(ctx).rows,
				 dims_of(ctx).cols, of(ctx)->transposes);
}

/* Each side from 1 to what a 2D grid of 32-wide tiles reaches. */
#define SIDE(name, help_text) \
	{ .key = #name, .type = GPULAB_PARAM_COUNT, .offset = offsetof(opts, name), .def = "8192", .help = help_text, \
	  .min = 1, .max = 65535 * 32 }
const gpulab_param params[] = {
	SIDE(rows, "rows of the input matrix"),
	SIDE(cols, "columns of the input matrix"),
	LAB_SEED(opts, seed),
	{ nullptr }
};

/* --metrics default: coalescing in global memory, conflicts in shared. */
const char lesson_metrics[] = "gld_transactions_per_request,gst_transactions_per_request,shared_load_transactions_per_request,shared_store_transactions_per_request,shared_ld_bank_conflict,shared_st_bank_conflict";

/* Every transpose takes both types, its size from rows and cols (no -n)
 * and no block size: the tiling is part of each kernel. */
#define TRANSPOSE(v) \
	.dtypes = GPULAB_FLOAT32 | GPULAB_INT32, .params = params, .params_size = sizeof(opts), .plan = plan, \
	.setup = LAB_TYPED(setup_t), .reset = LAB_TYPED(reset_t), .run = LAB_TYPED(run_t), .verify = LAB_TYPED(verify_t), \
	.teardown = lab::teardown<state>, .data = &v, .metrics = lesson_metrics, .flags = GPULAB_REPEATS

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
};

const gpulab_plugin plugin = {
	GPULAB_PLUGIN_HEAD, .name = "transpose", .summary = "matrix transpose: coalescing, shared-memory tiles and bank conflicts",
	.exercises = exercises, .n_exercises = sizeof exercises / sizeof exercises[0], .baseline = "naive_row",
	.reference = "memcpy"
};

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
