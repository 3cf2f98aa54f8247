/*
 * <gpulab/lab.cuh> - what every CUDA plugin of gpulab needs, so that a
 * plugin holds its kernels and its lesson, not plumbing:
 *
 *   LAB_TRY, LAB_LAUNCHED   checked CUDA calls: one line naming the call
 *   LAB_TYPED(fn)           a step for both element types from fn<int>, fn<float>
 *   LAB_SEED(Opts, field)   the shared `seed` parameter
 *   lab::state              device and pinned buffers freed on teardown,
 *                           also after a half-failed setup
 *   lab::poison             outputs filled with 0xff before every run
 *   lab::fill, lab::rng     test data that sums exactly
 *   lab::copy_back, lab::expect_equal, lab::close_enough
 *                           comparisons naming the first mismatch
 *
 * Header-only: each plugin is its own shared object, and device code
 * cannot be shared across them anyway.  C++20, for the designated
 * initialisers that declare exercises and parameters by name.
 */
#ifndef GPULAB_LAB_CUH
#define GPULAB_LAB_CUH

#include <gpulab/plugin.h>

#include <cuda_runtime.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

/* Evaluate a CUDA call; on failure say which, and return GPULAB_ECUDA. */
#define LAB_TRY(ctx, call)                                                          \
	do {                                                                        \
		cudaError_t lab_e_ = (call);                                        \
		if (lab_e_ != cudaSuccess) {                                        \
			(ctx)->error((ctx), "%s: %s", #call, cudaGetErrorString(lab_e_)); \
			return GPULAB_ECUDA;                                        \
		}                                                                   \
	} while (0)

/* After a launch: the launch error, if any. */
#define LAB_LAUNCHED(ctx) LAB_TRY(ctx, cudaGetLastError())

/* A step for both element types, from a template instantiated for each:
 *   .run = LAB_TYPED(run_t),  where  template <typename T> int run_t(gpulab_ctx *); */
#define LAB_TYPED(fn) (lab::typed<fn<int>, fn<float>>)

/* The `seed` parameter every exercise with random input shares.  The core
 * draws a number for "random" and records it in every report, so any row
 * can be rerun with its input. */
#define LAB_SEED(Opts, field)                                                           \
	gpulab_param {                                                                  \
		.key = "seed", .type = GPULAB_PARAM_SEED, .offset = offsetof(Opts, field), \
		.def = "random", .help = "input seed; the report records the one drawn"  \
	}

namespace lab {

inline cudaStream_t stream(const gpulab_ctx *ctx)
{
	return reinterpret_cast<cudaStream_t>(ctx->stream);
}

/* The exercise's parameter struct, as the core filled it in. */
template <typename Opts>
inline const Opts &opts(const gpulab_ctx *ctx)
{
	return *static_cast<const Opts *>(ctx->params);
}

inline bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

inline uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

inline const char *type_name(const gpulab_ctx *ctx) { return ctx->dtype == GPULAB_INT32 ? "int" : "float"; }

template <int (*I)(gpulab_ctx *), int (*F)(gpulab_ctx *)>
int typed(gpulab_ctx *ctx)
{
	return ctx->dtype == GPULAB_INT32 ? I(ctx) : F(ctx);
}

/* An exercise's state derives from this: what alloc() and alloc_pinned()
 * hand out is freed when the state is deleted, so a setup that fails
 * half-way leaves nothing behind once teardown has run. */
struct state {
	state() = default;
	state(const state &) = delete;
	state &operator=(const state &) = delete;
	virtual ~state()
	{
		for (void *p : device_)
			cudaFree(p);
		for (void *p : pinned_)
			cudaFreeHost(p);
	}

	template <typename T>
	int alloc(gpulab_ctx *ctx, T **p, size_t count)
	{
		return keep(ctx, cudaMalloc((void **)p, count * sizeof(T)), (void **)p, device_, cudaFree, "cudaMalloc",
			    count * sizeof(T));
	}

	/* Page-locked host memory, so copies back are asynchronous. */
	template <typename T>
	int alloc_pinned(gpulab_ctx *ctx, T **p, size_t count)
	{
		return keep(ctx, cudaMallocHost((void **)p, count * sizeof(T)), (void **)p, pinned_, cudaFreeHost,
			    "cudaMallocHost", count * sizeof(T));
	}

private:
	/* Remember *p for the destructor, or say why there is none. */
	int keep(gpulab_ctx *ctx, cudaError_t e, void **p, std::vector<void *> &list, cudaError_t (*release)(void *),
		 const char *what, size_t bytes)
	{
		if (e == cudaSuccess) {
			try {
				list.push_back(*p);
				return GPULAB_OK;
			} catch (const std::bad_alloc &) {
				release(*p);
				*p = nullptr;
				ctx->error(ctx, "out of host memory");
				return GPULAB_ENOMEM;
			}
		}
		*p = nullptr;
		ctx->error(ctx, "%s of %zu bytes: %s", what, bytes, cudaGetErrorString(e));
		return GPULAB_ECUDA;
	}

	std::vector<void *> device_, pinned_;
};

/* setup's first step: a new S (derived from lab::state) as ctx->state. */
template <typename S>
int make_state(gpulab_ctx *ctx, S **out)
{
	*out = new (std::nothrow) S;
	ctx->state = *out;
	if (*out)
		return GPULAB_OK;
	ctx->error(ctx, "out of host memory");
	return GPULAB_ENOMEM;
}

template <typename S>
S *state_of(gpulab_ctx *ctx)
{
	return static_cast<S *>(ctx->state);
}

/* The teardown of every exercise whose state is an S. */
template <typename S>
void teardown(gpulab_ctx *ctx)
{
	delete static_cast<S *>(ctx->state);
	ctx->state = nullptr;
}

/* Fill an output with 0xff bytes (NaN for floats, -1 for ints) before a
 * run, so that an element the kernel never writes cannot pass. */
inline int poison(gpulab_ctx *ctx, void *p, size_t bytes)
{
	LAB_TRY(ctx, cudaMemsetAsync(p, 0xff, bytes, stream(ctx)));
	return GPULAB_OK;
}

/* A host vector of n elements, or GPULAB_ENOMEM saying so. */
template <typename T>
int host_vector(gpulab_ctx *ctx, std::vector<T> &v, size_t n)
{
	try {
		v.resize(n);
		return GPULAB_OK;
	} catch (const std::bad_alloc &) {
		ctx->error(ctx, "no host memory for %zu elements", n);
		return GPULAB_ENOMEM;
	}
}

/* The device's n elements at p, into v. */
template <typename T>
int copy_back(gpulab_ctx *ctx, std::vector<T> &v, const T *p, size_t n)
{
	int rc = host_vector(ctx, v, n);
	if (rc != GPULAB_OK)
		return rc;
	LAB_TRY(ctx, cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
	return GPULAB_OK;
}

/* splitmix64: fast, good enough for test data, the same on every host. */
struct rng {
	uint64_t s;
	uint64_t next()
	{
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}
};

/* Test values: ints in [0, 255] as in the book; floats k/256 for k in
 * [-256, 256], so every float they sum to below 2^16 is exact and a
 * reordered sum is still exact. */
template <typename T>
inline T draw(rng &r)
{
	uint64_t v = r.next();
	if (std::is_same<T, int>::value)
		return (T)(v & 0xff);
	return (T)((int)(v % 513) - 256) / (T)256;
}

template <typename T>
inline void fill(T *h, uint64_t n, uint64_t seed)
{
	rng r{ seed };
	for (uint64_t i = 0; i < n; i++)
		h[i] = draw<T>(r);
}

/* Element i's name in a mismatch message: "[i]" by default; a matrix
 * passes its row length for "[row][col]". */
struct where {
	uint64_t row_len = 0;
	void print(char *buf, size_t len, uint64_t i) const
	{
		if (row_len)
			std::snprintf(buf, len, "[%" PRIu64 "][%" PRIu64 "]", i / row_len, i % row_len);
		else
			std::snprintf(buf, len, "[%" PRIu64 "]", i);
	}
};

/* Exactly equal, element by element (a NaN never equals anything, so a
 * poisoned float that was never written fails).  On the first mismatch,
 * one line naming it and GPULAB_WRONG. */
template <typename T>
int expect_equal(gpulab_ctx *ctx, const char *name, const T *got, const T *want, uint64_t n, where w = {})
{
	for (uint64_t i = 0; i < n; i++)
		if (!(got[i] == want[i])) {
			char at[64];
			w.print(at, sizeof at, i);
			ctx->error(ctx, "%s%s: expected %.9g, got %.9g", name, at, (double)want[i], (double)got[i]);
			return GPULAB_WRONG;
		}
	return GPULAB_OK;
}

/* Is `got` the sum `want` of n values whose magnitudes add to sum_abs?
 * Ints: exactly (32-bit wrap-around, as the GPU adds).  Floats: within
 * eps * sum_abs * ceil(log2 n + 1), the rounding bound of a summation tree
 * of depth log2 n; with the inputs above every sum is exact in practice,
 * so this only forgives a legitimate change of order. */
inline bool close_enough(int got, double want, double, uint64_t)
{
	return (uint32_t)got == (uint32_t)(int64_t)want;
}

inline bool close_enough(float got, double want, double sum_abs, uint64_t n)
{
	double tol = FLT_EPSILON * sum_abs * std::ceil(std::log2((double)n) + 1);
	return std::fabs((double)got - want) <= tol;
}

} // namespace lab

#endif
