/*
 * Alignment: the transposes of a matrix whose rows do not start on a
 * 128-byte line.  A warp's 32 4-byte accesses along a row are one
 * 128-byte request; where the row starts off a 32-byte sector, the same
 * 128 bytes touch 5 sectors instead of 4 (and a 64-element run, 9
 * instead of 8), and a store that covers part of a sector leaves L2 to
 * merge it with the neighbouring tile's part (docs/hopper.md, "Any
 * shape", measures both).  Two ways out:
 *
 *   the pitched layout: every row padded to a multiple of 128 bytes (as
 *     cudaMallocPitch does), so every row starts on a line.  The kernel
 *     is smem_unroll's (transposeSmem, kernels.cuh) with the pitches.
 *
 *   transposePeeled   a dense matrix, with each output row's tiles moved
 *     to start on a 32-byte sector: row y of the output begins at element
 *     y * rows, so its first sector boundary is b(y) = -(y * rows) mod 8
 *     elements in.  Tile k of output row y covers its elements
 *     [64k + b(y), 64k + 64 + b(y)), and tile 0 also the head [0, b(y)):
 *     every store of the tiles in between covers whole sectors.  The
 *     shift differs from row to row (it is the input's column), so a
 *     block loads 72 input rows, not 64, where any shift is not zero.
 *     The loads stay as the rows fall: the 8 extra rows are the next
 *     tile's first, read from L2.  Or the mirror image (-p align=loads):
 *     the input rows' tiles start on sectors, and the stores fall as
 *     they may; or the stores on 128-byte lines (-p align=lines, 96 rows
 *     loaded).  On an H200 the stores on sectors won by 10-27 points.
 */
#ifndef GPULAB_TRANSPOSE_ALIGNED_CUH
#define GPULAB_TRANSPOSE_ALIGNED_CUH

namespace aligned {

constexpr int LINE = 32;   /* elements a 128-byte line holds */
constexpr int SECTOR = 8;  /* elements a 32-byte sector holds */

/* The pitch, in elements, of rows of `width` 4-byte elements padded to
 * whole 128-byte lines. */
inline unsigned pitch_of(unsigned width) { return (width + LINE - 1) / LINE * LINE; }

/* The first element of row `row` (of `width` elements, row-major) that
 * starts a unit of A elements (a sector, 8, or a line, 32):
 * -(row * width) mod A, from step = A - width % A. */
template <unsigned A = SECTOR>
__device__ __forceinline__ unsigned sector_start(unsigned row, unsigned width)
{
	return row * (A - width % A) % A;
}

/* A block's tile: 64 input columns (output rows) c0.. and 64 input rows
 * r0.. (output columns); 32 x ROWS threads.  The grid's x runs along the
 * input's columns, or, DOWN, down its rows: then neighbouring blocks
 * write neighbouring pieces of the same output rows, which the memory
 * takes as longer runs (tma.cuh's lesson).  STORES: each output row's
 * tiles start on a unit of A elements (8: a sector; 32: a line), as
 * above.  !STORES, the mirror image: each input row's tiles start on a
 * sector (its head is tile 0's), so the loads cover whole sectors and a
 * tile's output rows are 72, some of them partly. */
template <typename T, int W, int ROWS, bool STORES, bool DOWN, unsigned A = SECTOR>
__global__ void transposePeeled(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	constexpr int H = W + (STORES ? A : SECTOR);
	__shared__ T tile[STORES ? H : W][(STORES ? W : H) + 1];
	const unsigned tx = threadIdx.x, ty = threadIdx.y;
	const unsigned c0 = (DOWN ? blockIdx.y : blockIdx.x) * W, r0 = (DOWN ? blockIdx.x : blockIdx.y) * W;
	if (STORES) {
		const int height = rows % A ? H : W; /* every shift is 0 where rows is a multiple of A */
		for (int j = 0; j < height; j += ROWS)
			for (int i = 0; i < W; i += 32)
				if (r0 + ty + j < rows && c0 + tx + i < cols)
					tile[ty + j][tx + i] = in[(size_t)(r0 + ty + j) * cols + c0 + tx + i];
	} else {
		for (int j = 0; j < W; j += ROWS) {
			unsigned x = r0 + ty + j, a = sector_start(x, cols);
			if (x >= rows)
				break;
			const T *row = in + (size_t)x * cols;
			if (c0 == 0 && tx < a && tx < cols) /* the head, before the first whole sector */
				tile[ty + j][tx] = row[tx];
			for (int i = 0; i < W; i += 32)
				if (c0 + a + i + tx < cols)
					tile[ty + j][a + i + tx] = row[c0 + a + i + tx];
		}
	}
	__syncthreads();
	if (STORES) {
		for (int j = 0; j < W; j += ROWS) {
			unsigned y = c0 + ty + j, b = sector_start<A>(y, rows);
			if (y >= cols)
				break;
			T *row = out + (size_t)y * rows;
			for (unsigned h = tx; r0 == 0 && h < b && h < rows; h += 32) /* the head, before the first whole unit */
				row[h] = tile[h][ty + j];
			for (int i = 0; i < W; i += 32) {
				unsigned x = r0 + b + i + tx;
				if (x < rows)
					row[x] = tile[b + i + tx][ty + j];
			}
		}
	} else {
		const int height = cols % SECTOR ? H : W;
		for (int j = 0; j < height; j += ROWS) {
			unsigned t = ty + j, y = c0 + t;
			if (y >= cols)
				break;
			for (int i = 0; i < W; i += 32) {
				unsigned x = r0 + tx + i, a = sector_start(x, cols);
				/* input (x, y) is this tile's where y - c0 is in x's window */
				bool mine = t < a + W && (t >= a || c0 == 0);
				if (x < rows && mine)
					out[(size_t)y * rows + x] = tile[tx + i][t];
			}
		}
	}
}

} // namespace aligned

#endif
