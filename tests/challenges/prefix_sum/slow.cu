// A right inclusive scan, and slow: block 0 alone walks the input a tile
// of 1024 at a time, scanning each with the Hillis-Steele steps (ten of
// them, double-buffered so that no step reads what it writes) and
// carrying the running total into the next.  Every other block returns
// at once: one SM does all the work.  Ranked, after right.cu.
// gpulab: block=1024

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned buf[2][1024];
	if (blockIdx.x != 0)
		return;
	unsigned t = threadIdx.x, carry = 0;
	for (size_t base = 0; base < n; base += 1024) {
		unsigned src = 0;
		buf[0][t] = base + t < n ? (unsigned)in[base + t] : 0u;
		__syncthreads();
		for (unsigned off = 1; off < 1024; off *= 2) {
			buf[1 - src][t] = buf[src][t] + (t >= off ? buf[src][t - off] : 0u);
			src = 1 - src;
			__syncthreads();
		}
		if (base + t < n)
			out[base + t] = (T)(carry + buf[src][t]);
		carry += buf[src][1023];
		__syncthreads(); /* everyone has read buf[src][1023] before the next tile */
	}
}
