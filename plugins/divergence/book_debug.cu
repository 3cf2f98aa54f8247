/*
 * The book's simpleDivergence kernels exactly as printed (one assignment
 * per branch).  This file alone is built with -G, as the book ran them:
 * without optimisation the branches stay branches and divergence shows.
 * Optimised, nvcc predicates them and math1 runs as fast as math2.
 */
#include "debug.h"

__global__ void mathKernel1(float *c)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	float ia, ib;
	ia = ib = 0.0f;
	if (tid % 2 == 0)
		ia = 100.0f;
	else
		ib = 200.0f;
	c[tid] = ia + ib;
}

__global__ void mathKernel2(float *c)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	float ia, ib;
	ia = ib = 0.0f;
	if ((tid / warpSize) % 2 == 0)
		ia = 100.0f;
	else
		ib = 200.0f;
	c[tid] = ia + ib;
}

__global__ void mathKernel3(float *c)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	float ia, ib;
	ia = ib = 0.0f;
	bool ipred = (tid % 2 == 0);
	if (ipred)
		ia = 100.0f;
	if (!ipred)
		ib = 200.0f;
	c[tid] = ia + ib;
}

/* The buffer holds whole blocks (the book's kernels have no bounds test). */
cudaError_t launch_debug(int which, float *c, unsigned grid, unsigned block, cudaStream_t s)
{
	switch (which) {
	case 1: mathKernel1<<<grid, block, 0, s>>>(c); break;
	case 2: mathKernel2<<<grid, block, 0, s>>>(c); break;
	default: mathKernel3<<<grid, block, 0, s>>>(c); break;
	}
	return cudaGetLastError();
}
