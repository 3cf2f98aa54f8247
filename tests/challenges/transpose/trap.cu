// Traps: it handles whole tiles only, and says so on the device with a
// trap (asm("trap;")), as a failed assert would, when cols is not a
// multiple of 32.  The gate's first case is 1 x 1: it traps there, and
// gpulab exits 8 with the case named.
// gpulab: block=32x8 tile=32x32

template <typename T>
__global__ void transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	if (cols % 32 != 0)
		asm volatile("trap;"); /* a shape this kernel was not written for */
	unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (unsigned j = 0; j < 32 && y + j < rows; j += 8)
		out[(size_t)x * rows + y + j] = in[(size_t)(y + j) * cols + x];
}
