// Hangs: the loop that adds the block's counts to the global bins runs
// over the bins with an unsigned char, "since a bin is 0 to 255".  With
// a block of 256 threads, b += 256 leaves an unsigned char where it was,
// and b < 256 always holds: each thread adds its bin again and again
// from the first case (n = 1) until the watchdog stops gpulab.
// gpulab: block=256

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned counts[256];
	counts[threadIdx.x] = 0;
	__syncthreads();
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&counts[in[i]], 1u);
	__syncthreads();
	for (unsigned char b = threadIdx.x; b < 256; b += blockDim.x) /* always true */
		atomicAdd(&bins[b], counts[b]);
}
