// Writes outside its output: it checks ix against nx but forgets iy
// against ny, so the threads of a block's rows past the matrix write
// past the end of C.  At 1 x 1 the block's second row of threads
// writes C[1], where the guard finds it.
// gpulab: block=32x16

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	unsigned ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
	size_t i = (size_t)iy * nx + ix;
	if (ix < nx) /* the bug: no iy < ny */
		C[i] = A[i] + B[i];
}
