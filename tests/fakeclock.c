/*
 * A clock that ticks by the call, for tests/golden.sh: preloaded into
 * gpulab, it makes a run of the host-only fake plugin print the same bytes
 * every time, so that a change that must not change the output (a
 * refactoring) is checked byte for byte, timings included.
 *
 * CLOCK_MONOTONIC (and every other clock) advances about 1 us per call,
 * by a step that varies from call to call (so that runs differ, and the
 * noise, intervals and speedups are not all alike) but is the same at the
 * same call each time; time() is one fixed date, and getpid() one fixed number, as
 * "random" seeds are drawn from the clock and the process id.  Host-only runs read the time through
 * clock_gettime alone (core/run/measure.c), on one thread, so the
 * sequence of readings, and every figure made from them, is the same
 * each run.
 */
#ifndef _GNU_SOURCE /* where configure's flags already define it */
#define _GNU_SOURCE
#endif
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static atomic_ullong ticks;

/* Call k's share of a microsecond, from a hash of k: under 1 us */
static unsigned long long jitter(unsigned long long k)
{
	k ^= k >> 31;
	k *= 0x94d049bb133111ebull;
	return (k ^ (k >> 29)) % 997ull;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	(void)id;
	unsigned long long k = atomic_fetch_add(&ticks, 1) + 1;
	/* 1 us a call, give or take half: monotonic, as the jitter is under 1 us */
	unsigned long long ns = 1000000000ull + k * 1000ull + jitter(k);
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
	return 0;
}

time_t time(time_t *t)
{
	time_t now = 1767225600; /* 2026-01-01T00:00:00Z */
	if (t)
		*t = now;
	return now;
}

pid_t getpid(void)
{
	return 4242;
}
