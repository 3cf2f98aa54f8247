/*
 * The plans `gpulab check` makes of an exercise (session/plan_check.h):
 * plan() at its defaults, at each key's limits and at the corners where
 * the limits meet, each in a child process, so that a crash or a hang is
 * one line, not the end of the check.  Moved out of cli/check.c, which
 * keeps the command's arguments and its files (issue 47: cli/ is
 * arguments and dispatch).
 */
#include "config.h"

#include "command_names.h"
#include "session/plan_check.h"

#include "escape.h"
#include "exitcode.h"
#include "fail.h"
#include "config/sweep.h"
#include "run/job.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A plan that takes longer is stuck: it allocates and launches nothing. */
#define CHECK_PLAN_SECONDS 5

/* One key set for a plan() call, typed as its declaration says: handed
 * to the sweep as it is (options_hand), never written out and parsed. */
struct check_key {
	int generic;                /* enum generic, or -1 for the exercise's own key */
	struct gpulab_param decl;   /* the declaration it is typed by (its def unused) */
	struct param_value value;
};

/* One plan() call to make: the keys set (none: the defaults). */
#define CHECK_CASE_KEYS 16
struct check_case {
	int n;
	struct check_key k[CHECK_CASE_KEYS];
};

/* Where problems go: NULL, stdout as lines; else this file, as
 * "FILE\0PROBLEM\0", for a document made once every plan was called.
 * The children that call plan() inherit it and append to it. */
static FILE *problem_sink;

void check_problems_into(FILE *f)
{
	problem_sink = f;
}

/* One problem: a line on stdout naming the plugin file and what. */
__attribute__((format(printf, 2, 3)))
void check_problem(const char *file, const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (problem_sink) {
		fprintf(problem_sink, "%s%c%s%c", file, 0, line, 0);
		fflush(problem_sink);
		return;
	}
	fput_escaped(stdout, file);
	fputs(": ", stdout);
	fput_escaped(stdout, line);
	fputc('\n', stdout);
	fflush(stdout);
}

static void case_text(const struct check_case *c, char *buf, size_t len)
{
	size_t at = 0;
	snprintf(buf, len, "its defaults");
	for (int i = 0; i < c->n && at < len; i++) {
		const struct check_key *k = &c->k[i];
		char value[128], given[256];
		param_format(&k->decl, &k->value, value, sizeof value);
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "",
				       options_key_spelling(k->generic, k->decl.key, value, given, sizeof given));
	}
}

/* Does e take a file (a PATH key)?  Its plan may then refuse, as a
 * usage error (GPULAB_EINPUT), wherever no file is named. */
static int takes_file(const struct gpulab_exercise *e)
{
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		if (p->type == GPULAB_PARAM_PATH)
			return 1;
	return 0;
}

/* In the child: plan at case k; the problems it finds, as the exit code. */
static int plan_case(const char *file, const struct pick *pk, const struct check_case *c, const struct options *base)
{
	struct options o = *base;
	struct config none = { 0 };
	struct job j;
	char at[1024], name[256];
	memset(o.axes, 0, sizeof o.axes); /* a copy's: the command line's own are base's to free */
	o.nparams = o.nhanded = 0;
	for (int i = 0; i < c->n; i++)
		options_hand(&o, &c->k[i].decl, &c->k[i].value, 1);
	case_text(c, at, sizeof at);
	struct sweep s = { 0 };
	int rc = sweep_resolve(&s, pk->plugin->name, pk->ex, &o, &none), bad = 0;
	j = (struct job){ 0 };
	if (rc == 0)
		rc = job_plan(&j, pk, &s, &o, 0);
	else
		snprintf(j.res.message, sizeof j.res.message, "%s", s.why);
	snprintf(name, sizeof name, "%s.%s", pk->plugin->name, pk->ex->name);
	if (rc == EXIT_USAGE && takes_file(pk->ex)) {
		job_free(&j); /* no file named: nothing more to plan */
		sweep_free(&s);
		return 0;
	}
	if (rc == EXIT_PARAM && !c->n) {
		check_problem(file, "%s: plan() refuses its own defaults: %s", name, j.res.message), bad = 1;
	} else if (rc == EXIT_PARAM && !strcmp(j.res.message, "rejected its parameters")) {
		check_problem(file, "%s: plan() refuses %s without saying why (ctx->error)", name, at), bad = 1;
	} else if (rc == EXIT_CUDA) {
		check_problem(file, "%s: plan() at %s made a CUDA call that failed (plan must not need a GPU): %s", name, at,
			j.res.message), bad = 1;
	} else if (rc && rc != EXIT_PARAM) {
		check_problem(file, "%s: plan() at %s: %s (exit %d)", name, at, j.res.message, rc), bad = 1;
	} else if (rc == 0 && j.ctx.elements && !(j.ctx.bytes_read | j.ctx.bytes_written) && !c->n) {
		check_problem(file, "%s: plan() declares no bytes read or written: no GB/s can be reported", name), bad = 1;
	}
	job_free(&j);
	sweep_free(&s);
	return bad;
}

/* plan at case k in a child process, so that a crash or a hang is a
 * problem reported, not the end of the check.  1 for a problem. */
static int run_case(const char *file, const struct pick *pk, const struct check_case *k, const struct options *o)
{
	char at[1024];
	int status;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		alarm(CHECK_PLAN_SECONDS);
		_exit(plan_case(file, pk, k, o));
	}
	case_text(k, at, sizeof at);
	if (pid < 0) {
		check_problem(file, "%s.%s: cannot fork to call plan(): %s", pk->plugin->name, pk->ex->name, strerror(errno));
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		check_problem(file, "%s.%s: plan() at %s did not return within %d s", pk->plugin->name, pk->ex->name, at,
			CHECK_PLAN_SECONDS);
	else if (WIFSIGNALED(status))
		check_problem(file, "%s.%s: plan() at %s crashed: %s", pk->plugin->name, pk->ex->name, at,
			strsignal(WTERMSIG(status)));
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* The limits of one declaration worth planning at, typed as d says:
 * its ends, each side of a shape at its ends, each name of an enum that
 * `names` has a bit for (an exercise's element types of "int|float").
 * Returns how many went into v (at most max). */
static int key_limits(const struct gpulab_param *d, int g, unsigned names, struct check_key *v, int max)
{
	int n = 0;
	const char *c;
	switch (d->type) {
	case GPULAB_PARAM_COUNT:
	case GPULAB_PARAM_INT: /* an INT's int64 and a COUNT's uint64 share their bits */
		if (d->min == 0 && d->max == 0)
			return 0; /* the type's own limits: nothing of the exercise's */
		v[n++].value.i = d->min;
		v[n++].value.i = d->max;
		break;
	case GPULAB_PARAM_SHAPE:
		if (d->min == 0 && d->max == 0)
			return 0;
		v[n++].value.s = (struct gpulab_shape){ (uint32_t)d->min, (uint32_t)d->min };
		v[n++].value.s = (struct gpulab_shape){ (uint32_t)d->max, (uint32_t)d->max };
		break;
	case GPULAB_PARAM_ENUM:
		c = d->choices;
		for (unsigned i = 0; c && *c && n < max; i++, c += strcspn(c, "|"), c += *c == '|')
			if (i >= 32 || names & (1u << i))
				v[n++].value.e = i;
		break;
	default:
		return 0; /* a seed, a path: any value will do */
	}
	for (int i = 0; i < n; i++)
		v[i].generic = g, v[i].decl = *d, v[i].decl.def = NULL;
	return n;
}

/* The corners where the limits meet: case 0 every ranged key at its
 * least, case 1 at its most; case 2 the most -n with the least -b (the
 * largest grid of a thread an element: 2^32 blocks once overflowed an
 * unsigned count), case 3 the least -n with the most -b.  lo and hi are
 * a key's two limits (a count's, an integer's or a shape's). */
static void corner_add(struct check_case corner[4], const struct check_key *lo, const struct check_key *hi)
{
	const struct check_key *for_grid[4] = { lo, hi, NULL, NULL };
	if (lo->generic == GEN_N)
		for_grid[2] = hi, for_grid[3] = lo;
	else if (lo->generic == GEN_BLOCK)
		for_grid[2] = lo, for_grid[3] = hi;
	for (int c = 0; c < 4; c++)
		if (for_grid[c] && corner[c].n < CHECK_CASE_KEYS)
			corner[c].k[corner[c].n++] = *for_grid[c];
}

/* One key's limits: each planned alone, and its ends added to the corners. */
static int limits_of_key(const char *file, const struct pick *pk, const struct gpulab_param *d, int g,
			 struct check_case corner[4], const struct options *o)
{
	struct check_key v[64] = { 0 };
	int bad = 0, n = key_limits(d, g, g == GEN_TYPE ? pk->ex->dtypes : ~0u, v, 64);
	for (int i = 0; i < n; i++) {
		struct check_case one = { 1, { v[i] } };
		bad += run_case(file, pk, &one, o);
	}
	if (n == 2 && d->type != GPULAB_PARAM_ENUM)
		corner_add(corner, &v[0], &v[1]);
	return bad;
}

/* Every case of exercise pk: its defaults, each key's limits, the corners. */
int check_plans(const char *file, const struct pick *pk, const struct options *o)
{
	const struct gpulab_exercise *e = pk->ex;
	struct check_case corner[4] = { 0 };
	int bad = run_case(file, pk, &(struct check_case){ 0 }, o);
	for (int g = 0; g < NGENERIC; g++) {
		struct gpulab_param d;
		char def[32];
		if (g == GEN_REPS || g == GEN_WARMUP || !exercise_takes(e, (enum generic)g))
			continue;
		exercise_generic(e, (enum generic)g, &d, def, sizeof def);
		bad += limits_of_key(file, pk, &d, g, corner, o);
	}
	for (const struct gpulab_param *p = e->params; p && p->key; p++) {
		if (!p->help || !*p->help)
			check_problem(file, "%s.%s: key '%s' has no help for gpulab " CMD_LIST, pk->plugin->name, e->name, p->key), bad++;
		bad += limits_of_key(file, pk, p, -1, corner, o);
	}
	for (int c = 0; c < 4; c++)
		if (corner[c].n > 1 && (c < 2 || corner[c].n == 2)) /* one key alone was planned above */
			bad += run_case(file, pk, &corner[c], o);
	return bad;
}

