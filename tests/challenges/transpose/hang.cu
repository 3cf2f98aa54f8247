// Hangs: it walks each thread's rows of the tile from the bottom up with
// an unsigned counter, `for (j = 24; j >= 0; j -= 8)`.  An unsigned j is
// never below 0: it wraps to 4294967288 and goes on, the bounds check
// skipping the rows that do not exist, so the loop never ends (from the
// first case, 1 x 1) until the watchdog stops gpulab.
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (unsigned j = 24; j >= 0; j -= 8) /* always true */
		if (x < cols && y + j < rows)
			out[(size_t)x * rows + y + j] = in[(size_t)(y + j) * cols + x];
}
