// Races: the textbook's first Hillis-Steele scan, in one buffer: at each
// step every thread reads s[t - off] and writes s[t], with one barrier
// after the write but none between the read and the write.  A warp that
// runs ahead updates elements a slower warp has still to read, so a
// sum counts an element twice or a partial sum too early.  (slow.cu
// keeps two buffers.)  Block 0 alone walks the tiles.
// gpulab: block=1024

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned s[1024];
	if (blockIdx.x != 0)
		return;
	unsigned t = threadIdx.x, carry = 0;
	for (size_t base = 0; base < n; base += 1024) {
		s[t] = base + t < n ? (unsigned)in[base + t] : 0u;
		__syncthreads();
		for (unsigned off = 1; off < 1024; off *= 2) {
			if (t >= off)
				s[t] += s[t - off]; /* the race: read and write in one step */
			__syncthreads();
		}
		if (base + t < n)
			out[base + t] = (T)(carry + s[t]);
		carry += s[1023];
		__syncthreads();
	}
}
