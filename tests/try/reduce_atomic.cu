// The reduction most learners write first: each block sums its tile in
// shared memory, then thread 0 adds the block's sum into partials[0]
// with atomicAdd.  Under finish=device gpulab zeroes partials[0] before
// each run (inside the timed run), so this passes.
// gpulab: block=256 per_thread=4 finish=device

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T sums[GPULAB_BLOCK];
	unsigned tid = threadIdx.x, first = blockIdx.x * GPULAB_TILE_X + tid;
	T v = 0;
	for (unsigned k = 0; k < GPULAB_TILE_X; k += GPULAB_BLOCK)
		if (first + k < n)
			v += in[first + k];
	sums[tid] = v;
	__syncthreads();
	for (unsigned s = GPULAB_BLOCK / 2; s > 0; s >>= 1) {
		if (tid < s)
			sums[tid] += sums[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(&partials[0], sums[0]);
}
