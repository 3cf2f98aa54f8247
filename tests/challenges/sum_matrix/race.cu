// Races: thread (0, 0) works out the block's first element, from the
// block's number in a grid taken as one line (a division and a
// remainder: slow), and leaves it in shared memory for the others, who
// read it without waiting: the __syncthreads() after the write is
// missing.  The other warps read it long before it is written, and get
// what the block before them on that SM left there (its offset): they
// add that block's elements again and leave their own unwritten.  The
// offset is kept inside C, so the result is wrong, not a fault.
// gpulab: block=32x16

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	__shared__ size_t first;
	if (threadIdx.x == 0 && threadIdx.y == 0) {
		unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
		first = (size_t)(b / gridDim.x) * blockDim.y * nx + (size_t)(b % gridDim.x) * blockDim.x;
	}
	/* the race: a __syncthreads() belongs here */
	size_t i = first + (size_t)threadIdx.y * nx + threadIdx.x;
	size_t col = i % nx, row = i / nx;
	if (row < ny && col >= (size_t)blockIdx.x * blockDim.x && col < (size_t)(blockIdx.x + 1) * blockDim.x)
		C[i] = A[i] + B[i];
}
