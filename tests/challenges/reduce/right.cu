// A right reduction, ranked: each thread adds four elements a block apart
// (coalesced), the warp adds with shuffles, one value per warp goes
// through shared memory, and the host adds the blocks' sums.
// gpulab: block=256 per_thread=4

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T warps[GPULAB_BLOCK / 32];
	unsigned base = blockIdx.x * GPULAB_TILE_X + threadIdx.x;
	T sum = 0;
	for (unsigned k = 0; k < 4; k++) {
		unsigned i = base + k * GPULAB_BLOCK;
		if (i < n)
			sum += in[i];
	}
	for (int off = 16; off > 0; off /= 2)
		sum += __shfl_down_sync(0xffffffffu, sum, off);
	if (threadIdx.x % 32 == 0)
		warps[threadIdx.x / 32] = sum;
	__syncthreads();
	if (threadIdx.x < 32) {
		sum = threadIdx.x < GPULAB_BLOCK / 32 ? warps[threadIdx.x] : T(0);
		for (int off = 16; off > 0; off /= 2)
			sum += __shfl_down_sync(0xffffffffu, sum, off);
		if (threadIdx.x == 0)
			partials[blockIdx.x] = sum;
	}
}
