// Right only for small n: to fit four bins in a word of shared memory,
// each count is one byte, added as 1 << (8 * (value % 4)).  A block
// covers 65536 elements, so a bin of a whole block holds about 256 on
// this input: its byte overflows into the next bin's.  Small cases (up
// to a few thousand elements) pass; the gate's 1000003 (15 full blocks)
// does not, nor does the point to be timed (-n 2^20 in
// bench/grade-suites.sh).
// gpulab: block=256 per_thread=256

template <typename T>
__global__ void histogram(const T *in, unsigned *bins, unsigned n)
{
	__shared__ unsigned packed[64]; /* bin b is byte b % 4 of packed[b / 4] */
	if (threadIdx.x < 64)
		packed[threadIdx.x] = 0;
	__syncthreads();
	size_t first = (size_t)blockIdx.x * GPULAB_TILE_X;
	for (unsigned k = threadIdx.x; k < GPULAB_TILE_X; k += 256)
		if (first + k < n) {
			unsigned v = (unsigned)in[first + k];
			atomicAdd(&packed[v / 4], 1u << (8 * (v % 4))); /* the bug: a byte holds 255 */
		}
	__syncthreads();
	unsigned count = packed[threadIdx.x / 4] >> (8 * (threadIdx.x % 4)) & 0xffu;
	if (count)
		atomicAdd(&bins[threadIdx.x], count);
}
