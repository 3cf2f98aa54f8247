/*
 * The built-in generators of a challenge's input and its CPU references
 * (docs/challenge.md): everything of a challenge the try plugin holds in
 * code.  Host code over the element type; value i of an input is drawn
 * from lab::rng at (seed, i) alone, as lab::fill draws, so `range` over
 * 0..255 (ints) or k/256 over -256..256 (floats) makes lab::fill's data,
 * which the challenges' own plugins check against.
 */
#ifndef GPULAB_TRY_BUILTINS_CUH
#define GPULAB_TRY_BUILTINS_CUH

#include "plugins/challenge.h"

#include <gpulab/lab.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace builtin {

/* The value of `k` from min to max: an int, or k/256 for a float. */
template <typename T>
inline T value(const challenge *c, int64_t v)
{
	return std::is_same<T, int>::value ? (T)v : (T)(int)v / (T)256;
}

/* n values of generator g for `seed` into h, within the challenge's range. */
template <typename T>
void generate(const challenge *c, enum challenge_generator g, T *h, uint64_t n, uint64_t seed)
{
	bool ints = std::is_same<T, int>::value;
	int64_t lo = ints ? c->min : c->kmin, hi = ints ? c->max : c->kmax;
	uint64_t span = (uint64_t)(hi - lo) + 1;
	lab::in_slices(n, [=](uint64_t a, uint64_t b) {
		lab::rng r{ seed + a * 0x9e3779b97f4a7c15ull };
		for (uint64_t i = a; i < b; i++) {
			uint64_t v = r.next();
			int64_t k = g == GENERATOR_CONSTANT ? lo : g == GENERATOR_EDGES ? (i % 2 ? hi : lo) : lo + (int64_t)(v % span);
			h[i] = value<T>(c, k);
		}
		return b;
	});
	if (g == GENERATOR_SORTED)
		std::sort(h, h + n);
}

/* Ints add with 32-bit wrap-around, as the GPU adds them; floats in double. */
template <typename T>
inline T wrap_add(T a, T b)
{
	if constexpr (std::is_same<T, int>::value)
		return (int)((uint32_t)a + (uint32_t)b);
	else
		return a + b;
}

/* out[i] = in[0] + ... + in[i], each in double for floats (then rounded),
 * with abs[i] the magnitudes' sum for a tolerance. */
template <typename T>
void prefix_sum(const T *in, uint64_t n, T *out, double *abs)
{
	uint32_t isum = 0;
	double fsum = 0, asum = 0;
	for (uint64_t i = 0; i < n; i++) {
		isum += (uint32_t)in[i];
		fsum += (double)in[i];
		asum += std::fabs((double)in[i]);
		out[i] = std::is_same<T, int>::value ? (T)(int32_t)isum : (T)fsum;
		abs[i] = asum;
	}
}

inline void histogram(const int *in, uint64_t n, unsigned *bins)
{
	std::fill(bins, bins + 256, 0u);
	for (uint64_t i = 0; i < n; i++)
		bins[in[i] & 0xff]++;
}

template <typename T>
T max_of(const T *in, uint64_t n)
{
	T m = in[0];
	for (uint64_t i = 1; i < n; i++)
		m = in[i] > m || in[i] != in[i] ? in[i] : m; /* a NaN wins: the poison is found */
	return m;
}

} // namespace builtin

#endif
