// A right histogram, and slow: every thread adds its element straight
// into the global bins with atomicAdd.  All the grid's atomics land on
// 256 words, so they queue at the L2 behind each other.  Ranked, after
// right.cu.
// gpulab: block=256

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&bins[in[i]], 1u);
}
