// An answer to the tasks of lessons reduce-unroll and reduce-volatile-warp
// (`gpulab learn reduce-unroll --submit examples/learn/unroll8_shfl.cu`):
// the book's reduceUnrolling8, eight loads a block apart in flight per
// thread before the first add, with the tree replaced by warp shuffles,
// which need neither shared memory nor __syncthreads() within a warp and
// have no volatile race.  One value per warp goes through shared memory.
// gpulab: block=512 per_thread=8

template <typename T>
__device__ T warp_sum(T v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	unsigned base = blockIdx.x * GPULAB_TILE_X + threadIdx.x;
	T x[8];
#pragma unroll
	for (unsigned i = 0; i < 8; i++) /* all eight loads issued before any add */
		x[i] = base + i * GPULAB_BLOCK < n ? in[base + i * GPULAB_BLOCK] : T(0);
	T v = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
	__shared__ T warps[GPULAB_BLOCK / 32];
	v = warp_sum(v);
	if (threadIdx.x % 32 == 0)
		warps[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = warp_sum(threadIdx.x < GPULAB_BLOCK / 32 ? warps[threadIdx.x] : T(0));
		if (threadIdx.x == 0)
			partials[blockIdx.x] = v;
	}
}
