// Races: thread (0, 0) works out the block's first element and leaves it
// in shared memory for the others, who read it without waiting: the
// __syncthreads() after the write is missing.  A warp that gets there
// first reads what the block before it on that SM left (its offset), and
// adds the other block's elements again, leaving its own unwritten.
// The offset is kept inside C, so the result is wrong, not a fault.
// gpulab: block=32x16

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	__shared__ size_t first;
	if (threadIdx.x == 0 && threadIdx.y == 0)
		first = (size_t)blockIdx.y * blockDim.y * nx + (size_t)blockIdx.x * blockDim.x;
	/* the race: a __syncthreads() belongs here */
	size_t i = first + (size_t)threadIdx.y * nx + threadIdx.x;
	size_t col = i % nx, row = i / nx;
	if (col < nx && row < ny && col >= (size_t)blockIdx.x * blockDim.x && col < (size_t)(blockIdx.x + 1) * blockDim.x)
		C[i] = A[i] + B[i];
}
