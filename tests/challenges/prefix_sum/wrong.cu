// Wrong: Blelloch's work-efficient scan (an up-sweep that builds the
// tree of sums, a down-sweep that pushes the prefixes back down) gives
// an EXCLUSIVE scan, out[i] = in[0] + ... + in[i - 1], and the learner
// forgot to add in[i] back.  out[0] is 0 where in[0] is expected.
// Block 0 walks the tiles and carries their totals, as slow.cu does.
// gpulab: block=512

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ unsigned tree[1024];
	__shared__ unsigned total;
	if (blockIdx.x != 0)
		return;
	unsigned t = threadIdx.x, carry = 0;
	for (size_t base = 0; base < n; base += 1024) {
		tree[2 * t] = base + 2 * t < n ? (unsigned)in[base + 2 * t] : 0u;
		tree[2 * t + 1] = base + 2 * t + 1 < n ? (unsigned)in[base + 2 * t + 1] : 0u;
		for (unsigned d = 1; d < 1024; d *= 2) { /* up-sweep */
			__syncthreads();
			unsigned i = (2 * t + 2) * d - 1;
			if (i < 1024)
				tree[i] += tree[i - d];
		}
		__syncthreads();
		if (t == 0) {
			total = tree[1023];
			tree[1023] = 0;
		}
		for (unsigned d = 512; d > 0; d /= 2) { /* down-sweep */
			__syncthreads();
			unsigned i = (2 * t + 2) * d - 1;
			if (i < 1024) {
				unsigned left = tree[i - d];
				tree[i - d] = tree[i];
				tree[i] += left;
			}
		}
		__syncthreads();
		for (unsigned k = 2 * t; k < 2 * t + 2; k++)
			if (base + k < n)
				out[base + k] = (T)(carry + tree[k]); /* the bug: exclusive, + in[base + k] is missing */
		carry += total;
		__syncthreads();
	}
}
