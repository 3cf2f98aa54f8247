// gpulab try sum_matrix: your own C = A + B on an nx x ny int matrix.
// Start from this file (`gpulab try sum_matrix --template > mine.cu`), run
// it with `gpulab try sum_matrix mine.cu`, and compare with
// `gpulab run sum_matrix`.
//
// The contract, which gpulab checks when it compiles the file:
//
//   template <typename T>
//   __global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
//
// - T is int.  A, B and C are ny rows of nx, row-major; A and B are
//   read-only.  Around each lies poison, and a write outside C is found.
// - The launch is declared on the `gpulab:` line below:
//     block=WxH       threads per block (at most 1024 in all)
//     tile=WxH        the elements one block covers (default: the block's
//                     shape): the grid is ceil(nx / W) x ceil(ny / H)
//     grid=persistent as many blocks as the GPU holds at once, in x only:
//                     the kernel loops over the matrix
//   The source sees them as GPULAB_BLOCK_X, GPULAB_BLOCK_Y, GPULAB_BLOCK,
//   GPULAB_TILE_X and GPULAB_TILE_Y.
// - Before anything is timed, it must add 1x1, 31x33, 33x31, 1x4099,
//   4099x1, 1000x777 and 3x2049 matrices exactly.
//
// This is the book's sumMatrixOnGPU2D, one element per thread.
//
// gpulab: block=32x16

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	unsigned ix = threadIdx.x + blockIdx.x * blockDim.x;
	unsigned iy = threadIdx.y + blockIdx.y * blockDim.y;
	size_t idx = (size_t)iy * nx + ix;
	if (ix < nx && iy < ny)
		C[idx] = A[idx] + B[idx];
}
