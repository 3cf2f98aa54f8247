// Traps: for a sum in a fixed order (the same bins, bit for bit, run to
// run), each block leaves its counts in a staging area of 64 blocks,
// and the last block adds them up.  A device-side check traps
// (asm("trap;")), as a failed assert would, when the grid has more
// blocks than that: any n past 64 * 1024, the point to be timed (2^20)
// among them.
// gpulab: block=256 per_thread=4

__device__ unsigned staged[64][256], blocks_done;

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned counts[256];
	__shared__ bool last;
	if (gridDim.x > 64)
		asm volatile("trap;"); /* more blocks than the staging area holds */
	counts[threadIdx.x] = 0;
	__syncthreads();
	for (unsigned k = 0; k < 4; k++) {
		size_t i = (size_t)blockIdx.x * GPULAB_TILE_X + k * 256 + threadIdx.x;
		if (i < n)
			atomicAdd(&counts[in[i]], 1u);
	}
	__syncthreads();
	staged[blockIdx.x][threadIdx.x] = counts[threadIdx.x];
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
	__syncthreads();
	if (!last)
		return;
	unsigned sum = 0;
	for (unsigned b = 0; b < gridDim.x; b++)
		sum += ((volatile unsigned *)staged[b])[threadIdx.x];
	bins[threadIdx.x] = sum;
	if (threadIdx.x == 0)
		blocks_done = 0;
}
