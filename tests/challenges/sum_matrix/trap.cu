// Traps: it loads int4 vectors, which need rows of whole vectors, and
// checks that on the device with a trap (asm("trap;")), as a failed
// assert would, when nx is not a multiple of 4.  The gate's first case
// is 1 x 1: it traps there, and gpulab exits 8 with the case named.
// gpulab: block=32x8 tile=128x8

template <typename T>
__global__ void sum_matrix(const T *A, const T *B, T *C, unsigned nx, unsigned ny)
{
	if (nx % 4 != 0)
		asm volatile("trap;"); /* rows this kernel was not written for */
	unsigned v = blockIdx.x * 32 + threadIdx.x, iy = blockIdx.y * 8 + threadIdx.y;
	if (iy >= ny || v >= nx / 4)
		return;
	size_t at = ((size_t)iy * nx) / 4 + v;
	int4 a = reinterpret_cast<const int4 *>(A)[at], b = reinterpret_cast<const int4 *>(B)[at];
	reinterpret_cast<int4 *>(C)[at] = make_int4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
