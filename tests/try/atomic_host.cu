// Every thread adds its element into partials[0] with atomicAdd, but the
// contract keeps the default finish=host: partials[0] is not zeroed and
// the other blocks' partials are never written, so the sum takes the
// poison.  At n = 1 it is off by exactly -1, and the gate says why.
// gpulab: block=128

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&partials[0], in[i]);
}
