/* challenge.ini read and checked (plugins/challenge.h, docs/challenge.md). */
#include "plugins/challenge.h"

#include <ini.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const role_names[ROLE_COUNT] = { "input", "output", "partials", "bins", "scratch", "n", "x", "y" };
static const char *const generator_names[GENERATOR_COUNT] = { "range", "sorted", "constant", "edges" };
static const char *const reference_names[REFERENCE_COUNT] = { "sum", "prefix_sum", "histogram", "transpose",
							      "copy", "max", "add" };
static const char *const launch_names[] = { "block", "per_thread", "tile", "grid", "finish" };

const char *challenge_role_name(enum challenge_role r) { return role_names[r]; }
const char *challenge_reference_name(enum challenge_reference r) { return reference_names[r]; }
const char *challenge_generator_name(enum challenge_generator g) { return generator_names[g]; }

/* The keys, by section, in the order the file is checked: each seen once. */
enum key { K_NAME, K_DESCRIPTION, K_TYPES, K_AGAINST, K_METRICS, K_KERNEL, K_ARGS, K_LAUNCH, K_GENERATOR, K_MIN,
	   K_MAX, K_KMIN, K_KMAX, K_REFERENCE, K_TOLERANCE, K_TEST_SIZES, K_BENCH_SIZES, K_TIME_LIMIT, K_RANK, NKEYS };
static const struct {
	const char *section, *key;
	int required;
} keys[NKEYS] = {
	{ "challenge", "name", 1 }, { "challenge", "description", 1 }, { "challenge", "types", 1 },
	{ "challenge", "against", 0 }, { "challenge", "metrics", 0 }, { "kernel", "name", 1 }, { "kernel", "args", 1 },
	{ "kernel", "launch", 0 }, { "input", "generator", 1 }, { "input", "min", 0 }, { "input", "max", 0 },
	{ "input", "kmin", 0 }, { "input", "kmax", 0 }, { "check", "reference", 1 }, { "check", "tolerance", 1 },
	{ "test", "sizes", 1 }, { "bench", "sizes", 1 }, { "bench", "time_limit", 0 }, { "bench", "rank", 0 },
};

struct reading {
	struct challenge *c;
	const char *file, *text;
	size_t len, pos;
	int line, seen[NKEYS], line_of[NKEYS];
	char value_of[NKEYS][64]; /* each key's value as written, for a refusal of the keys together */
	int sizes_1d, sizes_2d; /* sizes written N, and XxY */
	char *err;
	size_t errlen;
	int failed;
};

/* One line naming the file and line, the key and its value, and why. */
static int bad(struct reading *r, int k, const char *value, const char *fmt, ...)
{
	char why[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (!r->failed)
		snprintf(r->err, r->errlen, "%s:%d: [%s] %s = '%.60s': %s", r->file, r->line_of[k], keys[k].section,
			 keys[k].key, *value ? value : r->value_of[k], why);
	r->failed = 1;
	return -1;
}

static int valid_name(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < CHALLENGE_MAX_NAME && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

/* A decimal integer, the whole of s, within [lo, hi]; or 2^K. */
static int integer(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long v;
	errno = 0;
	if (s[0] == '2' && s[1] == '^') {
		v = strtoll(s + 2, &end, 10);
		if (s[2] < '0' || s[2] > '9' || *end || v > 62)
			return -1;
		v = 1ll << v;
	} else {
		v = strtoll(s, &end, 10);
		if (end == s || *end || errno)
			return -1;
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* s's words, split at commas and blanks, each through f; -1 at the first f refuses. */
static int each_word(struct reading *r, int k, const char *s, int (*f)(struct reading *, int, const char *))
{
	char buf[CHALLENGE_MAX_LINE + 1], *save;
	snprintf(buf, sizeof buf, "%s", s);
	for (char *w = strtok_r(buf, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save))
		if (f(r, k, w))
			return -1;
	return 0;
}

static int one_of(const char *const *names, int n, const char *w)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], w))
			return i;
	return -1;
}

static int a_type(struct reading *r, int k, const char *w)
{
	unsigned t = !strcmp(w, "int") ? CHALLENGE_INT : !strcmp(w, "float") ? CHALLENGE_FLOAT : 0;
	if (!t || (r->c->types & t))
		return bad(r, k, w, t ? "given twice" : "the types are int and float");
	r->c->types |= t;
	return 0;
}

static int a_launch_key(struct reading *r, int k, const char *w)
{
	int i = one_of(launch_names, 5, w);
	if (i < 0)
		return bad(r, k, w, "not a key of the contract line (block, per_thread, tile, grid, finish)");
	r->c->launch |= 1u << i;
	return 0;
}

/* NAME:ROLE */
static int an_arg(struct reading *r, int k, const char *w)
{
	struct challenge *c = r->c;
	const char *colon = strchr(w, ':');
	char name[64];
	if (c->nargs == CHALLENGE_MAX_ARGS)
		return bad(r, k, w, "more than %d parameters", CHALLENGE_MAX_ARGS);
	if (!colon || (size_t)(colon - w) >= sizeof name)
		return bad(r, k, w, "a parameter is NAME:ROLE, ROLE one of input output partials bins scratch n x y");
	snprintf(name, sizeof name, "%.*s", (int)(colon - w), w);
	int role = one_of(role_names, ROLE_COUNT, colon + 1);
	if (role < 0)
		return bad(r, k, w, "unknown role '%.20s' (input output partials bins scratch n x y)", colon + 1);
	if (strlen(name) >= CHALLENGE_MAX_NAME || !name[0] || strspn(name, "abcdefghijklmnopqrstuvwxyz"
						   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(name)
	    || (name[0] >= '0' && name[0] <= '9') || !strcmp(name, "seed") || !strcmp(name, "kernel"))
		return bad(r, k, w, "'%s' is not a parameter's name (a C name, not seed or kernel)", name);
	for (int i = 0; i < c->nargs; i++)
		if (!strcmp(c->args[i].name, name))
			return bad(r, k, w, "'%s' is named twice", name);
	snprintf(c->args[c->nargs].name, sizeof c->args[c->nargs].name, "%s", name);
	c->args[c->nargs++].role = (enum challenge_role)role;
	return 0;
}

/* N@SEED, or XxY@SEED (a test); N or XxY (a benchmark). */
static int a_size(struct reading *r, int k, const char *w)
{
	struct challenge *c = r->c;
	int test = k == K_TEST_SIZES, *n = test ? &c->ntests : &c->nbench;
	char buf[80], *at, *by, *gen;
	int64_t x, y = 1, seed = 0;
	int g = -1;
	if (*n == CHALLENGE_MAX_SIZES)
		return bad(r, k, w, "more than %d sizes", CHALLENGE_MAX_SIZES);
	snprintf(buf, sizeof buf, "%s", w);
	gen = strchr(buf, '/');
	if (gen)
		*gen++ = 0;
	if (gen && (!test || (g = one_of(generator_names, GENERATOR_COUNT, gen)) < 0))
		return bad(r, k, w, test ? "unknown generator '%.20s' (range, sorted, constant, edges)"
					 : "a benchmark size takes the challenge's generator", gen);
	at = strchr(buf, '@');
	if (at)
		*at++ = 0;
	by = strchr(buf, 'x');
	if (by)
		*by++ = 0;
	if (!at != !test)
		return bad(r, k, w, test ? "a test size is SIZE@SEED, its seed a number" : "a benchmark size has no @SEED (each "
			   "run draws one)");
	if (integer(buf, 1, (int64_t)CHALLENGE_MAX_ELEMENTS, &x) || (by && integer(by, 1, 0x7fffffff, &y))
	    || (at && integer(at, 0, INT64_MAX, &seed)) || (uint64_t)x * (uint64_t)y > CHALLENGE_MAX_ELEMENTS)
		return bad(r, k, w, "out of range: sides from 1, fewer than 2^32 elements, a seed from 0");
	struct challenge_size *s = test ? &c->tests[*n] : &c->bench[*n];
	*s = (struct challenge_size){ (uint64_t)x, (uint64_t)y, (uint64_t)seed, g };
	(*n)++;
	r->sizes_2d += by != NULL; /* checked against the args' shape once all is read */
	r->sizes_1d += by == NULL;
	return 0;
}

static int number_key(struct reading *r, int k, const char *v, int64_t lo, int64_t hi, int64_t *out)
{
	return integer(v, lo, hi, out) ? bad(r, k, v, "not an integer from %lld to %lld", (long long)lo, (long long)hi) : 0;
}

static int set_text(struct reading *r, int k, const char *v, char *dst, size_t size)
{
	if (strlen(v) >= size || !*v)
		return bad(r, k, v, "empty, or longer than %zu bytes", size - 1);
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* The value of key k. */
static int set_key(struct reading *r, int k, const char *v)
{
	struct challenge *c = r->c;
	int i;
	switch (k) {
	case K_NAME:
		return valid_name(v) ? set_text(r, k, v, c->name, sizeof c->name) : bad(r, k, v, "a name is a-z, 0-9 and _");
	case K_DESCRIPTION:
		return set_text(r, k, v, c->description, sizeof c->description);
	case K_TYPES:
		return each_word(r, k, v, a_type);
	case K_AGAINST: {
		const char *dot = strchr(v, '.');
		char plugin[80];
		snprintf(plugin, sizeof plugin, "%.*s", dot ? (int)(dot - v) : (int)strlen(v), v);
		if (!valid_name(plugin) || (dot && !valid_name(dot + 1)))
			return bad(r, k, v, "a plugin, or plugin.exercise, of a-z, 0-9 and _");
		return set_text(r, k, v, c->against, sizeof c->against);
	}
	case K_METRICS:
		return set_text(r, k, v, c->metrics, sizeof c->metrics);
	case K_KERNEL:
		return valid_name(v) ? set_text(r, k, v, c->kernel, sizeof c->kernel) : bad(r, k, v, "a name is a-z, 0-9 and _");
	case K_ARGS:
		return each_word(r, k, v, an_arg);
	case K_LAUNCH:
		return each_word(r, k, v, a_launch_key);
	case K_GENERATOR:
		if ((i = one_of(generator_names, GENERATOR_COUNT, v)) < 0)
			return bad(r, k, v, "unknown generator (range, sorted, constant, edges)");
		c->generator = (enum challenge_generator)i;
		return 0;
	case K_MIN: return number_key(r, k, v, INT32_MIN, INT32_MAX, &c->min);
	case K_MAX: return number_key(r, k, v, INT32_MIN, INT32_MAX, &c->max);
	case K_KMIN: return number_key(r, k, v, -(1 << 24), 1 << 24, &c->kmin);
	case K_KMAX: return number_key(r, k, v, -(1 << 24), 1 << 24, &c->kmax);
	case K_REFERENCE:
		if ((i = one_of(reference_names, REFERENCE_COUNT, v)) < 0)
			return bad(r, k, v, "no such CPU reference (sum, prefix_sum, histogram, transpose, copy, max, add)");
		c->reference = (enum challenge_reference)i;
		return 0;
	case K_TOLERANCE: {
		char *end;
		if (!strcmp(v, "exact"))
			return c->tolerance = 0, 0;
		errno = 0;
		c->tolerance = strtod(v, &end);
		if (end == v || *end || errno || !isfinite(c->tolerance) || c->tolerance <= 0 || c->tolerance >= 1)
			return bad(r, k, v, "exact, or a relative tolerance: a number above 0 and below 1");
		return 0;
	}
	case K_TEST_SIZES:
	case K_BENCH_SIZES:
		return each_word(r, k, v, a_size);
	case K_TIME_LIMIT: {
		int64_t s;
		if (number_key(r, k, v, 1, 3600, &s))
			return -1;
		c->time_limit_s = (double)s;
		return 0;
	}
	default: /* K_RANK */
		return strcmp(v, "geomean") ? bad(r, k, v, "the one ranking is geomean (the geometric mean over the sizes)") : 0;
	}
}

static int challenge_handler(void *user, const char *section, const char *key, const char *value)
{
	struct reading *r = user;
	if (r->failed)
		return 0;
	for (int k = 0; k < NKEYS; k++)
		if (!strcmp(section, keys[k].section) && !strcmp(key, keys[k].key)) {
			r->line_of[k] = r->line;
			snprintf(r->value_of[k], sizeof r->value_of[k], "%s", value);
			if (r->seen[k]++)
				return bad(r, k, value, "given twice"), 0;
			return set_key(r, k, value) ? 0 : 1;
		}
	snprintf(r->err, r->errlen, "%s:%d: [%s] %s: no such key (docs/challenge.md lists them)", r->file, r->line,
		 section, key);
	r->failed = 1;
	return 0;
}

/* The text line by line for inih, refusing a line longer than it reads
 * whole (it would cut one silently) and a NUL. */
static char *challenge_reader(char *str, int num, void *stream)
{
	struct reading *r = stream;
	if (r->failed || r->pos >= r->len)
		return NULL;
	const char *p = r->text + r->pos, *nl = memchr(p, '\n', r->len - r->pos);
	size_t n = nl ? (size_t)(nl - p) + 1 : r->len - r->pos;
	r->line++;
	if (n > CHALLENGE_MAX_LINE || (int)n >= num || memchr(p, 0, n)) {
		snprintf(r->err, r->errlen, "%s:%d: %s", r->file, r->line,
			 memchr(p, 0, n) ? "a NUL byte" : "longer than 190 bytes");
		r->failed = 1;
		return NULL;
	}
	memcpy(str, p, n);
	str[n] = 0;
	r->pos += n;
	return str;
}

static int check_sizes(struct reading *r, int k, const struct challenge_size *v, int n)
{
	const struct challenge *c = r->c;
	for (int i = 0; i < n; i++) {
		char s[64];
		snprintf(s, sizeof s, "%llux%llu", (unsigned long long)v[i].x, (unsigned long long)v[i].y);
		if (v[i].x > 0x7fffffff)
			return bad(r, k, s, c->two_d ? "a side past 2^31 - 1" : "past 2^31 - 1, the most a size may be here");
	}
	return n ? 0 : bad(r, k, "", "no sizes");
}

/* What the keys say together: the roles the reference needs, the shape,
 * the inputs a histogram counts. */
static int check_whole(struct reading *r)
{
	struct challenge *c = r->c;
	int inputs = challenge_count(c, ROLE_INPUT), outputs = challenge_count(c, ROLE_OUTPUT);
	int partials = challenge_count(c, ROLE_PARTIALS), bins = challenge_count(c, ROLE_BINS);
	int n = challenge_count(c, ROLE_N), x = challenge_count(c, ROLE_X), y = challenge_count(c, ROLE_Y);
	enum challenge_reference ref = c->reference;
	char want[120] = "";
	for (int k = 0; k < NKEYS; k++)
		if (keys[k].required && !r->seen[k]) {
			snprintf(r->err, r->errlen, "%s: [%s] %s is missing", r->file, keys[k].section, keys[k].key);
			return -1;
		}
	if (!c->types)
		return bad(r, K_TYPES, "", "no type: int, float, or both");
	if (!(c->launch & LAUNCH_BLOCK) && r->seen[K_LAUNCH])
		return bad(r, K_LAUNCH, "", "block is always allowed: list it");
	if (!r->seen[K_LAUNCH])
		c->launch = LAUNCH_BLOCK | LAUNCH_PER_THREAD | LAUNCH_TILE | LAUNCH_GRID;
	if (!(n == 1 && x == 0 && y == 0) && !(x == 1 && y == 1 && n == 0))
		return bad(r, K_ARGS, "", "one n (1-D), or one x and one y (2-D)");
	c->two_d = x == 1;
	if (c->two_d ? r->sizes_1d : r->sizes_2d)
		return bad(r, r->line_of[K_TEST_SIZES] ? K_TEST_SIZES : K_BENCH_SIZES, "",
			   c->two_d ? "a 2-D challenge's sizes are XxY" : "a 1-D challenge's sizes are N, not XxY");
	if ((ref == REFERENCE_SUM || ref == REFERENCE_MAX) && !(inputs == 1 && partials == 1 && outputs == 0 && bins == 0))
		snprintf(want, sizeof want, "one input and one partials");
	else if ((ref == REFERENCE_PREFIX_SUM || ref == REFERENCE_COPY || ref == REFERENCE_TRANSPOSE)
		 && !(inputs == 1 && outputs == 1 && partials == 0 && bins == 0))
		snprintf(want, sizeof want, "one input and one output");
	else if (ref == REFERENCE_ADD && !(inputs == 2 && outputs == 1 && partials == 0 && bins == 0))
		snprintf(want, sizeof want, "two inputs and one output");
	else if (ref == REFERENCE_HISTOGRAM && !(inputs == 1 && bins == 1 && outputs == 0 && partials == 0))
		snprintf(want, sizeof want, "one input and one bins");
	else if ((ref == REFERENCE_TRANSPOSE && !c->two_d) || (ref == REFERENCE_PREFIX_SUM && c->two_d))
		snprintf(want, sizeof want, c->two_d ? "n, not x and y" : "x and y, not n");
	if (want[0])
		return bad(r, K_ARGS, "", "the reference %s needs %s", reference_names[ref], want);
	if (challenge_count(c, ROLE_SCRATCH) > 1)
		return bad(r, K_ARGS, "", "one scratch at most");
	if ((c->launch & LAUNCH_FINISH) && ref != REFERENCE_SUM)
		return bad(r, K_LAUNCH, "finish", "finish= is for the reference sum alone");
	if (c->min > c->max)
		return bad(r, K_MAX, "", "below min");
	if (c->kmin > c->kmax)
		return bad(r, K_KMAX, "", "below kmin");
	if (ref == REFERENCE_HISTOGRAM && (c->types != CHALLENGE_INT || c->min < 0 || c->max > 255))
		return bad(r, K_REFERENCE, "histogram", "counts ints from 0 to 255: types = int, min >= 0, max <= 255");
	if (c->tolerance > 0 && (ref == REFERENCE_HISTOGRAM || ref == REFERENCE_TRANSPOSE || ref == REFERENCE_COPY))
		return bad(r, K_TOLERANCE, "", "%s moves or counts values: it is exact", reference_names[ref]);
	return check_sizes(r, K_TEST_SIZES, c->tests, c->ntests) || check_sizes(r, K_BENCH_SIZES, c->bench, c->nbench);
}

int challenge_parse(struct challenge *c, const char *file, const char *text, size_t len, char *err, size_t errlen)
{
	struct reading r = { .c = c, .file = file, .text = text, .len = len, .err = err, .errlen = errlen };
	char dir[sizeof c->dir];
	snprintf(dir, sizeof dir, "%s", c->dir);
	*c = (struct challenge){ .min = 0, .max = 255, .kmin = -256, .kmax = 256, .time_limit_s = 10 };
	memcpy(c->dir, dir, sizeof dir);
	int line = ini_parse_stream(challenge_reader, &r, challenge_handler, &r);
	if (r.failed)
		return -1;
	if (line) {
		snprintf(err, errlen, "%s:%d: not a [section] or key = value line", file, line);
		return -1;
	}
	return check_whole(&r) ? -1 : 0;
}

/* A challenge is found, listed and tried by its folder's name, and its
 * rows and records carry its [challenge] name: the two must be one, or
 * `try mymax` would run and record try.vmax. */
static int named_by_folder(const struct challenge *c, const char *path, char *err, size_t errlen)
{
	size_t end = strlen(c->dir);
	while (end > 1 && c->dir[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && c->dir[start - 1] != '/')
		start--;
	if (end - start == strlen(c->name) && !strncmp(c->dir + start, c->name, end - start))
		return 0;
	snprintf(err, errlen, "%s: [challenge] name = '%s': not its folder's name '%.*s' (a challenge is named by its folder)",
		 path, c->name, (int)(end - start) > 60 ? 60 : (int)(end - start), c->dir + start);
	return -1;
}

int challenge_load(struct challenge *c, const char *dir, char *err, size_t errlen)
{
	char path[4200], *text = NULL;
	struct stat st;
	ssize_t got = -1;
	int rc = -1, fd;
	snprintf(c->dir, sizeof c->dir, "%s", dir);
	snprintf(path, sizeof path, "%s/challenge.ini", dir);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) != 0)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode) || st.st_size > CHALLENGE_MAX_BYTES)
		snprintf(err, errlen, "%s: not a file of at most %u KiB", path, CHALLENGE_MAX_BYTES >> 10);
	else if (!(text = malloc((size_t)st.st_size + 1)))
		snprintf(err, errlen, "%s: out of memory", path);
	else if ((got = read(fd, text, (size_t)st.st_size)) != st.st_size)
		snprintf(err, errlen, "%s: cannot read: %s", path, got < 0 ? strerror(errno) : "it changed");
	else
		rc = challenge_parse(c, path, text, (size_t)got, err, errlen);
	if (fd >= 0)
		close(fd);
	free(text);
	return rc ? rc : named_by_folder(c, path, err, errlen);
}

int challenge_count(const struct challenge *c, enum challenge_role role)
{
	int n = 0;
	for (int i = 0; i < c->nargs; i++)
		n += c->args[i].role == role;
	return n;
}

int challenge_find_arg(const struct challenge *c, enum challenge_role role, int k)
{
	for (int i = 0; i < c->nargs; i++)
		if (c->args[i].role == role && k-- == 0)
			return i;
	return -1;
}

void challenge_signature(const struct challenge *c, char *buf, size_t len)
{
	static const char *const types[ROLE_COUNT] = { "const T *", "T *", "T *", "unsigned *", "unsigned *",
						      "unsigned ", "unsigned ", "unsigned " };
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < c->nargs && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s%s", i ? ", " : "", types[c->args[i].role], c->args[i].name);
		at += w > 0 ? (size_t)w : 0;
	}
}

void challenge_size_keys(const struct challenge *c, const struct challenge_size *s, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < c->nargs && at < len; i++) {
		enum challenge_role r = c->args[i].role;
		if (r == ROLE_N || r == ROLE_X || r == ROLE_Y) {
			int w = snprintf(buf + at, len - at, "%s%s=%llu", at ? " " : "", c->args[i].name,
					 (unsigned long long)(r == ROLE_Y ? s->y : s->x));
			at += w > 0 ? (size_t)w : 0;
		}
	}
}

int challenge_gate(const struct challenge *c, char *buf, size_t len)
{
	size_t at = 0;
	char keys_[200];
	buf[0] = 0;
	for (int i = 0; i < c->ntests; i++) {
		challenge_size_keys(c, &c->tests[i], keys_, sizeof keys_);
		int g = c->tests[i].generator;
		int w = snprintf(buf + at, len - at, "%s%s seed=%llu%s%s", i ? ";" : "", keys_,
				 (unsigned long long)c->tests[i].seed, g >= 0 ? " input=" : "", g >= 0 ? generator_names[g] : "");
		if (w < 0 || (size_t)w >= len - at)
			return -1;
		at += (size_t)w;
	}
	return 0;
}
