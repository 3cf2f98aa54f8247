/*
 * What every CUDA plugin of gpulab needs: checked CUDA calls, random
 * inputs, and the float tolerance.  Header-only: each plugin is its own
 * shared object, and device code cannot be shared across them anyway.
 */
#ifndef GPULAB_LAB_CUH
#define GPULAB_LAB_CUH

#include <gpulab/plugin.h>

#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <type_traits>

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

namespace lab {

inline cudaStream_t stream(const gpulab_ctx *ctx)
{
	return reinterpret_cast<cudaStream_t>(ctx->stream);
}

inline bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

inline uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* The seed of this run's input: -p seed=N reproduces a failure; by default
 * each run draws fresh input. */
inline int seed(gpulab_ctx *ctx, uint64_t *out)
{
	const char *s = ctx->param(ctx, "seed");
	if (s && std::strcmp(s, "random")) {
		if (ctx->param_u64(ctx, "seed", out) != GPULAB_OK)
			return GPULAB_EPARAM;
		return GPULAB_OK;
	}
	timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	*out = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20);
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
