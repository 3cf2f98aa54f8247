// Right only for small n: each block scans its own tile of 4096 and
// leaves the carry from the tiles before it "for later", so the answer
// is right while n fits in one tile (n <= 4096) and wrong past it.  A
// gate made of small cases alone would pass it; the gate's 1000003 is
// 245 tiles, the point to be timed (-n 2^20 in bench/grade-suites.sh)
// 256.
// gpulab: block=1024 per_thread=4

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned part[1024];
	unsigned t = threadIdx.x;
	size_t first = (size_t)blockIdx.x * 4096 + 4 * t;
	unsigned v[4], sum = 0;
	for (unsigned k = 0; k < 4; k++)
		v[k] = sum += first + k < n ? (unsigned)in[first + k] : 0u;
	part[t] = sum;
	__syncthreads();
	for (unsigned off = 1; off < 1024; off *= 2) { /* Hillis-Steele, two barriers a step */
		unsigned add = t >= off ? part[t - off] : 0u;
		__syncthreads();
		part[t] += add;
		__syncthreads();
	}
	unsigned before = part[t] - sum; /* the bug: no carry from the tiles before */
	for (unsigned k = 0; k < 4; k++)
		if (first + k < n)
			out[first + k] = (T)(before + v[k]);
}
