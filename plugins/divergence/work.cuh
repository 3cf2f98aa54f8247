/*
 * Branch bodies that keep divergence visible with optimisation on.
 * - Each branch is its own function, not inlined, looping over its own
 *   trip count (a kernel argument): the compiler can neither turn the
 *   branches into predicated instructions nor merge them into one body.
 * - Both branches cost the same: eight independent linear congruential
 *   chains, with other constants.  math2 puts one warp of each branch in
 *   every 64-thread block; when one branch was cheaper, its warps
 *   finished early and their slots sat idle until the block's other warp
 *   was done, which cost math2 about what divergence costs math1 (math1
 *   was only 1.0x to 1.33x math2's time on an H200).
 * - Eight chains keep the multiply-add pipe busy, so the work is bound by
 *   issue, not latency, and a warp that runs both branches takes twice
 *   as long.
 * The CPU computes the same bits in O(log iters) per branch: n steps of
 * x -> a x + c (mod 2^32) are one affine map, found by squaring.
 */
#ifndef GPULAB_DIVERGENCE_WORK_CUH
#define GPULAB_DIVERGENCE_WORK_CUH

#include <cstdint>

enum { CHAINS = 8 };

/* Branch 0 is A, branch 1 is B. */
struct lcg {
	uint32_t a, c;
};

#ifdef __CUDACC__
#define WORK_HD __host__ __device__
#else
#define WORK_HD
#endif

WORK_HD inline lcg branch_lcg(int branch)
{
	return branch ? lcg{ 22695477u, 1u } : lcg{ 1664525u, 1013904223u };
}

/* Chain k of thread x starts here. */
WORK_HD inline uint32_t chain_seed(uint32_t x, int k)
{
	return x * 2654435761u + (uint32_t)k * 0x9e3779b9u;
}

/* The chains' end values folded into the float the book stores: exact,
 * 24 bits. */
WORK_HD inline float fold(const uint32_t *c)
{
	uint32_t h = 0;
	for (int k = 0; k < CHAINS; k++)
		h ^= c[k] + (uint32_t)k;
	return (float)(h >> 8);
}

#ifdef __CUDACC__
template <int BRANCH>
__device__ __noinline__ float work(uint32_t x, int iters)
{
	const lcg m = branch_lcg(BRANCH);
	uint32_t c[CHAINS];
#pragma unroll
	for (int k = 0; k < CHAINS; k++)
		c[k] = chain_seed(x, k);
#pragma unroll 1
	for (int i = 0; i < iters; i++)
#pragma unroll
		for (int k = 0; k < CHAINS; k++)
			c[k] = c[k] * m.a + m.c;
	return fold(c);
}
#endif

/* n steps of x -> a x + c as one step (the host's reference). */
inline lcg lcg_power(lcg step, uint64_t n)
{
	lcg acc = { 1u, 0u };
	for (; n; n >>= 1) {
		if (n & 1)
			acc = { acc.a * step.a, acc.c * step.a + step.c };
		step = { step.a * step.a, step.c * step.a + step.c };
	}
	return acc;
}

/* What work<branch>(x, iters) returns, given jump = lcg_power(.., iters). */
inline float work_reference(uint32_t x, lcg jump)
{
	uint32_t c[CHAINS];
	for (int k = 0; k < CHAINS; k++)
		c[k] = chain_seed(x, k) * jump.a + jump.c;
	return fold(c);
}

#endif
