// A right inclusive scan in one launch, ranked first: a chained scan.
// Each block takes the next tile by a ticket (scratch[0]), so a tile's
// predecessor has always started and the wait below cannot deadlock;
// it scans its 2048 elements in shared memory (each thread eight in a
// row, then warp shuffles over the threads' totals), waits for the tile
// before it to publish its inclusive prefix, and publishes its own.
// scratch, zeroed before every run: [0] the ticket, then a flag and a
// prefix per tile (1 + 2 * tiles words of the 4 * gridDim.x + 4).
// gpulab: block=256 per_thread=8

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned s[GPULAB_TILE_X], warp_sums[GPULAB_BLOCK / 32], tile, carry;
	unsigned t = threadIdx.x, lane = t % 32, warp = t / 32, mine[8], run = 0;
	if (t == 0)
		tile = atomicAdd(&scratch[0], 1u);
	__syncthreads();
	size_t base = (size_t)tile * GPULAB_TILE_X;
	for (unsigned k = t; k < GPULAB_TILE_X; k += GPULAB_BLOCK) /* coalesced */
		s[k] = base + k < n ? (unsigned)in[base + k] : 0u;
	__syncthreads();
	for (unsigned k = 0; k < 8; k++)
		mine[k] = run += s[t * 8 + k];
	unsigned x = run; /* the threads' totals, scanned in the warp */
	for (unsigned off = 1; off < 32; off *= 2) {
		unsigned y = __shfl_up_sync(0xffffffffu, x, off);
		x += lane >= off ? y : 0u;
	}
	if (lane == 31)
		warp_sums[warp] = x;
	__syncthreads();
	if (t == 0) { /* the warps' totals, then the tiles before this one */
		for (unsigned w = 1; w < GPULAB_BLOCK / 32; w++)
			warp_sums[w] += warp_sums[w - 1];
		unsigned prev = 0;
		if (tile > 0) {
			while (((volatile unsigned *)scratch)[1 + 2 * (tile - 1)] == 0)
				;
			__threadfence();
			prev = ((volatile unsigned *)scratch)[2 + 2 * (tile - 1)];
		}
		scratch[2 + 2 * tile] = prev + warp_sums[GPULAB_BLOCK / 32 - 1];
		__threadfence(); /* the prefix before its flag */
		atomicExch(&scratch[1 + 2 * tile], 1u);
		carry = prev;
	}
	__syncthreads();
	unsigned before = carry + x - run + (warp ? warp_sums[warp - 1] : 0u);
	for (unsigned k = 0; k < 8; k++)
		s[t * 8 + k] = before + mine[k];
	__syncthreads();
	for (unsigned k = t; k < GPULAB_TILE_X; k += GPULAB_BLOCK)
		if (base + k < n)
			out[base + k] = (T)s[k];
}
