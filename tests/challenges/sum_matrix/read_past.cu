// Reads past its inputs: it indexes A and B by the grid's width in
// threads (blockDim.x * gridDim.x) instead of nx, the book's mistake of
// taking the launch for the data.  Where nx is not a multiple of 32 the
// rows are read from the wrong place and the last ones from past the
// end of A and B, where the poison lies.  1 x 1 passes, 31 x 33 does not.
// gpulab: block=32x16

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	unsigned ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
	size_t width = (size_t)blockDim.x * gridDim.x; /* the bug: not nx */
	if (ix < nx && iy < ny)
		C[(size_t)iy * nx + ix] = A[iy * width + ix] + B[iy * width + ix];
}
