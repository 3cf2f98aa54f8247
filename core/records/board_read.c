#include "command_names.h"
#include "records/board_read.h"

#include "config/options.h"
#include "exitcode.h"
#include "plugins/challenge_dirs.h"
#include "records/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What b's strings point into: the records' trees, and the students'
 * names (a file's name cut short). */
struct board_owned {
	struct record *recs;
	size_t nrecs;
	char **names;
	size_t nnames;
};

const char *board_student_of(char *buf, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash && slash[1] ? slash + 1 : path;
	size_t n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".cu"))
		n -= 3;
	snprintf(buf, len, "%.*s", (int)n, base);
	return buf;
}

/* --- one record ---------------------------------------------------------------------- */

/* What a board asks of a record beyond the one check: a grade's, dated,
 * on a named GPU (a test-mode record may have none), of a known mode. */
static int standing_head(const struct record *r, struct board_record *out, char *err, size_t len)
{
	const struct json *g = json_get(r->doc, "grade"), *mode = json_get(g, "mode");
	const char *m = json_string(mode);
	out->path = r->path;
	out->date = json_string(json_get(r->doc, "date"));
	out->device = json_string(json_get(json_get(r->doc, "device"), "name"));
	if (json_type(g) != JSON_OBJECT)
		return snprintf(err, len, "%s: not a grade record: no \"grade\" (gpulab " CMD_GRADE " %s writes one)", r->path,
				options_short(OPT_OUTPUT)), EXIT_USAGE;
	if (mode && (!m || (strcmp(m, "test") && strcmp(m, "ranked"))))
		return snprintf(err, len, "%s: \"grade.mode\": expected \"test\" or \"ranked\"", r->path), EXIT_USAGE;
	out->test = m && !strcmp(m, "test");
	if (!out->date)
		return snprintf(err, len, "%s: no \"date\": a board orders its records by it", r->path), EXIT_USAGE;
	if (!out->device && !out->test)
		return snprintf(err, len, "%s: no \"device\" name: a board ranks one GPU model's records", r->path),
		       EXIT_USAGE;
	if (!out->device)
		out->device = "no GPU";
	return 0;
}

static const char *standing_challenge(const struct record *r)
{
	return json_string(json_get(json_get(r->doc, "grade"), "challenge"));
}

/* The records, each checked; one challenge among them.  docs[i] is
 * own->recs[i]'s from here on (NULL in docs), even on failure. */
static int standing_load(struct board_owned *own, struct board_record *heads, char *const *paths, struct json **docs,
			 size_t n, char *err, size_t len)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		own->recs[i].path = paths[i];
		own->nrecs = i + 1;
		rc = record_take(&own->recs[i], docs[i], err, len);
		docs[i] = NULL;
		if (rc || (rc = standing_head(&own->recs[i], &heads[i], err, len)))
			break;
		if (strcmp(standing_challenge(&own->recs[i]), standing_challenge(&own->recs[0]))) {
			snprintf(err, len, "%s: a grade of \"%s\", but %s is of \"%s\": a board is of one challenge", paths[i],
				 standing_challenge(&own->recs[i]), paths[0], standing_challenge(&own->recs[0]));
			rc = EXIT_USAGE;
		}
	}
	return rc;
}

/* --- the order of things ------------------------------------------------------------- */

/* order[] of the n heads by date, oldest first, ties as named (an
 * insertion sort: a class has a record a week). */
static void standing_by_date(const struct board_record *heads, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = i;
		for (; k > 0 && strcmp(heads[order[k - 1]].date, heads[i].date) > 0; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
}

/* The distinct device names of the records, sorted, into names[]. */
static size_t standing_devices(const struct board_doc *b, const char **names)
{
	size_t m = 0;
	for (size_t i = 0; i < b->nrecords; i++) {
		const char *d = b->records[i].device;
		size_t k = 0;
		while (k < m && strcmp(names[k], d) < 0)
			k++;
		if (k < m && !strcmp(names[k], d))
			continue;
		memmove(&names[k + 1], &names[k], (m - k) * sizeof *names);
		names[k] = d;
		m++;
	}
	return m;
}

/* --- a student in a record ------------------------------------------------------------ */

/* The share of the reference of grade entry k of record r: grade's own,
 * or, in a record from before grade kept it, its point's. */
static double standing_share(const struct record *r, const struct json *k)
{
	const struct json *own = json_get(k, "ref_share");
	const char *path = json_string(json_get(k, "kernel")), *ch = standing_challenge(r);
	if (json_type(own) == JSON_NUMBER)
		return json_number(own);
	for (size_t i = 0; i < r->n; i++) {
		const struct json *row = r->v[i].row, *kernel = json_get(json_get(row, "params"), "kernel");
		const char *ex = json_string(json_get(row, "exercise"));
		if (json_string(kernel) && !strcmp(json_string(kernel), path) && try_exercise_is(ex, ch))
			return json_number(json_get(row, "ref_share"));
	}
	return NAN;
}

/* Entry k of record r (test: of grade --test) as a try. */
static struct board_try standing_try(const struct record *r, const struct json *k, int test)
{
	struct board_try t = { .present = 1, .share = NAN, .failure = json_string(json_get(k, "failure")) };
	uint64_t rank = 0;
	if (test) {
		t.test = 1;
		t.passed = !t.failure;
		return t;
	}
	if (json_u64(json_get(k, "rank"), &rank) == 0 && rank > 0) {
		t.grade_rank = (size_t)rank;
		t.share = standing_share(r, k);
		t.measured = isfinite(t.share);
		if (!t.measured)
			t.failure = "no share of the reference";
	} else if (!t.failure) {
		t.failure = "failed";
	}
	return t;
}

/* Is a better than b, where one student's kernel is in a record twice
 * (grade DIR1 DIR2)?  Measured beats not, then the larger share. */
static int standing_better(const struct board_try *a, const struct board_try *b)
{
	if (!b->present || a->measured != b->measured)
		return !b->present || a->measured;
	return a->measured && a->share > b->share;
}

/* --- a GPU's board ------------------------------------------------------------------- */

/* The student of the kernel at path on g, added where new: NULL where
 * out of memory.  g->students has room for every kernel of the records. */
static struct board_student *standing_student(struct board_owned *own, struct board_gpu *g, const char *path)
{
	char name[512], *copy;
	board_student_of(name, sizeof name, path);
	for (size_t s = 0; s < g->nstudents; s++)
		if (!strcmp(g->students[s].name, name))
			return &g->students[s];
	struct board_student *s = &g->students[g->nstudents];
	if (!(copy = strdup(name)) || !(s->tries = calloc(g->nrecords, sizeof *s->tries))) {
		free(copy);
		return NULL;
	}
	own->names[own->nnames++] = copy;
	s->name = copy;
	g->nstudents++;
	return s;
}

/* A student's first measured share, their best (where first reached)
 * and their latest ranked record's (a test's has no share to say), over
 * the board's n records. */
static void standing_summary(struct board_student *s, size_t n)
{
	int seen = 0;
	s->first = s->best = s->latest = NAN;
	s->latest_at = BOARD_NONE;
	for (size_t i = 0; i < n; i++) {
		const struct board_try *t = &s->tries[i];
		if (!t->present || t->test)
			continue;
		s->latest_at = i;
		s->latest = t->measured ? t->share : NAN;
		if (!t->measured)
			continue;
		if (!seen)
			s->first = t->share, s->first_at = i, seen = 1;
		if (!(t->share <= s->best))
			s->best = t->share, s->best_at = i;
	}
}

/* The board's order: the measured by best share, higher first, then
 * those never measured; ties and the rest by name. */
static int standing_order(const void *pa, const void *pb)
{
	const struct board_student *a = pa, *b = pb;
	int ma = isfinite(a->best), mb = isfinite(b->best);
	if (ma != mb)
		return mb - ma;
	if (ma && a->best != b->best)
		return a->best < b->best ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* Board g of the records on its device: each student's tries, summed up
 * and ranked.  cap: the kernels of all the records. */
static int standing_gpu(const struct board_doc *b, struct board_owned *own, const size_t *order, struct board_gpu *g,
			size_t cap)
{
	if (!(g->records = calloc(b->nrecords, sizeof *g->records)) || !(g->students = calloc(cap + 1, sizeof *g->students)))
		return EXIT_NOMEM;
	for (size_t k = 0; k < b->nrecords; k++)
		if (!strcmp(b->records[k].device, g->device))
			g->records[g->nrecords++] = k;
	for (size_t r = 0; r < g->nrecords; r++) {
		const struct record *rec = &own->recs[order[g->records[r]]];
		const struct json *ks = json_get(json_get(rec->doc, "grade"), "kernels");
		for (size_t i = 0; i < json_len(ks); i++) {
			const struct json *k = json_index(ks, i);
			struct board_try t = standing_try(rec, k, b->records[g->records[r]].test);
			struct board_student *s = standing_student(own, g, json_string(json_get(k, "kernel")));
			if (!s)
				return EXIT_NOMEM;
			if (standing_better(&t, &s->tries[r]))
				s->tries[r] = t;
		}
	}
	for (size_t s = 0; s < g->nstudents; s++)
		standing_summary(&g->students[s], g->nrecords);
	qsort(g->students, g->nstudents, sizeof *g->students, standing_order);
	for (size_t s = 0; s < g->nstudents && isfinite(g->students[s].best); s++)
		g->students[s].rank = s + 1;
	return 0;
}

/* b's records in time order, and a board for each device among them. */
static int standing_arrange(struct board_doc *b, struct board_owned *own, const struct board_record *heads, size_t *order)
{
	size_t n = own->nrecs, cap = 0;
	const char **devices;
	int rc = 0;
	standing_by_date(heads, n, order);
	for (size_t i = 0; i < n; i++)
		cap += json_len(json_get(json_get(own->recs[i].doc, "grade"), "kernels"));
	if (!(b->records = calloc(n, sizeof *b->records)) || !(own->names = calloc(cap + 1, sizeof *own->names))
	    || !(devices = calloc(n, sizeof *devices)))
		return EXIT_NOMEM;
	for (size_t k = 0; k < n; k++)
		b->records[k] = heads[order[k]];
	b->nrecords = n;
	b->challenge = standing_challenge(&own->recs[0]);
	size_t m = standing_devices(b, devices);
	if (!(b->gpus = calloc(m, sizeof *b->gpus)))
		rc = EXIT_NOMEM;
	for (size_t d = 0; !rc && d < m; d++) {
		b->gpus[d].device = devices[d];
		b->ngpus = d + 1;
		rc = standing_gpu(b, own, order, &b->gpus[d], cap);
	}
	free(devices);
	return rc;
}

int board_take(struct board_doc *b, char *const *paths, struct json **docs, size_t n, char *err, size_t len)
{
	struct board_owned *own = calloc(1, sizeof *own);
	struct board_record *heads = calloc(n + 1, sizeof *heads);
	size_t *order = calloc(n + 1, sizeof *order);
	int rc;
	memset(b, 0, sizeof *b);
	b->owned = own;
	if (!own || !heads || !order || !(own->recs = calloc(n + 1, sizeof *own->recs)))
		rc = EXIT_NOMEM;
	else if (n == 0)
		rc = EXIT_USAGE;
	else if (!(rc = standing_load(own, heads, paths, docs, n, err, len)))
		rc = standing_arrange(b, own, heads, order);
	if (rc == EXIT_NOMEM)
		snprintf(err, len, "out of memory reading the records");
	if (n == 0)
		snprintf(err, len, "no records: a board is of grade records (gpulab " CMD_GRADE " %s writes them)",
			 options_short(OPT_OUTPUT));
	for (size_t i = 0; i < n; i++)
		json_free(docs[i]);
	free(heads);
	free(order);
	return rc;
}

int board_read(struct board_doc *b, char *const *paths, size_t n, char *err, size_t len)
{
	struct json **docs = calloc(n + 1, sizeof *docs);
	int rc = 0;
	memset(b, 0, sizeof *b);
	if (!docs)
		return snprintf(err, len, "out of memory reading the records"), EXIT_NOMEM;
	for (size_t i = 0; !rc && i < n; i++)
		if (!(docs[i] = record_read(paths[i], err, len)))
			rc = EXIT_USAGE;
	if (rc)
		for (size_t i = 0; i < n; i++)
			json_free(docs[i]);
	else
		rc = board_take(b, paths, docs, n, err, len);
	free(docs);
	return rc;
}

void board_free(struct board_doc *b)
{
	struct board_owned *own = b->owned;
	for (size_t d = 0; d < b->ngpus; d++) {
		for (size_t s = 0; s < b->gpus[d].nstudents; s++)
			free(b->gpus[d].students[s].tries);
		free(b->gpus[d].students);
		free(b->gpus[d].records);
	}
	free(b->gpus);
	free(b->records);
	if (own) {
		for (size_t i = 0; i < own->nrecs; i++)
			record_free(&own->recs[i]);
		for (size_t i = 0; i < own->nnames; i++)
			free(own->names[i]);
		free(own->recs);
		free(own->names);
		free(own);
	}
	memset(b, 0, sizeof *b);
}
