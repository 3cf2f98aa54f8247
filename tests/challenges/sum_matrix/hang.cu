// Hangs: each thread walks a column strip of 256 rows with an unsigned
// char counter, to save a register.  j < 256 always holds for an
// unsigned char (255 + 1 wraps to 0), so the loop never ends, from the
// first case (1 x 1), until the watchdog stops gpulab.
// gpulab: block=32x8 tile=32x256

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	unsigned ix = blockIdx.x * 32 + threadIdx.x;
	for (unsigned char j = threadIdx.y; j < GPULAB_TILE_Y; j += 8) { /* always true */
		unsigned iy = blockIdx.y * GPULAB_TILE_Y + j;
		if (ix < nx && iy < ny)
			C[(size_t)iy * nx + ix] = A[(size_t)iy * nx + ix] + B[(size_t)iy * nx + ix];
	}
}
