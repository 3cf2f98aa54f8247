// A right C = A + B, ranked: each thread adds four elements of a row,
// 32 apart, so every load and store of a warp is one coalesced line,
// and a block of 32 x 8 covers a 128 x 8 tile.
// gpulab: block=32x8 tile=128x8

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	unsigned iy = blockIdx.y * GPULAB_TILE_Y + threadIdx.y;
	if (iy >= ny)
		return;
	size_t row = (size_t)iy * nx;
#pragma unroll
	for (unsigned k = 0; k < GPULAB_TILE_X; k += 32) {
		unsigned ix = blockIdx.x * GPULAB_TILE_X + k + threadIdx.x;
		if (ix < nx)
			C[row + ix] = A[row + ix] + B[row + ix];
	}
}
