/*
 * How a session ends (session/finish.h): why it stopped before its last
 * point, what it says then, and its exit code.
 */
#include "session/finish.h"

#include "exitcode.h"
#include "fail.h"
#include "interrupt.h"

#include <stdio.h>

/* The points not reached once the run stopped, and why. */
static void mark_not_run(struct job *jobs, size_t n, const char *why)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.outcome == OUTCOME_NOT_RUN)
			snprintf(jobs[i].res.message, sizeof jobs[i].res.message, "%s", why);
}

/* Were points left not run?  Only then did the run stop before its
 * end: a signal after the last point, or a device lost at it, leaves
 * nothing undone, and the record is not interrupted. */
static int left_undone(const struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.outcome == OUTCOME_NOT_RUN)
			return 1;
	return 0;
}

/* Why the run stopped before its last point: a signal ("SIGINT"), or
 * a point that left the device unusable; "" where it did not.  And what
 * each point not run then says. */
static void stopped_because(const struct job *jobs, size_t n, char *why, size_t len, char *msg, size_t mlen)
{
	char name[256], point[512];
	why[0] = 0;
	snprintf(msg, mlen, "not run");
	if (!left_undone(jobs, n))
		return;
	if (interrupt_pending()) {
		snprintf(why, len, "%s", interrupt_name(interrupt_pending()));
		snprintf(msg, mlen, "interrupted by %s", why);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.lost) {
			snprintf(why, len, "the CUDA context was lost at %s %s", job_name(&jobs[i], name, sizeof name),
				 job_case(&jobs[i], point, sizeof point));
			snprintf(msg, mlen, "%s", why);
			return;
		}
}

/* What became of -o FILE: written, left as it was, or (where there was
 * none) not made; "" without -o. */
static const char *output_fate(const struct options *o, int written, int existed, char *buf, size_t len)
{
	if (!o->output)
		return "";
	if (written)
		return snprintf(buf, len, " has what was done, and the same command with %s runs the rest",
				options_long(OPT_RESUME)), buf;
	return existed ? " is as it was: nothing was done to replace it with" : " was not made: nothing was done to put in it";
}

/* One line on stderr where the run stopped before its end: why, what it
 * did, and where that is kept. */
static void say_stopped(const struct options *o, const struct job *jobs, size_t n, const char *why, int by_signal,
			int written, int existed)
{
	size_t done = 0, left = 0;
	char fate[128];
	for (size_t i = 0; i < n; i++) {
		left += jobs[i].res.outcome == OUTCOME_NOT_RUN;
		done += jobs[i].res.outcome != OUTCOME_NOT_RUN && jobs[i].res.outcome != OUTCOME_SKIPPED && !jobs[i].kept;
	}
	fail(0, "%s%s: %zu point%s done, %zu not run%s%s%s", by_signal ? "interrupted by " : "", why, done,
	     done == 1 ? "" : "s", left, o->output ? "; " : "", o->output ? o->output : "",
	     output_fate(o, written, existed, fate, sizeof fate));
}

/* The run's exit code: 128 + the signal that stopped it; else 8 where a
 * point lost the device, over a wrong result or any other failure, since
 * it cost every point after it (README, gpulab(1) EXIT STATUS); else the
 * first failure's. */
static int exit_code(const struct job *jobs, size_t n, int by_signal, int worst)
{
	if (by_signal)
		return 128 + interrupt_pending();
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.lost)
			return EXIT_CUDA;
	return worst;
}

/* After the last point, a signal or a lost device: the points not run
 * say why, the report ends, the record is written a last time; the exit
 * code (exit_code). */
int session_finish(const struct options *o, struct report *r, struct job *jobs, size_t n, int worst,
		   struct record_out *out)
{
	char why[1024], msg[1024];
	int rc;
	stopped_because(jobs, n, why, sizeof why, msg, sizeof msg);
	int by_signal = why[0] && interrupt_pending();
	mark_not_run(jobs, n, msg);
	r->interruption = why[0] ? why : NULL;
	if ((rc = output_end(out, r, by_signal)) && !worst) /* first: a second signal may end the printing */
		worst = rc;
	report_end(r, stdout);
	fflush(stdout);
	if (why[0])
		say_stopped(o, jobs, n, why, by_signal, output_committed(out), output_replaces(out));
	return exit_code(jobs, n, by_signal, worst);
}
