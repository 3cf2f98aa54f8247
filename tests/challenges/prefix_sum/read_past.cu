// Reads outside its input: a chained scan that publishes each tile's
// EXCLUSIVE prefix (known once it has waited), so that the next tile
// adds the sum of the tile before it itself, read from the input.  Tile
// 0 has no tile before it, but still adds "the 256 elements before" it:
// in[-256] .. in[-1], the guard zone's poison (-1 each).  Wrong from
// the first element on.
// gpulab: block=256

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned s[256], prev_sum[256], tile, carry;
	unsigned t = threadIdx.x;
	if (t == 0)
		tile = atomicAdd(scratch, 1u);
	__syncthreads();
	size_t i = (size_t)tile * 256 + t;
	const T *before = in + (size_t)tile * 256 - 256; /* the bug at tile 0 */
	prev_sum[t] = (unsigned)before[t];
	s[t] = i < n ? (unsigned)in[i] : 0u;
	for (unsigned off = 1; off < 256; off *= 2) {
		__syncthreads();
		unsigned a = t >= off ? s[t - off] : 0u, b = t + off < 256 ? prev_sum[t + off] : 0u;
		__syncthreads();
		s[t] += a;
		prev_sum[t] += b; /* prev_sum[0] ends as the tile before's sum */
	}
	__syncthreads();
	if (t == 0) {
		unsigned excl = 0;
		if (tile > 0) {
			while (((volatile unsigned *)scratch)[2 * tile - 1] == 0)
				;
			__threadfence();
			excl = ((volatile unsigned *)scratch)[2 * tile];
		}
		carry = excl + prev_sum[0];
		scratch[2 * tile + 2] = carry;
		__threadfence();
		atomicExch(&scratch[2 * tile + 1], 1u);
	}
	__syncthreads();
	if (i < n)
		out[i] = (T)(carry + s[t]);
}
