/*
 * The send/recv ring's schedule: which slice each rank sends and receives
 * in each round, and which it adds.  Plain C++, no CUDA or NCCL, so that
 * tests/check_sendrecv.cc replays it on the host for any number of ranks
 * (a test machine has at most a few GPUs) and proves every rank ends with
 * the sum and no round reads what a concurrent one writes.
 *
 * Each rank's vector is w chunks of `share` elements (the last ones
 * shorter or empty).  Each chunk is cut into slices of `slice` elements,
 * and every slice goes round the ring on its own: w-1 steps of
 * reduce-scatter (a send, a receive into tmp, then out = in + tmp), then
 * w-1 steps of all-gather (a send, a receive straight into out).  Slice j
 * takes its step k in round j + 2k: round t's sends and receives (on the
 * main stream) run beside round t-1's adds (on a side stream), and round
 * t waits for round t-2's adds, the ones its slices' sends read.
 */
#ifndef GPULAB_MULTIGPU_SENDRECV_H
#define GPULAB_MULTIGPU_SENDRECV_H

#include <algorithm>
#include <cstdint>

namespace sendrecv {

struct plan {
	uint64_t n = 0, share = 0, slice = 1, pieces = 1; /* pieces: slices per chunk */
	unsigned w = 1;

	/* n elements over w ranks, in slices of at most chunk_bytes, whole
	 * 256-element runs so that every slice starts 1 KiB-aligned */
	plan(uint64_t n_, unsigned w_, uint64_t chunk_bytes, uint64_t elem)
		: n(n_), share((n_ + w_ - 1) / w_), w(w_)
	{
		slice = std::max<uint64_t>(chunk_bytes / elem / 256 * 256, 256);
		pieces = std::max<uint64_t>((share + slice - 1) / slice, 1);
	}
	long steps() const { return 2 * ((long)w - 1); }
	long rounds() const { return w < 2 ? 0 : (long)pieces + 2 * (steps() - 1); }
	/* round t's first slice: the one taking its last step, or slice 0 or 1 */
	long first(long t) const { return std::max(t - 2 * (steps() - 1), t % 2); }
	/* a round no slice takes a step in: the odd ones of a single slice,
	 * which the plugin skips (NCCL's group and the events cost time) */
	bool empty(long t) const { return first(t) > std::min(t, (long)pieces - 1); }
	/* chunk c's slice j: where it starts in the vector, and how long */
	uint64_t at(uint64_t c, uint64_t j) const { return c * share + j * slice; }
	uint64_t len(uint64_t c, uint64_t j) const
	{
		uint64_t chunk = c * share >= n ? 0 : std::min(share, n - c * share);
		return j * slice >= chunk ? 0 : std::min(slice, chunk - j * slice);
	}
};

/* One slice's step in one round, on rank `me`: it sends send_len
 * elements from in (its first step) or out, at `from`, to the next rank,
 * and receives recv_len from the previous one into tmp at `into` (to add
 * to out at `sum`) or into out at `into`. */
struct move {
	long k;
	uint64_t j, from, send_len, into, recv_len, sum;
	bool from_in, into_tmp;
};

/* Round t's moves of rank me, slice by slice, in the same order on every
 * rank (NCCL pairs a sender's calls with its receiver's in order). */
template <class F>
void each_move(const plan &p, unsigned me, long t, F f)
{
	for (long j = p.first(t); j <= t && j < (long)p.pieces; j += 2) {
		long k = (t - j) / 2;
		/* step k sends chunk (me - k) mod w and receives (me - k - 1) mod w */
		uint64_t sent = (me + 2 * (uint64_t)p.w - (uint64_t)k % p.w) % p.w, got = (sent + p.w - 1) % p.w;
		move m;
		m.k = k, m.j = (uint64_t)j;
		m.from_in = k == 0, m.into_tmp = k < (long)p.w - 1;
		m.from = p.at(sent, m.j), m.send_len = p.len(sent, m.j);
		m.sum = p.at(got, m.j), m.recv_len = p.len(got, m.j);
		m.into = m.into_tmp ? m.j * p.slice : m.sum;
		f(m);
	}
}

} // namespace sendrecv

#endif
