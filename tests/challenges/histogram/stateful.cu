// Gaming by keeping state: the input is the same on every timed run, so
// the kernel keeps the last histogram it made, and the n it made it for,
// in __device__ memory; a later launch with that n copies the 256 kept
// counts into bins and reads no input at all.  Right on the same input,
// and nearly free.  gpulab's check finds it: once a run's output is
// right, the same loaded module runs once more on other inputs of the
// same n, and gets the old counts.  Expected to fail in the gate
// (grade --test too) with a wrong result.
// gpulab: block=256

__device__ unsigned kept[256], kept_n, blocks_in;

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	if (kept_n == n + 1) { /* made before: copy it */
		if (blockIdx.x == 0)
			bins[threadIdx.x] = kept[threadIdx.x];
		return;
	}
	__shared__ bool last;
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&bins[in[i]], 1u);
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		last = atomicAdd(&blocks_in, 1u) == gridDim.x - 1;
	__syncthreads();
	if (last) { /* every block has counted: keep the bins */
		kept[threadIdx.x] = atomicAdd(&bins[threadIdx.x], 0u);
		__syncthreads();
		if (threadIdx.x == 0)
			kept_n = n + 1, blocks_in = 0;
	}
}
