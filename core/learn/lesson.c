#include "config.h"

#include "command_names.h"
#include "learn/lesson.h"

#include "config/params.h"
#include "escape.h"
#include "exitcode.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPULAB_LESSONS
#define GPULAB_LESSONS "/usr/share/gpulab/lessons"
#endif

struct lesson_field {
	const char *section, *key;
	size_t offset; /* of the char * in struct lesson */
	int required;
};

#define F(s, k, member, req) { s, k, offsetof(struct lesson, member), req }
static const struct lesson_field lesson_fields[] = {
	F("lesson", "order", order_text, 1), F("lesson", "chapter", chapter, 1), F("lesson", "topic", topic, 1),
	F("lesson", "claim", claim, 1), F("lesson", "book", book, 1), F("lesson", "run", run, 1),
	F("lesson", "figure", figure, 1), F("lesson", "rule", rule, 1), F("lesson", "unit", unit, 0),
	F("lesson", "why", why, 1), F("lesson", "docs", docs, 1), F("lesson", "because", because, 0),
	F("lesson", "notes", notes, 0), F("lesson", "noise", noise_text, 0), F("lesson", "claims", claims, 0),
	F("lesson", "here", here, 0), F("lesson", "floor", floor_text, 0),
	F("task", "challenge", challenge, 1), F("task", "args", args, 0), F("task", "target", target, 1),
	F("task", "text", task, 1), F("task", "require", require, 0),
};
#undef F
#define NFIELDS (sizeof lesson_fields / sizeof lesson_fields[0])

struct lesson_reading {
	struct ini_text t;
	struct lesson *l;
	int last;          /* the field set last, -1 none */
};

/* Is s text a terminal shows as written: UTF-8, no control characters,
 * nothing that steers or reorders it? */
static int lesson_plain(const char *s)
{
	while (*s) {
		int n = escape_utf8_len(s);
		if (!n || (unsigned char)*s < 0x20 || *s == 0x7f || escape_steering(s, n))
			return 0;
		s += n;
	}
	return 1;
}

static char **lesson_slot(struct lesson *l, size_t i)
{
	return (char **)((char *)l + lesson_fields[i].offset);
}

static int lesson_field_index(const char *section, const char *key)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (!strcmp(lesson_fields[i].section, section) && !strcmp(lesson_fields[i].key, key))
			return (int)i;
	return -1;
}

/* A value, or the next line of the value above it. */
static int lesson_store(struct lesson_reading *p, int i, const char *value)
{
	char **slot = lesson_slot(p->l, (size_t)i);
	int more = p->t.indented && i == p->last && *slot;
	size_t old = more ? strlen(*slot) : 0, add = strlen(value);
	if (!more && *slot)
		return ini_text_fail(&p->t, "key '%s' given twice in [%s]", lesson_fields[i].key, lesson_fields[i].section);
	if (!lesson_plain(value))
		return ini_text_fail(&p->t, "key '%s': control characters or bytes that are not UTF-8 in its value",
				   lesson_fields[i].key);
	if (old + add + 1 > LESSON_MAX_TEXT)
		return ini_text_fail(&p->t, "key '%s': longer than %d bytes", lesson_fields[i].key, LESSON_MAX_TEXT);
	char *s = realloc(more ? *slot : NULL, old + add + 2);
	if (!s)
		return ini_text_fail(&p->t, "out of memory");
	if (more && old && add)
		s[old++] = ' ';
	memcpy(s + old, value, add + 1);
	*slot = s;
	p->last = i;
	return 1;
}

static int lesson_handler(void *user, const char *section, const char *key, const char *value)
{
	struct lesson_reading *p = user;
	if (p->t.failed)
		return 0;
	if (!*key)
		return ini_text_fail(&p->t, "a value with no key");
	if (!*section)
		return ini_text_fail(&p->t, "key '%s' outside a section ([lesson] or [task])", key);
	if (strcmp(section, "lesson") && strcmp(section, "task"))
		return ini_text_fail(&p->t, "unknown section [%s]; expected [lesson] or [task]", section);
	int i = lesson_field_index(section, key);
	if (i < 0)
		return ini_text_fail(&p->t, "unknown key '%s' in [%s]", key, section);
	return lesson_store(p, i, value);
}

/* --- the values ------------------------------------------------------------------ */

#define LESSON_NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"
#define LESSON_VALUE_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

/* "plugin.exercise" or "plugin.exercise@key=value@key=value". */
static int lesson_point_parse(struct lesson_point *pt, const char *s, char *why, size_t len)
{
	size_t plen = strspn(s, LESSON_NAME_CHARS);
	*pt = (struct lesson_point){ 0 };
	if (!plen || s[plen] != '.' || !strspn(s + plen + 1, LESSON_NAME_CHARS)) {
		snprintf(why, len, "'%.80s' is not an exercise (plugin.exercise)", s);
		return -1;
	}
	size_t elen = plen + 1 + strspn(s + plen + 1, LESSON_NAME_CHARS);
	if (elen >= sizeof pt->exercise)
		return snprintf(why, len, "exercise name too long"), -1;
	memcpy(pt->exercise, s, elen);
	for (s += elen; *s == '@'; pt->nkeys++) {
		size_t k = strspn(++s, LESSON_NAME_CHARS), v;
		if (pt->nkeys == 4 || !k || k >= 64 || s[k] != '=' || !(v = strspn(s + k + 1, LESSON_VALUE_CHARS)) ||
		    v >= 64) {
			snprintf(why, len, "'%.80s': a point is EXERCISE@key=value, at most 4 keys", s);
			return -1;
		}
		memcpy(pt->keys[pt->nkeys][0], s, k);
		memcpy(pt->keys[pt->nkeys][1], s + k + 1, v);
		s += k + 1 + v;
	}
	if (*s)
		return snprintf(why, len, "'%.80s' after the exercise: a point is EXERCISE@key=value", s), -1;
	return 0;
}

/* A counter's label (gpulab metrics) into out[0..size). */
static int lesson_label(char *out, size_t size, const char *m, char *why, size_t len)
{
	if (strlen(m) >= size || strspn(m, LESSON_VALUE_CHARS) != strlen(m))
		return snprintf(why, len, "'%.80s' is not a counter's label (gpulab " CMD_METRICS ")", m), -1;
	strcpy(out, m);
	return 0;
}

static int lesson_figure_parse(struct lesson_figure *f, const char *s, char *why, size_t len)
{
	char buf[LESSON_MAX_TEXT], *w[5];
	int n = lesson_words(s, buf, sizeof buf, w, 5);
	*f = (struct lesson_figure){ 0 };
	if (n == 3 && !strcmp(w[0], "speedup"))
		f->kind = FIGURE_SPEEDUP;
	else if (n == 3 && !strcmp(w[0], "metric"))
		f->kind = FIGURE_METRIC;
	else if (n == 4 && !strcmp(w[0], "metric_ratio"))
		f->kind = FIGURE_METRIC_RATIO;
	else if (n == 3 && !strcmp(w[0], "note"))
		f->kind = FIGURE_NOTE;
	else
		return snprintf(why, len, "expected 'speedup A B', 'metric A LABEL', 'metric_ratio A B LABEL' or 'note A KEY'"), -1;
	if (lesson_point_parse(&f->a, w[1], why, len))
		return -1;
	if ((f->kind == FIGURE_SPEEDUP || f->kind == FIGURE_METRIC_RATIO) && lesson_point_parse(&f->b, w[2], why, len))
		return -1;
	return f->kind != FIGURE_SPEEDUP ? lesson_label(f->metric, sizeof f->metric, w[n - 1], why, len) : 0;
}

/* A finite number in (-1e12, 1e12), the whole of s. */
static int lesson_number(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*v) && fabs(*v) < 1e12 ? 0 : -1;
}

static int lesson_rule_parse(struct lesson_rule *r, const char *s)
{
	static const char *const ops[] = { ">=", ">", "<=", "<" };
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(ops[i]);
		if (!strncmp(s, ops[i], n) && s[n] == ' ') {
			r->op = (enum rule_op)i;
			return lesson_number(s + n + 1, &r->value);
		}
	}
	return -1;
}

/* "1.1x reduce.unroll8": at least 1.1 times as fast. */
static int lesson_target_parse(struct lesson *l, const char *s, char *why, size_t len)
{
	char buf[LESSON_MAX_TEXT], *w[3];
	size_t k;
	if (lesson_words(s, buf, sizeof buf, w, 3) != 2 || !(k = strlen(w[0])) || w[0][k - 1] != 'x') {
		snprintf(why, len, "expected 'TIMESx EXERCISE', as '1.1x reduce.unroll8'");
		return -1;
	}
	w[0][k - 1] = 0;
	if (lesson_number(w[0], &l->target_times) || !(l->target_times > 0) || l->target_times > 1000) {
		snprintf(why, len, "'%.80sx': the times must be a number above 0, at most 1000", w[0]);
		return -1;
	}
	return lesson_point_parse(&l->target_ref, w[1], why, len);
}

/* "shared_load_transactions_per_request <= 2": a label, then a rule. */
static int lesson_require_parse(struct lesson_require *r, const char *s, char *why, size_t len)
{
	char buf[LESSON_MAX_TEXT], *w[4], rule[LESSON_MAX_TEXT];
	if (lesson_words(s, buf, sizeof buf, w, 4) != 3)
		return snprintf(why, len, "expected 'LABEL OP NUMBER', as 'shared_load_transactions_per_request <= 2'"), -1;
	if (lesson_label(r->metric, sizeof r->metric, w[0], why, len))
		return -1;
	snprintf(rule, sizeof rule, "%s %s", w[1], w[2]);
	if (lesson_rule_parse(&r->rule, rule))
		return snprintf(why, len, "'%.80s' is not a rule: >=, >, <= or < and a number", rule), -1;
	return 0;
}

/* A page of docs/, and an anchor in it: "book-vs-hopper.md#2-the-reduction-ladder". */
static int lesson_docs_valid(const char *s)
{
	size_t n = strspn(s, LESSON_VALUE_CHARS "#/");
	return n && !s[n] && !strstr(s, "..") && s[0] != '/' && strstr(s, ".md");
}

int lesson_placeholders_valid(const char *s, int measured, char *bad, size_t len)
{
	static const char *const names[] = { "docs", "figure", "lo", "hi", "a", "b", "a_peak", "b_peak", "a_gbps", "b_gbps", "device" };
	for (const char *o = strchr(s, '{'); o; o = strchr(o + 1, '{')) {
		size_t n = strcspn(o + 1, "}"), ok = 0;
		for (size_t i = 0; i < (measured ? sizeof names / sizeof names[0] : 1); i++)
			ok |= o[1 + n] == '}' && strlen(names[i]) == n && !strncmp(o + 1, names[i], n);
		if (!ok)
			return snprintf(bad, len, "%.*s", (int)(n + 1 + (o[1 + n] == '}')), o), 0;
	}
	return 1;
}

/* "001.12 004.5 past.2": the ids of docs/claims.md, a file's number or
 * "past", a dot and a number. */
static int lesson_claims_valid(const char *s)
{
	char buf[LESSON_MAX_TEXT], *w[LESSON_MAX_ARGS];
	int n = lesson_words(s, buf, sizeof buf, w, LESSON_MAX_ARGS);
	for (int i = 0; i < n; i++) {
		size_t f = strspn(w[i], "0123456789");
		if (!(f == 3 || (f == 0 && !strncmp(w[i], "past", 4) && (f = 4))) || w[i][f] != '.' || !w[i][f + 1]
		    || strspn(w[i] + f + 1, "0123456789") != strlen(w[i] + f + 1))
			return 0;
	}
	return n > 0;
}

/* The fields past their syntax, each refusal naming its key. */
static int lesson_check(struct lesson_reading *p)
{
	struct lesson *l = p->l;
	char why[256], msg[320], buf[LESSON_MAX_TEXT], *w[LESSON_MAX_ARGS];
	double order;
	for (size_t i = 0; i < NFIELDS; i++)
		if (lesson_fields[i].required && !*lesson_slot(l, i))
			return snprintf(p->t.err, p->t.errlen, "%s: no '%s' in [%s]", p->t.file, lesson_fields[i].key,
					lesson_fields[i].section), EXIT_CONFIG;
#define BAD(key, ...) (snprintf(msg, sizeof msg, __VA_ARGS__), \
		       snprintf(p->t.err, p->t.errlen, "%s: key '%s': %s", p->t.file, key, msg), EXIT_CONFIG)
	if (lesson_number(l->order_text, &order) || order < 1 || order > 999 || order != (int)order)
		return BAD("order", "'%.40s' is not a whole number from 1 to 999", l->order_text);
	l->order = (int)order;
	if (lesson_figure_parse(&l->fig, l->figure, why, sizeof why))
		return BAD("figure", "%.200s", why);
	if (lesson_rule_parse(&l->cmp, l->rule))
		return BAD("rule", "'%.80s' is not a rule: >=, >, <= or < and a number", l->rule);
	if (l->fig.kind == FIGURE_SPEEDUP && !(l->cmp.value > 0))
		return BAD("rule", "'%.80s': a speedup's rule is a ratio above 0", l->rule);
	if (lesson_target_parse(l, l->target, why, sizeof why))
		return BAD("target", "%.200s", why);
	if (l->require && lesson_require_parse(&l->req, l->require, why, sizeof why))
		return BAD("require", "%.200s", why);
	l->noise = LESSON_NOISE;
	if (l->noise_text && (lesson_number(l->noise_text, &l->noise) || l->noise < 0 || l->noise > 100))
		return BAD("noise", "'%.40s' is not a percentage from 0 to 100", l->noise_text);
	if (l->noise_text && l->fig.kind != FIGURE_SPEEDUP)
		return BAD("noise", "only a speedup has a noise band; a counter is one run's count");
	l->floor = 0;
	if (l->floor_text && (lesson_number(l->floor_text, &l->floor) || !(l->floor >= 0)))
		return BAD("floor", "'%.40s' is not a number of 0 or more", l->floor_text);
	if (l->floor_text && l->fig.kind != FIGURE_METRIC_RATIO)
		return BAD("floor", "only a ratio of counters has a floor");
	if (!param_valid_name(l->challenge))
		return BAD("challenge", "'%.80s' is not a challenge name (reduce, transpose, sum_matrix)", l->challenge);
	if (lesson_words(l->run, buf, sizeof buf, w, LESSON_MAX_ARGS) < 1)
		return BAD("run", "1 to %d words: the arguments of gpulab " CMD_RUN, LESSON_MAX_ARGS);
	if (l->args && lesson_words(l->args, buf, sizeof buf, w, LESSON_MAX_ARGS) < 0)
		return BAD("args", "at most %d words", LESSON_MAX_ARGS);
	if (!lesson_docs_valid(l->docs))
		return BAD("docs", "'%.80s' is not a page of docs/ (page.md#anchor)", l->docs);
	if (l->claims && !lesson_claims_valid(l->claims))
		return BAD("claims", "'%.80s' is not a list of claims of docs/claims.md (001.12 past.2)", l->claims);
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *v = *lesson_slot(l, i);
		int measured = !strcmp(lesson_fields[i].key, "here");
		if (v && !lesson_placeholders_valid(v, measured, why, sizeof why))
			return BAD(lesson_fields[i].key, "'%.40s' is not a placeholder here (%s)", why,
				   measured ? "{figure} {lo} {hi} {a} {b} {a_peak} {b_peak} {a_gbps} {b_gbps} {device} {docs}" : "{docs}");
	}
#undef BAD
	return 0;
}

/* The lesson's name from its file's: the base name less ".ini". */
static int lesson_name(struct lesson *l, const char *file, char *err, size_t errlen)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	if (!n || n > LESSON_MAX_NAME || strspn(base, LESSON_NAME_CHARS "-") < n) {
		snprintf(err, errlen, "%s: a lesson's file is NAME.ini, NAME of a-z, 0-9, _ and -, at most %d bytes", file,
			 LESSON_MAX_NAME);
		return EXIT_CONFIG;
	}
	memcpy(l->name, base, n);
	l->name[n] = 0;
	return 0;
}

int lesson_parse(struct lesson *l, const char *file, const char *text, size_t len, char *err, size_t errlen)
{
	struct lesson_reading p = { .t = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen }, .l = l, .last = -1 };
	*l = (struct lesson){ 0 };
	int rc = lesson_name(l, file, err, errlen);
	if (rc)
		return rc;
	if (ini_text_parse(&p.t, lesson_handler, &p, "[section], key = value, or an indented continuation"))
		return EXIT_CONFIG;
	return lesson_check(&p);
}

int lesson_load(struct lesson *l, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *text = NULL;
	ssize_t got = 0;
	int rc = EXIT_CONFIG, fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	*l = (struct lesson){ 0 };
	if (fd < 0 || fstat(fd, &st) != 0)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen, "%s: not a regular file", path);
	else if (st.st_size > LESSON_MAX_BYTES)
		snprintf(err, errlen, "%s: larger than %u KiB, the most a lesson may hold", path, LESSON_MAX_BYTES >> 10);
	else if (!(text = malloc((size_t)st.st_size + 1)))
		snprintf(err, errlen, "%s: out of memory", path), rc = EXIT_NOMEM;
	else if ((got = read(fd, text, (size_t)st.st_size)) != st.st_size)
		snprintf(err, errlen, "%s: cannot read: %s", path, got < 0 ? strerror(errno) : "cut short");
	else
		rc = lesson_parse(l, path, text, (size_t)got, err, errlen);
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}

void lesson_free(struct lesson *l)
{
	for (size_t i = 0; i < NFIELDS; i++)
		free(*lesson_slot(l, i));
	*l = (struct lesson){ 0 };
}

int lesson_words(const char *s, char *buf, size_t len, char **words, int max)
{
	int n = 0;
	if (strlen(s) >= len)
		return -1;
	strcpy(buf, s);
	for (char *t = strtok(buf, " \t"); t; t = strtok(NULL, " \t")) {
		if (n == max)
			return -1;
		words[n++] = t;
	}
	return n;
}

/* --- the directory ------------------------------------------------------------------ */

static int lesson_is_file(const struct dirent *d)
{
	size_t len = strlen(d->d_name);
	return len > 4 && !strcmp(d->d_name + len - 4, ".ini") && d->d_name[0] != '.';
}

static int lesson_by_order(const void *a, const void *b)
{
	return ((const struct lesson *)a)->order - ((const struct lesson *)b)->order;
}

static int lessons_read(struct lesson_set *s, const char *dir, struct dirent **names, int n, char *err, size_t errlen)
{
	char path[4200];
	if (n > LESSON_MAX_COUNT)
		return snprintf(err, errlen, "%s: more than %d lessons", dir, LESSON_MAX_COUNT), EXIT_CONFIG;
	if (!(s->v = calloc((size_t)n + 1, sizeof *s->v)))
		return snprintf(err, errlen, "out of memory"), EXIT_NOMEM;
	for (int i = 0; i < n; i++) {
		int rc;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if ((rc = lesson_load(&s->v[s->n], path, err, errlen))) {
			lesson_free(&s->v[s->n]);
			return rc;
		}
		s->n++;
	}
	qsort(s->v, s->n, sizeof *s->v, lesson_by_order);
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i].order == s->v[i - 1].order)
			return snprintf(err, errlen, "%s: lessons %s and %s have the same order, %d", dir, s->v[i - 1].name,
					s->v[i].name, s->v[i].order), EXIT_CONFIG;
	return 0;
}

int lessons_load(struct lesson_set *s, const char *dir, char *err, size_t errlen)
{
	struct dirent **names;
	*s = (struct lesson_set){ 0 };
	int n = scandir(dir, &names, lesson_is_file, alphasort), rc;
	if (n < 0)
		return snprintf(err, errlen, "%s: cannot read the lessons: %s", dir, strerror(errno)), EXIT_CONFIG;
	rc = lessons_read(s, dir, names, n, err, errlen);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!rc && !s->n)
		rc = EXIT_CONFIG, snprintf(err, errlen, "%s: no lessons (*.ini) in it", dir);
	if (rc)
		lessons_free(s);
	return rc;
}

void lessons_free(struct lesson_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		lesson_free(&s->v[i]);
	free(s->v);
	*s = (struct lesson_set){ 0 };
}

const struct lesson *lessons_find(const struct lesson_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

const char *lessons_dir(void)
{
	const char *d = getenv("GPULAB_LESSONS");
	return d && *d ? d : GPULAB_LESSONS;
}
