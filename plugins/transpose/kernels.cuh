/*
 * The matrix transposes of the shared-memory chapter, out = in^T for a
 * rows x cols matrix (row-major), on W x W tiles.  A block is 32 x ROWS
 * threads, each moving (W / 32) x (W / ROWS) elements: W = 32, ROWS = 32
 * is the book's one element per thread.  Every
 * access is bounds-checked, so no side need be a multiple of 32, and
 * in and out never alias (__restrict__), so a thread's loads can all be
 * in flight before its first store.
 */
#ifndef GPULAB_TRANSPOSE_KERNELS_CUH
#define GPULAB_TRANSPOSE_KERNELS_CUH

/* copyRow: the same tiling and accesses as the transposes, without the
 * transpose: the ceiling a transpose kernel can reach. */
template <typename T, int W, int ROWS>
__global__ void copyRow(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	unsigned x = blockIdx.x * W + threadIdx.x, y = blockIdx.y * W + threadIdx.y;
	for (int j = 0; j < W; j += ROWS)
		for (int i = 0; i < W; i += 32)
			if (x + i < cols && y + j < rows)
				out[(size_t)(y + j) * cols + x + i] = in[(size_t)(y + j) * cols + x + i];
}

/* transposeNaiveRow: reads along rows (coalesced), writes down columns
 * (each thread of a warp to another row: 32 transactions). */
template <typename T, int W, int ROWS>
__global__ void transposeNaiveRow(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	unsigned x = blockIdx.x * W + threadIdx.x, y = blockIdx.y * W + threadIdx.y;
	for (int j = 0; j < W; j += ROWS)
		if (x < cols && y + j < rows)
			out[(size_t)x * rows + y + j] = in[(size_t)(y + j) * cols + x];
}

/* transposeNaiveCol: reads down columns (strided), writes along rows
 * (coalesced).  The grid covers the output. */
template <typename T, int W, int ROWS>
__global__ void transposeNaiveCol(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	unsigned x = blockIdx.x * W + threadIdx.x, y = blockIdx.y * W + threadIdx.y;
	for (int j = 0; j < W; j += ROWS)
		if (x < rows && y + j < cols)
			out[(size_t)(y + j) * rows + x] = in[(size_t)x * cols + y + j];
}

/* transposeSmem: a tile is read along rows into shared memory and written
 * out along rows of the output, so both global accesses coalesce; the
 * transposition happens in shared memory, reading a tile column.
 *   PAD = 0, SWIZZLE = false: a column of tile[32][32] is one bank: the
 *     warp's 32 reads are serialised (a 32-way bank conflict).
 *   PAD = 1: tile[32][33] shifts each row by one bank: conflict-free.
 *   SWIZZLE: element (r, c) is kept at tile[r][c ^ r]: a row and a column
 *     both touch 32 different banks, with no padding.
 * Rows are in_pitch (input) and out_pitch (output) elements apart: cols
 * and rows for a dense matrix, more for a pitched one (aligned.cuh).
 * DOWN: the grid's x runs down the input's rows, so neighbouring blocks
 * write neighbouring pieces of the same output rows. */
template <typename T, int W, int ROWS, int PAD, bool SWIZZLE, bool DOWN = false>
__global__ void transposeSmem(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols,
			      unsigned in_pitch, unsigned out_pitch)
{
	__shared__ T tile[W][W + PAD];
	unsigned tx = threadIdx.x, ty = threadIdx.y, bx = DOWN ? blockIdx.y : blockIdx.x, by = DOWN ? blockIdx.x : blockIdx.y;
	unsigned x = bx * W + tx, y = by * W + ty;
	for (int j = 0; j < W; j += ROWS)
		for (int i = 0; i < W; i += 32)
			if (x + i < cols && y + j < rows)
				tile[ty + j][SWIZZLE ? (tx + i) ^ (ty + j) % 32 : tx + i] = in[(size_t)(y + j) * in_pitch + x + i];
	__syncthreads();
	/* the output tile: rows of the output are columns of the input */
	x = by * W + tx;
	y = bx * W + ty;
	for (int j = 0; j < W; j += ROWS)
		for (int i = 0; i < W; i += 32)
			if (x + i < rows && y + j < cols)
				out[(size_t)(y + j) * out_pitch + x + i] =
					tile[tx + i][SWIZZLE ? (ty + j) ^ (tx + i) % 32 : ty + j];
}

#endif
