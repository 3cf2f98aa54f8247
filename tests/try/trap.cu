// A learner's kernel, right at every size but one: at n = 2^20 its first
// thread traps (asm("trap;")), as a failed device-side check would.  The
// gate's sizes pass; in a sweep across 2^20, that point fails with the
// CUDA error, the trap leaves the context unusable, every later point is
// recorded as not run, and gpulab exits 8 (check_gpu's try_trap_mid_sweep).
// gpulab: block=512 per_thread=1

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T data[GPULAB_BLOCK];
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (n == (1u << 20) && idx == 0)
		asm("trap;");
	data[tid] = idx < n ? in[idx] : T(0);
	__syncthreads();
	for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
		if (tid < stride)
			data[tid] += data[tid + stride];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = data[0];
}
