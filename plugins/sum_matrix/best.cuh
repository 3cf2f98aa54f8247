/*
 * sum_matrix's `best`: the fastest correct C = A + B, to show how far the
 * book's one-element-per-thread 2D kernel is from what the memory does.
 *
 * The matrix is dense and row-major, so its rows follow each other with
 * no gap: to the memory system C = A + B is one flat stream of nx * ny
 * elements, and the 2D shape only costs index arithmetic.  So:
 *   - 16-byte loads and stores (int4): a quarter of the instructions of
 *     one int per thread, and full 128-byte lines per warp access;
 *   - UNROLL independent vectors of A and of B in flight per thread
 *     before the first add, so each SM keeps enough bytes moving to cover
 *     the memory's latency;
 *   - streaming hints (__ldcs, __stcs: evict first), since nothing is
 *     read twice;
 *   - a persistent grid, a few blocks per SM, walking the stream with a
 *     grid-stride loop, so no block is launched for too little work;
 *   - the last n % 4 elements, which no vector covers, by scalar code.
 * The int4 views need A, B and C 16-byte aligned: cudaMalloc returns
 * 256-byte-aligned pointers, and the plugin starts B at such a boundary.
 */
#ifndef GPULAB_SUM_MATRIX_BEST_CUH
#define GPULAB_SUM_MATRIX_BEST_CUH

#include <cstddef>

constexpr int best_block = 256;
constexpr int best_unroll = 4;

__device__ __forceinline__ int4 add4(int4 x, int4 y)
{
	return make_int4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

__global__ void __launch_bounds__(best_block) sumMatrixBest(const int *__restrict__ A, const int *__restrict__ B,
							    int *__restrict__ C, size_t n)
{
	const int4 *a = reinterpret_cast<const int4 *>(A), *b = reinterpret_cast<const int4 *>(B);
	int4 *c = reinterpret_cast<int4 *>(C);
	size_t vectors = n / 4, stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + (best_unroll - 1) * stride < vectors; i += best_unroll * stride) {
		int4 x[best_unroll], y[best_unroll];
#pragma unroll
		for (int k = 0; k < best_unroll; k++) {
			x[k] = __ldcs(a + i + k * stride);
			y[k] = __ldcs(b + i + k * stride);
		}
#pragma unroll
		for (int k = 0; k < best_unroll; k++)
			__stcs(c + i + k * stride, add4(x[k], y[k]));
	}
	for (; i < vectors; i += stride)
		__stcs(c + i, add4(__ldcs(a + i), __ldcs(b + i)));
	size_t tail = 4 * vectors + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (tail < n) /* at most 3 elements, by the first threads of the grid */
		C[tail] = A[tail] + B[tail];
}

#endif
