/*
 * transposeStaged: smem_swizzle's tile (W x W, element (r, c) at
 * tile[r][c ^ (r % 32)]) in a persistent grid: each block walks the
 * tiles blockIdx.x, blockIdx.x + gridDim.x, ... in turn.
 *
 *   ASYNC = false: load a tile (ordinary loads and shared stores), sync,
 *     store it, sync.  While a block stores a tile it has no load in
 *     flight, so only other blocks can hide its next load's latency.
 *   ASYNC = true: two buffers; the next tile's loads go out with cp.async
 *     (global to shared, no register between) before this tile is
 *     stored, so a block keeps loads in flight while it stores.
 *
 * The overlap is the lesson: it pays where there are too few blocks on
 * an SM to hide the latency among themselves (see -p per_sm), and buys
 * nothing where they already are.  Every access is bounds-checked, as in
 * kernels.cuh; cp.async copies 4 bytes an element, so any shape works.
 */
#ifndef GPULAB_TRANSPOSE_STAGED_CUH
#define GPULAB_TRANSPOSE_STAGED_CUH

#include <cuda_pipeline.h>

namespace staged {

/* Tile t of the input into buf: by cp.async (ASYNC) or ordinary loads. */
template <typename T, int W, int ROWS, bool ASYNC>
__device__ void load(T (*buf)[W], const T *__restrict__ in, unsigned rows, unsigned cols, unsigned t, unsigned tiles_x)
{
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned x = t % tiles_x * W + tx, y = t / tiles_x * W + ty;
	for (int j = 0; j < W; j += ROWS)
		for (int i = 0; i < W; i += 32)
			if (x + i < cols && y + j < rows) {
				T *dst = &buf[ty + j][(tx + i) ^ (ty + j) % 32];
				const T *src = &in[(size_t)(y + j) * cols + x + i];
				if (ASYNC)
					__pipeline_memcpy_async(dst, src, sizeof(T));
				else
					*dst = *src;
			}
}

/* Tile t, transposed, from buf to the output. */
template <typename T, int W, int ROWS>
__device__ void store(T (*buf)[W], T *__restrict__ out, unsigned rows, unsigned cols, unsigned t, unsigned tiles_x)
{
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned x = t / tiles_x * W + tx, y = t % tiles_x * W + ty;
	for (int j = 0; j < W; j += ROWS)
		for (int i = 0; i < W; i += 32)
			if (x + i < rows && y + j < cols)
				out[(size_t)(y + j) * rows + x + i] = buf[tx + i][(ty + j) ^ (tx + i) % 32];
}

template <typename T, int W, int ROWS, bool ASYNC>
__global__ void transposeStaged(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	__shared__ T tile[ASYNC ? 2 : 1][W][W];
	unsigned tiles_x = (cols + W - 1) / W, tiles = tiles_x * ((rows + W - 1) / W);
	unsigned t = blockIdx.x;
	if (ASYNC) { /* the first tile, before the loop */
		if (t < tiles)
			load<T, W, ROWS, true>(tile[0], in, rows, cols, t, tiles_x);
		__pipeline_commit();
	}
	for (int k = 0; t < tiles; t += gridDim.x, k ^= 1) {
		if (ASYNC) { /* the next tile's loads fly while this one is stored */
			if (t + gridDim.x < tiles)
				load<T, W, ROWS, true>(tile[k ^ 1], in, rows, cols, t + gridDim.x, tiles_x);
			__pipeline_commit();
			__pipeline_wait_prior(1); /* this tile's copies, not the next's */
		} else
			load<T, W, ROWS, false>(tile[0], in, rows, cols, t, tiles_x);
		__syncthreads();
		store<T, W, ROWS>(tile[ASYNC ? k : 0], out, rows, cols, t, tiles_x);
		__syncthreads(); /* read out before it is loaded again */
	}
}

} // namespace staged

#endif
