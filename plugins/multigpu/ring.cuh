/*
 * A ring all-reduce written by hand: a reduce-scatter, then an all-gather,
 * the algorithm of NCCL's ring, chunked and pipelined, with kernels that
 * read the neighbour's buffer through peer access.
 *
 * The ring.  The g GPUs are ranks 0..g-1, each with an input `in` and an
 * output `out` of n elements; rank r reads from prev = r-1 (mod g).  The
 * vector is cut into g segments.
 *   Reduce-scatter, steps t = 0..g-2: rank r adds segment k = r-t-1 of
 *   prev's buffer to its own input,
 *       out_r[k] = in_r[k] + (t == 0 ? in_prev[k] : out_prev[k]),
 *   so segment k starts at rank k+1, gains one input per step, and is
 *   complete at rank k-1 after g-1 steps: rank r then owns segment r+1.
 *   All-gather, steps t = g-1..2g-3 (s = t-g+1): rank r copies segment
 *   k = r-s, which prev completed or received one step before,
 *       out_r[k] = out_prev[k].
 * Every step moves n/g elements into every rank at once, over every link
 * of the ring in parallel: 2(g-1) steps of n/g, which is where busbw's
 * factor 2(g-1)/g comes from.
 *
 * Chunks and the pipeline.  Each segment is cut into chunks of at most
 * `chunk` bytes; item (t, j), step t on chunk j, is one kernel.  Items are
 * issued in wavefronts, u = t + j: item (t, j) needs prev's item (t-1, j),
 * issued one wavefront earlier, so while a rank waits for one chunk's
 * neighbour its other chunks are already moving, and the latency of each
 * hand-over hides behind a wavefront of work instead of stalling every
 * GPU 2(g-1) times.  Chunk j runs on lane j % depth of its GPU (lane 0 is
 * the core's stream, the others are streams of the ring's own), so the
 * kernels of neighbouring chunks overlap: one's tail with the next one's
 * start.  The grain is a trade: each item costs a few microseconds of
 * launch, hand-over and ramp, so many small chunks lose more than the
 * pipeline gains while every link is busy anyway; on 2 and 4 H200s
 * (NVLink through NVSwitch) 32 MiB chunks and 2 lanes did best at 256 MiB
 * and above; a segment (the vector over g) under 32 MiB is one chunk.
 *
 * Synchronisation: stream order and events only; nothing spins, so the
 * ring cannot deadlock and runs under compute-sanitizer.  After item
 * (t, j) rank r records an event; before item (t, j) it waits for prev's
 * event of item (t-1, j).  That orders both hazards.  Read after write:
 * prev's chunk is complete before r reads it.  Write after read: the
 * chunk r overwrites at step t was last read by next = r+1 at step t-g+1,
 * and the chain of waits r <- r-1 <- ... <- r-(g-1) = r+1 reaches back
 * exactly to that item.  Each (rank, step) keeps two events, for even and
 * odd chunks: a slot is recorded again only after the wait on its last
 * record has been issued.  Runs are separated by the fork and the join
 * (gpus.cuh): a run starts on every GPU once the last one has ended.
 *
 * Launching.  Issuing 2(g-1) x chunks kernels, waits and events per GPU
 * costs the host microseconds each; `-p launch=graph` (the default in one
 * process) captures the whole schedule, every GPU's part of it, into one
 * CUDA graph in setup, and run() launches that; `-p launch=streams`
 * issues it anew each run, to show what that costs.
 *
 * As ranks (one process a GPU, on one machine), the ring is the same
 * schedule, each rank issuing its own part: prev's buffers and events
 * are mapped over CUDA IPC (ipc.cuh), and the ranks meet on the host
 * after each wavefront, so that every wait on prev's event of wavefront
 * u-1 is issued after prev recorded it, and before prev records that
 * slot again in wavefront u+1.  The meetings cost the host, not the
 * GPUs, as long as a wavefront's kernels outlast one; no graph can hold
 * them, so as ranks the schedule is issued every run.
 */
#ifndef GPULAB_MULTIGPU_RING_CUH
#define GPULAB_MULTIGPU_RING_CUH

#include "../reduce/best.cuh" /* vec4<T> */
#include "gpus.cuh"
#include "ipc.cuh"

namespace ring {

const unsigned block = 512;
const int loads = 4;                  /* 16-byte loads in flight per thread and buffer */
const uint64_t align = 64;            /* elements: segments and chunks start 256-byte aligned */
const unsigned max_steps = 2 * (gpus::max_gpus - 1);
const unsigned max_depth = 4;         /* streams per GPU: chunks in flight at once */

template <typename V>
__device__ __forceinline__ V add4(V a, V b)
{
	return V{ a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w };
}

/* One item: out = mine + theirs (reduce-scatter) or out = theirs
 * (all-gather), where theirs is the neighbour's memory, read over the
 * link.  Each element is read once, so the loads stream past L1 (and a
 * chunk rewritten by the neighbour between steps is never served stale). */
template <typename T, bool ADD>
__global__ void __launch_bounds__(block)
step(T *__restrict__ out, const T *__restrict__ mine, const T *__restrict__ theirs, size_t n)
{
	using V = typename vec4<T>::type;
	V *o = reinterpret_cast<V *>(out);
	const V *m = reinterpret_cast<const V *>(mine), *p = reinterpret_cast<const V *>(theirs);
	const size_t nv = n / 4, stride = (size_t)gridDim.x * block;
	for (size_t i = (size_t)blockIdx.x * block + threadIdx.x; i < nv; i += loads * stride) {
		V a[loads], b[loads];
#pragma unroll
		for (int k = 0; k < loads; k++)
			if (i + k * stride < nv) {
				b[k] = __ldcs(p + i + k * stride);
				if constexpr (ADD)
					a[k] = __ldcs(m + i + k * stride);
			}
#pragma unroll
		for (int k = 0; k < loads; k++)
			if (i + k * stride < nv) {
				if constexpr (ADD)
					o[i + k * stride] = add4(a[k], b[k]);
				else
					o[i + k * stride] = b[k];
			}
	}
	size_t t = nv * 4 + (size_t)blockIdx.x * block + threadIdx.x; /* the last n % 4 */
	if (t < n) {
		if constexpr (ADD)
			out[t] = mine[t] + theirs[t];
		else
			out[t] = theirs[t];
	}
}

/* Where each rank works at each step: segments and chunks of n elements. */
struct layout {
	unsigned g = 1;
	uint64_t n = 0, seg = 0, chunk = 0, chunks = 1;

	void plan(unsigned gpus, uint64_t elements, uint64_t chunk_elements)
	{
		g = gpus;
		n = elements;
		seg = lab::div_up(lab::div_up(n, g), align) * align;
		chunk = std::min(std::max(chunk_elements / align * align, align), seg);
		chunks = lab::div_up(seg, chunk);
	}
	unsigned steps() const { return 2 * (g - 1); }
	/* the segment rank r works on at step t */
	unsigned segment(unsigned r, unsigned t) const
	{
		unsigned back = t < g - 1 ? t + 1 : t - (g - 1);
		return (r + g - back) % g;
	}
	/* chunk j of segment k: elements [*lo, *hi), empty past n */
	void range(unsigned k, uint64_t j, uint64_t *lo, uint64_t *hi) const
	{
		uint64_t s0 = std::min(k * seg, n), s1 = std::min(s0 + seg, n);
		*lo = std::min(s0 + j * chunk, s1);
		*hi = std::min(*lo + chunk, s1);
	}
};

/* The ring's buffers, events and launch sizes, on top of gpus::state.
 * Arrays are by this process's GPU (in one process, its ring rank); as a
 * rank, entry 0 is this rank's, and prev's come from `peers`. */
struct state : gpus::state {
	void *in[gpus::max_gpus] = {}, *out[gpus::max_gpus] = {};
	layout lay;                                          /* lay.g: the ring's ranks */
	cudaEvent_t done[gpus::max_gpus][max_steps][2] = {}; /* GPU, step, chunk parity */
	unsigned grid[gpus::max_gpus] = {};                  /* blocks of `step` resident at once */
	unsigned depth = 1;                                  /* lanes per GPU */
	cudaStream_t lane[gpus::max_gpus][max_depth] = {};   /* lane 0: the core's stream */
	cudaEvent_t lane_done[gpus::max_gpus][max_depth] = {};
	cudaGraphExec_t exec = nullptr;
	bool ranked = false;                                 /* one rank of a launched job */
	unsigned me = 0;                                     /* as a rank: its place in the ring */
	ipc::peers peers;                                    /* as a rank: prev's buffers (in, out), events */

	/* Ring rank r's GPU in this process, its buffers and its event of
	 * step t for chunks of parity p, wherever they live. */
	unsigned local(unsigned r) const { return ranked ? 0 : r; }
	template <typename T>
	T *in_of(unsigned r) const
	{
		return static_cast<T *>(ranked && r != me ? peers.buf[r][0] : in[local(r)]);
	}
	template <typename T>
	T *out_of(unsigned r) const
	{
		return static_cast<T *>(ranked && r != me ? peers.buf[r][1] : out[local(r)]);
	}
	cudaEvent_t event(unsigned r, unsigned t, unsigned p) const
	{
		return ranked && r != me ? peers.ev[r][2 * t + p] : done[local(r)][t][p];
	}

	~state() override
	{
		if (exec)
			cudaGraphExecDestroy(exec);
		for (auto &rank : done)
			for (auto &st : rank)
				for (cudaEvent_t e : st)
					if (e)
						cudaEventDestroy(e);
		for (unsigned r = 0; r < gpus::max_gpus; r++)
			for (unsigned l = 1; l < max_depth; l++) {
				if (lane[r][l])
					cudaStreamDestroy(lane[r][l]);
				if (lane_done[r][l])
					cudaEventDestroy(lane_done[r][l]);
			}
	}

	/* The events of every item, the lanes, and how many blocks fill each
	 * GPU. */
	template <typename T>
	int open_ring(gpulab_ctx *ctx, unsigned lanes)
	{
		gpus::device_kept keep;
		depth = std::min(std::max(lanes, 1u), max_depth);
		for (unsigned r = 0; r < g; r++) {
			int sms = 0, per_sm = 0;
			LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
			LAB_TRY(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx->devices[r]));
			LAB_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, step<T, true>, block, 0));
			grid[r] = (unsigned)(sms * std::max(per_sm, 1));
			for (unsigned t = 0; t < lay.steps(); t++)
				for (cudaEvent_t &e : done[r][t]) /* as a rank, next waits for them */
					LAB_TRY(ctx, cudaEventCreateWithFlags(&e, cudaEventDisableTiming |
										  (ranked ? cudaEventInterprocess : 0)));
			lane[r][0] = gpus::stream(ctx, r);
			for (unsigned l = 1; l < depth; l++) {
				LAB_TRY(ctx, cudaStreamCreateWithFlags(&lane[r][l], cudaStreamNonBlocking));
				LAB_TRY(ctx, cudaEventCreateWithFlags(&lane_done[r][l], cudaEventDisableTiming));
			}
		}
		return GPULAB_OK;
	}

	/* The lanes beyond the core's streams join the fork and the join. */
	int fork_lanes(gpulab_ctx *ctx)
	{
		int rc = fork(ctx);
		if (rc == GPULAB_OK && g < 2 && depth > 1) /* fork() records nothing for one GPU (a rank's) */
			LAB_TRY(ctx, cudaEventRecord(fork_ev, gpus::stream(ctx, 0)));
		for (unsigned r = 0; rc == GPULAB_OK && r < g; r++)
			for (unsigned l = 1; l < depth; l++)
				LAB_TRY(ctx, cudaStreamWaitEvent(lane[r][l], fork_ev, 0));
		return rc;
	}

	int join_lanes(gpulab_ctx *ctx)
	{
		for (unsigned r = 0; r < g; r++)
			for (unsigned l = 1; l < depth; l++) {
				LAB_TRY(ctx, cudaEventRecord(lane_done[r][l], lane[r][l]));
				LAB_TRY(ctx, cudaStreamWaitEvent(lane[r][0], lane_done[r][l], 0));
			}
		return join(ctx);
	}

	/* Wavefront u of ring rank r: item (t, j) for every step t with
	 * j = u - t a chunk, the oldest chunk first. */
	template <typename T>
	int wavefront(gpulab_ctx *ctx, uint64_t u, unsigned r)
	{
		const unsigned g_ = lay.g, prev = (r + g_ - 1) % g_, l = local(r);
		const uint64_t steps = lay.steps(), chunks = lay.chunks;
		const uint64_t t_hi = std::min(u, steps - 1), t_lo = u >= chunks ? u - chunks + 1 : 0;
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[l]));
		for (uint64_t t = t_hi + 1; t-- > t_lo;) {
			const uint64_t j = u - t;
			const cudaStream_t q = lane[l][j % depth];
			uint64_t lo, hi;
			lay.range(lay.segment(r, (unsigned)t), j, &lo, &hi);
			if (t > 0)
				LAB_TRY(ctx, cudaStreamWaitEvent(q, event(prev, (unsigned)t - 1, j % 2), 0));
			if (hi > lo) {
				const T *theirs = (t == 0 ? in_of<T>(prev) : out_of<T>(prev)) + lo;
				const size_t len = hi - lo;
				const unsigned blocks = (unsigned)std::min<uint64_t>(grid[l], lab::div_up(lab::div_up(len, 4), block));
				if (t < g_ - 1)
					step<T, true><<<blocks, block, 0, q>>>(out_of<T>(r) + lo, in_of<T>(r) + lo, theirs, len);
				else
					step<T, false><<<blocks, block, 0, q>>>(out_of<T>(r) + lo, nullptr, theirs, len);
				LAB_LAUNCHED(ctx);
			}
			LAB_TRY(ctx, cudaEventRecord(done[l][t][j % 2], q));
		}
		return GPULAB_OK;
	}

	/* The whole all-reduce, every GPU's part, in wavefronts; as a rank,
	 * this rank's part, the ranks meeting after each wavefront.  Every
	 * rank meets as often, whatever failed (rc: the run's start), since
	 * the meeting carries it. */
	template <typename T>
	int enqueue(gpulab_ctx *ctx, int rc = GPULAB_OK)
	{
		gpus::device_kept keep;
		if (lay.g == 1) { /* a ring of one: the sum is the input */
			if (rc == GPULAB_OK)
				LAB_TRY(ctx, cudaMemcpyAsync(out[0], in[0], lay.n * sizeof(T), cudaMemcpyDeviceToDevice,
							     gpus::stream(ctx, 0)));
			return rc;
		}
		if (rc == GPULAB_OK)
			rc = fork_lanes(ctx);
		for (uint64_t u = 0; u < lay.steps() + lay.chunks - 1; u++) {
			for (unsigned r = 0; rc == GPULAB_OK && r < lay.g; r++)
				if (!ranked || r == me)
					rc = wavefront<T>(ctx, u, r);
			if (ranked)
				rc = ipc::meet(ctx, rc, "a step of the ring");
		}
		return rc != GPULAB_OK ? rc : join_lanes(ctx);
	}

	/* The same schedule, captured once into a graph that spans the GPUs. */
	template <typename T>
	int capture(gpulab_ctx *ctx)
	{
		cudaGraph_t graph = nullptr;
		cudaStream_t q = gpus::stream(ctx, 0);
		LAB_TRY(ctx, cudaStreamBeginCapture(q, cudaStreamCaptureModeThreadLocal));
		int rc = enqueue<T>(ctx);
		cudaError_t e = cudaStreamEndCapture(q, &graph); /* ends it on every path */
		if (rc == GPULAB_OK && e != cudaSuccess) {
			ctx->error(ctx, "cudaStreamEndCapture: %s", cudaGetErrorString(e));
			rc = GPULAB_ECUDA;
		}
		if (rc == GPULAB_OK && (e = cudaGraphInstantiate(&exec, graph, 0)) != cudaSuccess) {
			ctx->error(ctx, "cudaGraphInstantiate: %s", cudaGetErrorString(e));
			rc = GPULAB_ECUDA;
		}
		if (graph)
			cudaGraphDestroy(graph);
		return rc;
	}
};

} // namespace ring

#endif
