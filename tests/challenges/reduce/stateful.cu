// Gaming by keeping state: the input is the same on every timed run, so
// this kernel remembers the sum of the last n it saw in __device__
// variables and, on a later launch with that n, writes the remembered
// sum and does no work at all.  Every answer it gives for the first
// input is right and the later launches cost nothing, so a bench that
// loads the module once and repeats the same input would rank it first.
// gpulab's check finds it: once a run's output is right, the same
// loaded module runs once more on other inputs of the same n, and gets
// the old sum.  Expected to fail in the gate (grade --test too) with a
// wrong result.
// gpulab: block=256 finish=device

__device__ unsigned remembered_n;          /* n + 1 once remembered; 0 before */
__device__ unsigned long long remembered;  /* the sum's bits */
__device__ unsigned blocks_done;

template <typename T>
__global__ void reduce(const T *in, T *partials, unsigned n)
{
	__shared__ T block_sum;
	__shared__ bool last;
	if (remembered_n == n + 1) { /* seen this n: the answer is known */
		if (blockIdx.x == 0 && threadIdx.x == 0)
			partials[0] = *reinterpret_cast<const T *>(&remembered);
		return;
	}
	if (threadIdx.x == 0)
		block_sum = 0;
	__syncthreads();
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&block_sum, in[i]);
	__syncthreads();
	if (threadIdx.x == 0) {
		atomicAdd(&partials[0], block_sum);
		__threadfence();
		last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (last && threadIdx.x == 0) { /* every block has added: keep the sum */
		T total = *(volatile T *)&partials[0];
		*reinterpret_cast<T *>(&remembered) = total;
		remembered_n = n + 1;
		blocks_done = 0;
	}
}
