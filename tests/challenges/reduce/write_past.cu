// Writes outside its output: each block keeps a (sum, count) pair, as a
// learner who wanted the mean as well might, at partials[2 * block] and
// partials[2 * block + 1].  partials holds one element per block, so
// the pairs run past its end from the first case (n = 1: one block,
// and the count lands at element 1 of 1), where the guard finds it.
// gpulab: block=128

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T sums[128];
	__shared__ unsigned count;
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 0)
		count = 0;
	__syncthreads();
	sums[threadIdx.x] = i < n ? in[i] : T(0);
	if (i < n)
		atomicAdd(&count, 1u);
	__syncthreads();
	for (unsigned s = 64; s > 0; s /= 2) {
		if (threadIdx.x < s)
			sums[threadIdx.x] += sums[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		partials[2 * blockIdx.x] = sums[0];
		partials[2 * blockIdx.x + 1] = T(count); /* past the end */
	}
}
