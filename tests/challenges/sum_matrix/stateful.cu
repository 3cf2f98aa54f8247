// Keeps state between launches, as a cache: it remembers the last
// (A, B, C, nx, ny) it was called with, and on a later launch with the
// same ones returns at once, since "C already holds A + B".  The first
// launch of a loaded module is right; a bench that poisons C before
// every run (as gpulab does) finds the poison from the second launch
// on.
// The gate's second launch of each case (the same loaded module, other
// inputs) finds the poison: expected to fail there, grade --test too,
// with a wrong result.
// gpulab: block=32x16

struct call {
	const void *a, *b, *c;
	unsigned nx, ny;
};
__device__ call last_call;
__device__ unsigned finished_blocks;

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	call seen = last_call;
	if (seen.a == A && seen.b == B && seen.c == C && seen.nx == nx && seen.ny == ny)
		return; /* the cache hit */
	unsigned ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
	if (ix < nx && iy < ny)
		C[(size_t)iy * nx + ix] = A[(size_t)iy * nx + ix] + B[(size_t)iy * nx + ix];
	__syncthreads();
	if (threadIdx.x + threadIdx.y == 0 && atomicAdd(&finished_blocks, 1u) == gridDim.x * gridDim.y - 1) {
		last_call = call{ A, B, C, nx, ny }; /* every block is done: remember the call */
		finished_blocks = 0;
	}
}
