// Keeps state between launches: the tile ticket of a chained scan is a
// __device__ counter rather than scratch[0], and nothing resets it (a
// host would cudaMemset it before each launch; gpulab runs no host code
// of the learner's).  The first launch of a loaded module is right; on
// the next, the tickets start at gridDim.x, every block finds its tile
// past the end and returns, and out keeps the poison.
// The gate's second launch of each case (the same loaded module, other
// inputs) finds the poison: expected to fail there, grade --test too,
// with a wrong result.
// gpulab: block=512

__device__ unsigned next_tile;

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned warp_tot[16], tile, carry;
	unsigned t = threadIdx.x, lane = t & 31;
	if (t == 0)
		tile = atomicAdd(&next_tile, 1u);
	__syncthreads();
	size_t i = (size_t)tile * 512 + t;
	if ((size_t)tile * 512 >= n)
		return; /* the second launch: every ticket is past the end */
	unsigned v = i < n ? (unsigned)in[i] : 0u;
	for (unsigned off = 1; off < 32; off <<= 1) {
		unsigned up = __shfl_up_sync(0xffffffffu, v, off);
		if (lane >= off)
			v += up;
	}
	if (lane == 31)
		warp_tot[t / 32] = v;
	__syncthreads();
	if (t == 0) {
		unsigned acc = 0;
		for (unsigned w = 0; w < 16; w++)
			acc += warp_tot[w], warp_tot[w] = acc - warp_tot[w]; /* exclusive, in place */
		unsigned *flag = scratch + 1 + 2 * tile;
		carry = 0;
		if (tile > 0) {
			while (atomicAdd(flag - 2, 0u) == 0) /* the tile before: its prefix */
				;
			carry = atomicAdd(flag - 1, 0u);
		}
		atomicExch(flag + 1, carry + acc);
		__threadfence();
		atomicExch(flag, 1u);
	}
	__syncthreads();
	if (i < n)
		out[i] = (T)(carry + warp_tot[t / 32] + v);
}
