// A learner's kernel, right at every size but one: at n = 2^20 its first
// thread traps (asm("trap;")), as a failed device-side check would, but
// only from the third launch of the module it was loaded in.  Why: the
// try plugin loads the compiled code afresh at each point's setup (so
// `launches` starts at 0 there), and `gpulab try` first runs its gate,
// which launches the kernel twice at every point of the user's sweep
// (once, then once more on other inputs in the same module, so that a
// kernel keeping results between launches fails) before anything is
// timed.  A kernel that trapped at its first or second launch would fail
// that gate (exit 8, no record: nothing was measured) and never reach
// the sweep.  Trapping at the third, it passes the gate and traps in the
// timed run's warm-up after two clean launches: that point fails with the
// CUDA error, the trap leaves the context unusable, every later point is
// recorded as not run, the record is written, and gpulab exits 8
// (check_gpu's try_trap_mid_sweep).  A real kernel that faults only
// sometimes (a race) meets the same path.
// gpulab: block=512 per_thread=1

__device__ unsigned launches; /* per module: block 0's first thread counts */

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T data[GPULAB_BLOCK];
	unsigned tid = threadIdx.x;
	unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (n == (1u << 20) && idx == 0 && atomicAdd(&launches, 1u) >= 2)
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
