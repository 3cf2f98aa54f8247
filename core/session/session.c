/*
 * A session: the chosen exercises' jobs planned, then run on the device
 * with the record and --resume (session/session.h).
 */
#include "session/session.h"

#include "emit/writer.h"
#include "fail.h"
#include "records/output.h"
#include "records/resume.h"
#include "records/schema.h"
#include "run/measure.h"
#include "run/clocks.h"
#include "interrupt.h"
#include "run/profile.h"
#include "session/finish.h"
#include "session/gpu.h"
#include "session/plan.h"
#include "session/points.h"
#include "session/ranks.h"
#include "session/resumed.h"

#include <stdlib.h>

/* The planned jobs run: the device, the record and the profiler opened
 * (every rank started alike, under a launcher), the points run, the run
 * ended.  The exit code. */
static int run_all(const struct options *o, struct job *jobs, size_t n, const struct gpulab_group *g)
{
	struct device_info d;
	struct profiler *prof = NULL;
	struct clocks clk = { 0 };
	struct resume res = { 0 };
	struct rank_place *places = NULL;
	struct record_out out;
	int rc, worst = 0, gpu, refused;
	if ((rc = output_open(&out, o->output, o->resume)) || (rc = open_job_device(jobs, n, &d, &gpu, g))
	    || (gpu && (rc = check_device(jobs, n, &d))) || (gpu && (rc = open_job_profiler(jobs, n, &prof)))) {
		output_close(&out);
		return group_worst(g, rc);
	}
	if ((rc = group_worst(g, 0)) && g) /* another rank could not start */
		fail(0, "rank %u: another rank could not start (its own line says why); every rank stops", g->rank);
	if (rc || (rc = rank_places(g, &d, gpu, &places))) {
		output_close(&out);
		free(places);
		return rc;
	}
	if (gpu)
		clocks_open(&clk, d.bus_id);
	struct bench b = { .dev = gpu ? &d : NULL, .cold = o->cold, .batch = o->batch, .unheld = o->profile, .verify = o->verify, .prof = prof,
			   .clk = gpu ? &clk : NULL, .stop = o->stop, .watchdog_s = o->watchdog, .group = g };
	struct report r = { .format = o->format, .schema = RECORD_SCHEMA, .dev = gpu ? &d : NULL, .cold = o->cold, .batch = o->batch, .jobs = jobs,
			    .njobs = n, .clk = gpu ? &clk : NULL, .command = o->command_line, .samples = o->samples,
			    .samples_keep = o->samples_keep, .wide = o->wide, .stop = o->stop, .ranks = places,
			    .nranks = g ? g->size : 0 };
	mark_pending(jobs, n);
	refused = o->resume && (worst = resume_from(o, &r, jobs, &res)); /* then FILE stays as it was */
	if (!refused && !(worst = output_begin(&out, &r, o->samples_keep, o->resume)))
		worst = run_points(o, &b, &r, jobs, n, &out);
	bench_free(&b);
	profiler_close(prof);
	if (!refused)
		worst = session_finish(o, &r, jobs, n, worst, &out);
	output_close(&out);
	resume_free(&res);
	clocks_close(&clk);
	free(places);
	return worst;
}

int session_run(struct session *ss, const struct options *o, const struct config *c, const struct registry *r,
		struct selection *s)
{
	char err[2048];
	int rc;
	yardsticks_first(s);
	ss->nsweeps = s->n;
	if ((rc = check_cli_keys(o, s)) || (rc = make_jobs(o, c, s, &ss->sweeps, &ss->jobs, &ss->njobs)))
		return rc;
	if (o->metrics && (rc = profiler_built(err, sizeof err)))
		return fail(rc, "%s", err);
	if ((rc = join_ranks(o, r, &ss->group, &ss->mine)))
		return rc;
	const struct options *mine = ss->group ? &ss->mine : o;
	if ((rc = plan_all(mine, s, ss->sweeps, ss->jobs, ss->njobs, ss->group)))
		return rc;
	interrupt_catch();
	rc = run_all(mine, ss->jobs, ss->njobs, ss->group);
	interrupt_release();
	return rc;
}

void session_free(struct session *ss)
{
	group_leave(ss->group);
	free_jobs(ss->jobs, ss->njobs, ss->sweeps, ss->nsweeps);
	*ss = (struct session){ 0 };
}
