/*
 * gpulab grade CHALLENGE DIR...: every .cu in the directories through
 * `gpulab try`, each in a process of its own, so that a kernel that
 * traps, hangs or crashes costs only its own row.  Each child is this
 * gpulab (/proc/self/exe) running `try CHALLENGE FILE -o RECORD`, with
 * --resume from the second on: the record grows by one kernel a child,
 * the challenge's own exercises are timed once (by the first), and every
 * row is written by `run -o`'s own code, not here.  A child that passes
 * no gate leaves the record as it was.  A child still running after
 * GRADE_LIMIT_S is killed with its process group.
 *
 * The table ranks the kernels measured by their median, then lists the
 * rest with their one line (the child's last, or the row's message).
 * With -o the record is written into place whole, as the teacher's (their
 * command, and the ranking with each failure's line): `gpulab report` of
 * it draws the leaderboard.
 */
#include "config.h"

#include "command_names.h"
#include "escape.h"
#include "exitcode.h"
#include "emit/field.h"
#include "emit/ranking.h"
#include "emit/writer.h"
#include "fail.h"
#include "learn/grade.h"
#include "learn/learn.h"
#include "plugins/challenge_dirs.h"
#include "records/output.h"
#include "records/record.h"
#include "records/upgrade.h"
#include "interrupt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A child's wall clock: its gate, compilation and timing, well past what
 * a kernel that ends needs; the watchdog (try's) stops a hung run first. */
#define GRADE_LIMIT_S 900
#define GRADE_MAX_FILES 4096

struct graded {
	char *path;
	int status;       /* exit code, or 128 + signal */
	int killed;       /* past the limit */
	int measured;     /* its row is in the record, ok */
	double median, ci_pct, gbps, ref_share;
	int rows, shares;             /* its rows ok, and those with a share of the reference ... */
	double log_ms, log_gbps, log_share; /* ... and their logarithms' sums: the geometric means */
	char line[512];   /* why it failed */
};

struct grade {
	struct graded *v;
	size_t n;
	char dir[4200], record[4300], errfile[4300];
	double limit_s;
	const char *exercise;  /* the rows' exercise, "try.NAME" */
	const char *challenge; /* NAME: the challenge's, where it is a folder given by its path */
	char sizes[CHALLENGE_MAX_SIZES][200]; /* ranked: each benchmark size's keys, "n=1024" */
	int nsizes;            /* 0: the user's point, one child a kernel */
};

static int grade_is_cu(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 3 && !strcmp(d->d_name + n - 3, ".cu") && d->d_name[0] != '.';
}

static int grade_collect(struct grade *g, const char *dir)
{
	struct dirent **names;
	struct stat st;
	char path[4200];
	int n = scandir(dir, &names, grade_is_cu, alphasort), rc = 0;
	if (n < 0)
		return fail(EXIT_USAGE, "grade: %s: cannot read: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (!rc && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			struct graded *v = g->n < GRADE_MAX_FILES ? realloc(g->v, (g->n + 1) * sizeof *v) : NULL;
			if (!v || !(v[g->n] = (struct graded){ .path = strdup(path) }).path)
				rc = fail(v ? EXIT_NOMEM : EXIT_USAGE, "grade: %s", v ? "out of memory" : "too many kernels");
			else
				g->v = v, g->n++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The last line the child wrote to stderr, "gpulab: " dropped. */
static void grade_last_line(const char *file, char *line, size_t len)
{
	char buf[8192];
	FILE *f = fopen(file, "r");
	line[0] = 0;
	while (f && fgets(buf, sizeof buf, f))
		if (buf[strspn(buf, " \t\r\n")]) {
			buf[strcspn(buf, "\r\n")] = 0;
			snprintf(line, len, "%s", strncmp(buf, "gpulab: ", 8) ? buf : buf + 8);
		}
	if (f)
		fclose(f);
}

/* argv[argc] and on: option id, as the rows spell it, and its value. */
static int grade_arg(char **argv, int argc, enum opt_id id, char *value)
{
	argv[argc++] = (char *)options_long(id);
	argv[argc++] = value;
	return argc;
}

/* Benchmark size j's keys as options: -n N, or -p KEY=VALUE for a side. */
static int grade_size_args(const struct grade *g, int j, char **argv, int argc, char bufs[][320], int *b)
{
	char keys[200], *save;
	snprintf(keys, sizeof keys, "%s", g->sizes[j]);
	for (char *w = strtok_r(keys, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int n = !strncmp(w, "n=", 2);
		snprintf(bufs[*b], 320, "%s", n ? w + 2 : w);
		argv[argc++] = (char *)options_short(n ? OPT_SIZE : OPT_PARAM);
		argv[argc++] = bufs[(*b)++];
	}
	return argc;
}

/* try's command line for kernel k at benchmark size j (or the user's
 * point), with the user's options that try takes (the sizes, keys,
 * stopping rule, watchdog and configuration). */
static int grade_argv(const struct options *o, const struct grade *g, size_t k, int j, char **argv, char bufs[][320])
{
	int argc = 0, b = 0;
	argv[argc++] = "gpulab";
	argv[argc++] = CMD_TRY;
	argv[argc++] = o->patterns[0];
	argv[argc++] = g->v[k].path;
	if (o->test_only)
		argv[argc++] = (char *)options_long(OPT_TEST);
	if (g->nsizes)
		argc = grade_size_args(g, j, argv, argc, bufs, &b);
	for (int i = 0; i < NGENERIC; i++)
		if (o->generic[i])
			argv[argc++] = (char *)options_flag((enum generic)i), argv[argc++] = (char *)o->generic[i];
	for (int i = 0; i < o->nparams; i++) {
		snprintf(bufs[b], 320, "%s=%s", o->params[i].key, o->params[i].value);
		argv[argc++] = (char *)options_short(OPT_PARAM), argv[argc++] = bufs[b++];
	}
	if (o->watchdog >= 0)
		snprintf(bufs[b], 320, "%g", o->watchdog), argc = grade_arg(argv, argc, OPT_WATCHDOG, bufs[b++]);
	snprintf(bufs[b], 320, "%g", 100 * o->stop.max_noise), argc = grade_arg(argv, argc, OPT_MAX_NOISE, bufs[b++]);
	snprintf(bufs[b], 320, "%g", o->stop.min_time_s), argc = grade_arg(argv, argc, OPT_MIN_TIME, bufs[b++]);
	snprintf(bufs[b], 320, "%g", o->stop.timeout_s), argc = grade_arg(argv, argc, OPT_TIMEOUT, bufs[b++]);
	for (int i = 0; i < o->nconfigs; i++)
		argv[argc++] = (char *)options_long(OPT_CONFIG), argv[argc++] = (char *)o->configs[i];
	argv[argc++] = (char *)options_long(OPT_QUIET);
	if (!o->test_only) {
		argv[argc++] = (char *)options_short(OPT_OUTPUT);
		argv[argc++] = (char *)g->record;
	}
	if (!o->test_only && access(g->record, F_OK) == 0)
		argv[argc++] = (char *)options_long(OPT_RESUME);
	argv[argc] = NULL;
	return argc;
}

/* The child's status; past the limit, or once a signal came to grade
 * (the child is in a process group of its own, so the terminal's ^C
 * does not reach it), its group is stopped: SIGTERM, which lets try
 * write what it has, then SIGKILL 5 s on. */
static int grade_wait(pid_t pid, double limit_s, int *killed)
{
	struct timespec nap = { 0, 20000000 }, t0, t;
	double waited, stopped_at = -1;
	int st;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		clock_gettime(CLOCK_MONOTONIC, &t);
		waited = (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return 128 + SIGKILL;
		if (stopped_at < 0 && (waited >= limit_s || interrupt_pending())) {
			kill(-pid, SIGTERM);
			stopped_at = waited;
			*killed = !interrupt_pending();
		} else if (stopped_at >= 0 && waited >= stopped_at + 5) {
			kill(-pid, SIGKILL);
		}
		nanosleep(&nap, NULL);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Kernel k through try at benchmark size j, in a child: its exit status. */
static int grade_one(const struct options *o, struct grade *g, size_t k, int j)
{
	char *argv[32 + 2 * NGENERIC + 2 * MAX_KEYVALS + 2 * MAX_CONFIGS], bufs[MAX_KEYVALS + 12][320];
	grade_argv(o, g, k, j, argv, bufs);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return fail(EXIT_NOMEM, "grade: cannot start a process: %s", strerror(errno));
	if (pid == 0) {
		int out = open("/dev/null", O_WRONLY), err = open(g->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		setpgid(0, 0); /* so a kill reaches whatever it started */
		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(127);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	setpgid(pid, pid);
	g->v[k].status = grade_wait(pid, g->limit_s, &g->v[k].killed);
	grade_last_line(g->errfile, g->v[k].line, sizeof g->v[k].line);
	if (g->v[k].killed)
		snprintf(g->v[k].line, sizeof g->v[k].line, "still running after %g s: stopped by grade", g->limit_s);
	else if (g->v[k].status > 128 && !g->v[k].line[0])
		snprintf(g->v[k].line, sizeof g->v[k].line, "crashed: %s", strsignal(g->v[k].status - 128));
	else if (g->v[k].status > 128)
		snprintf(g->v[k].line + strlen(g->v[k].line), sizeof g->v[k].line - strlen(g->v[k].line), " (then %s)",
			 strsignal(g->v[k].status - 128));
	return 0;
}

/* The reference's time at row's point (its n and type), from the
 * record: NAN where it has none.  Each kernel runs in a try of its own,
 * resuming the record, so the reference is measured by the first alone:
 * the later rows' own ref_share, against a point kept, not measured, is
 * missing (grade printed 68% for the first kernel and - for the second). */
static double grade_ref_ms(const struct record *rec, const char *ref, const struct json *row)
{
	const struct json *p = json_get(row, "params");
	for (size_t i = 0; *ref && i < rec->n; i++) {
		const struct json *r = rec->v[i].row, *q = json_get(r, "params");
		const char *name = json_string(json_get(r, "exercise")), *status = json_string(json_get(r, "status"));
		const char *t = json_string(json_get(q, "type")), *u = json_string(json_get(p, "type"));
		if (name && !strcmp(name, ref) && status && !strcmp(status, "ok") && t && u && !strcmp(t, u)
		    && json_number(json_get(q, "n")) == json_number(json_get(p, "n")))
			return json_number(json_get(r, "total_ms"));
	}
	return NAN;
}

/* Row `row`, ok, added to kernel v's geometric means. */
static void grade_add_row(struct graded *v, const struct record *rec, const char *ref, const struct json *row)
{
	double share = grade_ref_ms(rec, ref, row) / json_number(json_get(row, "total_ms"));
	v->rows++;
	v->log_ms += log(json_number(json_get(row, "median_ms")));
	v->log_gbps += log(json_number(json_get(row, "gbps")));
	v->ci_pct = fmax(v->rows > 1 ? v->ci_pct : 0, json_number(json_get(row, "median_ci_pct")));
	if (isfinite(share) && share > 0)
		v->shares++, v->log_share += log(share);
}

/* Each kernel's rows of the record, by its kernel parameter: measured
 * where every size it was timed at is ok (its one row, or one a
 * benchmark size), its figures their geometric means (GPU MODE's rule). */
static int grade_read(struct grade *g, const char *ref)
{
	struct record rec = { .path = g->record };
	char err[1024];
	if (access(g->record, F_OK) != 0)
		return 0; /* no kernel came through its gate */
	if (record_load(&rec, err, sizeof err)) {
		record_free(&rec);
		return fail(EXIT_USAGE, "grade: %s", err);
	}
	for (size_t i = 0; i < rec.n; i++) {
		const struct json *row = rec.v[i].row;
		const char *name = json_string(json_get(row, "exercise")), *status = json_string(json_get(row, "status"));
		const char *kernel = json_string(json_get(json_get(row, "params"), "kernel"));
		for (size_t k = 0; name && kernel && !strcmp(name, g->exercise) && k < g->n; k++) {
			struct graded *v = &g->v[k];
			if (strcmp(kernel, v->path))
				continue;
			if (status && !strcmp(status, "ok") && isfinite(json_number(json_get(row, "median_ms"))))
				grade_add_row(v, &rec, ref, row);
			else if (json_string(json_get(row, "message")) && !v->line[0])
				snprintf(v->line, sizeof v->line, "%s: %s", status ? status : "failed",
					 json_string(json_get(row, "message")));
		}
	}
	for (size_t k = 0; k < g->n; k++) {
		struct graded *v = &g->v[k];
		v->measured = v->rows > 0 && v->rows >= g->nsizes;
		v->median = exp(v->log_ms / v->rows);
		v->gbps = exp(v->log_gbps / v->rows);
		v->ref_share = v->shares == v->rows && v->rows ? exp(v->log_share / v->shares) : NAN;
	}
	record_free(&rec);
	return 0;
}

static int grade_by_time(const void *a, const void *b)
{
	const struct graded *x = a, *y = b;
	if (x->measured != y->measured)
		return y->measured - x->measured;
	if (!x->measured) /* --test: those that passed the gate first */
		return (x->status != 0) - (y->status != 0);
	return x->median < y->median ? -1 : x->median > y->median;
}

/* What a failure was, in a word or two, from try's exit code. */
static const char *grade_kind(const struct graded *v)
{
	if (v->killed || v->status == EXIT_WATCHDOG)
		return "hung: stopped";
	if (v->status > 128)
		return "crashed";
	switch (v->status) {
	case EXIT_WRONG: return "wrong result";
	case EXIT_USAGE: return "does not compile, or breaks the contract";
	case EXIT_CUDA: return "faulted or trapped";
	case 0: return "failed in the timed runs";
	default: return "failed";
	}
}

/* A failure's line for the terminal.  A child's line is gpulab's own
 * stderr, escaped once already (fail()): escaped again its backslashes
 * would double (e\\x1b for e\x1b); anything else in it, what a crashing
 * child may have written, is escaped, all but the backslash. */
static const char *grade_escape_once(char *buf, size_t len, const char *line)
{
	char part[1200], piece[1200];
	size_t at = 0;
	buf[0] = 0;
	for (const char *p = line; at + 1 < len;) {
		size_t n = strcspn(p, "\\");
		snprintf(part, sizeof part, "%.*s", (int)n, p);
		escape_into(piece, sizeof piece, part);
		int w = snprintf(buf + at, len - at, "%s%s", piece, p[n] ? "\\" : "");
		at = w < 0 || (size_t)w >= len - at ? len - 1 : at + (size_t)w;
		if (!p[n])
			break;
		p += n + 1;
	}
	return buf;
}

/* The kernels ranked (by time, the measured first) into v, as emit/'s
 * ranking writers take them; v has room for g->n. */
static struct rank_doc grade_ranking(struct grade *g, const struct options *o, struct rank_row *v)
{
	qsort(g->v, g->n, sizeof *g->v, grade_by_time);
	for (size_t k = 0; k < g->n; k++) {
		const struct graded *x = &g->v[k];
		v[k] = (struct rank_row){ .path = x->path, .measured = x->measured, .status = x->status, .median_ms = x->median,
					  .ci_pct = x->ci_pct, .gbps = x->gbps, .ref_share = x->ref_share,
					  .passed = o->test_only && x->status == 0,
					  .failure = o->test_only && x->status == 0 ? "passed the gate" : grade_kind(x),
					  .reason = o->test_only && x->status == 0 ? "" : x->line[0] ? x->line : "failed" };
		grade_escape_once(v[k].shown, sizeof v[k].shown, v[k].reason);
	}
	return (struct rank_doc){ g->challenge, v, g->n, o->test_only ? "test" : "ranked" };
}

/* The ranking as grade's member of the record (docs/record.md): each
 * kernel in the table's order, its rank or its failure and the line
 * that says why; in a string the caller frees, NULL out of memory. */
static char *grade_member(struct grade *g, const struct options *o)
{
	char *text = NULL;
	size_t size;
	struct rank_row *v = calloc(g->n ? g->n : 1, sizeof *v);
	FILE *f = v ? open_memstream(&text, &size) : NULL;
	if (f) {
		struct rank_doc r = grade_ranking(g, o, v);
		ranking_member(&r, f);
	}
	if (!f || fclose(f)) {
		free(text);
		text = NULL;
	}
	free(v);
	return text;
}

/* The ranking printed in format f (emit/ranking.h). */
static int grade_print(struct grade *g, const struct options *o, enum format f)
{
	struct rank_row *v = calloc(g->n ? g->n : 1, sizeof *v);
	if (!v)
		return fail(EXIT_NOMEM, "grade: out of memory");
	struct rank_doc r = grade_ranking(g, o, v);
	writer_end(grade_writer(f), &r, stdout);
	free(v);
	return 0;
}

/* -o: the children's record at output, as the teacher's: their command
 * line in place of the last child's (which names the work directory),
 * and the ranking as the table shows it. */
static int grade_write(const struct options *o, struct grade *g)
{
	char err[1024], *member = grade_member(g, o);
	struct head_change ch = { RECORD_GRADE_SCHEMA, o->command_line, "grade", member };
	int rc = member ? record_rewrite(g->record, o->output, &ch, err, sizeof err) : EXIT_NOMEM;
	if (rc)
		rc = fail(rc, "grade: %s", member ? err : "out of memory");
	free(member);
	return rc;
}

/* The work directory: beside the output, so that the record is renamed
 * into its place; else in $TMPDIR. */
static int grade_workdir(struct grade *g, const char *output)
{
	const char *tmp = getenv("TMPDIR");
	if (output) {
		const char *slash = strrchr(output, '/');
		int n = slash ? (int)(slash - output) : 1;
		snprintf(g->dir, sizeof g->dir, "%.*s/.gpulab-grade-XXXXXX", n, slash ? output : ".");
	} else {
		snprintf(g->dir, sizeof g->dir, "%s/gpulab-grade-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	}
	if (!mkdtemp(g->dir))
		return fail(EXIT_USAGE, "grade: cannot make a directory for the work (%s): %s", g->dir, strerror(errno));
	snprintf(g->record, sizeof g->record, "%s/record.json", g->dir);
	snprintf(g->errfile, sizeof g->errfile, "%s/stderr.txt", g->dir);
	return 0;
}

/* Free g, and remove the work directory with whatever is in it (a
 * record not asked for, a child's stderr, a temporary a killed child left). */
static void grade_free(struct grade *g)
{
	char path[4600];
	struct dirent *e;
	for (size_t k = 0; k < g->n; k++)
		free(g->v[k].path);
	free(g->v);
	DIR *d = g->dir[0] ? opendir(g->dir) : NULL;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", g->dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	if (g->dir[0])
		rmdir(g->dir);
}

/* --test -o: a record of no point (nothing was timed), to hold the
 * ranking as grade's member with its mode, as a ranked grade's does. */
static int grade_untimed_record(struct grade *g, const struct options *o)
{
	struct record_out out = { 0 };
	struct report r = { .format = o->format, .command = o->command_line };
	int rc = output_open(&out, g->record, 0);
	if (!rc && !(rc = output_begin(&out, &r, 0, 0)))
		rc = output_end(&out, &r, 0);
	output_close(&out);
	return rc;
}

/* The rows' exercise and, ranked at a challenge's benchmark sizes (the
 * user gave none), each size's keys. */
static void grade_sizes(struct grade *g, const struct options *o, const struct challenge *c, char *exercise, size_t len)
{
	int own = o->generic[GEN_N] != NULL;
	g->challenge = c ? c->name : o->patterns[0];
	snprintf(exercise, len, "%s.%s", TRY_PLUGIN, g->challenge);
	g->exercise = exercise;
	for (int i = 0; c && i < c->nargs; i++)
		own |= (c->args[i].role == ROLE_X || c->args[i].role == ROLE_Y) && options_param(o, c->args[i].name);
	for (int j = 0; c && !own && !o->test_only && j < c->nbench; j++)
		challenge_size_keys(c, &c->bench[j], g->sizes[g->nsizes++], sizeof g->sizes[0]);
}

/* Has the record a row of kernel k?  A try that exits with an error may
 * still have timed the kernel (a row of the challenge's plugin beside it
 * failed); one that failed the gate timed nothing. */
static int grade_has_row(const struct grade *g, size_t k)
{
	struct record rec = { .path = g->record };
	char err[1024];
	int found = 0;
	if (access(g->record, F_OK) == 0 && record_load(&rec, err, sizeof err) == 0)
		for (size_t i = 0; i < rec.n && !found; i++) {
			const struct json *row = rec.v[i].row;
			const char *name = json_string(json_get(row, "exercise"));
			const char *kernel = json_string(json_get(json_get(row, "params"), "kernel"));
			found = name && kernel && !strcmp(name, g->exercise) && !strcmp(kernel, g->v[k].path);
		}
	record_free(&rec);
	return found;
}

/* Kernel k through try, a child a benchmark size, until one times
 * nothing of it. */
static int grade_kernel(const struct options *o, struct grade *g, size_t k)
{
	int rc = 0;
	for (int j = 0; !rc && j < (g->nsizes ? g->nsizes : 1); j++)
		if (!(rc = grade_one(o, g, k, j)) && g->v[k].status && (g->v[k].killed || !grade_has_row(g, k)))
			break;
	return rc;
}

int grade_kernels(const struct options *o, const struct challenge *c, grade_reference_fn *reference)
{
	struct grade g = { .limit_s = GRADE_LIMIT_S };
	char exercise[300];
	int rc = 0;
	const char *limit = getenv("GPULAB_GRADE_LIMIT_S"); /* for the tests: a hang that even the watchdog misses */
	if (limit && atof(limit) > 0)
		g.limit_s = atof(limit);
	grade_sizes(&g, o, c, exercise, sizeof exercise);
	for (int i = 1; i < o->npatterns && !rc; i++)
		rc = grade_collect(&g, o->patterns[i]);
	if (!rc && !g.n)
		rc = fail(EXIT_NOMATCH, "grade: no .cu files in %s", o->patterns[1]);
	if (!rc)
		rc = grade_workdir(&g, o->output);
	interrupt_catch();
	for (size_t k = 0; !rc && k < g.n; k++) {
		if (!o->quiet && isatty(2))
			fprintf(stderr, "grading %zu of %zu\r", k + 1, g.n);
		rc = grade_kernel(o, &g, k);
		if (!rc && g.v[k].status == EXIT_NODEVICE) /* every kernel would say the same */
			rc = fail(EXIT_NODEVICE, "grade: %s", g.v[k].line);
		if (!rc && interrupt_pending())
			rc = fail(128 + interrupt_pending(), "grade: stopped by %s after %zu of %zu kernels; nothing kept",
				  interrupt_name(interrupt_pending()), k + 1, g.n);
	}
	char ref[300];
	if (!rc && c && strchr(c->against, '.')) /* the challenge names the exercise its rows are shared against */
		snprintf(ref, sizeof ref, "%s", c->against);
	else if (!rc)
		reference(o, g.challenge, ref, sizeof ref);
	if (!rc && !(rc = grade_read(&g, ref)))
		rc = grade_print(&g, o, o->format);
	if (!rc && o->output && o->test_only)
		rc = grade_untimed_record(&g, o);
	if (!rc && o->output && access(g.record, F_OK) != 0)
		rc = fail(EXIT_WRONG, "grade: no kernel passed its gate: no record to write to %s", o->output);
	else if (!rc && o->output)
		rc = grade_write(o, &g);
	grade_free(&g);
	interrupt_release();
	return rc;
}
