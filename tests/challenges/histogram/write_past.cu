// Writes outside its output: besides the 256 bins it stores the count of
// elements "in a 257th bin, for checking", bins[256], one element past
// the end of bins.  The guard after bins finds it from the first case.
// gpulab: block=512

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned h[256];
	if (threadIdx.x < 256)
		h[threadIdx.x] = 0;
	__syncthreads();
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&h[in[i]], 1u);
	__syncthreads();
	if (threadIdx.x < 256 && h[threadIdx.x])
		atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
	if (i == 0)
		bins[256] = n; /* the bug: there are 256 bins, 0 to 255 */
}
