// A kernel that writes its sum right, and one element past the end of
// partials too: the guard after partials catches it.
// gpulab: block=1024

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T s[GPULAB_BLOCK];
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? in[i] : T(0);
	__syncthreads();
	for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
		if (threadIdx.x < st)
			s[threadIdx.x] += s[threadIdx.x + st];
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = s[0];
		partials[gridDim.x] = s[0]; /* one past the end */
	}
}
