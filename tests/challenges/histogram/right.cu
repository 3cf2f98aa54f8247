// A right histogram, ranked first: a persistent grid, each block counting
// into its own 256 bins in shared memory (shared atomics are cheap, and
// contend only within the block), then adding them to the global bins
// once, 256 atomics a block instead of one an element.
// gpulab: block=256 grid=persistent

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned local[256];
	local[threadIdx.x] = 0;
	__syncthreads();
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
		atomicAdd(&local[in[i]], 1u);
	__syncthreads();
	if (local[threadIdx.x])
		atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
