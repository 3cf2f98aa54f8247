/*
 * A session resumed from its record (session/resumed.h).
 */
#include "config.h"

#include "session/resumed.h"

#include "escape.h"
#include "exitcode.h"
#include "fail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* This run's points as --resume matches them (records/resume.h): each
 * job's exercise and its keys with the values its sweep typed, never
 * written out as text. */
struct typed_plan {
	struct resume_plan plan;
	struct resume_point *points;
	struct resume_param *params;
	char (*names)[256];
};

static void typed_plan_free(struct typed_plan *t)
{
	free(t->points);
	free(t->params);
	free(t->names);
}

/* The device as a record names it: its UUID where NVML gave one, else
 * its name; "the host" for a run with no GPU. */
static const char *run_device(const struct report *r)
{
	if (!r->dev)
		return "the host";
	return r->clk && r->clk->uuid[0] ? r->clk->uuid : r->dev->name;
}

static int typed_plan_make(struct typed_plan *t, const struct report *r, const struct job *jobs)
{
	size_t room = 0, at = 0;
	for (size_t i = 0; i < r->njobs; i++)
		room += jobs[i].nparams;
	*t = (struct typed_plan){ .plan = { .n = r->njobs, .device = run_device(r), .version = PACKAGE_VERSION,
					    .revision = GPULAB_REVISION, .cold = r->cold, .batch = r->batch } };
	t->points = calloc(r->njobs ? r->njobs : 1, sizeof *t->points);
	t->params = calloc(room ? room : 1, sizeof *t->params);
	t->names = calloc(r->njobs ? r->njobs : 1, sizeof *t->names);
	if (!t->points || !t->params || !t->names)
		return EXIT_NOMEM;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &jobs[i];
		t->points[i] = (struct resume_point){ .exercise = job_name(j, t->names[i], sizeof t->names[i]),
						      .params = t->params + at, .nparams = j->nparams };
		for (size_t k = 0; k < j->nparams; k++) /* text "": not resolved, the point refused before it */
			t->params[at++] = (struct resume_param){ .decl = &j->params[k].decl, .given = j->params[k].text[0] != 0,
								 .value = j->params[k].value };
	}
	t->plan.points = t->points;
	return 0;
}

/* Is there no FILE to resume?  A run killed, or ended by a second
 * signal, during its first point leaves none (nothing good is replaced
 * by nothing), so a retry loop, `until gpulab run ... -o FILE --resume`,
 * starts afresh there, saying so in one line. */
static int nothing_to_resume(const struct options *o, const struct report *r)
{
	char name[256];
	struct stat st;
	if (stat(o->output, &st) == 0 || errno != ENOENT)
		return 0;
	fail(0, "%s: %s does not exist: nothing to resume, so all %zu point%s run", options_long(OPT_RESUME),
	     escape_into(name, sizeof name, o->output), r->njobs, r->njobs == 1 ? "" : "s");
	return 1;
}

/* --resume: the points the -o FILE has are kept, and only the rest run;
 * FILE's other points are kept after them.  This run's planned points,
 * typed, are what FILE's points are matched against. */
int resume_from(const struct options *o, struct report *r, struct job *jobs, struct resume *res)
{
	char err[1024], name[256];
	size_t kept;
	struct typed_plan t;
	if (nothing_to_resume(o, r))
		return 0;
	int rc = typed_plan_make(&t, r, jobs);
	if (!rc)
		rc = resume_load(res, o->output, &t.plan, err, sizeof err);
	else
		snprintf(err, sizeof err, "out of memory");
	typed_plan_free(&t);
	if (rc)
		return fail(rc, "%s: %s", options_long(OPT_RESUME), err);
	for (size_t i = kept = 0; i < r->njobs; i++)
		if ((jobs[i].kept = res->kept[i])) { /* no point of this run's: its row is FILE's */
			jobs[i].res.outcome = OUTCOME_OK;
			jobs[i].res.message[0] = 0;
			kept++;
		}
	r->extra = res->extra;
	r->nextra = res->nextra;
	if (!o->quiet && report_for_people(r->format))
		printf("resuming %s: %zu of %zu points kept from it, %zu to run%s\n", escape_into(name, sizeof name, o->output),
		       kept, r->njobs, r->njobs - kept, kept == r->njobs ? " (nothing: it is complete)" : "");
	return 0;
}
