// Compiles, but not to the contract: n is an int, not unsigned, so a
// launch would hand it the wrong arguments.  The contract's check says so.
// gpulab: block=256

template <typename T>
__global__ void reduce(const T *in, T *partials, int n)
{
	if (threadIdx.x == 0)
		partials[blockIdx.x] = in[0];
}
