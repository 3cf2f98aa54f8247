// Races: block 0 walks the input a tile of 1024 at a time, each warp
// scanning its 32 elements with shuffles, and carries the tile's total
// into the next tile; but it counts that total with every thread adding
// its element into one shared word with a plain +=, not atomicAdd.  The
// 32 threads of a warp read the word at once and each writes back its
// own sum, so all but one of a warp's additions are lost: the first
// tile is right, every later one starts from a carry too small.
// gpulab: block=1024

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned warp_sum[32], tile_total;
	if (blockIdx.x != 0)
		return;
	unsigned t = threadIdx.x, lane = t & 31, carry = 0;
	for (size_t base = 0; base < n; base += 1024) {
		unsigned v = base + t < n ? (unsigned)in[base + t] : 0u, x = v;
		if (t == 0)
			tile_total = 0;
		for (unsigned d = 1; d < 32; d <<= 1) {
			unsigned up = __shfl_up_sync(0xffffffffu, x, d);
			if (lane >= d)
				x += up;
		}
		if (lane == 31)
			warp_sum[t >> 5] = x;
		__syncthreads();
		tile_total += v; /* the race: a read, an add and a write, not one atomic step */
		if (t == 0)
			for (unsigned w = 1; w < 32; w++)
				warp_sum[w] += warp_sum[w - 1];
		__syncthreads();
		if (base + t < n)
			out[base + t] = (T)(carry + (t >= 32 ? warp_sum[(t >> 5) - 1] : 0u) + x);
		carry += tile_total;
		__syncthreads();
	}
}
