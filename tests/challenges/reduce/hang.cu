// Hangs: a grid-wide barrier with an off-by-one.  Each block checks in
// on a counter and waits until "every block and the host" has, so it
// waits for gridDim.x + 1 arrivals where only gridDim.x ever come.  It
// spins from the first case (n = 1, one block) until the watchdog
// (--watchdog) stops gpulab.
// gpulab: block=256

__device__ unsigned arrived;

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T data[256];
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	data[threadIdx.x] = i < n ? in[i] : T(0);
	__syncthreads();
	for (unsigned s = 128; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			data[threadIdx.x] += data[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		atomicAdd(&arrived, 1u);
		while (*(volatile unsigned *)&arrived < gridDim.x + 1) /* the host never checks in */
			;
		partials[blockIdx.x] = data[0];
	}
}
