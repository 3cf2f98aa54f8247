/*
 * transposeTma: the transpose with Hopper's Tensor Memory Accelerator.
 * One thread asks the copy engine for a whole 64 x 64 tile
 * (cp.async.bulk.tensor, through a tensor map the host encoded); the
 * engine writes it into shared memory with the 128-byte swizzle and says
 * so on an mbarrier.  The block transposes the tile in shared memory,
 * 4 x 4 elements a thread, from one swizzled buffer into another, and one
 * thread hands that to the copy engine to store (a bulk async-group).
 * No thread computes a global address or checks a bound: the tensor map
 * knows the matrix's sides, fills what lies past them with zeros on a
 * load and drops it on a store.  What it cannot describe is a row that
 * does not start on 16 bytes, so rows and cols must be multiples of 4
 * (4-byte elements); transpose.cu refuses other shapes.
 *
 * The swizzle.  A box 32 elements (128 bytes) wide lands in shared memory
 * as rows of 128 bytes whose eight 16-byte chunks are permuted: chunk k
 * of row r is stored at chunk k ^ (r % 8) (the buffer must be aligned
 * on 1024 bytes).  So a tile is two boxes side by side, each 64 rows of
 * 32 elements.  A thread reads four 16-byte chunks down a column of 4 x 4
 * blocks and writes four across; the eight threads of each quarter warp
 * (the unit that shares the banks in a 16-byte access) take the blocks
 * on a diagonal, which puts their eight chunks on eight different bank
 * groups, for the reads and the writes alike.
 */
#ifndef GPULAB_TRANSPOSE_TMA_CUH
#define GPULAB_TRANSPOSE_TMA_CUH

#include <cuda/ptx>
#include <cudaTypedefs.h> /* CUtensorMap: a type, no libcuda */

#include <cstdint>

namespace tma {

constexpr int TILE = 64;              /* a block's tile: TILE x TILE elements */
constexpr int BOX = 32;               /* a box's width: 128 bytes of 4-byte elements */
constexpr int THREADS = 128;          /* each moves 2 of the tile's 256 4 x 4 blocks */
constexpr int TILE_BYTES = TILE * TILE * 4;
constexpr int SMEM = 2 * TILE_BYTES + 1024; /* in and out tiles, and room to align them */

/* Element (r, c) of a swizzled half-tile: 64 rows of BOX elements. */
__device__ inline int swizzled(int r, int c)
{
	return r * BOX + (((c / 4) ^ (r % 8)) * 4) + c % 4;
}

/* The tile at in (two swizzled halves of TILE rows of BOX), transposed
 * into out (likewise): every thread moves two 4 x 4 blocks. */
__device__ inline void transpose_tile(const uint32_t *in, uint32_t *out)
{
	constexpr int HALF = TILE * BOX;
	for (int s = 0; s < 2; s++) {
		/* block (rq, cq) of 4 x 4 at input rows 4rq.., cols 4cq..;
		 * t = lane % 8 walks a diagonal: cq % 8 = t, rq % 8 = t ^ k */
		int i = threadIdx.x + THREADS * s, t = i & 7, u = i >> 3;
		int cq = 8 * (u & 1) + t, rq = 8 * ((u >> 1) & 1) + (t ^ (u >> 2));
		int r = 4 * rq, c = 4 * cq;
		const uint32_t *src = in + c / BOX * HALF;
		uint4 v[4];
		for (int a = 0; a < 4; a++)
			v[a] = *reinterpret_cast<const uint4 *>(&src[swizzled(r + a, c % BOX)]);
		uint32_t *dst = out + r / BOX * HALF;
		/* output row c + b holds input column c + b */
		*reinterpret_cast<uint4 *>(&dst[swizzled(c, r % BOX)]) = make_uint4(v[0].x, v[1].x, v[2].x, v[3].x);
		*reinterpret_cast<uint4 *>(&dst[swizzled(c + 1, r % BOX)]) = make_uint4(v[0].y, v[1].y, v[2].y, v[3].y);
		*reinterpret_cast<uint4 *>(&dst[swizzled(c + 2, r % BOX)]) = make_uint4(v[0].z, v[1].z, v[2].z, v[3].z);
		*reinterpret_cast<uint4 *>(&dst[swizzled(c + 3, r % BOX)]) = make_uint4(v[0].w, v[1].w, v[2].w, v[3].w);
	}
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/* Ask the copy engine for the tile at input (r0, c0), into in, counted on bar. */
__device__ inline void load_tile(const CUtensorMap *map, int r0, int c0, uint32_t *in, uint64_t *bar)
{
	namespace ptx = cuda::ptx;
	ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar, TILE_BYTES);
	for (int h = 0; h < 2; h++) {
		const int32_t at[2] = { c0 + h * BOX, r0 };
		ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, in + h * TILE * BOX, map, at, bar);
	}
}

/* Hand out, the transposed tile of input (r0, c0), to the copy engine: one bulk group. */
__device__ inline void store_tile(const CUtensorMap *map, int r0, int c0, const uint32_t *out)
{
	namespace ptx = cuda::ptx;
	for (int g = 0; g < 2; g++) {
		const int32_t at[2] = { r0 + g * BOX, c0 };
		ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, map, at, out + g * TILE * BOX);
	}
	ptx::cp_async_bulk_commit_group();
}
#endif

/* One tile a block.  One kernel for ints and floats: it moves 4-byte
 * words.  TRANSPOSE = false: the tile goes back where it came from, in
 * an output of the input's shape (out_map says so): the copy engine's
 * ceiling with these tiles.
 *
 * DOWN: the order of the tiles.  Blocks start in blockIdx order, x
 * fastest.  With x along the input's columns (DOWN = false), the tiles
 * in flight at once lie side by side in the input, so the reads of
 * neighbouring blocks make long runs, and their writes land in the
 * output's rows 64 apart.  With x down the input's rows (DOWN = true),
 * the writes of neighbouring blocks make the long runs in the output's
 * rows, and the reads are 256-byte runs.  On an H200 the writes' runs
 * are what count: 91% of memcpy one way, 96% the other.  DOWN with
 * `group` > 1 walks down `group` column tiles side by side, so the reads
 * of neighbouring blocks are group * 256-byte runs too (the writes make
 * `group` long runs at once); 1 is the plain walk down. */
template <bool TRANSPOSE, bool DOWN>
__global__ void __launch_bounds__(THREADS) transposeTma(const __grid_constant__ CUtensorMap in_map,
							 const __grid_constant__ CUtensorMap out_map, unsigned group)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	namespace ptx = cuda::ptx;
	extern __shared__ unsigned char raw[];
	__shared__ uint64_t loaded;
	/* in + h * HALF: the input tile's columns h*32.. ; out + g * HALF:
	 * the output tile's columns g*32.. (input rows); each TILE rows of BOX */
	constexpr int HALF = TILE * BOX;
	uint32_t *in = reinterpret_cast<uint32_t *>(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *out = in + 2 * HALF;
	int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
	if (DOWN) { /* launch order L: groups of `group` column tiles, each walked down the rows */
		unsigned tiles_r = gridDim.x, L = blockIdx.x + blockIdx.y * tiles_r, base = L / (group * tiles_r) * group;
		unsigned width = min(group, gridDim.y - base), i = L - base * tiles_r;
		r0 = i / width * TILE;
		c0 = (base + i % width) * TILE;
	}

	if (threadIdx.x == 0) {
		ptx::mbarrier_init(&loaded, 1);
		ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); /* visible to the copy engine */
		load_tile(&in_map, r0, c0, in, &loaded);
	}
	__syncthreads(); /* the barrier is initialised before anyone waits on it */
	while (!ptx::mbarrier_try_wait_parity(&loaded, 0))
		;

	if (TRANSPOSE) {
		transpose_tile(in, out);
		ptx::fence_proxy_async(ptx::space_shared); /* ordinary stores, then the copy engine reads them */
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		if (TRANSPOSE)
			store_tile(&out_map, r0, c0, out);
		else
			store_tile(&out_map, c0, r0, in); /* (r0, c0) as the output's (column, row): the same place */
		ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>()); /* shared memory stays until read */
	}
#endif
}

} // namespace tma

#endif
