// Traps: written for blocks of 128 threads, it checks that on the device
// and traps (__trap()) when the launch differs, as a failed assert
// would.  Its contract line asks for 256, so the first launch (n = 1)
// traps, and gpulab exits 8 with the case named.
// gpulab: block=256

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T data[128];
	if (blockDim.x != 128)
		__trap(); /* a launch this kernel was not written for */
	unsigned i = blockIdx.x * 128 + threadIdx.x;
	data[threadIdx.x] = i < n ? in[i] : T(0);
	__syncthreads();
	for (unsigned s = 64; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			data[threadIdx.x] += data[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partials[blockIdx.x] = data[0];
}
