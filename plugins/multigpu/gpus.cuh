/*
 * What an exercise on several GPUs needs beyond <gpulab/lab.cuh>: the GPUs
 * it may count on at plan time, the current device put back on every path,
 * buffers and events on a given device, peer access, and the fork and join
 * that put the work of every GPU inside the core's timing on streams[0].
 * Nothing here is about any one exercise: it is what lab.cuh would hold
 * for exercises that declare max_devices > 1.
 */
#ifndef GPULAB_MULTIGPU_GPUS_CUH
#define GPULAB_MULTIGPU_GPUS_CUH

#include <gpulab/lab.cuh>

#include <algorithm>
#include <vector>

namespace gpus {

const unsigned max_gpus = 8;

inline cudaStream_t stream(const gpulab_ctx *ctx, unsigned r)
{
	return reinterpret_cast<cudaStream_t>(ctx->streams[r]);
}

/* Keeps the device current at construction and makes it current again at
 * the end of the scope, whichever return leaves it: callbacks start on
 * device 0 and must leave it so. */
struct device_kept {
	int dev = 0;
	bool ok;
	device_kept() : ok(cudaGetDevice(&dev) == cudaSuccess) {}
	~device_kept()
	{
		if (ok)
			cudaSetDevice(dev);
	}
	device_kept(const device_kept &) = delete;
	device_kept &operator=(const device_kept &) = delete;
};

/* At plan time, before the core has opened anything: the ordinals it will
 * hand the exercise (every visible GPU from the current one on, wrapping,
 * up to max), as the core numbers them.  0 where CUDA sees no GPU: the
 * core then says so itself, so plan checks nothing that needs one. */
inline unsigned visible(unsigned max, int *ordinals)
{
	int count = 0, cur = 0;
	if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
		cudaGetLastError(); /* not sticky, but leave nothing behind */
		return 0;
	}
	if (cudaGetDevice(&cur) != cudaSuccess)
		cur = 0;
	unsigned n = std::min((unsigned)count, max);
	for (unsigned i = 0; i < n; i++)
		ordinals[i] = (cur + (int)i) % count;
	return n;
}

/* Can device a's kernels read device b's memory (NVLink or PCIe)? */
inline bool can_read(int a, int b)
{
	int can = 0;
	if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess) {
		cudaGetLastError();
		return false;
	}
	return can != 0;
}

/* Let each of the first g GPUs reach the others' memory directly, where
 * the hardware allows it (plan has refused exercises that need it where it
 * does not).  Enabling is per process and stays: "already enabled", by an
 * earlier exercise or by NCCL, is cleared and is no error. */
inline int enable_peers(gpulab_ctx *ctx, unsigned g)
{
	device_kept keep;
	for (unsigned i = 0; i < g; i++) {
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[i]));
		for (unsigned j = 0; j < g; j++) {
			if (j == i || !can_read(ctx->devices[i], ctx->devices[j]))
				continue;
			cudaError_t e = cudaDeviceEnablePeerAccess(ctx->devices[j], 0);
			if (e == cudaErrorPeerAccessAlreadyEnabled)
				cudaGetLastError();
			else
				LAB_TRY(ctx, e);
		}
	}
	return GPULAB_OK;
}

/* The state of a multi-GPU exercise: lab::state's buffers, plus events on
 * each device for the fork and the join, and the exercise's own timing
 * of its runs for the algbw and busbw notes. */
struct state : lab::state {
	unsigned g = 0;                           /* GPUs in use: devices[0..g) */
	cudaEvent_t fork_ev = nullptr;            /* on device 0 */
	cudaEvent_t join_ev[max_gpus] = {};       /* on device r */
	cudaEvent_t t0 = nullptr, t1 = nullptr;   /* around run(), on streams[0] */
	bool timing = false;                      /* t0..t1 recorded, not yet read */
	bool timed = false;                       /* this run records t0..t1 */
	std::vector<float> ms;                    /* every run's time */

	~state() override
	{
		for (cudaEvent_t e : join_ev)
			if (e)
				cudaEventDestroy(e);
		for (cudaEvent_t e : { fork_ev, t0, t1 })
			if (e)
				cudaEventDestroy(e);
	}

	/* count elements on GPU r (at least one, so every pointer is real) */
	template <typename T>
	int alloc_on(gpulab_ctx *ctx, unsigned r, T **p, size_t count)
	{
		device_kept keep;
		LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
		return alloc(ctx, p, count ? count : 1);
	}

	/* The events of the fork, the join and the timing; first in setup. */
	int open(gpulab_ctx *ctx, unsigned gpus)
	{
		device_kept keep;
		g = gpus;
		for (unsigned r = 0; r < g; r++) {
			LAB_TRY(ctx, cudaSetDevice(ctx->devices[r]));
			LAB_TRY(ctx, cudaEventCreateWithFlags(&join_ev[r], cudaEventDisableTiming));
			if (r == 0) {
				LAB_TRY(ctx, cudaEventCreateWithFlags(&fork_ev, cudaEventDisableTiming));
				LAB_TRY(ctx, cudaEventCreate(&t0));
				LAB_TRY(ctx, cudaEventCreate(&t1));
			}
		}
		return GPULAB_OK;
	}

	/* Every other GPU's stream waits for what streams[0] has so far: the
	 * core's start event, and the previous run whole. */
	int fork(gpulab_ctx *ctx)
	{
		if (g < 2) /* one stream: nothing to wait for (a rank's one GPU) */
			return GPULAB_OK;
		LAB_TRY(ctx, cudaEventRecord(fork_ev, stream(ctx, 0)));
		for (unsigned r = 1; r < g; r++)
			LAB_TRY(ctx, cudaStreamWaitEvent(stream(ctx, r), fork_ev, 0));
		return GPULAB_OK;
	}

	/* streams[0] waits for everything launched on the others, so the
	 * core's stop event comes after all of it. */
	int join(gpulab_ctx *ctx)
	{
		for (unsigned r = 1; r < g; r++) {
			LAB_TRY(ctx, cudaEventRecord(join_ev[r], stream(ctx, r)));
			LAB_TRY(ctx, cudaStreamWaitEvent(stream(ctx, 0), join_ev[r], 0));
		}
		return GPULAB_OK;
	}

	/* The exercise times its own runs, between the same points of
	 * streams[0] as the core's events, for the notes.  A run enqueued
	 * while the last timed one is still in flight (the core's --batch)
	 * goes untimed: two more event records a run would slow a batch of
	 * short collectives, whose enqueue is then all the host does. */
	int begin_run(gpulab_ctx *ctx)
	{
		int rc = collect(ctx);
		if (rc != GPULAB_OK)
			return rc;
		timed = !timing;
		if (timed)
			LAB_TRY(ctx, cudaEventRecord(t0, stream(ctx, 0)));
		return GPULAB_OK;
	}

	int end_run(gpulab_ctx *ctx)
	{
		if (!timed)
			return GPULAB_OK;
		LAB_TRY(ctx, cudaEventRecord(t1, stream(ctx, 0)));
		timing = true;
		return GPULAB_OK;
	}

	/* A run's start on several GPUs, and its finish, timed. */
	int start(gpulab_ctx *ctx)
	{
		int rc = begin_run(ctx);
		return rc != GPULAB_OK ? rc : fork(ctx);
	}

	int finish(gpulab_ctx *ctx)
	{
		int rc = join(ctx);
		return rc != GPULAB_OK ? rc : end_run(ctx);
	}

	/* The last timed run's time, once it is done.  Under --batch the core
	 * enqueues the next run without waiting, so it may still be in
	 * flight: it is read later, and the runs enqueued meanwhile go
	 * untimed (the batch's own time is the core's). */
	int collect(gpulab_ctx *ctx)
	{
		float t;
		if (!timing)
			return GPULAB_OK;
		cudaError_t q = cudaEventQuery(t1);
		if (q == cudaErrorNotReady)
			return GPULAB_OK; /* "not actually an error": no last error is left */
		timing = false;
		if (q != cudaSuccess) {
			ctx->error(ctx, "cudaEventQuery(t1): %s", cudaGetErrorString(q));
			return GPULAB_ECUDA;
		}
		LAB_TRY(ctx, cudaEventElapsedTime(&t, t0, t1));
		try {
			ms.push_back(t);
		} catch (const std::bad_alloc &) {
			ctx->error(ctx, "out of host memory");
			return GPULAB_ENOMEM;
		}
		return GPULAB_OK;
	}

	/* nccl-tests' figures, from the median of every run so far (warm-ups
	 * included): algbw = bytes / time, busbw = algbw * factor. */
	int note_bandwidth(gpulab_ctx *ctx, double bytes, double factor)
	{
		int rc = collect(ctx);
		if (rc != GPULAB_OK || ms.empty())
			return rc;
		std::vector<float> v(ms);
		std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
		double med = v[v.size() / 2];
		if (med > 0) {
			ctx->note(ctx, "algbw", bytes / (med * 1e6));
			ctx->note(ctx, "busbw", bytes / (med * 1e6) * factor);
		}
		return GPULAB_OK;
	}
};

} // namespace gpus

#endif
