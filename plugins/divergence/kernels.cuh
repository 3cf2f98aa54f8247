/*
 * The book's simpleDivergence kernels, with real work in each branch (see
 * work.cuh).  ia and ib start at 0 and one of them gets the branch's
 * result, so c[tid] tells which branch each thread took.
 */
#ifndef GPULAB_DIVERGENCE_KERNELS_CUH
#define GPULAB_DIVERGENCE_KERNELS_CUH

#include "work.cuh"

/* mathKernel1: even and odd threads branch apart: every warp diverges. */
__global__ void mathKernel1(float *c, unsigned n, int iters_a, int iters_b)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n)
		return;
	float ia = 0.0f, ib = 0.0f;
	if (tid % 2 == 0)
		ia = work<0>(tid, iters_a);
	else
		ib = work<1>(tid, iters_b);
	c[tid] = ia + ib;
}

/* mathKernel2 (and warmingup): the branch granularity is a whole warp,
 * so no warp diverges. */
__global__ void mathKernel2(float *c, unsigned n, int iters_a, int iters_b)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n)
		return;
	float ia = 0.0f, ib = 0.0f;
	if ((tid / warpSize) % 2 == 0)
		ia = work<0>(tid, iters_a);
	else
		ib = work<1>(tid, iters_b);
	c[tid] = ia + ib;
}

/* mathKernel3: mathKernel1's test as two separate ifs on a predicate. */
__global__ void mathKernel3(float *c, unsigned n, int iters_a, int iters_b)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n)
		return;
	float ia = 0.0f, ib = 0.0f;
	bool ipred = (tid % 2 == 0);
	if (ipred)
		ia = work<0>(tid, iters_a);
	if (!ipred)
		ib = work<1>(tid, iters_b);
	c[tid] = ia + ib;
}

/* No branch at all: every thread runs branch 0's work.  Launched with
 * 80 threads a block (divergence.partial), each block is three warps and
 * the third has 16 threads: the chapter's partial warp. */
__global__ void mathUniform(float *c, unsigned n, int iters)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n)
		return;
	c[tid] = work<0>(tid, iters);
}

#endif
