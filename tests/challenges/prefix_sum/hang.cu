// Hangs: a chained scan with an off-by-one in the wait.  A tile waits
// for the flag at its own index, where the tile before it publishes at
// index tile - 1; so tile 1 waits for a flag only it would set, after
// the wait.  A single tile (n <= 512) passes; the first case with two
// spins until the watchdog stops gpulab.
// gpulab: block=512

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned s[512], tile, carry;
	unsigned t = threadIdx.x;
	if (t == 0)
		tile = atomicAdd(&scratch[0], 1u);
	__syncthreads();
	size_t i = (size_t)tile * 512 + t;
	s[t] = i < n ? (unsigned)in[i] : 0u;
	for (unsigned off = 1; off < 512; off *= 2) {
		__syncthreads();
		unsigned a = t >= off ? s[t - off] : 0u;
		__syncthreads();
		s[t] += a;
	}
	__syncthreads();
	if (t == 0) {
		volatile unsigned *flags = scratch + 1, *sums = scratch + 1 + gridDim.x;
		carry = 0;
		if (tile > 0) {
			while (flags[tile] == 0) /* the bug: flags[tile - 1] */
				;
			carry = sums[tile - 1];
		}
		sums[tile] = carry + s[511];
		__threadfence();
		flags[tile] = 1;
	}
	__syncthreads();
	if (i < n)
		out[i] = (T)(carry + s[t]);
}
