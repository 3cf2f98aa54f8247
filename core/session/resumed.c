/*
 * A session resumed from its record (session/resumed.h).
 */
#include "session/resumed.h"

#include "escape.h"
#include "exitcode.h"
#include "fail.h"
#include "records/json.h"

#include <stdio.h>
#include <stdlib.h>

/* --resume: the points the -o FILE has are kept, and only the rest run;
 * FILE's other points are kept after them.  The run's own record, with
 * nothing run yet, is what FILE's points are matched against. */
int resume_from(const struct options *o, struct report *r, struct job *jobs, struct resume *res)
{
	char *text = NULL, err[1024], name[256];
	size_t size = 0, kept;
	struct report plan = *r;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return fail(EXIT_NOMEM, "out of memory");
	plan.format = FORMAT_JSON;
	report_end(&plan, f);
	fclose(f);
	struct json *doc = json_parse(text, size, err, sizeof err);
	free(text);
	int rc = doc ? resume_load(res, o->output, doc, err, sizeof err) : EXIT_NOMEM;
	if (rc)
		return fail(rc, "--resume: %s", doc ? err : "out of memory");
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
