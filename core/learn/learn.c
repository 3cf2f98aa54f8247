/*
 * gpulab learn: the lessons (learn/lesson.h) as a path.  Without a
 * lesson it draws the map, each lesson's state for this user and the
 * next one; with one it runs the lesson's experiment as `gpulab run -o`
 * would, reads the record back, and says whether the book's claim holds
 * on this GPU (learn/verdict.h); with --submit FILE it runs FILE
 * through `gpulab try` and judges it against the lesson's target.
 * Progress is kept in learn/progress.h's file.
 *
 * The runs are `gpulab run` and `gpulab try` in a child process (this
 * gpulab again), the lesson's words as their command line, and their
 * record written to a temporary directory and read back through
 * records/: what the learner sees is the table they would see, and the
 * verdict comes from the same record `gpulab run -o` writes.
 */
#include "config.h"

#include "command_names.h"
#include "docs.h"
#include "emit/writer.h"
#include "escape.h"
#include "wrap.h"
#include "exitcode.h"
#include "fail.h"
#include "io/outfile.h"
#include "learn/learn.h"
#include "learn/lesson.h"
#include "learn/map.h"
#include "learn/progress.h"
#include "learn/verdict.h"
#include "plugins/challenge_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void learn_wrap(const char *label, const char *text)
{
	int indent = (int)strlen(label) - (label[0] == '\n'), col = indent; /* a label may start a paragraph */
	fputs(label, stdout);
	wrap_words(stdout, text, &col, &(struct wrap){ .width = WRAP_WIDTH, .indent = indent });
	putchar('\n');
}

/* --- running a lesson ----------------------------------------------------------------- */

/* A run's record is written in a directory of its own under the
 * lessons' records (progress_run_dir, which removes those of learns
 * that were killed), and kept there by a rename once it was read: a run
 * that never wrote one (no GPU, a gate failed) leaves the last good
 * record in place. */
struct learn_tmp {
	char dir[4300], record[4400];
	int lock;
};

static int learn_tmp_make(struct learn_tmp *t)
{
	char err[1024];
	int rc = progress_run_dir(t->dir, sizeof t->dir, &t->lock, err, sizeof err);
	if (rc) {
		if (t->lock >= 0)
			close(t->lock), rmdir(t->dir);
		return fail(rc, "%s", err);
	}
	snprintf(t->record, sizeof t->record, "%s/record.json", t->dir);
	return 0;
}

/* The record kept as the lesson's NAME.json (or NAME-task.json), in
 * place of the last one, its path in path (of len bytes); 0, or -1
 * (said). */
static int learn_tmp_keep(struct learn_tmp *t, const struct lesson *l, const char *suffix, char *path, size_t len)
{
	char why[512];
	snprintf(path, len, "%.*s/%s%s.json", (int)(strrchr(t->dir, '/') - t->dir), t->dir, l->name, suffix);
	if (outfile_move(t->record, path, why, sizeof why) == 0)
		return 0;
	fail(0, "learn: cannot keep the record as %s: %s", path, why);
	return -1;
}

static void learn_tmp_remove(struct learn_tmp *t)
{
	unlink(t->record);
	rmdir(t->dir);
	close(t->lock);
}

/* `gpulab COMMAND FIRST... WORDS... -o RECORD` as a child, this gpulab
 * again (/proc/self/exe), with the user's stopping rule and watchdog: its
 * exit code, or 128 + the signal that ended it.  A child, because a
 * learner's kernel that crashes, or a plugin's thread that outlives its
 * library, must cost only the run: the lesson still ends and keeps what
 * it can.  It shares the terminal: ^C stops it (and gpulab learn, which
 * waits with the signals ignored, then stops too). */
static int learn_run(const struct learn_ask *user, const char *command, char *const *first, int nfirst, const char *words,
		     const char *record, int quiet)
{
	char buf[LESSON_MAX_TEXT], num[4][32];
	char *argv[LESSON_MAX_ARGS + 24 + 2 * MAX_CONFIGS];
	int argc = 0, n, st;
	argv[argc++] = "gpulab";
	argv[argc++] = (char *)command;
	for (int i = 0; i < nfirst; i++)
		argv[argc++] = first[i];
	if ((n = lesson_words(words ? words : "", buf, sizeof buf, argv + argc, LESSON_MAX_ARGS)) < 0)
		return fail(EXIT_CONFIG, "learn: too many words to run");
	argc += n;
	snprintf(num[0], sizeof num[0], "%g", 100 * user->stop.max_noise);
	snprintf(num[1], sizeof num[1], "%g", user->stop.min_time_s);
	snprintf(num[2], sizeof num[2], "%g", user->stop.timeout_s);
	snprintf(num[3], sizeof num[3], "%g", user->watchdog);
	argv[argc++] = (char *)options_long(OPT_MAX_NOISE), argv[argc++] = num[0];
	argv[argc++] = (char *)options_long(OPT_MIN_TIME), argv[argc++] = num[1];
	argv[argc++] = (char *)options_long(OPT_TIMEOUT), argv[argc++] = num[2];
	if (user->watchdog >= 0)
		argv[argc++] = (char *)options_long(OPT_WATCHDOG), argv[argc++] = num[3];
	for (int i = 0; i < user->nconfigs; i++)
		argv[argc++] = (char *)options_long(OPT_CONFIG), argv[argc++] = (char *)user->configs[i];
	argv[argc++] = (char *)options_short(OPT_OUTPUT);
	argv[argc++] = (char *)record;
	argv[argc] = NULL;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	fflush(NULL);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &ign, &old[i]);
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			sigaction(sigs[i], &old[i], NULL); /* an ignored signal stays ignored across exec */
		int null = quiet ? open("/dev/null", O_WRONLY) : -1; /* its table is not the document */
		if (null >= 0)
			dup2(null, STDOUT_FILENO), close(null);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (pid < 0)
		return fail(EXIT_NOMEM, "learn: cannot start a process: %s", strerror(errno));
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WTERMSIG(st) != SIGINT && WTERMSIG(st) != SIGTERM && WTERMSIG(st) != SIGHUP) /* else it said why */
		fail(128 + WTERMSIG(st), "learn: gpulab %s crashed: %s", command, strsignal(WTERMSIG(st)));
	return 128 + WTERMSIG(st);
}

static void learn_figure_text(const struct lesson *l, double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.4g%s%s", v, l->unit && strcmp(l->unit, "x") ? " " : "", l->unit ? l->unit : "");
}

/* text with its placeholders filled (lesson_placeholders_valid): {docs}
 * is the installed pages' directory, the lesson's page's as `More:`
 * prints it; the others are this run's figures (f), "n/a" where the
 * run has none, or there was no run (f NULL). */
static const char *learn_expand(const struct lesson *l, const char *text, const struct figure_value *f, char *out,
				size_t len)
{
	size_t o = 0;
	out[0] = 0;
	for (const char *s = text; *s && o + 1 < len;) {
		char val[PATH_MAX + 64] = "";
		size_t n = *s == '{' ? strcspn(s, "}") + 1 : 0;
		double v = NAN;
		int peak = 0;
#define IS(name) (n == strlen(name) + 2 && !strncmp(s + 1, name, n - 2))
		if (!n || s[n - 1] != '}') {
			out[o++] = *s++;
			out[o] = 0;
			continue;
		}
		if (IS("docs"))
			snprintf(val, sizeof val, "%s", docs_dir());
		else if (IS("device"))
			snprintf(val, sizeof val, "%s", f ? f->device : "n/a");
		else if (IS("figure") || IS("lo") || IS("hi")) {
			v = !f ? NAN : IS("figure") ? f->value : IS("lo") ? f->lo : f->hi;
			if (isfinite(v))
				learn_figure_text(l, v, val, sizeof val);
		} else if (f)
			peak = IS("a_peak") || IS("b_peak"),
			v = IS("a") ? f->va : IS("b") ? f->vb : IS("a_peak") ? f->pa : IS("b_peak") ? f->pb
			  : IS("a_gbps") ? f->ga : IS("b_gbps") ? f->gb : NAN;
#undef IS
		/* a count whole (sectors, launches) in full; a time or a rate to 4 digits */
		int whole = isfinite(v) && v == floor(v) && fabs(v) < 1e12;
		if (!val[0])
			snprintf(val, sizeof val, !isfinite(v) ? "n/a" : peak || whole ? "%.0f" : "%.4g", v);
		o += (size_t)snprintf(out + o, len - o, "%s", val);
		if (o >= len)
			o = len - 1;
		s += n;
	}
	return out;
}

/* The notes' figure, and where in the notes it is: "1.69x (Tesla K80) [001 L376]". */
static const char *learn_notes_figure(const struct lesson *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", l->book, l->notes ? " [" : "", l->notes ? l->notes : "", l->notes ? "]" : "");
	return buf;
}

/* Why a verdict could not be told, in a line. */
static void learn_unsure(const struct lesson *l, const struct figure_value *f, double p, char *line, size_t len)
{
	char lo[64], hi[64], rule[64];
	learn_figure_text(l, f->lo, lo, sizeof lo);
	learn_figure_text(l, f->hi, hi, sizeof hi);
	learn_figure_text(l, l->cmp.value, rule, sizeof rule);
	if (figure_under_floor(l, f))
		snprintf(line, len, "can't tell: %s read %.4g and %s %.4g, under the lesson's floor of %g; a ratio of "
			 "counts near zero says nothing", l->fig.a.exercise, f->va, l->fig.b.exercise, f->vb, l->floor);
	else if (l->fig.kind != FIGURE_SPEEDUP)
		snprintf(line, len, "can't tell at this noise: %s to %s straddles %s %s; run it again", lo, hi,
			 rule_op_text(l->cmp.op), rule);
	else if (!isfinite(p))
		snprintf(line, len, "can't tell at this noise: too few runs for the U test (5 a side); run it again");
	else
		snprintf(line, len, "can't tell at this noise: %s's times against %s times %s's, the U test gives p = %.2g, "
			 "or the difference is inside the %g%% noise band; run it again, or with a longer %s",
			 l->fig.a.exercise, rule, l->fig.b.exercise, p, l->noise, options_long(OPT_TIMEOUT));
}

/* The claim and the notes' figure beside the measurement, and the verdict in a line. */
static void learn_judge(const struct lesson *l, const struct figure_value *f, enum verdict d, double p)
{
	char v[64], lo[64], hi[64], rule[64], line[2 * LESSON_MAX_TEXT + 256], device[160], test[64] = "";
	char because[LESSON_MAX_TEXT + PATH_MAX];
	learn_figure_text(l, f->value, v, sizeof v);
	learn_figure_text(l, f->lo, lo, sizeof lo);
	learn_figure_text(l, f->hi, hi, sizeof hi);
	learn_figure_text(l, l->cmp.value, rule, sizeof rule);
	escape_into(device, sizeof device, f->device);
	if (isfinite(p))
		snprintf(test, sizeof test, " (U test p = %.2g)", p);
	snprintf(line, sizeof line, "%s %s %s", l->figure, rule_op_text(l->cmp.op), rule);
	learn_wrap("\n  the claim needs   ", line);
	learn_wrap("  the notes         ", learn_notes_figure(l, line, sizeof line));
	if (isfinite(f->lo) && f->lo != f->hi)
		snprintf(line, sizeof line, "%s (95%% interval %s to %s) on %s", v, lo, hi, device);
	else
		snprintf(line, sizeof line, "%s on %s%s", v, device, isfinite(f->lo) ? "" : " (no interval: under 6 runs)");
	learn_wrap("  measured          ", line);
	if (d == VERDICT_HOLDS)
		snprintf(line, sizeof line, "holds on %s%s: %s%s", strcmp(device, "this host") ? "your " : "", device, v, test);
	else if (d == VERDICT_FAILS)
		snprintf(line, sizeof line, "does not hold here: %s against %s %s%s%s%s", v, rule_op_text(l->cmp.op), rule, test,
			 l->because ? ", because " : "",
			 l->because ? learn_expand(l, l->because, f, because, sizeof because) : "");
	else
		learn_unsure(l, f, p, line, sizeof line);
	learn_wrap("  verdict           ", line);
}

static void learn_task(const struct lesson *l)
{
	char line[LESSON_MAX_TEXT + 256], text[LESSON_MAX_TEXT + 4 * PATH_MAX];
	learn_wrap("\nYour task: ", learn_expand(l, l->task, NULL, text, sizeof text));
	snprintf(line, sizeof line, "at least %.2fx as fast as %s, measured beside it", l->target_times, l->target_ref.exercise);
	learn_wrap("  target            ", line);
	if (l->req.metric[0]) {
		snprintf(line, sizeof line, "%s %s %g (%s %s shows it)", l->req.metric, rule_op_text(l->req.rule.op),
			 l->req.rule.value, options_long(OPT_METRICS), l->req.metric);
		learn_wrap("  and keep          ", line);
	}
	printf("  start from        gpulab " CMD_TRY " %s %s > mine.cu\n", l->challenge, options_long(OPT_TEMPLATE));
	printf("  submit            gpulab " CMD_LEARN " %s %s mine.cu\n", l->name, options_long(OPT_SUBMIT));
}

/* Keep what this step did: the lock is taken, the file read again, and
 * the step applied to it.  seen: the claim's experiment ran (a
 * submission sees no claim). */
static int learn_record(const struct lesson *l, int seen, int verdict, double figure, double times, int passed)
{
	char path[4200], err[1024];
	struct progress p;
	int rc = progress_path(path, sizeof path, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if ((rc = progress_load(&p, path, 1, err, sizeof err))) {
		progress_free(&p);
		return fail(rc, "%s", err);
	}
	struct progress_entry *e = progress_add(&p, l->name);
	if (!e)
		rc = fail(EXIT_NOMEM, "out of memory");
	else {
		e->seen |= seen;
		if (verdict >= 0)
			e->verdict = verdict, e->figure = figure;
		if (isfinite(times) && !(times <= e->best))
			e->best = times;
		e->passed |= passed;
		if ((rc = progress_save(&p, err, sizeof err)))
			fail(rc, "%s", err);
	}
	progress_free(&p);
	return rc;
}

/* The lesson's page as installed, whole, so that it can be opened as
 * printed: on a line of its own where "More: " and it pass 100 columns. */
static void learn_more(const struct lesson *l)
{
	char path[PATH_MAX + LESSON_MAX_TEXT];
	snprintf(path, sizeof path, "%s/%s", docs_dir(), l->docs);
	fputs(strlen(path) + 6 > 100 ? "More:\n  " : "More: ", stdout);
	fput_escaped(stdout, path);
	putchar('\n');
}

/* What the lesson's experiment came to: run as `gpulab run -o` (its
 * table on stdout, or with quiet not), the record read back and judged,
 * and kept.  r->error (of errlen bytes) says why no verdict was told. */
struct experiment {
	struct lesson_outcome r;
	int rc;
	char error[1024], kept[4400 + LESSON_MAX_NAME];
};

static int learn_experiment(const struct learn_ask *q, const struct lesson *l, int quiet, struct experiment *x)
{
	struct learn_tmp t;
	struct record rec = { 0 };
	char err[1024];
	int rc;
	x->r = (struct lesson_outcome){ .verdict = -1, .p = NAN };
	if ((rc = learn_tmp_make(&t)))
		return rc;
	x->rc = learn_run(q, CMD_RUN, NULL, 0, l->run, t.record, quiet);
	rec.path = t.record;
	if (x->rc > 128) { /* stopped by a signal, or crashed: nothing to judge or keep */
		learn_tmp_remove(&t);
		return x->rc;
	}
	if (!(x->r.ran = access(t.record, F_OK) == 0))
		snprintf(x->error, sizeof x->error, "the experiment did not run%s",
			 x->rc == EXIT_NODEVICE ? ": it needs a GPU (the text and the task do not)" : " (stderr says why)");
	else if (record_load(&rec, err, sizeof err) || figure_measure(&rec, &l->fig, &x->r.f, err, sizeof err))
		snprintf(x->error, sizeof x->error, "%s", err), x->rc = x->rc ? x->rc : EXIT_WRONG;
	else
		x->r.verdict = (int)figure_verdict(l, &x->r.f, &x->r.p);
	x->r.f.a = x->r.f.b = NULL, x->r.f.na = x->r.f.nb = 0; /* the samples were rec's */
	record_free(&rec);
	x->r.error = x->r.verdict < 0 ? x->error : NULL;
	if (x->r.verdict >= 0 && learn_tmp_keep(&t, l, "", x->kept, sizeof x->kept) == 0)
		x->r.record = x->kept;
	learn_tmp_remove(&t);
	return 0;
}

/* The claim seen once its experiment ran, not where nothing did (no
 * GPU); the run's exit status, else the progress file's. */
static int learn_seen(const struct lesson *l, const struct experiment *x)
{
	int kept = x->r.ran ? learn_record(l, 1, x->r.verdict, x->r.verdict >= 0 ? x->r.f.value : NAN, NAN, 0) : 0;
	return x->rc ? x->rc : kept;
}

static int learn_lesson(const struct learn_ask *q, const struct lesson *l)
{
	struct experiment x;
	char where[LESSON_MAX_TEXT + 64], text[LESSON_MAX_TEXT + 4 * PATH_MAX];
	int rc;
	printf("%s\n", l->chapter);
	learn_wrap("Lesson: ", l->topic);
	learn_wrap("\nThe claim: ", learn_expand(l, l->claim, NULL, text, sizeof text));
	learn_wrap("The notes: ", learn_notes_figure(l, where, sizeof where));
	learn_wrap("\nOn this GPU: gpulab " CMD_RUN " ", l->run);
	putchar('\n');
	if ((rc = learn_experiment(q, l, 0, &x)))
		return rc;
	if (!x.r.ran)
		printf("\nThe experiment did not run%s.\n",
		       x.rc == EXIT_NODEVICE ? ": it needs a GPU (the text and the task do not)" : " (the line above says why)");
	else if (x.r.verdict < 0)
		printf("\nNo verdict: %s\n", x.error);
	else
		learn_judge(l, &x.r.f, (enum verdict)x.r.verdict, x.r.p);
	if (x.r.record)
		printf("Its record: %s\n", x.r.record);
	learn_wrap("\nWhy: ", learn_expand(l, l->why, NULL, text, sizeof text));
	if (x.r.verdict >= 0 && l->here) /* this run's own figures, never another run's */
		learn_wrap("Here: ", learn_expand(l, l->here, &x.r.f, text, sizeof text));
	learn_more(l);
	learn_task(l);
	return learn_seen(l, &x);
}

/* gpulab learn LESSON --format json: the lesson, its experiment run
 * (its table not printed) and the verdict, as one document. */
static int learn_lesson_doc(const struct learn_ask *q, const struct lesson *l)
{
	static char claim[LESSON_MAX_TEXT + 4 * PATH_MAX], why[sizeof claim], here[sizeof claim], task[sizeof claim],
		because[sizeof claim], page[PATH_MAX + LESSON_MAX_TEXT];
	struct experiment x;
	int rc = learn_experiment(q, l, 1, &x);
	if (rc)
		return rc;
	const struct figure_value *f = x.r.verdict >= 0 ? &x.r.f : NULL;
	x.r.claim = learn_expand(l, l->claim, NULL, claim, sizeof claim);
	x.r.why = learn_expand(l, l->why, NULL, why, sizeof why);
	x.r.here = f && l->here ? learn_expand(l, l->here, f, here, sizeof here) : NULL;
	x.r.task = learn_expand(l, l->task, NULL, task, sizeof task);
	x.r.because = l->because ? learn_expand(l, l->because, f, because, sizeof because) : NULL;
	snprintf(page, sizeof page, "%s/%s", docs_dir(), l->docs);
	x.r.page = page;
	learn_lesson_json(l, &x.r, stdout);
	return learn_seen(l, &x);
}

/* The task's counter, where it sets one: 1 kept, 0 not (said why). */
static int learn_require(const struct lesson *l, const struct record *rec)
{
	char err[1024];
	double v;
	if (!l->req.metric[0])
		return 1;
	if (task_counter(rec, l->challenge, l->req.metric, &v, err, sizeof err))
		return printf("\nnot passed: %s\n", err), 0;
	int kept = verdict_judge(&l->req.rule, v, v) == VERDICT_HOLDS;
	printf("\n%s %g: %s the task's %s %g\n", l->req.metric, v, kept ? "keeps" : "breaks", rule_op_text(l->req.rule.op),
	       l->req.rule.value);
	return kept;
}

static int learn_submit(const struct learn_ask *q, const struct lesson *l)
{
	struct learn_tmp t;
	struct record rec = { 0 };
	char err[1024], line[512], args[LESSON_MAX_TEXT + 128], kept_as[4400 + LESSON_MAX_NAME];
	double times = NAN;
	char *first[] = { l->challenge, (char *)q->submit };
	int rc, kept = 1;
	if ((rc = learn_tmp_make(&t)))
		return rc;
	/* the counter the task keeps is read in an untimed run of its own */
	snprintf(args, sizeof args, "%s%s%s%s%s", l->args ? l->args : "", l->req.metric[0] ? " " : "",
		 l->req.metric[0] ? options_long(OPT_METRICS) : "", l->req.metric[0] ? " " : "", l->req.metric);
	rc = learn_run(q, CMD_TRY, first, 2, args, t.record, 0);
	rec.path = t.record;
	if (rc > 128) {
		learn_tmp_remove(&t);
		return rc;
	}
	if (access(t.record, F_OK) != 0)
		printf("\nnot passed: nothing was timed (the line above says why)\n");
	else if (record_load(&rec, err, sizeof err) || task_measure(&rec, l->challenge, &l->target_ref, &times, err, sizeof err))
		printf("\nnot passed: %s\n", err), times = NAN;
	else
		kept = learn_require(l, &rec);
	record_free(&rec);
	int fast = times >= l->target_times, passed = fast && kept;
	if (isfinite(times)) {
		snprintf(line, sizeof line, "%s: %.3fx as fast as %s, %.1f%% %s the target of %.2fx%s",
			 passed ? "passed" : "not passed", times, l->target_ref.exercise,
			 fabs(times / l->target_times - 1) * 100, fast ? "over" : "under", l->target_times,
			 kept ? "" : ", but not the task's counter (above)");
		learn_wrap("\n", line);
		if (learn_tmp_keep(&t, l, "-task", kept_as, sizeof kept_as) == 0)
			printf("Its record: %s\n", kept_as);
	}
	learn_tmp_remove(&t);
	/* a submission keeps its figure where it was timed, and nothing where
	 * nothing ran (issue 52, item 5): it never marks the claim seen */
	int saved = isfinite(times) ? learn_record(l, 0, -1, NAN, times, passed) : 0;
	/* the challenge's own rows may fail (not the learner's doing): the verdict is the learner's row */
	return passed ? saved : isfinite(times) ? EXIT_SLOWER : rc ? rc : EXIT_WRONG;
}

int learn_lessons(const struct learn_ask *q)
{
	struct lesson_set s;
	struct progress p;
	char err[1024], path[4200];
	int rc;
	if ((rc = lessons_load(&s, lessons_dir(), err, sizeof err)))
		return fail(rc, "learn: %s", err);
	/* a corrupt progress file stops everything before any work */
	if ((rc = progress_path(path, sizeof path, err, sizeof err)) == 0 && (rc = progress_load(&p, path, 0, err, sizeof err)))
		progress_free(&p);
	if (rc) {
		lessons_free(&s);
		return fail(rc, "%s", err);
	}
	const struct lesson *l = q->lesson ? lessons_find(&s, q->lesson) : NULL;
	if (!q->lesson)
		learn_map(&s, &p, q->format, stdout);
	else if (q->submit && !report_for_people(q->format)) /* a submission is told as it goes, to people */
		rc = fail(EXIT_USAGE, "learn: %s prints for people; %s json is the map's and a lesson's (gpulab " CMD_LEARN " "
				      "LESSON %s json)", options_long(OPT_SUBMIT), options_long(OPT_FORMAT), options_long(OPT_FORMAT));
	else if (!l)
		rc = fail(EXIT_NOMATCH, "learn: no lesson '%s'; `gpulab " CMD_LEARN "` lists them", q->lesson);
	else
		rc = q->submit ? learn_submit(q, l) : report_for_people(q->format) ? learn_lesson(q, l)
										 : learn_lesson_doc(q, l);
	progress_free(&p);
	lessons_free(&s);
	return rc;
}
