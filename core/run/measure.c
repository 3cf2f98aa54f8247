#include "run/measure.h"

#include "exitcode.h"
#include "run/group.h"
#include "interrupt.h"
#include "stats.h"
#include "run/watchdog.h"

#include <math.h>
#include <stdint.h>

#include <cuda_runtime_api.h>
/* NVTX 3 is header-only: it costs nothing until a profiler is attached */
#include <nvtx3/nvToolsExt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The host clock in whole nanoseconds.  A time is the difference of two
 * readings divided once: (t1 - t0) / 1e6 is the double nearest the
 * exact milliseconds, whose shortest text is short ("0.001234"), where
 * the difference of two milliseconds-since-boot doubles carries 17
 * digits of rounding into every sample a record keeps and a reader
 * parses back. */
static int64_t host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double ms_since(int64_t t0)
{
	return (double)(host_ns() - t0) / 1e6;
}

/* Record a failure; the first message (the plugin's own) wins. */
static int failed(struct job *j, int exitcode, const char *what, cudaError_t e)
{
	if (!j->res.message[0])
		snprintf(j->res.message, sizeof j->res.message, "%s%s%s", what,
			 e != cudaSuccess ? ": " : "", e != cudaSuccess ? cudaGetErrorString(e) : "");
	j->res.outcome = OUTCOME_ERROR;
	j->res.exitcode = exitcode;
	return exitcode;
}

/* ctx->chose was told what it cannot record: the point ends in an error
 * with that reason, over whatever the plugin said or returned after. */
static int bad_plugin(struct job *j)
{
	snprintf(j->res.message, sizeof j->res.message, "%s", j->bad_choice);
	return failed(j, EXIT_PLUGIN, "", cudaSuccess);
}

static int host_only(const struct job *j)
{
	return (j->pick.ex->flags & GPULAB_HOST_ONLY) != 0;
}

static int step_failed(struct job *j, int rc, const char *step)
{
	j->res.lost |= rc == GPULAB_ELOST; /* the plugin knows its device is gone */
	return failed(j, exit_for_status(rc), step, host_only(j) ? cudaSuccess : cudaGetLastError());
}

/* Writing a buffer twice the size of L2 evicts what the last repetition
 * left there, so the next one reads from device memory. */
static cudaError_t flush_l2(struct bench *b, cudaStream_t s)
{
	cudaError_t e;
	if (!b->flush_buf) {
		b->flush_bytes = 2 * b->dev->l2_bytes;
		if ((e = cudaMalloc(&b->flush_buf, b->flush_bytes)) != cudaSuccess)
			return e;
	}
	return cudaMemsetAsync(b->flush_buf, 0, b->flush_bytes, s);
}

struct timing {
	double *gpu, *host, *total; /* per timed sample, in ms */
	size_t n, cap;              /* samples taken, and room for */
	double mean, m2, sum;       /* of gpu: Welford's running mean and squared deviations, and the sum */
	double window[STABLE_WINDOW]; /* the noise at the last checks, for settled() */
	unsigned checks;
	cudaEvent_t start, stop;
	int64_t t0;                 /* when sampling began (ns) */
	double waited_s;            /* under a launcher, how long it has gone (s) */
};

/* Room for one more sample. */
static int grow(struct timing *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	double *g = realloc(t->gpu, cap * sizeof *g);
	if (g)
		t->gpu = g;
	double *h = g ? realloc(t->host, cap * sizeof *h) : NULL;
	if (h)
		t->host = h;
	double *x = h ? realloc(t->total, cap * sizeof *x) : NULL;
	if (x)
		t->total = x, t->cap = cap;
	return x ? 0 : -1;
}

/* The relative standard deviation of the samples so far: the noise. */
static double noise(const struct timing *t)
{
	return t->n > 1 && t->mean > 0 ? sqrt(t->m2 / (double)(t->n - 1)) / t->mean : INFINITY;
}

/* Has the noise settled?  Every STABLE_EVERY runs, once min_time is
 * reached, the noise goes into a window of the last STABLE_WINDOW
 * checks; when their spread is under STABLE_SPREAD of the latest, more
 * runs would measure the same noise, not a lower one. */
static int settled(struct timing *t)
{
	if (t->n % STABLE_EVERY)
		return 0;
	double now = noise(t);
	t->window[t->checks++ % STABLE_WINDOW] = now;
	return t->checks >= STABLE_WINDOW && stats_settled(t->window, STABLE_WINDOW, now, STABLE_SPREAD);
}

/* Enough samples, and why?  An exact count when asked for; else low
 * noise over enough GPU time, a noise that has settled above the limit,
 * or the timeout, past a floor of a few samples. */
static int enough(const struct bench *b, const struct job *j, struct timing *t, double waited_s, enum stop_reason *why)
{
	const struct stopping *s = &b->stop;
	if (j->exact_reps)
		return *why = STOP_COUNT, t->n >= j->reps;
	if (t->n >= MAX_SAMPLES)
		return *why = STOP_MAX_RUNS, 1;
	int long_enough = t->n >= MIN_SAMPLES && t->sum >= 1e3 * s->min_time_s;
	if (long_enough && noise(t) <= s->max_noise)
		return *why = STOP_NOISE, 1;
	if (long_enough && settled(t))
		return *why = STOP_STABLE, 1;
	return *why = STOP_TIMEOUT, t->n >= 3 && waited_s >= s->timeout_s;
}

/* How long the point has sampled, in s: under a launcher the slowest
 * rank's clock as of the last sample (together()), so that every rank
 * stops after the same sample. */
static double waited(const struct bench *b, const struct timing *t)
{
	return b->group ? t->waited_s : ms_since(t->t0) / 1e3;
}

/* Before every run, timed or profiled, and untimed: the exercise's input
 * restored, and the L2 flushed under --cold. */
static int restore(struct bench *b, struct job *j)
{
	const struct gpulab_exercise *e = j->pick.ex;
	cudaError_t ce;
	int rc;
	if (e->reset && (rc = e->reset(&j->ctx)) != GPULAB_OK)
		return step_failed(j, rc, "reset failed");
	if (b->cold && !host_only(j) && (ce = flush_l2(b, (cudaStream_t)j->ctx.stream)) != cudaSuccess)
		return failed(j, EXIT_CUDA, "L2 flush failed", ce);
	return 0;
}

/* The clocks right after a timed run, into the job's tally. */
static void sample_clocks(const struct bench *b, struct clock_stats *c)
{
	struct clock_sample s;
	if (!b->clk || clocks_sample(b->clk, &s))
		return;
	if (!c->samples || s.sm_mhz < c->sm_min)
		c->sm_min = s.sm_mhz;
	if (s.sm_mhz > c->sm_max)
		c->sm_max = s.sm_mhz;
	c->sm_mean += (s.sm_mhz - c->sm_mean) / (c->samples + 1);
	c->mem_mhz = s.mem_mhz;
	c->samples++;
	if (clocks_slowed(s.reasons) || s.sm_mhz < THROTTLE_SHARE * b->clk->max_sm_mhz) {
		c->throttled++;
		c->reasons |= s.reasons;
	}
}

/* The run's streams held (run/hold.h), where the job may be and the hold
 * can be had: 1; else 0, and the run goes unheld.  The first warm-up
 * always goes unheld: with CUDA's lazy loading, a kernel's first launch
 * loads its module, which waits for the device to be idle, and so for
 * the hold (the deadlock the CUDA guide warns of for spinning kernels). */
static int hold_run(struct bench *b, struct job *j, long slot)
{
	if (j->res.timing != TIMING_HELD || (j->warmup && slot == -(long)j->warmup))
		return 0;
	if (b->group) { /* a redo would run the collective on one rank alone */
		j->res.timing = TIMING_UNHELD;
		return 0;
	}
	if (!b->hold_tried) {
		b->hold_tried = 1;
		b->hold = hold_open();
	}
	if (b->hold && hold_streams(b->hold, (cudaStream_t *)j->ctx.streams, j->ctx.devices, j->ctx.ndevices) == cudaSuccess)
		return 1;
	cudaGetLastError();
	j->res.timing = TIMING_UNHELD;
	return 0;
}

/* measure's answer where a signal stopped the point between two samples
 * (interrupt.h): it is not run, and no later one is. */
#define HALTED (-2)

/* timed_run's answer where the sample must be taken again: a spin gave
 * up, the run having waited for its held stream.  Once may be a lazily
 * loaded kernel (as above, with no warm-up); twice, the run waits for
 * the GPU itself, and goes unheld from then on. */
#define REDO (-1)
#define GIVE_UPS_TO_UNHELD 2

/* How many runs a sample of this slot times: the job's --batch for a
 * timed one (1 for an exercise that cannot repeat: job_plan), one for a
 * warm-up. */
static unsigned batch_of(const struct job *j, long slot)
{
	return slot >= 0 && j->batch > 1 ? j->batch : 1;
}

/* k runs, back to back. */
static int run_k(struct job *j, unsigned k)
{
	int rc = GPULAB_OK;
	for (unsigned i = 0; i < k && rc == GPULAB_OK; i++)
		rc = j->pick.ex->run(&j->ctx);
	return rc;
}

/* run() alone (k of them, under --batch), timed: with events on the
 * stream, or with the host clock for a host-only exercise; 0, an exit
 * code, or REDO.  *ms is the time of one run: the batch's over k. */
static int timed_run_unguarded(struct bench *b, struct job *j, struct timing *t, long slot, double *ms)
{
	cudaStream_t s = (cudaStream_t)j->ctx.stream;
	cudaError_t ce;
	float gpu_ms;
	unsigned k = batch_of(j, slot);
	int rc = GPULAB_OK, held;
	if (host_only(j)) {
		int64_t t0 = host_ns();
		rc = run_k(j, k);
		*ms = (double)(host_ns() - t0) / (1e6 * k); /* one division: see host_ns */
		return rc == GPULAB_OK ? 0 : step_failed(j, rc, "run failed");
	}
	held = hold_run(b, j, slot);
	if ((ce = cudaEventRecord(t->start, s)) == cudaSuccess) {
		rc = run_k(j, k);
		if (rc == GPULAB_OK)
			ce = cudaEventRecord(t->stop, s);
	}
	if (held)
		hold_release(b->hold);
	if (ce != cudaSuccess)
		return failed(j, EXIT_CUDA, "cudaEventRecord failed", ce);
	if (rc != GPULAB_OK)
		return step_failed(j, rc, "run failed");
	if ((ce = cudaEventSynchronize(t->stop)) != cudaSuccess || (ce = cudaGetLastError()) != cudaSuccess
	    || (ce = cudaEventElapsedTime(&gpu_ms, t->start, t->stop)) != cudaSuccess)
		return failed(j, EXIT_CUDA, "the exercise's GPU work failed", ce);
	if (held && hold_gave_up(b->hold)) {
		if (++j->gave_up >= GIVE_UPS_TO_UNHELD)
			j->res.timing = TIMING_UNHELD;
		return REDO;
	}
	*ms = gpu_ms / k;
	return 0;
}

/* The watchdog over k runs and the wait for them: --watchdog (a limit
 * for one run) where given, else a default for a user's code alone. */
static void guard_run(const struct bench *b, const struct job *j, unsigned k)
{
	char name[256], point[512], line[1024];
	double s = b->watchdog_s >= 0 ? b->watchdog_s : (j->pick.ex->flags & GPULAB_USER_CODE) ? WATCHDOG_DEFAULT_S : 0;
	if (s <= 0)
		return;
	s *= k;
	snprintf(line, sizeof line, "gpulab: %s (%s): still running after %g s, stopped by the watchdog (%s)\n",
		 job_name(j, name, sizeof name), job_case(j, point, sizeof point), s, options_long(OPT_WATCHDOG));
	watchdog_arm(s, line);
}

/* The same under the watchdog. */
static int timed_run(struct bench *b, struct job *j, struct timing *t, long slot, double *ms)
{
	guard_run(b, j, batch_of(j, slot));
	int rc = timed_run_unguarded(b, j, t, slot, ms);
	watchdog_disarm();
	return rc;
}

/* Under a launcher: this rank did well, another failed the point. */
static int by_peer(struct job *j, int code)
{
	j->res.by_peer = 1;
	return failed(j, code, "another rank failed this point (its own line says how)", cudaSuccess);
}

/* Under a launcher, every rank's repetition ends here: the sample is
 * the slowest rank's (as nccl-tests reports it), and a rank that failed,
 * or that a signal reached, stops them all at the same sample. */
static int together(struct bench *b, struct job *j, struct timing *t, int rc, double *ms, double *h)
{
	double v[5] = { rc > 0 ? rc : 0, rc == HALTED || interrupt_pending(), *ms, *h, ms_since(t->t0) / 1e3 };
	if (!b->group)
		return rc;
	if (group_max(b->group, v, 5))
		return failed(j, EXIT_RANKS, "the ranks lost each other", cudaSuccess);
	if (rc || v[0])
		return rc ? rc : by_peer(j, (int)v[0]);
	*ms = v[2], *h = v[3], t->waited_s = v[4];
	return v[1] ? HALTED : 0;
}

/* One repetition: untimed restore, then the timed run (or batch of
 * them), then the host step on the host clock.  An NVTX range names it for ncu and nsys:
 * "warmup 0", ..., "rep 0", ... inside the exercise's own range. */
static int repetition(struct bench *b, struct job *j, struct timing *t, long slot)
{
	const struct gpulab_exercise *e = j->pick.ex;
	char range[32];
	double ms = 0;
	int rc;

	snprintf(range, sizeof range, "%s %ld", slot < 0 ? "warmup" : "rep", slot < 0 ? slot + (long)j->warmup : slot);
	do { /* at most GIVE_UPS_TO_UNHELD + 1 times */
		if ((rc = restore(b, j)))
			return rc;
		nvtxRangePushA(range);
		rc = timed_run(b, j, t, slot, &ms);
		nvtxRangePop();
	} while (rc == REDO);
	int64_t h0 = host_ns();
	if (rc == 0 && e->host && (rc = e->host(&j->ctx)) != GPULAB_OK)
		rc = step_failed(j, rc, "host step failed");
	double h = e->host ? ms_since(h0) : 0;
	if ((rc = together(b, j, t, rc, &ms, &h)))
		return rc;
	if (slot >= 0 && !host_only(j))
		sample_clocks(b, &j->res.clocks);
	if (slot >= 0) {
		double d = ms - t->mean;
		t->gpu[slot] = ms;
		t->host[slot] = h;
		t->total[slot] = ms + h;
		t->n = (size_t)slot + 1;
		t->mean += d / (double)t->n;
		t->m2 += d * (ms - t->mean);
		t->sum += ms * batch_of(j, slot); /* the GPU time spent, for --min-time */
	}
	return 0;
}

/* The statistics of the timed runs, and their samples kept in order. */
static int summarise(struct job *j, struct timing *t, enum stop_reason why)
{
	struct result *r = &j->res;
	struct stats gpu, host, total;
	unsigned n = (unsigned)t->n;
	if (stats_summarise(t->gpu, n, &gpu) || stats_summarise(t->host, n, &host)
	    || stats_summarise(t->total, n, &total) || !(r->samples = malloc(n * sizeof *r->samples)))
		return failed(j, EXIT_NOMEM, "out of host memory for the statistics", cudaSuccess);
	memcpy(r->samples, t->gpu, n * sizeof *r->samples);
	r->nsamples = n;
	r->noise = noise(t); /* as the stopping rule saw it */
	r->converged = j->exact_reps || r->noise <= j->stop_noise;
	if (stats_median_ci(t->gpu, n, STATS_CI_CONF, &r->median_lo, &r->median_hi))
		r->median_lo = r->median_hi = NAN;
	r->stopped_by = why;
	r->gpu_med = gpu.median, r->gpu_min = gpu.min, r->gpu_max = gpu.max;
	r->host_med = host.median;
	r->total_med = total.median;
	uint64_t bytes = j->ctx.bytes_read + j->ctx.bytes_written;
	r->gbps = r->gpu_med > 0 ? bytes / (r->gpu_med * 1e6) : 0;
	return 0;
}

static int measure(struct bench *b, struct job *j)
{
	struct timing t = { 0 };
	int rc = 0;
	cudaError_t ce;
	if (!host_only(j) && ((ce = cudaEventCreate(&t.start)) != cudaSuccess || (ce = cudaEventCreate(&t.stop)) != cudaSuccess))
		rc = failed(j, EXIT_CUDA, "cudaEventCreate failed", ce);
	t.t0 = host_ns();
	for (long i = 0; rc == 0 && i < (long)j->warmup; i++) /* a signal under a launcher: together() */
		rc = interrupt_pending() && !b->group ? HALTED : repetition(b, j, &t, i - (long)j->warmup); /* negative: warm-up */
	t.t0 = host_ns(), t.waited_s = 0;
	enum stop_reason why = STOP_COUNT;
	while (rc == 0 && !enough(b, j, &t, waited(b, &t), &why)) {
		if (interrupt_pending() && !b->group)
			rc = HALTED;
		else if (t.n == t.cap && grow(&t))
			rc = failed(j, EXIT_NOMEM, "out of host memory", cudaSuccess);
		else
			rc = repetition(b, j, &t, (long)t.n);
	}
	j->stop_noise = b->stop.max_noise;
	if (rc == 0)
		rc = summarise(j, &t, why);
	if (t.start)
		cudaEventDestroy(t.start);
	if (t.stop)
		cudaEventDestroy(t.stop);
	free(t.gpu);
	free(t.host);
	free(t.total);
	return rc;
}

static int check(struct bench *b, struct job *j)
{
	if (!b->verify) {
		j->res.outcome = OUTCOME_UNVERIFIED;
		return 0;
	}
	int rc = j->pick.ex->verify(&j->ctx);
	if (rc == GPULAB_WRONG) {
		j->res.outcome = OUTCOME_WRONG;
		if (!j->res.message[0])
			snprintf(j->res.message, sizeof j->res.message, "result differs from the CPU reference");
		return EXIT_WRONG;
	}
	if (rc != GPULAB_OK)
		return step_failed(j, rc, "verify failed");
	j->res.outcome = OUTCOME_OK;
	return 0;
}

/* --metrics: each profiled pass starts from the exercise's input, as a
 * timed repetition does, and runs between the profiler's range marks. */
struct pass {
	struct bench *b;
	struct job *j;
};

static int prepare_pass(void *arg)
{
	struct pass *p = arg;
	cudaError_t ce;
	if (interrupt_pending()) /* between two passes, as between two samples */
		return HALTED;
	int rc = restore(p->b, p->j);
	if (rc == 0 && (ce = cudaStreamSynchronize((cudaStream_t)p->j->ctx.stream)) != cudaSuccess)
		return failed(p->j, EXIT_CUDA, "reset failed", ce);
	return rc;
}

static int launch_pass(void *arg)
{
	struct pass *p = arg;
	cudaError_t ce = cudaSuccess;
	guard_run(p->b, p->j, 1);
	int rc = p->j->pick.ex->run(&p->j->ctx);
	if (rc == GPULAB_OK)
		ce = cudaStreamSynchronize((cudaStream_t)p->j->ctx.stream);
	watchdog_disarm();
	if (rc != GPULAB_OK)
		return step_failed(p->j, rc, "run failed");
	if (ce != cudaSuccess || (ce = cudaGetLastError()) != cudaSuccess)
		return failed(p->j, EXIT_CUDA, "the exercise's GPU work failed", ce);
	return 0;
}

static int profile(struct bench *b, struct job *j)
{
	struct pass p = { b, j };
	struct profile_target t = { prepare_pass, launch_pass, &p };
	char err[1024];
	int rc = profiler_collect(b->prof, j->metrics.raw_ptrs, j->metrics.nraw, &t, j->res.raw, &j->res.passes,
				  err, sizeof err);
	if (rc == EXIT_METRICS)
		return failed(j, rc, err, cudaSuccess);
	if (rc)
		return rc;
	j->res.profiled = 1;
	/* the last pass must have computed what the timed runs did: the
	 * replays each started from the exercise's own input */
	if (j->pick.ex->host && (rc = j->pick.ex->host(&j->ctx)) != GPULAB_OK)
		return step_failed(j, rc, "host step failed");
	rc = check(b, j);
	if (rc == EXIT_WRONG)
		snprintf(j->res.message + strlen(j->res.message), sizeof j->res.message - strlen(j->res.message),
			 " (after the profiled runs)");
	return rc;
}

/* A stream on each device the exercise gets: one, or up to its
 * max_devices of those visible. */
static int open_streams(struct bench *b, struct job *j)
{
	unsigned want = !b->group && j->pick.ex->max_devices > 1 ? j->pick.ex->max_devices : 1; /* a rank: its one GPU */
	cudaError_t ce;
	j->ctx.ndevices = 0;
	j->ctx.devices = j->devices;
	j->ctx.streams = j->streams;
	if (host_only(j))
		return 0;
	for (unsigned i = 0; i < want && i < (unsigned)b->dev->count && i < MAX_DEVICES; i++) {
		cudaStream_t s;
		j->devices[i] = (b->dev->ordinal + (int)i) % b->dev->count;
		if ((ce = cudaSetDevice(j->devices[i])) != cudaSuccess
		    || (ce = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) != cudaSuccess)
			return failed(j, EXIT_CUDA, "cudaStreamCreate failed", ce);
		j->streams[j->ctx.ndevices++] = (struct CUstream_st *)s;
	}
	j->ctx.stream = j->streams[0];
	return (ce = cudaSetDevice(b->dev->ordinal)) == cudaSuccess ? 0 : failed(j, EXIT_CUDA, "cudaSetDevice failed", ce);
}

static void close_streams(struct job *j)
{
	for (unsigned i = 0; i < j->ctx.ndevices; i++)
		cudaStreamDestroy((cudaStream_t)j->streams[i]);
	j->ctx.ndevices = 0;
	j->ctx.stream = NULL;
}

/* After a failed point: can the device still run anything?  A sticky
 * error (an illegal address, a trap) stays in the context, and every
 * call returns it from then on; any other error is returned once. */
static int context_lost(const struct bench *b, const struct job *j)
{
	int lost = 0;
	for (unsigned i = 0; i < j->ctx.ndevices; i++) {
		cudaSetDevice(j->devices[i]);
		cudaDeviceSynchronize();
		cudaGetLastError();
		lost |= cudaDeviceSynchronize() != cudaSuccess;
	}
	cudaSetDevice(b->dev->ordinal);
	return lost;
}


/* A point a signal stopped: not run, whatever it had measured (the
 * caller says why). */
static int halted(struct job *j)
{
	j->res.outcome = OUTCOME_NOT_RUN;
	return 0;
}

/* Under a launcher, a step (setup, verify) that failed on any rank has
 * failed on all: the worst code wins, and a rank that itself did well
 * says where to look. */
static int agreed(struct bench *b, struct job *j, int rc)
{
	int worst = b->group ? group_worst(b->group, rc) : rc;
	return worst && !rc ? by_peer(j, worst) : rc;
}

/* A signal stops the point between any two of its steps, as between two
 * samples: a huge point's setup, its CPU check or its profiled passes
 * may each take seconds, and the run is to stop within about one.  Under
 * a launcher every rank stops there if any was signalled. */
static int between_steps(struct bench *b, struct job *j)
{
	double v = interrupt_pending() != 0;
	if (group_max(b->group, &v, 1))
		return failed(j, EXIT_RANKS, "the ranks lost each other", cudaSuccess);
	return v ? HALTED : 0;
}

/* The wall clock for where a point's time went (result.wall), read
 * apart from host_ns: a reading more of the timing clock would shift the
 * ticks of tests/fakeclock.c, from which the golden output's timings
 * come.  Steps of milliseconds to seconds: the calendar clock will do. */
static int64_t wall_ns(void)
{
	struct timespec ts;
	if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Seconds since *t, and *t moved on to now: one step's share of the
 * point's wall time (never below 0, should the calendar clock be set back). */
static double lap_s(int64_t *t)
{
	int64_t now = wall_ns();
	double s = now > *t ? (double)(now - *t) / 1e9 : 0;
	*t = now;
	return s;
}

/* After setup: the timed runs, the check (agreed by the ranks), and
 * --metrics' passes. */
static int timed_and_checked(struct bench *b, struct job *j)
{
	int64_t t = wall_ns();
	int rc;
	if (!(rc = between_steps(b, j)) && !(rc = measure(b, j)))
		rc = between_steps(b, j);
	j->res.wall.sampling = lap_s(&t);
	if (rc)
		return rc;
	rc = agreed(b, j, check(b, j));
	j->res.wall.verify = lap_s(&t);
	if (rc)
		return rc;
	/* a host-only exercise launches nothing to count, and where no job
	 * needs a GPU no profiler was opened: its counters stay unread */
	if (!j->metrics.ncols || host_only(j) || !b->prof)
		return 0;
	rc = (rc = between_steps(b, j)) ? rc : profile(b, j);
	j->res.wall.rest = lap_s(&t);
	return rc;
}

/* Setup's copies and memsets may go on the legacy default stream, which
 * the job's non-blocking streams do not wait for: a cudaMemcpy from
 * pageable memory returns once its data is staged, before it lands, and
 * a run could read its input half written.  (A 65537 x 1 transpose,
 * uploaded as 65537 rows of 4 bytes, read the setup's 0xff past row
 * ~20000 on an H200: issue 44.)  So setup ends with the job's devices
 * idle; it is untimed, and a plugin need not know. */
static int setup_settled(struct job *j)
{
	cudaError_t ce = cudaSuccess;
	for (unsigned i = 0; i < j->ctx.ndevices && ce == cudaSuccess; i++)
		if ((ce = cudaSetDevice(j->devices[i])) == cudaSuccess)
			ce = cudaDeviceSynchronize();
	if (j->ctx.ndevices)
		cudaSetDevice(j->devices[0]);
	return ce == cudaSuccess ? 0 : failed(j, EXIT_CUDA, "setup's GPU work failed", ce);
}

int bench_run(struct bench *b, struct job *j)
{
	char name[256];
	int64_t t = wall_ns();
	j->ctx.group = b->group;
	int rc = agreed(b, j, open_streams(b, j)); /* under a launcher, every rank or none goes on */
	j->res.timing = host_only(j) ? TIMING_HOST : b->unheld ? TIMING_UNHELD : TIMING_HELD;
	nvtxRangePushA(job_name(j, name, sizeof name));
	if (rc == 0) {
		j->in_setup = 1;
		rc = j->pick.ex->setup(&j->ctx);
		j->in_setup = 0;
		if (j->bad_choice[0])
			rc = EXIT_PLUGIN;
		else if (rc != GPULAB_OK)
			rc = step_failed(j, rc, "setup failed");
		else
			rc = setup_settled(j);
		rc = agreed(b, j, rc);
		j->res.wall.setup = lap_s(&t);
		if (rc == 0)
			rc = timed_and_checked(b, j);
		t = wall_ns();
		if (j->bad_choice[0]) /* told wrong, or told outside setup: the plugin's bug, and its message */
			rc = bad_plugin(j);
		j->pick.ex->teardown(&j->ctx);
		j->ctx.state = NULL;
	}
	nvtxRangePop();
	if (rc == HALTED)
		rc = halted(j);
	else if (rc && rc != EXIT_WRONG && !host_only(j))
		j->res.lost |= context_lost(b, j);
	close_streams(j);
	j->res.wall.rest += lap_s(&t); /* the counters' passes are in it already */
	return rc;
}

void bench_free(struct bench *b)
{
	if (b->flush_buf)
		cudaFree(b->flush_buf);
	b->flush_buf = NULL;
	hold_close(b->hold);
	b->hold = NULL;
}
