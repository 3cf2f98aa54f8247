// gpulab try prefix_sum: your own inclusive scan of n ints.  Start from
// this file (`gpulab try prefix_sum --template > mine.cu`) and run it with
// `gpulab try prefix_sum mine.cu`.
//
// The contract, which gpulab checks when it compiles the file:
//
//   template <typename T>
//   __global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
//
// - T is int.  out[i] = in[0] + ... + in[i].  in is read-only; out is
//   poisoned (-1) before every run, so an element never written fails.
// - scratch is 4 * gridDim.x + 4 unsigned words, all zero at the start of
//   every run (gpulab zeroes them inside the timed run): room for a block
//   counter and a flag and a sum for each block, so one launch can chain
//   the blocks.  Around every buffer lies poison, and a write outside one
//   is found.
// - The launch is declared on the `gpulab:` line below: block=N threads,
//   and a block covers GPULAB_TILE_X elements (N, or N * per_thread).
// - Before anything is timed, the scan must be right for n = 1, 31, 33,
//   255, 257, 1000003 and 2^24 + 7.
//
// This is a chained scan in one launch.  Blocks are not run in the order
// of blockIdx.x, so each takes a ticket (scratch[0]) for the tile it
// scans: the block with ticket b waits only for ticket b - 1, which has
// started, so the chain always moves.  Each block scans its tile in
// shared memory (Hillis-Steele), waits for the sum of every tile before
// it (flag b - 1), publishes its own, then writes its tile.
//
// gpulab: block=256

template <typename T>
__global__ void prefix_sum(const T *in, T *out, unsigned n, unsigned *scratch)
{
	__shared__ T data[GPULAB_BLOCK];
	__shared__ unsigned ticket;
	__shared__ T carry;
	volatile unsigned *flags = scratch + 1;
	volatile T *sums = reinterpret_cast<volatile T *>(scratch + 1 + gridDim.x);
	if (threadIdx.x == 0)
		ticket = atomicAdd(&scratch[0], 1u);
	__syncthreads();
	unsigned b = ticket, t = threadIdx.x;
	unsigned i = b * GPULAB_BLOCK + t;
	data[t] = i < n ? in[i] : T(0);
	__syncthreads();
	for (unsigned off = 1; off < GPULAB_BLOCK; off <<= 1) {
		T v = t >= off ? data[t - off] : T(0);
		__syncthreads();
		data[t] += v;
		__syncthreads();
	}
	if (t == 0) {
		T before = T(0);
		if (b > 0) {
			while (flags[b - 1] == 0)
				; /* the tile before is still adding up */
			__threadfence();
			before = sums[b - 1];
		}
		sums[b] = before + data[GPULAB_BLOCK - 1];
		__threadfence(); /* the sum before the flag that says it is there */
		flags[b] = 1;
		carry = before;
	}
	__syncthreads();
	if (i < n)
		out[i] = data[t] + carry;
}
