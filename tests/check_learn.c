/* gpulab learn and gpulab grade (issue 40), without a GPU: the lesson
 * parser on hostile input, the verdict as a pure function, the progress
 * file, and the commands end to end on the host-only fake plugins (the
 * fake `try` plugin's kernels crash, hang or sleep by their names). */
#include "config.h"

#include "learn/lesson.h"
#include "exitcode.h"
#include "learn/progress.h"
#include "learn/verdict.h"
#include "testutil.h"

#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <math.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A lesson that parses; the hostile cases change one thing in it. */
#define GOOD_LESSON \
	"[lesson]\norder = 5\nchapter = Chapter 3\ntopic = A topic\n" \
	"claim = The first line of a claim\n\tand its second\nbook = 1.26x (Tesla M2070)\n" \
	"run = fake.sleepy fake.ok -n 64 -r 10\nfigure = speedup fake.sleepy fake.ok@n=64\nrule = >= 2\nunit = x\n" \
	"why = Because.\ndocs = book-vs-hopper.md#2-the-reduction-ladder\n" \
	"[task]\nchallenge = gated\nargs = -n 64\ntarget = 1.5x fake.sleepy\ntext = Do it.\n"

static int parse(const char *text, struct lesson *l, char *err, size_t len)
{
	return lesson_parse(l, "dir/sample.ini", text, strlen(text), err, len);
}

static const char *mutate(const char *from, const char *to);

START_TEST(lesson_parses)
{
	struct lesson l;
	char err[1024];
	ck_assert_msg(parse(GOOD_LESSON, &l, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(l.name, "sample");
	ck_assert_str_eq(l.claim, "The first line of a claim and its second");
	ck_assert_int_eq(l.order, 5);
	ck_assert_int_eq(l.fig.kind, FIGURE_SPEEDUP);
	ck_assert_str_eq(l.fig.b.exercise, "fake.ok");
	ck_assert_int_eq(l.fig.b.nkeys, 1);
	ck_assert_str_eq(l.fig.b.keys[0][1], "64");
	ck_assert_int_eq(l.cmp.op, RULE_GE);
	ck_assert(l.cmp.value == 2 && l.target_times == 1.5);
	ck_assert_str_eq(l.target_ref.exercise, "fake.sleepy");
	ck_assert_str_eq(l.req.metric, ""); /* no counter to keep */
	lesson_free(&l);
	const char *with = mutate("text = Do it.\n", "text = Do it.\nrequire = shared_ld_bank_conflict <= 0\n");
	ck_assert_msg(parse(with, &l, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(l.req.metric, "shared_ld_bank_conflict");
	ck_assert(l.req.rule.op == RULE_LE && l.req.rule.value == 0);
	ck_assert(l.noise == LESSON_NOISE && !l.notes); /* neither key given */
	lesson_free(&l);
	/* where in the notes, a noise band of its own, and a figure the exercise noted */
	with = mutate("unit = x\n", "unit = x\nnotes = 001 L376-377\nnoise = 5\n");
	ck_assert_msg(parse(with, &l, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(l.notes, "001 L376-377");
	ck_assert(l.noise == 5);
	lesson_free(&l);
	with = mutate("why = Because.\n", "why = Because ({docs}/try.md).\nclaims = 001.12 past.3\n"
		      "here = {figure} ({lo} to {hi}): {a} against {b}, {a_peak}% and {b_peak}%, {a_gbps} {b_gbps} on {device}\n");
	ck_assert_msg(parse(with, &l, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(l.claims, "001.12 past.3");
	ck_assert(l.here && strstr(l.here, "{a_gbps}"));
	lesson_free(&l);
	with = mutate("figure = speedup fake.sleepy fake.ok@n=64\n", "figure = note nested.hello launches\n");
	ck_assert_msg(parse(with, &l, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(l.fig.kind, FIGURE_NOTE);
	ck_assert_str_eq(l.fig.a.exercise, "nested.hello");
	ck_assert_str_eq(l.fig.metric, "launches");
	lesson_free(&l);
}
END_TEST

/* Replace the first `from` in GOOD_LESSON by `to`. */
static const char *mutate(const char *from, const char *to)
{
	static char buf[8192];
	const char *at = strstr(GOOD_LESSON, from);
	ck_assert_msg(at != NULL, "%s", from);
	snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - GOOD_LESSON), GOOD_LESSON, to, at + strlen(from));
	return buf;
}

static const struct {
	const char *from, *to, *words;
} hostile[] = {
	{ "[task]", "[tusk]", "sample.ini:15: unknown section [tusk]; expected [lesson] or [task]" },
	{ "unit = x", "color = x", "sample.ini:11: unknown key 'color' in [lesson]" },
	{ "unit = x", "topic = again", "sample.ini:11: key 'topic' given twice in [lesson]" },
	{ "unit = x\n", "unit = x\nunit = y\n", "key 'unit' given twice" },
	{ "why = Because.\n", "", "sample.ini: no 'why' in [lesson]" },
	{ "text = Do it.\n", "", "no 'text' in [task]" },
	{ "[lesson]\n", "order = 1\n[lesson]\n", "sample.ini:1: key 'order' outside a section" },
	{ "book = ", "book = \x1b[2J", "sample.ini:7: key 'book': control characters or bytes that are not UTF-8" },
	{ "book = ", "book = \xff", "key 'book': control characters" },
	{ "book = ", "book = \xe2\x80\xae", "key 'book': control characters" },
	{ "figure = speedup fake.sleepy fake.ok@n=64", "figure = faster fake.sleepy",
	  "key 'figure': expected 'speedup A B', 'metric A LABEL', 'metric_ratio A B LABEL' or 'note A KEY'" },
	{ "figure = speedup fake.sleepy", "figure = speedup sleepy", "key 'figure': 'sleepy' is not an exercise" },
	{ "fake.ok@n=64", "fake.ok@n", "key 'figure': 'n': a point is EXERCISE@key=value" },
	{ "fake.ok@n=64", "fake.ok@a=1@b=2@c=3@d=4@e=5", "at most 4 keys" },
	{ "fake.ok@n=64", "fake.ok;rm", "key 'figure': ';rm' after the exercise" },
	{ "rule = >= 2", "rule = => 2", "key 'rule': '=> 2' is not a rule" },
	{ "rule = >= 2", "rule = >= nan", "key 'rule': '>= nan' is not a rule" },
	{ "rule = >= 2", "rule = >= 1e400", "is not a rule" },
	{ "target = 1.5x", "target = 1.5", "key 'target': expected 'TIMESx EXERCISE'" },
	{ "target = 1.5x", "target = -1x", "key 'target': '-1x': the times must be a number above 0" },
	{ "order = 5", "order = 5.5", "key 'order': '5.5' is not a whole number from 1 to 999" },
	{ "order = 5", "order = 0", "key 'order'" },
	{ "challenge = gated", "challenge = ../etc", "key 'challenge': '../etc' is not a challenge name" },
	{ "docs = book-vs-hopper.md", "docs = ../../etc/passwd.md", "key 'docs': '../../etc/passwd.md#2-the-reduction" },
	{ "docs = book-vs-hopper.md", "docs = https://x.md", "key 'docs'" },
	{ "run = fake.sleepy fake.ok -n 64 -r 10", "run = a b c d e f g h i j k l m n o p q r s t u v w x y z",
	  "key 'run': 1 to 24 words" },
	{ "run = fake.sleepy fake.ok -n 64 -r 10", "run = ", "key 'run': 1 to 24 words" },
	{ "unit = x", "this line has no equals sign", "sample.ini:11: malformed line" },
	{ "unit = x", "= x", "sample.ini:11: a value with no key" },
	{ "book = ", "book = a\0b", "a NUL byte" },
	{ "text = Do it.\n", "text = Do it.\nrequire = shared_load_transactions_per_request\n",
	  "key 'require': expected 'LABEL OP NUMBER'" },
	{ "text = Do it.\n", "text = Do it.\nrequire = a;b <= 2\n", "key 'require': 'a;b' is not a counter's label" },
	{ "text = Do it.\n", "text = Do it.\nrequire = x => 2\n", "key 'require': '=> 2' is not a rule" },
	{ "text = Do it.\n", "text = Do it.\nrequire = x <= 2 3\n", "key 'require': expected 'LABEL OP NUMBER'" },
	{ "unit = x\n", "unit = x\nnoise = -1\n", "key 'noise': '-1' is not a percentage from 0 to 100" },
	{ "unit = x\n", "unit = x\nnoise = lots\n", "key 'noise': 'lots' is not a percentage" },
	{ "figure = speedup fake.sleepy fake.ok@n=64\nrule = >= 2\n",
	  "figure = metric fake.ok some_counter\nrule = >= 2\nnoise = 3\n", "key 'noise': only a speedup has a noise band" },
	{ "rule = >= 2\n", "rule = >= 0\n", "key 'rule': '>= 0': a speedup's rule is a ratio above 0" },
	{ "figure = speedup fake.sleepy fake.ok@n=64\n", "figure = note fake.ok\n", "expected 'speedup A B'" },
	{ "figure = speedup fake.sleepy fake.ok@n=64\n", "figure = note fake.ok a;b\n", "'a;b' is not a counter's label" },
	{ "unit = x\n", "unit = x\nnotes = one\nnotes = two\n", "key 'notes' given twice" },
	/* a why's figures are the notes' own; this run's go in `here`, by placeholder (issue 53) */
	{ "why = Because.\n", "why = Because {figure}.\n", "key 'why': '{figure}' is not a placeholder here ({docs})" },
	{ "why = Because.\n", "why = Because.\nhere = {figures}\n", "key 'here': '{figures}' is not a placeholder here" },
	{ "why = Because.\n", "why = Because.\nhere = {a\n", "key 'here': '{a' is not a placeholder" },
	{ "text = Do it.\n", "text = Do it {a}.\n", "key 'text': '{a}' is not a placeholder here ({docs})" },
	{ "unit = x\n", "unit = x\nclaims = 1.2\n", "key 'claims': '1.2' is not a list of claims" },
	{ "unit = x\n", "unit = x\nclaims = 001.2 later.3\n", "key 'claims': '001.2 later.3'" },
	{ "unit = x\n", "unit = x\nclaims = 001.\n", "key 'claims'" },
	{ "unit = x\n", "unit = x\nfloor = 1\n", "key 'floor': only a ratio of counters has a floor" },
	{ "figure = speedup fake.sleepy fake.ok@n=64\n", "figure = metric_ratio fake.sleepy fake.ok c\nfloor = -1\n",
	  "key 'floor': '-1' is not a number of 0 or more" },
};

START_TEST(lesson_refuses_hostile_input)
{
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		struct lesson l;
		char err[1024];
		const char *text = mutate(hostile[i].from, hostile[i].to);
		size_t len = strlen(text);
		if (strstr(hostile[i].words, "NUL")) /* the NUL is in the middle: count it */
			len = strlen(GOOD_LESSON) + 2;
		err[0] = 0;
		int rc = lesson_parse(&l, "dir/sample.ini", text, len, err, sizeof err);
		ck_assert_msg(rc == EXIT_CONFIG, "case %zu: exit %d (%s)", i, rc, err);
		ck_assert_msg(strstr(err, hostile[i].words) != NULL, "case %zu: '%s' lacks '%s'", i, err, hostile[i].words);
		ck_assert_msg(!strchr(err, '\n') && !strchr(err, '\x1b'), "case %zu: not one plain line: %s", i, err);
		lesson_free(&l);
	}
}
END_TEST

START_TEST(lesson_refuses_long_lines_and_names)
{
	struct lesson l;
	char err[1024], text[8192], big[LESSON_MAX_TEXT + 1024];
	char ws[300] = "why = ";
	memset(ws + 6, 'w', 250);
	snprintf(text, sizeof text, "%s", mutate("why = Because.", ws));
	ck_assert_int_eq(parse(text, &l, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "sample.ini:12: line longer than 198 bytes"), "%s", err);
	lesson_free(&l);
	/* a value continued past LESSON_MAX_TEXT */
	size_t n = 0;
	n += (size_t)snprintf(big, sizeof big, "why = x");
	while (n + 200 < sizeof big)
		n += (size_t)snprintf(big + n, sizeof big - n, "\n\t%0150d", 0);
	snprintf(text, sizeof text, "%s", mutate("why = Because.", big));
	ck_assert_int_eq(parse(text, &l, err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "key 'why': longer than 4096 bytes"), "%s", err);
	lesson_free(&l);
	ck_assert_int_eq(lesson_parse(&l, "dir/Bad Name.ini", GOOD_LESSON, strlen(GOOD_LESSON), err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "dir/Bad Name.ini: a lesson's file is NAME.ini"), "%s", err);
	lesson_free(&l);
}
END_TEST

/* The lessons gpulab installs: each parses, the orders differ, there are
 * issue 49's thirty at least, and each names its place in the chapter
 * notes and says why it may not hold. */
START_TEST(installed_lessons_load)
{
	struct lesson_set s;
	char err[1024], dir[4200];
	snprintf(dir, sizeof dir, "%s/lessons", getenv("srcdir") ? getenv("srcdir") : "..");
	ck_assert_msg(lessons_load(&s, dir, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(s.n >= 30, "%zu lessons", s.n);
	for (size_t i = 1; i < s.n; i++)
		ck_assert(s.v[i - 1].order < s.v[i].order);
	for (size_t i = 0; i < s.n; i++) {
		ck_assert_msg(s.v[i].notes && s.v[i].because && strlen(s.v[i].topic) <= 44, /* the map's column */
			      "%s: no notes, no because, or a topic over 44 bytes", s.v[i].name);
		/* a page is cited where it is installed, {docs}/, not in a source tree the learner may not
		 * have (issue 52, item 5) */
		const char *texts[] = { s.v[i].claim, s.v[i].why, s.v[i].because, s.v[i].here, s.v[i].task };
		for (int t = 0; t < 5; t++)
			ck_assert_msg(!texts[t] || !strstr(texts[t], "docs/"), "%s cites docs/ in the source tree: %s",
				      s.v[i].name, texts[t]);
	}
	ck_assert(lessons_find(&s, "divergence") && !lessons_find(&s, "nope"));
	lessons_free(&s);
	ck_assert_int_eq(lessons_load(&s, "/nonexistent", err, sizeof err), EXIT_CONFIG);
	ck_assert_msg(strstr(err, "/nonexistent: cannot read the lessons"), "%s", err);
}
END_TEST

/* docs/claims.md's rows: "| ID | place | figure | claim | LESSON |", the
 * last cell `name` `name` or "none: reason". */
static char *claims_cell(char *line, int *ncells, char **cells, int max)
{
	*ncells = 0;
	for (char *c = strchr(line, '|'); c && *ncells < max; c = strchr(c + 1, '|')) {
		char *e = strchr(c + 1, '|');
		if (!e)
			break;
		*e = 0;
		cells[(*ncells)++] = c + 1 + strspn(c + 1, " ");
		for (char *t = e - 1; t > c && *t == ' '; t--)
			*t = 0;
		*e = '|';
		c = e - 1;
	}
	return *ncells ? cells[0] : NULL;
}

static int lesson_claims_has(const struct lesson *l, const char *id)
{
	char buf[LESSON_MAX_TEXT], *w[LESSON_MAX_ARGS];
	int n = l->claims ? lesson_words(l->claims, buf, sizeof buf, w, LESSON_MAX_ARGS) : 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(w[i], id))
			return 1;
	return 0;
}

/* Every testable claim of the notes is in docs/claims.md with a lesson
 * or a reason, and every lesson names the claims it tests there (issue
 * 53, section 1). */
START_TEST(every_claim_has_a_lesson_or_a_reason)
{
	struct lesson_set s;
	char err[1024], dir[4200], path[4200], *text = malloc(1 << 20), ids[256][16];
	int nids = 0;
	const char *src = getenv("srcdir") ? getenv("srcdir") : "..";
	snprintf(dir, sizeof dir, "%s/lessons", src);
	snprintf(path, sizeof path, "%s/docs/claims.md", src);
	ck_assert_msg(lessons_load(&s, dir, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(text && read_text(path, text, 1 << 20), "cannot read %s", path);
	char seen_lesson[LESSON_MAX_COUNT] = { 0 };
	for (char *line = text, *next; line && *line; line = next) {
		char *cells[8], id[16];
		int n;
		if ((next = strchr(line, '\n')))
			*next++ = 0;
		if (strncmp(line, "| ", 2) || !claims_cell(line, &n, cells, 8) || !strcmp(cells[0], "id") || cells[0][0] == '-')
			continue;
		ck_assert_msg(n == 5, "claims.md: '%.60s': %d cells, not 5", line, n);
		snprintf(id, sizeof id, "%.15s", cells[0]);
		for (int i = 0; i < nids; i++)
			ck_assert_msg(strcmp(ids[i], id), "claims.md: %s twice", id);
		ck_assert(nids < 256);
		snprintf(ids[nids++], sizeof ids[0], "%s", id);
		ck_assert_msg(strlen(cells[1]) >= 5 && strlen(cells[3]) >= 10, "claims.md %s: no place or no claim", id);
		const char *who = cells[4];
		if (!strncmp(who, "none:", 5)) {
			ck_assert_msg(strlen(who) >= 40, "claims.md %s: a reason, with its evidence, is owed: '%s'", id, who);
			continue;
		}
		int named = 0;
		for (const char *q = strchr(who, '`'); q; q = strchr(q + 1, '`')) {
			const char *e = strchr(q + 1, '`');
			char name[LESSON_MAX_NAME + 1];
			ck_assert_msg(e && (size_t)(e - q - 1) <= LESSON_MAX_NAME, "claims.md %s: '%s'", id, who);
			snprintf(name, sizeof name, "%.*s", (int)(e - q - 1), q + 1);
			const struct lesson *l = lessons_find(&s, name);
			ck_assert_msg(l, "claims.md %s: no lesson '%s'", id, name);
			ck_assert_msg(lesson_claims_has(l, id), "claims.md %s names %s, whose claims key does not name %s", id, name, id);
			seen_lesson[l - s.v] = 1;
			named++;
			q = e;
		}
		ck_assert_msg(named, "claims.md %s: neither a lesson nor a reason ('none: ...'): '%s'", id, who);
	}
	ck_assert_msg(nids >= 60, "claims.md: %d claims", nids);
	for (size_t i = 0; i < s.n; i++) {
		ck_assert_msg(s.v[i].claims, "%s names no claim of docs/claims.md (its 'claims' key)", s.v[i].name);
		ck_assert_msg(seen_lesson[i], "%s: no row of docs/claims.md names it", s.v[i].name);
	}
	lessons_free(&s);
	free(text);
}
END_TEST

/* A figure in a text: a number with a decimal point, or one followed by
 * x or % (attached: "2 x 3" is a shape), ms, us or GB/s, or by "to" or
 * "against" and another number; its length, 0 where s does not start
 * one. */
static size_t figure_at(const char *s, const char *start)
{
	if (!isdigit((unsigned char)*s) || (s > start && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '^'
							|| s[-1] == '.')))
		return 0;
	size_t n = strspn(s, "0123456789"), dot = s[n] == '.' && isdigit((unsigned char)s[n + 1]);
	if (dot)
		n += 1 + strspn(s + n + 1, "0123456789");
	const char *u = s + n + (s[n] == ' ');
	int unit = (s[n] == 'x' && !isalnum((unsigned char)s[n + 1])) || s[n] == '%' || !strncmp(u, "ms", 2)
		   || !strncmp(u, "us ", 3) || !strncmp(u, "GB/s", 4);
	/* "from 290 to 112", "0.0355 against 0.0335": one run's pair of figures */
	int pair = (!strncmp(s + n, " to ", 4) && isdigit((unsigned char)s[n + 4]))
		   || (!strncmp(s + n, " against ", 9) && isdigit((unsigned char)s[n + 9]));
	return dot || unit || pair ? n : 0;
}

/* A "why" is true on the learner's GPU: its figures are the notes' own
 * (they are in the lesson's `book`); what this GPU measured goes in
 * `here`, filled from the lesson's own run (issue 53, section 5). */
START_TEST(why_quotes_no_other_run)
{
	struct lesson_set s;
	char err[1024], dir[4200];
	snprintf(dir, sizeof dir, "%s/lessons", getenv("srcdir") ? getenv("srcdir") : "..");
	ck_assert_msg(lessons_load(&s, dir, err, sizeof err) == 0, "%s", err);
	for (size_t i = 0; i < s.n; i++) {
		const struct lesson *l = &s.v[i];
		const char *texts[] = { l->why, l->because, l->here };
		for (int t = 0; t < 3; t++)
			for (const char *p = texts[t]; p && *p; p++) {
				size_t n = figure_at(p, texts[t]);
				char fig[32];
				if (!n)
					continue;
				snprintf(fig, sizeof fig, "%.*s", (int)(n < 31 ? n : 31), p);
				const char *b = strstr(l->book, fig);
				ck_assert_msg(b && !isdigit((unsigned char)b[n]), "%s: the %s quotes %s, not a figure of the notes "
					      "(its book); a figure of this GPU goes in 'here' as a placeholder",
					      l->name, t == 0 ? "why" : t == 1 ? "because" : "here", fig);
				p += n - 1;
			}
	}
	lessons_free(&s);
}
END_TEST

/* --- the verdict ------------------------------------------------------------------ */

START_TEST(verdict_of_each_kind)
{
	struct lesson_rule ge = { RULE_GE, 1.5 }, gt = { RULE_GT, 1.5 }, le = { RULE_LE, 60 }, lt = { RULE_LT, 60 };
	ck_assert_int_eq(verdict_judge(&ge, 1.9, 2.1), VERDICT_HOLDS);
	ck_assert_int_eq(verdict_judge(&ge, 1.5, 1.6), VERDICT_HOLDS);   /* the rule's own value keeps >= */
	ck_assert_int_eq(verdict_judge(&gt, 1.5, 1.6), VERDICT_UNSURE);  /* ...not > */
	ck_assert_int_eq(verdict_judge(&ge, 1.1, 1.3), VERDICT_FAILS);
	ck_assert_int_eq(verdict_judge(&ge, 1.4, 1.6), VERDICT_UNSURE);  /* straddles */
	ck_assert_int_eq(verdict_judge(&le, 49, 51), VERDICT_HOLDS);
	ck_assert_int_eq(verdict_judge(&le, 99, 100), VERDICT_FAILS);
	ck_assert_int_eq(verdict_judge(&lt, 59, 61), VERDICT_UNSURE);
	ck_assert_int_eq(verdict_judge(&lt, 60, 60), VERDICT_FAILS);
	ck_assert_int_eq(verdict_judge(&ge, NAN, NAN), VERDICT_UNSURE); /* no interval: under 6 runs */
	ck_assert_int_eq(verdict_judge(&ge, 2, INFINITY), VERDICT_UNSURE);
	ck_assert_int_eq(verdict_judge(&ge, 3, 2), VERDICT_UNSURE);     /* not an interval */
	ck_assert_str_eq(verdict_words(VERDICT_UNSURE), "can't tell at this noise");
	/* a counter's verdict: its one value against the rule */
	struct lesson les = { .cmp = le, .fig = { .kind = FIGURE_METRIC } };
	struct figure_value fv = { .value = 50, .lo = 50, .hi = 50 };
	double p;
	ck_assert_int_eq(figure_verdict(&les, &fv, &p), VERDICT_HOLDS);
	ck_assert(isnan(p));
	/* a ratio of counters near zero cannot be told, whatever it reads (issue 53: 0.23% over 0.03%) */
	struct lesson ratio = { .cmp = ge, .floor = 1, .fig = { .kind = FIGURE_METRIC_RATIO } };
	struct figure_value tiny = { .value = 7.7, .lo = 7.7, .hi = 7.7, .va = 0.23, .vb = 0.03 };
	struct figure_value real = { .value = 5.9, .lo = 5.9, .hi = 5.9, .va = 75.65, .vb = 12.76 };
	ck_assert_int_eq(figure_verdict(&ratio, &tiny, &p), VERDICT_UNSURE);
	ck_assert_int_eq(figure_verdict(&ratio, &real, &p), VERDICT_HOLDS);
	ratio.floor = 0;
	ck_assert_int_eq(figure_verdict(&ratio, &tiny, &p), VERDICT_HOLDS);
	ck_assert_int_eq(verdict_from_key(verdict_key(VERDICT_FAILS)), VERDICT_FAILS);
	ck_assert_int_eq(verdict_from_key("maybe"), -1);
}
END_TEST

/* A speedup's verdict is the U test of A's times against B's times the
 * rule's number: ten runs a side, B's around 1 ms, A's around 2. */
START_TEST(verdict_of_a_speedup_by_the_u_test)
{
	double a[10], b[10], near[10], p;
	for (int i = 0; i < 10; i++) {
		b[i] = 1 + 0.001 * i;
		a[i] = 2 + 0.001 * ((i * 7) % 10);
		near[i] = 1.52 * b[i];
	}
	struct lesson_rule ge = { RULE_GE, 1.5 }, le = { RULE_LE, 1.5 }, ge2 = { RULE_GE, 2 }, ge3 = { RULE_GE, 2.5 };
	ck_assert_int_eq(verdict_speedup(&ge, 2, a, 10, b, 10, &p), VERDICT_HOLDS);
	ck_assert_msg(p < 0.001, "p = %g", p); /* ten against ten, wholly apart */
	ck_assert_int_eq(verdict_speedup(&le, 2, a, 10, b, 10, &p), VERDICT_FAILS);
	ck_assert_int_eq(verdict_speedup(&ge3, 2, a, 10, b, 10, &p), VERDICT_FAILS);
	/* 2x against >= 2: A's times and twice B's mix, the test finds nothing */
	ck_assert_int_eq(verdict_speedup(&ge2, 2, a, 10, b, 10, &p), VERDICT_UNSURE);
	ck_assert_msg(p > 0.05, "p = %g", p);
	/* 1.52x against >= 1.5: significant, but inside a 2% band; outside a 1% one */
	ck_assert_int_eq(verdict_speedup(&ge, 2, near, 10, b, 10, &p), VERDICT_UNSURE);
	ck_assert_msg(p < 0.001, "p = %g", p);
	ck_assert_int_eq(verdict_speedup(&ge, 1, near, 10, b, 10, &p), VERDICT_HOLDS);
	/* under 5 runs a side the test refuses; no samples at all, the same */
	ck_assert_int_eq(verdict_speedup(&ge, 2, a, 4, b, 10, &p), VERDICT_UNSURE);
	ck_assert(isnan(p));
	ck_assert_int_eq(verdict_speedup(&ge, 2, NULL, 0, b, 10, &p), VERDICT_UNSURE);
}
END_TEST

/* A lesson's figure from a record the H200 wrote: the medians' ratio and
 * its interval from the two medians' intervals. */
START_TEST(figure_from_a_record)
{
	char path[4200], err[1024];
	snprintf(path, sizeof path, "%s/tests/records/h200-reduce-2p24.json", getenv("srcdir") ? getenv("srcdir") : "..");
	struct record rec = { .path = path };
	struct figure_value f;
	struct lesson_figure fig = { .kind = FIGURE_SPEEDUP, .a = { .exercise = "reduce.neighbored" },
				     .b = { .exercise = "reduce.interleaved" } };
	ck_assert_msg(record_load(&rec, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(figure_measure(&rec, &fig, &f, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(f.value > 1.5 && f.value < 3 && f.lo <= f.value && f.value <= f.hi, "%g [%g, %g]", f.value, f.lo, f.hi);
	ck_assert_msg(strstr(f.device, "H200"), "%s", f.device);
	struct lesson_rule r = { RULE_GE, 1.5 };
	ck_assert_int_eq(verdict_judge(&r, f.lo, f.hi), VERDICT_HOLDS);
	/* the U test on the record's samples says the same */
	ck_assert(f.a && f.b && f.na >= 5 && f.nb >= 5);
	struct lesson les = { .cmp = r, .fig = fig, .noise = LESSON_NOISE };
	double p;
	ck_assert_int_eq(figure_verdict(&les, &f, &p), VERDICT_HOLDS);
	ck_assert_msg(p < 0.05, "p = %g", p);
	strcpy(fig.b.exercise, "reduce.nothing");
	ck_assert_int_eq(figure_measure(&rec, &fig, &f, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "the run has no point of reduce.nothing"), "%s", err);
	fig.kind = FIGURE_METRIC;
	ck_assert_int_eq(figure_measure(&rec, &fig, &f, err, sizeof err), -1);
	record_free(&rec);
}
END_TEST

/* A number the exercise noted beside its timing: the H200 record with
 * reduce.neighbored's (first) notes given a launch count. */
START_TEST(figure_from_a_note)
{
	static char text[1 << 17];
	const char *from = "\"notes\": {}", *to = "\"notes\": {\"launches\": 3}";
	char src[4200], err[1024], *dir = temp_dir(), *at;
	snprintf(src, sizeof src, "%s/tests/records/h200-reduce-2p24.json", getenv("srcdir") ? getenv("srcdir") : "..");
	ck_assert(read_text(src, text, sizeof text) && (at = strstr(text, "\"notes\": {}")));
	memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
	struct record rec = { .path = (char *)write_file(dir, "noted.json", text) };
	struct lesson_figure fig = { .kind = FIGURE_NOTE, .a = { .exercise = "reduce.neighbored" }, .metric = "launches" };
	struct figure_value f;
	ck_assert_msg(record_load(&rec, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(figure_measure(&rec, &fig, &f, err, sizeof err) == 0, "%s", err);
	ck_assert(f.value == 3 && f.lo == 3 && f.hi == 3 && !f.a);
	strcpy(fig.metric, "stale");
	ck_assert_int_eq(figure_measure(&rec, &fig, &f, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "reduce.neighbored: no note 'stale' in the run"), "%s", err);
	record_free(&rec);
	free(dir);
}
END_TEST

/* The task's counter read from the learner's row: an H100 record with
 * divergence.math2's row renamed try.divergence, as try names it. */
START_TEST(task_counter_from_a_record)
{
	static char text[1 << 16];
	char src[4200], err[1024], *dir = temp_dir(), *at;
	double v = 0;
	snprintf(src, sizeof src, "%s/tests/records/h100-divergence-metrics.json", getenv("srcdir") ? getenv("srcdir") : "..");
	ck_assert(read_text(src, text, sizeof text) && (at = strstr(text, "\"exercise\": \"divergence.math2\"")));
	memcpy(at + 13, "try.divergence\"  ", 17); /* the same length: "divergence.math2" is 16 bytes */
	struct record rec = { .path = (char *)write_file(dir, "try.json", text) };
	ck_assert_msg(record_load(&rec, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(task_counter(&rec, "divergence", "warp_execution_efficiency", &v, err, sizeof err) == 0, "%s", err);
	ck_assert(v == 100);
	ck_assert_msg(task_counter(&rec, "divergence", "shared_ld_bank_conflict", &v, err, sizeof err) == -1
		      && strstr(err, "try.divergence: no counter 'shared_ld_bank_conflict' in the run"), "%s", err);
	ck_assert_msg(task_counter(&rec, "reduce", "branch_efficiency", &v, err, sizeof err) == -1
		      && strstr(err, "the run has no point of try.reduce"), "%s", err);
	record_free(&rec);
	free(dir);
}
END_TEST

/* --- the progress file -------------------------------------------------------------- */

START_TEST(progress_round_trip_and_refusals)
{
	char *dir = temp_dir(), path[4200], err[1024], before[4096], after[4096];
	struct progress p;
	snprintf(path, sizeof path, "%s/state/gpulab/progress.ini", dir);
	ck_assert_msg(progress_load(&p, path, 1, err, sizeof err) == 0, "%s", err); /* none yet; the directory made */
	struct progress_entry *e = progress_add(&p, "divergence");
	e->seen = 1, e->verdict = VERDICT_HOLDS, e->figure = 1.98;
	progress_add(&p, "smem-pad")->passed = 1;
	progress_add(&p, "smem-pad")->best = 1.25;
	ck_assert_msg(progress_save(&p, err, sizeof err) == 0, "%s", err);
	progress_free(&p);
	ck_assert_int_eq(progress_load(&p, path, 0, err, sizeof err), 0);
	const struct progress_entry *d = progress_find(&p, "divergence"), *s = progress_find(&p, "smem-pad");
	ck_assert(d && d->seen && d->verdict == VERDICT_HOLDS && fabs(d->figure - 1.98) < 1e-9 && !d->passed);
	ck_assert(s && s->passed && s->best == 1.25 && s->verdict == -1 && isnan(s->figure));
	progress_free(&p);
	ck_assert_int_eq(count_temporaries(dir), 0);
	static const struct {
		const char *text, *words;
	} bad[] = {
		{ "[lesson a]\nseen = yes\n", ":2: not a progress file of this gpulab" },
		{ "[gpulab]\nprogress = 2\n", ":2: [gpulab] holds one key, progress = 1" },
		{ "[gpulab]\nprogress = 1\n[lesson a]\nseen = maybe\n", ":4: bad value 'maybe' for 'seen'" },
		{ "[gpulab]\nprogress = 1\n[lesson a]\nfigure = -1\n", ":4: bad value '-1' for 'figure'" },
		{ "[gpulab]\nprogress = 1\n[lesson a]\nverdict = perhaps\n", "bad value 'perhaps' for 'verdict'" },
		{ "[gpulab]\nprogress = 1\n[lesson a]\ncolor = red\n", ":4: unknown key 'color' in [lesson a]" },
		{ "[gpulab]\nprogress = 1\n[lesson a]\nseen = yes\n[lesson b]\n[lesson a]\nseen = no\n", ":7: lesson 'a' twice" },
		{ "[gpulab]\nprogress = 1\n[lessons]\nseen = yes\n", ":4: unknown section [lessons]" },
		{ "[gpulab]\nprogress = 1\n[lesson a]\n  seen = yes\n", ":4: an indented line" },
		{ "garbage\n", ":1: malformed line" },
		{ "\x7f" "ELF\x02\x01\x01", "malformed line" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_file(dir, "state/gpulab/progress.ini", bad[i].text);
		read_text(path, before, sizeof before);
		ck_assert_int_eq(progress_load(&p, path, 1, err, sizeof err), EXIT_CONFIG);
		progress_free(&p);
		ck_assert_msg(strstr(err, bad[i].words) && strstr(err, "the file is kept as it is"), "case %zu: %s", i, err);
		ck_assert_msg(!strchr(err, '\n'), "%s", err);
		ck_assert_str_eq(read_text(path, after, sizeof after), before);
	}
	free(dir);
}
END_TEST

/* --- the commands, on the fake plugins --------------------------------------------------- */

static char env_sys[4200], env_path[4200], env_xdg[4200], env_state[4200], env_lessons[4200], state_dir[4200];
static const char *bin;
static struct cmd_result o;

/* Three lessons on the fake plugin: one holds (sleepy takes 2 ms, ok
 * none), one does not (the same figure against <= 1), one cannot tell
 * (jittery's runs alternate 0 and 50 us at either size: against >= 1 the
 * two sides are alike, and the medians, each between a 0 and a 50, are
 * within the noise band of each other whatever the U test's p). */
static void setup_learn(void)
{
	char *sys = temp_dir(), *xdg = temp_dir(), *lessons = temp_dir(), *state = temp_dir(), user[4200];
	write_file(sys, "gpulab.ini", "[plugin fake]\nfile = fake.so\n[plugin try]\nfile = faketry.so\n");
	snprintf(user, sizeof user, "%s/gpulab", xdg);
	mkdir(user, 0700);
	write_file(user, "gpulab.ini", "[defaults]\nreps = 10\n");
	write_file(lessons, "holds.ini", mutate("order = 5", "order = 1"));
	write_file(lessons, "fails.ini", mutate("rule = >= 2", "rule = <= 1"));
	const char *jittery = "run = fake.jittery -n 64,128 -r 10 -w 0\nfigure = speedup fake.jittery@n=64 fake.jittery@n=128\n";
	char text[8192];
	snprintf(text, sizeof text, "%s", mutate("run = fake.sleepy fake.ok -n 64 -r 10\nfigure = speedup fake.sleepy fake.ok@n=64\n",
						 jittery));
	char *ord = strstr(text, "order = 5"), *rule = strstr(text, "rule = >= 2");
	ord[8] = '9';
	rule[10] = '1';
	write_file(lessons, "unsure.ini", text);
	snprintf(env_sys, sizeof env_sys, "GPULAB_SYSCONFDIR=%s", sys);
	snprintf(env_path, sizeof env_path, "GPULAB_PLUGIN_PATH=%s", getenv("GPULAB_TEST_PLUGINS"));
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", xdg);
	snprintf(env_state, sizeof env_state, "XDG_STATE_HOME=%s", state);
	snprintf(env_lessons, sizeof env_lessons, "GPULAB_LESSONS=%s", lessons);
	snprintf(state_dir, sizeof state_dir, "%s/gpulab", state);
	bin = getenv("GPULAB_BIN");
	free(sys), free(xdg), free(lessons), free(state);
}

/* The lessons' records directory holds records alone: no run's
 * directory (.run-*) is left behind. */
static int only_records(void)
{
	char dir[4300];
	snprintf(dir, sizeof dir, "%s/records", state_dir);
	DIR *d = opendir(dir);
	struct dirent *e;
	int clean = d != NULL;
	while (d && (e = readdir(d)))
		clean &= strncmp(e->d_name, ".run-", 5) != 0;
	if (d)
		closedir(d);
	return clean;
}

static void gpulab(const char *first, ...)
{
	char *env[] = { env_sys, env_path, env_xdg, env_state, env_lessons, "GPULAB_CONFIG=", "FAKE_SLEEP_MS=2", NULL };
	va_list ap;
	va_start(ap, first);
	run_cmd_va(&o, bin, env, first, ap);
	va_end(ap);
}

/* A line that is one path, indented: it cannot be broken, and how long
 * it is depends on the prefix gpulab was configured with. */
static int one_path(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && line[i] == ' ')
		i++;
	return i < len && line[i] == '/' && !memchr(line + i, ' ', len - i);
}

/* Every line of s at most 100 columns (the texts here are ASCII), but for
 * a line that is one path: CI's distcheck prints the lesson's page as
 * installed under .../build/gpulab-0.1.0/_inst/share/doc/gpulab, and at
 * /check/work/main that path alone is 99 columns, 101 with its indent. */
static int fits(const char *s)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		if (len > 100 && !one_path(s, len))
			return 0;
		s += len + (nl != NULL);
	}
	return 1;
}

START_TEST(learn_map_progress_and_verdicts)
{
	setup_learn();
	gpulab("learn", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "3 lessons, 0 seen, 0 tasks passed") && occurrences(o.out, "not started") == 3
		      && strstr(o.out, "Next: gpulab learn holds") && fits(o.out), "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "holds", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "  verdict           holds on this host: ")
		      && strstr(o.out, "Your task: Do it.") && fits(o.out), "%d %s %s", o.status, o.out, o.err);
	/* the page as installed, openable as printed (issue 46, item 10) */
	ck_assert_msg(strstr(o.out, "More:") && strstr(o.out, GPULAB_DOCDIR "/book-vs-hopper.md#2-the-reduction-ladder\n"), "%s",
		      o.out);
	/* under a prefix as long as CI's distcheck has, the page's path gets a line of its own, whole */
	char *docs = "GPULAB_DOCDIR=/check/work/main/build/gpulab-0.1.0/_inst/share/doc/gpulab";
	char *env[] = { env_sys, env_path, env_xdg, env_state, env_lessons, "GPULAB_CONFIG=", "FAKE_SLEEP_MS=2", docs, NULL };
	char *argv[] = { (char *)bin, "learn", "holds", NULL };
	run_cmd(&o, argv, env);
	ck_assert_msg(o.status == 0 && strstr(o.out, "More:\n  /check/work/main/build/gpulab-0.1.0/_inst/share/doc/gpulab/"
						     "book-vs-hopper.md#2-the-reduction-ladder\n") && fits(o.out),
		      "%d %s %s", o.status, o.out, o.err);
	/* the experiment's record is kept, an ordinary one: compare reads it */
	char kept[4400];
	snprintf(kept, sizeof kept, "%s/records/holds.json", state_dir);
	ck_assert_msg(strstr(o.out, "Its record: ") && strstr(o.out, kept), "%s", o.out);
	gpulab("compare", kept, kept, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "fake.sleepy"), "%d %s %s", o.status, o.out, o.err);
	ck_assert_msg(only_records(), "a run's directory is left in %s/records", state_dir);
	gpulab("learn", "fails", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "does not hold here: ") && strstr(o.out, "against <= 1x"), "%d %s %s",
		      o.status, o.out, o.err);
	/* the lesson as one document: its texts, the run's table not printed, the verdict, the record kept */
	gpulab("learn", "fails", "--format", "json", NULL);
	snprintf(kept, sizeof kept, "\"record\": \"%s/records/fails.json\"", state_dir);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "{\n  \"schema\": \"gpulab-lesson/1\",\n  \"name\": \"fails\", ", 50)
		      && occurrences(o.out, "\n}\n") == 1 && !strstr(o.out, "fake.sleepy  ") && strstr(o.out, kept)
		      && strstr(o.out, "\"claim\": \"The first line of a claim and its second\"")
		      && strstr(o.out, "\"claims\": [],") && strstr(o.out, "\"why\": \"Because.\"")
		      && strstr(o.out, "\"task\": {\"challenge\": \"gated\", \"text\": \"Do it.\"")
		      && strstr(o.out, "\"ran\": true, \"error\": null")
		      && strstr(o.out, "\"result\": {\"verdict\": \"fails\", \"words\": \"does not hold\", \"value\": ")
		      && strstr(o.out, "\"device\": \"this host\"}"), "%d %s %s", o.status, o.out, o.err);
	/* the why cites the pages as installed, and `here` holds this run's own figures (issue 53, section 5) */
	char text[8192];
	snprintf(text, sizeof text, "%s", mutate("why = Because.\n", "why = Because ({docs}/try.md).\n"
						 "here = sleepy {a} ms, ok {b} ms: {figure}, at {a_peak}% of peak.\n"));
	memcpy(strstr(text, "order = 5"), "order = 8", 9);
	write_file(strchr(env_lessons, '=') + 1, "here.ini", text);
	gpulab("learn", "here", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "Why: Because (" GPULAB_DOCDIR "/try.md).") && strstr(o.out, "\nHere: sleepy ")
		      && !strstr(o.out, "{a}") && !strstr(o.out, "n/a ms") && strstr(o.out, " ms: ") && fits(o.out),
		      "%d %s %s", o.status, o.out, o.err);
	double sleepy, ok;
	const char *h = strstr(o.out, "Here: sleepy ");
	ck_assert_msg(h && sscanf(h, "Here: sleepy %lf ms, ok %lf ms", &sleepy, &ok) == 2 && sleepy > ok && sleepy >= 1.5,
		      "%s", h ? h : o.out);
	char here[4400];
	snprintf(here, sizeof here, "%s/here.ini", strchr(env_lessons, '=') + 1);
	ck_assert(unlink(here) == 0); /* the map below counts three lessons */
	gpulab("learn", "unsure", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "can't tell at this noise: fake.jittery's times against 1x times")
		      && strstr(o.out, "the U test gives p = "),
		      "%d %s %s", o.status, o.out, o.err);
	/* a later run reads what the earlier ones kept */
	gpulab("learn", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "3 lessons, 3 seen, 0 tasks passed") && strstr(o.out, "claim seen: holds")
		      && strstr(o.out, "claim seen: fails") && strstr(o.out, "claim seen: unsure")
		      && strstr(o.out, "Next: gpulab learn holds"), "%s", o.out);
	/* the map as a table: CSV that parses, a row a lesson; the Markdown row of a lesson seen */
	int fields;
	gpulab("learn", "--format", "csv", NULL);
	ck_assert_msg(o.status == 0 && csv_valid(o.out, &fields) && fields == 10 && count_lines(o.out) == 4
		      && !strncmp(o.out, "name,chapter,topic,state,seen,passed,verdict,figure,best,next\n\"holds\",", 70)
		      && strstr(o.out, ",\"yes\",\"no\",\"fails\","), "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "--format", "md", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "|---|---|---|---|---|---|---|---:|---:|---|\n| holds | Chapter 3 | A topic | "
						     "claim seen: holds, ") && strstr(o.out, " | yes | no | holds | "),
		      "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "nope", NULL);
	ck_assert_msg(o.status == EXIT_NOMATCH && strstr(o.err, "gpulab: learn: no lesson 'nope'") && count_lines(o.err) == 1,
		      "%d %s", o.status, o.err);
}
END_TEST

START_TEST(learn_submit_records_the_task)
{
	setup_learn();
	/* nothing ran: the lesson is not marked seen, nor anything kept (issue 52, item 5) */
	gpulab("learn", "holds", "--submit", "bad.cu", NULL);
	ck_assert_msg(o.status == EXIT_WRONG && strstr(o.out, "not passed: nothing was timed"), "%d %s", o.status, o.out);
	gpulab("learn", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "3 lessons, 0 seen, 0 tasks passed") && occurrences(o.out, "not started") == 3,
		      "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "holds", "--submit", "slow.cu", NULL); /* 2 ms against sleepy's 2 ms: not 1.5x */
	ck_assert_msg(o.status == EXIT_SLOWER && strstr(o.out, "not passed: ") && strstr(o.out, "under the target of 1.50x"),
		      "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "holds", "--submit", "bad.cu", NULL);
	ck_assert_msg(o.status == EXIT_WRONG && strstr(o.out, "not passed: nothing was timed") && strstr(o.err, "fails the gate"),
		      "%d %s %s", o.status, o.out, o.err);
	/* a submission sees no claim, and one where nothing ran keeps nothing (issue 52, item 5) */
	gpulab("learn", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "3 lessons, 0 seen, 0 tasks passed") && strstr(o.out, "task tried, best ")
		      && occurrences(o.out, "not started") == 2 && strstr(o.out, "Next: gpulab learn holds"),
		      "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "holds", "--submit", "crash.cu", NULL); /* try in a process of its own: learn says so and ends */
	ck_assert_msg(o.status == 128 + SIGABRT && strstr(o.err, "gpulab: learn: gpulab try crashed: Aborted"), "%d %s %s",
		      o.status, o.out, o.err);
	/* fast enough, but a counter the task keeps cannot be read on the host */
	char counts[8192];
	snprintf(counts, sizeof counts, "%s", mutate("text = Do it.\n", "text = Do it.\nrequire = dram_read_throughput <= 2\n"));
	memcpy(strstr(counts, "order = 5"), "order = 7", 9);
	write_file(strchr(env_lessons, '=') + 1, "counts.ini", counts);
	gpulab("learn", "counts", "--submit", "good.cu", NULL);
	ck_assert_msg(o.status == EXIT_SLOWER && strstr(o.out, "not passed: try.gated: no counter 'dram_read_throughput'")
		      && strstr(o.out, "over the target of 1.50x, but not the"), "%d %s %s",
		      o.status, o.out, o.err);
	gpulab("learn", "holds", "--submit", "good.cu", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\npassed: ") && strstr(o.out, "over the target of 1.50x"), "%d %s %s",
		      o.status, o.out, o.err);
	char kept[4400];
	snprintf(kept, sizeof kept, "%s/records/holds-task.json", state_dir);
	ck_assert_msg(strstr(o.out, kept) && access(kept, R_OK) == 0 && only_records(), "%s", o.out);
	gpulab("learn", NULL);
	ck_assert_msg(strstr(o.out, "0 seen, 1 tasks passed") && strstr(o.out, "task passed, best ")
		      && strstr(o.out, "Next: gpulab learn holds"), "%s", o.out);
	/* the same map as JSON: the task passed, the claim not seen, next the same */
	gpulab("learn", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, "{\n  \"schema\": \"gpulab-learn/1\",\n  \"lessons\": [\n", 46)
		      && strstr(o.out, "\"seen\": false, \"passed\": true, \"verdict\": null, \"figure\": null, \"best\": ")
		      && strstr(o.out, "\n  ],\n  \"next\": \"holds\"\n}\n"), "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "holds", "--submit", "good.cu", "--format", "json", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "learn: --submit prints for people; --format json is the map's")
		      && count_lines(o.err) == 1, "%d %s", o.status, o.err);
	gpulab("learn", "--submit", "good.cu", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "--submit goes with a lesson"), "%d %s", o.status, o.err);
	gpulab("try", "gated", "good.cu", "--submit", "x.cu", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "try: takes no --submit; it takes "), "%d %s", o.status, o.err);
	gpulab("learn", "holds", "-n", "2^20", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "learn: takes no -n/--size; it takes --format, --max-noise, ") && count_lines(o.err) == 1,
		      "%d %s", o.status, o.err);
}
END_TEST

/* A learn killed mid-run leaves its run directory; the next learn
 * removes it, but not one whose learn still holds its lock. */
START_TEST(learn_removes_dead_runs_only)
{
	char records[4300], dead[4400], held[4400];
	setup_learn();
	gpulab("learn", "holds", NULL); /* makes the records directory */
	snprintf(records, sizeof records, "%s/records", state_dir);
	snprintf(dead, sizeof dead, "%s/.run-dead01", records);
	snprintf(held, sizeof held, "%s/.run-held01", records);
	ck_assert(mkdir(dead, 0700) == 0 && mkdir(held, 0700) == 0);
	write_file(dead, "record.json", "{\"schema\": \"gpulab-record/2.0\"\n");
	write_file(held, "record.json", "{}\n");
	int lock = open(held, O_RDONLY | O_DIRECTORY);
	ck_assert(lock >= 0 && flock(lock, LOCK_EX) == 0);
	gpulab("learn", "holds", NULL);
	ck_assert_msg(o.status == 0, "%d %s", o.status, o.err);
	ck_assert_msg(access(dead, F_OK) != 0, "%s is left", dead);
	ck_assert_msg(access(held, F_OK) == 0, "%s, held, was removed", held);
	close(lock);
	gpulab("learn", "holds", NULL);
	ck_assert_msg(access(held, F_OK) != 0 && only_records(), "%s is left once let go", held);
}
END_TEST

/* A lesson whose experiment did not run (here, an exercise no plugin
 * has; without a GPU, any) is not seen: the map still says "not started"
 * (issue 46, item 17). */
START_TEST(learn_nothing_ran_is_not_seen)
{
	char text[8192];
	setup_learn();
	snprintf(text, sizeof text, "%s", mutate("run = fake.sleepy fake.ok -n 64 -r 10\n", "run = fake.nothere -n 64\n"));
	strstr(text, "order = 5")[8] = '7';
	write_file(env_lessons + strlen("GPULAB_LESSONS="), "ghost.ini", text);
	gpulab("learn", "ghost", NULL);
	ck_assert_msg(o.status == EXIT_NOMATCH && strstr(o.out, "The experiment did not run"), "%d %s %s", o.status, o.out,
		      o.err);
	gpulab("learn", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "4 lessons, 0 seen, 0 tasks passed") && occurrences(o.out, "not started") == 4,
		      "%d %s %s", o.status, o.out, o.err);
}
END_TEST

/* The map prints a lesson's whole name, however long: bench/learn-table.sh
 * reads the names from it, and a name cut at 31 bytes
 * ("reduce-neighbored-less-throughp") named no lesson, which failed the
 * learn step of the GPU check (issue 53's 33-byte name). */
START_TEST(learn_map_prints_whole_names)
{
	char text[8192];
	setup_learn();
	snprintf(text, sizeof text, "%s", mutate("order = 5", "order = 7"));
	write_file(env_lessons + strlen("GPULAB_LESSONS="), "a-lesson-whose-name-runs-past-thirty-two-bytes.ini", text);
	gpulab("learn", NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\n  a-lesson-whose-name-runs-past-thirty-two-bytes ")
		      && strstr(o.out, "4 lessons, 0 seen"), "%d %s %s", o.status, o.out, o.err);
}
END_TEST

START_TEST(learn_refuses_a_corrupt_state_and_keeps_it)
{
	char before[256], after[256], path[4300];
	setup_learn();
	mkdir(state_dir, 0700);
	write_file(state_dir, "progress.ini", "[gpulab]\nprogress = 1\n[lesson holds]\nseen = sometimes\n");
	snprintf(path, sizeof path, "%s/progress.ini", state_dir);
	read_text(path, before, sizeof before);
	gpulab("learn", NULL);
	ck_assert_msg(o.status == EXIT_CONFIG && count_lines(o.err) == 1 && strstr(o.err, "progress.ini:4: bad value 'sometimes'")
		      && strstr(o.err, "kept as it is") && !o.out[0], "%d %s %s", o.status, o.out, o.err);
	gpulab("learn", "holds", NULL);
	ck_assert_msg(o.status == EXIT_CONFIG && !o.out[0], "ran anyway: %d %s", o.status, o.out);
	ck_assert_str_eq(read_text(path, after, sizeof after), before);
}
END_TEST

/* "of ref" for every kernel measured: each runs in a try of its own that
 * resumes the record, so only the first measured the reference beside
 * it; the later ones printed "-" (issue 46, item 19).  fake's reference
 * here is sleepy, 2 ms a run: good.cu's share is far over 100%, slow.cu's
 * (2 ms too) near it. */
START_TEST(grade_shares_every_kernel)
{
	char *subs = temp_dir(), sys[4200];
	setup_learn();
	snprintf(sys, sizeof sys, "%s", env_sys + strlen("GPULAB_SYSCONFDIR="));
	write_file(sys, "gpulab.ini", "[plugin fake]\nfile = fakeref.so\n[plugin try]\nfile = faketry.so\n");
	write_file(subs, "good.cu", "// a kernel\n");
	write_file(subs, "slow.cu", "// a kernel\n");
	char rec[4300], text[1 << 16];
	snprintf(rec, sizeof rec, "%s/grade.json", subs);
	gpulab("grade", "gated", subs, "-n", "64", "-o", rec, NULL); /* sleepy's n: the reference's point */
	const char *good = strstr(o.out, "   1  good.cu"), *slow = strstr(o.out, "   2  slow.cu");
	ck_assert_msg(o.status == 0 && good && slow, "%d %s %s", o.status, o.out, o.err);
	ck_assert_msg(strchr(good, '\n')[-1] == '%' && strchr(slow, '\n')[-1] == '%', "a kernel without its share: %s", o.out);
	/* the record's grade member holds each share as the table says it, for report's board */
	read_text(rec, text, sizeof text);
	ck_assert_msg(occurrences(text, "\"rank\": 1, \"ref_share\": ") == 1 && occurrences(text, "\"rank\": 2, \"ref_share\": ") == 1
		      && strstr(text, "\"mode\": \"ranked\""), "%s", text);
	/* --format json: the same ranking as one document, and nothing else on stdout */
	static const char head[] = "{\"schema\": \"gpulab-grade/1\", \"challenge\": \"gated\", \"kernels\": [";
	gpulab("grade", "gated", subs, "-n", "64", "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, head, sizeof head - 1)
		      && occurrences(o.out, "\"rank\": 1, \"ref_share\": ") == 1 && occurrences(o.out, "\"rank\": 2, ") == 1
		      && !strcmp(o.out + strlen(o.out) - 21, "], \"mode\": \"ranked\"}\n"), "%d %s %s", o.status, o.out, o.err);
	/* try --test: the gate alone, no table */
	char one[4400];
	snprintf(one, sizeof one, "%s/good.cu", subs);
	gpulab("try", "--test", "gated", one, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "good.cu passed the gate: ") && !strstr(o.out, "the point timed")
		      && !strstr(o.out, "median"), "%d %s %s", o.status, o.out, o.err);
	/* --test: the gate alone, nothing timed; the mode said */
	gpulab("grade", "--test", "gated", subs, "--format", "json", NULL);
	ck_assert_msg(o.status == 0 && occurrences(o.out, "\"passed\": true") == 2 && strstr(o.out, "\"mode\": \"test\"}")
		      && !strstr(o.out, "\"rank\": 1"), "%d %s %s", o.status, o.out, o.err);
	gpulab("grade", "--test", "gated", subs, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "gpulab grade --test gated: 2 kernels, 2 passed the gate, 0 failed")
		      && !strstr(o.out, "failures, in full"), "%d %s %s", o.status, o.out, o.err);
	/* -o: a record of no point, holding the ranking with its mode; report draws it */
	gpulab("grade", "--test", "gated", subs, "-o", rec, NULL);
	ck_assert_msg(o.status == 0 && strstr(read_text(rec, text, sizeof text), "\"mode\": \"test\"")
		      && strstr(text, "\"passed\": true") && strstr(text, "\"points\": 0") && !strstr(text, "\"exercise\""),
		      "%d %s %s", o.status, o.err, text);
	char page[4400];
	snprintf(page, sizeof page, "%s/board.html", subs);
	gpulab("report", rec, "-o", page, NULL);
	ck_assert_msg(o.status == 0, "%d %s", o.status, o.err);
	/* --format csv: a header and a row a kernel, in the ranking's order */
	static const char csv[] = "rank,kernel,median_ms,ci_pct,gbps,ref_share,exit,failure,reason\n\"1\",\"";
	gpulab("grade", "gated", subs, "-n", "64", "--format", "csv", NULL);
	ck_assert_msg(o.status == 0 && !strncmp(o.out, csv, sizeof csv - 1) && count_lines(o.out) == 3
		      && strstr(o.out, "/good.cu\",") && strstr(o.out, "\n\"2\",\"") && strstr(o.out, "/slow.cu\","),
		      "%d %s %s", o.status, o.out, o.err);
	free(subs);
}
END_TEST

/* A challenge that is a folder (issue 55), here of the fake try plugin's
 * exercise: grade times each kernel at the folder's benchmark sizes, a
 * child a size, and ranks it by the geometric mean of its medians. */
START_TEST(grade_ranks_at_bench_sizes)
{
	char *subs = temp_dir(), *chs = temp_dir(), sys[4200], dir[4300], env_ch[4400], rec[4400], text[1 << 16];
	setup_learn();
	snprintf(sys, sizeof sys, "%s", env_sys + strlen("GPULAB_SYSCONFDIR="));
	write_file(sys, "gpulab.ini", "[plugin fake]\nfile = fakeref.so\n[plugin try]\nfile = faketry.so\n");
	snprintf(dir, sizeof dir, "%s/gated", chs);
	mkdir(dir, 0700);
	write_file(dir, "challenge.ini", "[challenge]\nname = gated\ndescription = the fake's\ntypes = int\nagainst = fake.ok\n"
					 "[kernel]\nname = gated\nargs = in:input out:output n:n\n[input]\ngenerator = range\n"
					 "[check]\nreference = copy\ntolerance = exact\n[test]\nsizes = 1@1\n"
					 "[bench]\nsizes = 64, 128\n");
	write_file(dir, "template.cu", "// a kernel\n");
	write_file(subs, "good.cu", "// a kernel\n");
	snprintf(env_ch, sizeof env_ch, "GPULAB_CHALLENGES=%s", chs);
	snprintf(rec, sizeof rec, "%s/grade.json", chs);
	char *env[] = { env_sys, env_path, env_xdg, env_state, env_lessons, "GPULAB_CONFIG=", "FAKE_SLEEP_MS=2", env_ch, NULL };
	char *argv[] = { (char *)bin, "grade", "gated", subs, "-o", rec, NULL };
	run_cmd(&o, argv, env);
	const char *good = strstr(o.out, "   1  good.cu");
	ck_assert_msg(o.status == 0 && strstr(o.out, "1 kernels, 1 measured, 0 failed") && good
		      && strchr(good, '\n')[-1] == '%', "%d %s %s", o.status, o.out, o.err); /* its share of fake.ok */
	read_text(rec, text, sizeof text);
	ck_assert_msg(occurrences(text, "\"exercise\": \"try.gated\"") == 2 && strstr(text, "\"n\": 64")
		      && strstr(text, "\"n\": 128") && strstr(text, "\"mode\": \"ranked\""), "%.4000s", text);
	/* shared against fake.ok, as `against` says, not fake's reference (sleepy, 2 ms a run) */
	const char *share = strstr(text, "\"rank\": 1, \"ref_share\": ");
	ck_assert_msg(share && atof(share + strlen("\"rank\": 1, \"ref_share\": ")) < 100, "%s", share ? share : text);
	/* sizes of the user's own: one child, at them */
	char *own[] = { (char *)bin, "grade", "gated", subs, "-n", "64", "--format", "json", NULL };
	run_cmd(&o, own, env);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"rank\": 1"), "%d %s %s", o.status, o.out, o.err);
	free(subs), free(chs);
}
END_TEST

/* Six kernels: two measured, ranked by time; one wrong, one trapping,
 * one crashing, one hanging, each with its line. */
START_TEST(grade_ranks_and_survives)
{
	char *subs = temp_dir(), *out = temp_dir(), rec[4200], page[4200], text[65536];
	const char *names[] = { "slow.cu", "good.cu", "bad.cu", "lost.cu", "crash.cu", "hang.cu", "notes.txt" };
	setup_learn();
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		write_file(subs, names[i], "// a kernel\n");
	snprintf(rec, sizeof rec, "%s/grade.json", out);
	snprintf(page, sizeof page, "%s/board.html", out);
	gpulab("grade", "gated", subs, "--watchdog", "0.3", "-o", rec, NULL);
	ck_assert_msg(o.status == 0 && strstr(o.out, "6 kernels, 2 measured, 4 failed") && fits(o.out), "%d %s %s", o.status,
		      o.out, o.err);
	const char *good = strstr(o.out, "   1  good.cu"), *slow = strstr(o.out, "   2  slow.cu");
	ck_assert_msg(good && slow && good < slow, "%s", o.out);
	ck_assert_msg(strstr(o.out, "bad.cu                               wrong result")
		      && strstr(o.out, "lost.cu                              faulted or trapped")
		      && strstr(o.out, "crash.cu                             crashed")
		      && strstr(o.out, "hang.cu                              hung: stopped")
		      && strstr(o.out, "crash.cu (exit 134): crashed: Aborted") && strstr(o.out, "fails the gate at n=1000003")
		      && strstr(o.out, "stopped by the watchdog") && !strstr(o.out, "notes.txt"), "%s", o.out);
	/* the record read as gpulab reads one, whatever its layout on disk */
	struct record r = { .path = rec };
	char err[1024];
	size_t mine = 0;
	ck_assert_msg(record_load(&r, err, sizeof err) == 0, "%s", err);
	for (size_t i = 0; i < r.n; i++)
		mine += !strcmp(json_string(json_get(r.v[i].row, "exercise")), "try.gated");
	ck_assert_msg(mine == 2, "%zu rows of try.gated", mine);
	/* the teacher's command and the ranking, with each failure's line (issue 48) */
	const struct json *g = json_get(r.doc, "grade"), *ks = json_get(g, "kernels");
	ck_assert_str_eq(json_string(json_get(r.doc, "schema")), "gpulab-record/2.1");
	ck_assert_msg(strstr(json_string(json_get(r.doc, "command")), " grade gated "), "%s",
		      json_string(json_get(r.doc, "command")));
	ck_assert_str_eq(json_string(json_get(g, "challenge")), "gated");
	ck_assert_int_eq(json_len(ks), 6);
	ck_assert_msg(strstr(json_string(json_get(json_index(ks, 0), "kernel")), "/good.cu")
		      && json_number(json_get(json_index(ks, 1), "rank")) == 2
		      && json_type(json_get(json_index(ks, 1), "exit")) == JSON_NULL, "%s", o.out);
	const struct json *bad = json_index(ks, 2);
	ck_assert_msg(strstr(json_string(json_get(bad, "kernel")), "/bad.cu")
		      && json_type(json_get(bad, "rank")) == JSON_NULL && json_number(json_get(bad, "exit")) == EXIT_WRONG
		      && !strcmp(json_string(json_get(bad, "failure")), "wrong result")
		      && strstr(json_string(json_get(bad, "reason")), "fails the gate at n=1000003"), "%s", o.out);
	ck_assert_msg(!strstr(read_text(rec, text, sizeof text), ".gpulab-grade-"), "the work directory is in the record");
	record_free(&r);
	/* upgraded, it stays grade's */
	char again[4300];
	snprintf(again, sizeof again, "%s/again.json", out);
	gpulab("record", "upgrade", rec, "-o", again, NULL);
	struct record u = { .path = again };
	ck_assert_msg(o.status == 0 && record_load(&u, err, sizeof err) == 0, "%s %s", o.err, err);
	ck_assert_str_eq(json_string(json_get(u.doc, "schema")), "gpulab-record/2.1");
	ck_assert_int_eq(json_len(json_get(json_get(u.doc, "grade"), "kernels")), 6);
	record_free(&u);
	gpulab("report", rec, "-o", page, NULL);
	ck_assert_msg(o.status == 0 && strstr(read_text(page, text, sizeof text), "good.cu"), "%d %s", o.status, o.err);
	/* a kernel whose hang the watchdog does not see is stopped by grade */
	char *one = temp_dir();
	write_file(one, "hang.cu", "");
	char *env[] = { env_sys, env_path, env_xdg, env_state, env_lessons, "GPULAB_CONFIG=", "GPULAB_GRADE_LIMIT_S=0.5", NULL };
	char *argv[] = { (char *)bin, "grade", "gated", one, "--watchdog", "0", NULL };
	run_cmd(&o, argv, env);
	ck_assert_msg(o.status == 0 && strstr(o.out, "still running after 0.5 s: stopped by grade") && o.seconds < 10,
		      "%d %s %s", o.status, o.out, o.err);
	gpulab("grade", "gated", NULL);
	ck_assert_msg(o.status == EXIT_USAGE && strstr(o.err, "grade: name a challenge and the directories"), "%s", o.err);
	gpulab("grade", "gated", out, "-o", rec, NULL); /* no .cu in it */
	ck_assert_msg(o.status == EXIT_NOMATCH && strstr(o.err, "grade: no .cu files in"), "%d %s", o.status, o.err);
	free(subs), free(out), free(one);
}
END_TEST

/* ^C to grade stops the kernel it waits for (in a process group of its
 * own, out of the terminal's reach) and leaves nothing behind. */
START_TEST(grade_interrupted_cleans_up)
{
	char *dir = temp_dir(), rec[4200], out[4200], err[4200], listing[4200];
	setup_learn();
	write_file(dir, "hang.cu", "");
	snprintf(rec, sizeof rec, "%s/grade.json", dir);
	snprintf(out, sizeof out, "%s/out.txt", dir);
	snprintf(err, sizeof err, "%s/err.txt", dir);
	char *env[] = { env_sys, env_path, env_xdg, env_state, env_lessons, "GPULAB_CONFIG=", NULL };
	char *argv[] = { (char *)bin, "grade", "gated", dir, "--watchdog", "0", "-o", rec, NULL };
	int pid = spawn_cmd(argv, env, out, err);
	struct timespec t = { 1, 0 };
	nanosleep(&t, NULL);
	kill(pid, SIGINT);
	int status = wait_cmd(pid);
	ck_assert_msg(status == 130 && strstr(read_text(err, listing, sizeof listing), "grade: stopped by SIGINT after 1 of 1"),
		      "%d %s", status, listing);
	snprintf(listing, sizeof listing, "ls -A %s > %s/ls.txt", dir, dir);
	ck_assert_int_eq(system(listing), 0);
	snprintf(listing, sizeof listing, "%s/ls.txt", dir);
	ck_assert_str_eq(read_text(listing, out, sizeof out), "err.txt\nhang.cu\nls.txt\nout.txt\n");
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("learn");
	TCase *unit = tcase_create("unit"), *cmd = tcase_create("commands");
	tcase_add_test(unit, lesson_parses);
	tcase_add_test(unit, lesson_refuses_hostile_input);
	tcase_add_test(unit, lesson_refuses_long_lines_and_names);
	tcase_add_test(unit, installed_lessons_load);
	tcase_add_test(unit, every_claim_has_a_lesson_or_a_reason);
	tcase_add_test(unit, why_quotes_no_other_run);
	tcase_add_test(unit, verdict_of_a_speedup_by_the_u_test);
	tcase_add_test(unit, figure_from_a_note);
	tcase_add_test(unit, verdict_of_each_kind);
	tcase_add_test(unit, figure_from_a_record);
	tcase_add_test(unit, task_counter_from_a_record);
	tcase_add_test(unit, progress_round_trip_and_refusals);
	tcase_add_test(cmd, learn_map_progress_and_verdicts);
	tcase_add_test(cmd, learn_submit_records_the_task);
	tcase_add_test(cmd, learn_removes_dead_runs_only);
	tcase_add_test(cmd, learn_nothing_ran_is_not_seen);
	tcase_add_test(cmd, learn_map_prints_whole_names);
	tcase_add_test(cmd, learn_refuses_a_corrupt_state_and_keeps_it);
	tcase_add_test(cmd, grade_ranks_and_survives);
	tcase_add_test(cmd, grade_shares_every_kernel);
	tcase_add_test(cmd, grade_ranks_at_bench_sizes);
	tcase_add_test(cmd, grade_interrupted_cleans_up);
	tcase_set_timeout(cmd, 120);
	suite_add_tcase(s, unit);
	suite_add_tcase(s, cmd);
	return run_suite(s, 0);
}
