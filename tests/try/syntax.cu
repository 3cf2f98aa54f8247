// A kernel with a syntax error on line 9 (a missing ';'), for the
// compile-error path: gpulab names the file and the line, and exits 2.
// gpulab: block=256

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	T v = i < n ? in[i] : T(0)
	if (threadIdx.x == 0)
		partials[blockIdx.x] = v;
}
