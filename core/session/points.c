/*
 * A session's points run in turn (session/points.h), each row printed
 * and the record written as it is done.
 */
#include "session/points.h"

#include "exitcode.h"
#include "interrupt.h"
#include "session/plan.h"
#include "session/ranks.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A long run says where it is, on one line of the terminal it rewrites:
 * points done and total, and the point under way. */
static void show_progress(const struct job *j, size_t i, size_t n)
{
	char name[256], point[512] = "";
	for (size_t k = 0; k < j->nparams; k++)
		if (j->params[k].values > 1)
			snprintf(point + strlen(point), sizeof point - strlen(point), " %s=%s", j->params[k].decl.key,
				 j->params[k].text);
	fprintf(stderr, "\r\033[K[%zu/%zu] %s%s", i + 1, n, job_name(j, name, sizeof name), point);
	fflush(stderr);
}

/* Every point still to run, marked so until it has: a record written
 * meanwhile (checkpoint) says it was not reached. */
void mark_pending(struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!jobs[i].kept && jobs[i].res.outcome != OUTCOME_SKIPPED) {
			jobs[i].res.outcome = OUTCOME_NOT_RUN;
			snprintf(jobs[i].res.message, sizeof jobs[i].res.message,
				 "not reached when this record was written: the run was still going");
		}
}

/* The point the run went through: 0, or the exit code it earns.  A
 * refusal only the device could tell (setup's GPULAB_EPARAM) skips the
 * point, as plan's refusals do. */
static int run_point(struct bench *b, struct job *j, size_t i, size_t n, int progress)
{
	int rc;
	if (j->res.outcome == OUTCOME_SKIPPED)
		return 0;
	j->res.outcome = OUTCOME_OK;
	j->res.message[0] = 0;
	if (progress)
		show_progress(j, i, n);
	rc = bench_run(b, j);
	if (progress)
		fputs("\r\033[K", stderr); /* its row follows on a clean line */
	if (rc == EXIT_PARAM && !job_alone(j, n)) {
		j->res.outcome = OUTCOME_SKIPPED;
		rc = 0;
	}
	return rc;
}

/* Each point in turn, its row printed and the record written as it is
 * done, until the last, a signal, or a lost device. */
int run_points(const struct options *o, struct bench *b, struct report *r, struct job *jobs, size_t n,
	       struct record_out *out)
{
	int progress = n > 1 && !o->quiet && isatty(STDERR_FILENO), worst = 0, rc;
	report_begin(r, stdout);
	fflush(stdout);
	for (size_t i = 0; i < n && !interrupt_pending(); i++) {
		if (jobs[i].kept)
			continue;
		if ((rc = run_point(b, &jobs[i], i, n, progress)) && !worst)
			worst = rc;
		if (rc && !group_speaks(b->group) && !jobs[i].res.by_peer) /* its table is rank 0's */
			say_rank_failed(b->group, &jobs[i]);
		if (jobs[i].res.outcome == OUTCOME_NOT_RUN) /* stopped by a signal in its midst */
			break;
		report_point(r, i, stdout);
		fflush(stdout);
		if ((rc = output_point(out, i)) && !worst)
			worst = rc;
		if (jobs[i].res.lost)
			break;
	}
	return worst;
}
