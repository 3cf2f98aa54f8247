/*
 * The transpose plugin: out = in^T for a rows x cols matrix, between two
 * ceilings (cudaMemcpyAsync, and copyRow with the transposes' tiling), by
 * the naive kernels and the shared-memory tiles with and without bank
 * conflicts.  Every kernel is compared with memcpy ("of ref") and with
 * the theoretical peak; GB/s count bytes read plus written.
 */
#include "kernels.cuh"
#include "lab.cuh"

#include <cinttypes>
#include <new>
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

struct state {
	void *in = nullptr, *out = nullptr;
	unsigned rows = 0, cols = 0;
	std::vector<unsigned char> host_in;  /* the input, to check against */
};

const variant *of(const gpulab_ctx *ctx) { return static_cast<const variant *>(ctx->data); }
state *st(gpulab_ctx *ctx) { return static_cast<state *>(ctx->state); }
size_t elem(const gpulab_ctx *ctx) { return ctx->dtype == GPULAB_INT32 ? sizeof(int) : sizeof(float); }

int read_dims(gpulab_ctx *ctx, unsigned *rows, unsigned *cols)
{
	uint64_t r, c;
	if (ctx->param_u64(ctx, "rows", &r) != GPULAB_OK || ctx->param_u64(ctx, "cols", &c) != GPULAB_OK)
		return GPULAB_EPARAM;
	if (!r || !c || r > 65535ull * 32 || c > 65535ull * 32 || r * c > 0xffffffffull) {
		ctx->error(ctx, "matrix %" PRIu64 "x%" PRIu64 ": each side from 1 to %u, at most 2^32 elements",
			   r, c, 65535 * 32);
		return GPULAB_EPARAM;
	}
	*rows = (unsigned)r;
	*cols = (unsigned)c;
	return GPULAB_OK;
}

int plan(gpulab_ctx *ctx)
{
	unsigned rows, cols;
	if (read_dims(ctx, &rows, &cols) != GPULAB_OK)
		return GPULAB_EPARAM;
	ctx->n = (uint64_t)rows * cols;
	ctx->bytes_read = ctx->bytes_written = ctx->n * elem(ctx);
	ctx->device_bytes = 2 * ctx->n * elem(ctx);
	return GPULAB_OK;
}

template <typename T>
int setup_t(gpulab_ctx *ctx, state *s, uint64_t seed)
{
	size_t bytes = ctx->n * sizeof(T);
	try {
		s->host_in.resize(bytes);
	} catch (const std::bad_alloc &) {
		ctx->error(ctx, "no host memory for %" PRIu64 " elements", ctx->n);
		return GPULAB_ENOMEM;
	}
	lab::fill(reinterpret_cast<T *>(s->host_in.data()), ctx->n, seed);
	LAB_TRY(ctx, cudaMalloc(&s->in, bytes));
	LAB_TRY(ctx, cudaMalloc(&s->out, bytes));
	LAB_TRY(ctx, cudaMemcpy(s->in, s->host_in.data(), bytes, cudaMemcpyHostToDevice));
	return GPULAB_OK;
}

int setup(gpulab_ctx *ctx)
{
	state *s = new (std::nothrow) state;
	uint64_t seed;
	if (!(ctx->state = s))
		return GPULAB_ENOMEM;
	if (read_dims(ctx, &s->rows, &s->cols) != GPULAB_OK || lab::seed(ctx, &seed) != GPULAB_OK)
		return GPULAB_EPARAM;
	return ctx->dtype == GPULAB_INT32 ? setup_t<int>(ctx, s, seed) : setup_t<float>(ctx, s, seed);
}

/* Poison the output before every run, so stale data cannot pass. */
int reset(gpulab_ctx *ctx)
{
	LAB_TRY(ctx, cudaMemsetAsync(st(ctx)->out, 0xff, ctx->n * elem(ctx), lab::stream(ctx)));
	return GPULAB_OK;
}

template <typename T>
int run_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	launcher<T>(of(ctx))((const T *)s->in, (T *)s->out, dims{ s->rows, s->cols, lab::stream(ctx) });
	LAB_LAUNCHED(ctx);
	return GPULAB_OK;
}

int run(gpulab_ctx *ctx)
{
	return ctx->dtype == GPULAB_INT32 ? run_t<int>(ctx) : run_t<float>(ctx);
}

/* Bit-exact: a transpose moves values, it computes nothing. */
template <typename T>
int verify_t(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	const T *in = reinterpret_cast<const T *>(s->host_in.data());
	std::vector<T> got(ctx->n);
	LAB_TRY(ctx, cudaMemcpy(got.data(), s->out, ctx->n * sizeof(T), cudaMemcpyDeviceToHost));
	bool transposes = of(ctx)->transposes;
	for (size_t r = 0; r < s->rows; r++)
		for (size_t c = 0; c < s->cols; c++) {
			size_t at = transposes ? c * s->rows + r : r * s->cols + c;
			if (std::memcmp(&got[at], &in[r * s->cols + c], sizeof(T))) {
				ctx->error(ctx, "out[%zu][%zu]: expected in[%zu][%zu] = %.9g, got %.9g",
					   at / (transposes ? s->rows : s->cols), at % (transposes ? s->rows : s->cols),
					   r, c, (double)in[r * s->cols + c], (double)got[at]);
				return GPULAB_WRONG;
			}
		}
	return GPULAB_OK;
}

int verify(gpulab_ctx *ctx)
{
	return ctx->dtype == GPULAB_INT32 ? verify_t<int>(ctx) : verify_t<float>(ctx);
}

void teardown(gpulab_ctx *ctx)
{
	state *s = st(ctx);
	if (!s)
		return;
	cudaFree(s->in);
	cudaFree(s->out);
	delete s;
	ctx->state = nullptr;
}

const gpulab_param params[] = {
	{ "rows", "8192", "rows of the input matrix" },
	{ "cols", "8192", "columns of the input matrix" },
	{ "seed", "random", "input seed; a number reproduces a run" },
	{ nullptr, nullptr, nullptr }
};

/* --metrics default: coalescing in global memory, conflicts in shared. */
const char lesson_metrics[] = "gld_transactions_per_request,gst_transactions_per_request,shared_load_transactions_per_request,shared_store_transactions_per_request,shared_ld_bank_conflict,shared_st_bank_conflict";

#define EXERCISE(name, summary, v) \
	{ name, summary, GPULAB_FLOAT32 | GPULAB_INT32, 8192ull * 8192, 0, params, lesson_metrics, \
	  plan, setup, reset, run, nullptr, verify, teardown, &v }

const gpulab_exercise exercises[] = {
	EXERCISE("memcpy", "ceiling: cudaMemcpyAsync device to device, the hardware's copy rate", v_memcpy),
	EXERCISE("copy_row", "ceiling: a copy kernel with the best transposes' tiling (64x64 tiles, 32x8 threads)", v_copy_row),
	EXERCISE("naive_row", "naive: coalesced reads along rows, strided writes down columns", v_naive_row),
	EXERCISE("naive_col", "naive: strided reads down columns, coalesced writes along rows", v_naive_col),
	EXERCISE("smem", "tile[32][32] in shared memory: coalesced both ways, 32-way bank conflict on the column read", v_smem),
	EXERCISE("smem_pad", "tile[32][33]: one word of padding per row removes the bank conflict", v_smem_pad),
	EXERCISE("smem_unroll", "padded 64x64 tile, 32x8 threads each moving 16 elements", v_smem_unroll),
	EXERCISE("smem_swizzle", "smem_unroll without padding: element (r, c) at tile[r][c ^ (r % 32)]", v_smem_swizzle),
};

const gpulab_plugin plugin = {
	GPULAB_ABI_VERSION, "transpose", "matrix transpose: coalescing, shared-memory tiles and bank conflicts",
	exercises, sizeof exercises / sizeof exercises[0], "naive_row", "memcpy"
};

} // namespace

GPULAB_PLUGIN_ENTRY
{
	return &plugin;
}
