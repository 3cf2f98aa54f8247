/*
 * sum_matrix's `best`: the fastest correct C = A + B, to show how far the
 * book's one-element-per-thread 2D kernel is from what the memory does.
 *
 * The matrix is dense and row-major, so its rows follow each other with
 * no gap: to the memory system C = A + B is one flat stream of nx * ny
 * elements, and the 2D shape only costs index arithmetic.  So:
 *   - 16-byte loads and stores (int4): a quarter of the instructions of
 *     one int per thread, and full 128-byte lines per warp access;
 *   - streaming hints (__ldcs, __stcs: evict first), since nothing is
 *     read twice;
 *   - one vector per thread and as many blocks as the stream needs: the
 *     block scheduler keeps every SM full and the loads in flight, with
 *     nothing to loop over.  On the H200 at 16384^2 this beat every
 *     persistent grid-stride variant tried (3 to 8 blocks per SM, 2 to 8
 *     vectors in flight per thread: 3770-4098 GB/s) and two or four
 *     vectors per thread (4330 GB/s), at 4356 GB/s, as fast as
 *     cudaMemcpyAsync moving the same bytes (4217-4229 GB/s);
 *   - the last n % 4 elements, which no vector covers, by scalar code.
 * The int4 views need A, B and C 16-byte aligned: cudaMalloc returns
 * 256-byte-aligned pointers, and the plugin starts B at such a boundary.
 */
#ifndef GPULAB_SUM_MATRIX_BEST_CUH
#define GPULAB_SUM_MATRIX_BEST_CUH

#include <cstddef>

constexpr int best_block = 256;

__device__ __forceinline__ int4 add4(int4 x, int4 y)
{
	return make_int4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

/* Launched with best_blocks(n) blocks of best_block threads. */
__global__ void __launch_bounds__(best_block) sumMatrixBest(const int *__restrict__ A, const int *__restrict__ B,
							    int *__restrict__ C, size_t n)
{
	const int4 *a = reinterpret_cast<const int4 *>(A), *b = reinterpret_cast<const int4 *>(B);
	int4 *c = reinterpret_cast<int4 *>(C);
	size_t vectors = n / 4, i = (size_t)blockIdx.x * best_block + threadIdx.x;
	if (i < vectors)
		__stcs(c + i, add4(__ldcs(a + i), __ldcs(b + i)));
	size_t tail = 4 * vectors + i;
	if (tail < n) /* at most 3 elements, by the first threads of the grid */
		C[tail] = A[tail] + B[tail];
}

/* One thread per vector, and a block for the tail when n < 4. */
inline size_t best_blocks(size_t n)
{
	size_t vectors = n / 4;
	return vectors ? (vectors + best_block - 1) / best_block : 1;
}

#endif
