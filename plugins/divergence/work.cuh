/*
 * Branch bodies meant to keep divergence visible with optimisation on:
 * each branch calls its own function, not inlined, looping over its own
 * trip count (a kernel argument), so the compiler can neither turn the
 * branches into predicated instructions nor merge them into one body.
 * Integer arithmetic, so the CPU computes the same bits.
 *
 * Measured on an H200 (n = 2^22, block 64, iters 256): math1 takes 1.11x
 * math2's time, not the 2x a warp running both branches implies.  The
 * chains are latency-bound, and since Volta the scheduler fills one path's
 * stalls with the other path's instructions.  Issue-bound work (many
 * independent chains) should show the full cost; see the closing note of
 * the divergence issue.
 */
#ifndef GPULAB_DIVERGENCE_WORK_CUH
#define GPULAB_DIVERGENCE_WORK_CUH

#include <cstdint>

#ifdef __CUDACC__
#define WORK_FN __host__ __device__ __noinline__
#else
#define WORK_FN static inline
#endif

/* Four chains per branch: one chain gave math1 1.33x math2's time, four
 * gave 1.11x; neither is issue-bound enough to show the full 2x. */

/* Branch A: linear congruential chains. */
WORK_FN uint32_t work_a(uint32_t x, int iters)
{
	uint32_t c[4] = { x, x ^ 0x9e3779b9u, x ^ 0x7f4a7c15u, x ^ 0x94d049bbu };
#ifdef __CUDA_ARCH__
#pragma unroll 1 /* a loop, not straight-line code the compiler could predicate */
#endif
	for (int i = 0; i < iters; i++)
		for (int k = 0; k < 4; k++)
			c[k] = c[k] * 1664525u + 1013904223u;
	return (c[0] ^ c[1]) + (c[2] ^ c[3]);
}

/* Branch B: xorshift chains. */
WORK_FN uint32_t work_b(uint32_t x, int iters)
{
	uint32_t c[4] = { x | 1u, x ^ 0x85ebca6bu, x ^ 0xc2b2ae35u, x ^ 0x27d4eb2fu };
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
	for (int i = 0; i < iters; i++)
		for (int k = 0; k < 4; k++) {
			c[k] ^= c[k] << 13;
			c[k] ^= c[k] >> 17;
			c[k] ^= c[k] << 5;
		}
	return (c[0] ^ c[1]) + (c[2] ^ c[3]);
}

/* The float the book stores for each branch: exact (24 bits). */
#ifdef __CUDACC__
__host__ __device__ inline
#else
static inline
#endif
float to_float(uint32_t x)
{
	return (float)(x >> 8);
}

#endif
