#include "config/params.h"

#include "config/size.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct gpulab_param generic_params[NGENERIC] = {
	[GEN_N] = { .key = "n", .type = GPULAB_PARAM_COUNT, .help = "element count",
		    .min = 1, .max = (int64_t)PARAM_MAX_N },
	[GEN_BLOCK] = { .key = "block", .type = GPULAB_PARAM_COUNT, .help = "threads per block",
			.min = 1, .max = 1024 },
	[GEN_TYPE] = { .key = "type", .type = GPULAB_PARAM_ENUM, .def = "int", .help = "element type",
		       .choices = "int|float" },
	/* the one place the repetition defaults are defined */
	[GEN_REPS] = { .key = "reps", .type = GPULAB_PARAM_COUNT, .def = "20", .help = "timed repetitions",
		       .min = 1, .max = 1000000 },
	[GEN_WARMUP] = { .key = "warmup", .type = GPULAB_PARAM_COUNT, .def = "3", .help = "untimed runs first",
			 .min = 0, .max = 1000000 },
};

int generic_index(const char *key)
{
	for (int i = 0; i < NGENERIC; i++)
		if (!strcmp(generic_params[i].key, key))
			return i;
	return -1;
}

const char *dtype_name(enum gpulab_dtype t)
{
	return t == GPULAB_FLOAT32 ? "float" : "int";
}

int param_valid_name(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

const char *param_type_name(enum gpulab_param_type t)
{
	switch (t) {
	case GPULAB_PARAM_COUNT: return "count";
	case GPULAB_PARAM_INT: return "int";
	case GPULAB_PARAM_ENUM: return "enum";
	case GPULAB_PARAM_SHAPE: return "shape";
	case GPULAB_PARAM_SEED: return "seed";
	case GPULAB_PARAM_PATH: return "path";
	}
	return "?";
}

size_t param_width(enum gpulab_param_type t)
{
	switch (t) {
	case GPULAB_PARAM_COUNT:
	case GPULAB_PARAM_SEED: return sizeof(uint64_t);
	case GPULAB_PARAM_INT: return sizeof(int64_t);
	case GPULAB_PARAM_ENUM: return sizeof(unsigned);
	case GPULAB_PARAM_SHAPE: return sizeof(struct gpulab_shape);
	case GPULAB_PARAM_PATH: return sizeof(const char *);
	}
	return 0;
}

/* The declared limits, with min = max = 0 meaning the type's own. */
static void limits(const struct gpulab_param *d, int64_t *lo, int64_t *hi)
{
	int none = d->min == 0 && d->max == 0;
	switch (d->type) {
	case GPULAB_PARAM_INT:
		*lo = none ? INT64_MIN : d->min;
		*hi = none ? INT64_MAX : d->max;
		return;
	case GPULAB_PARAM_SHAPE:
		*lo = d->min > 1 ? d->min : 1;
		*hi = none || d->max > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : d->max;
		return;
	default:
		*lo = d->min > 0 ? d->min : 0;
		*hi = none ? INT64_MAX : d->max;
	}
}

/* Large powers of two read better as such: 2^40, not 1099511627776. */
static void print_int(char *buf, size_t len, int64_t v)
{
	if (v >= 65536 && !(v & (v - 1))) {
		int k = 0;
		while ((v >> k) != 1)
			k++;
		snprintf(buf, len, "2^%d", k);
	} else {
		snprintf(buf, len, "%" PRId64, v);
	}
}

static void range_text(const struct gpulab_param *d, char *buf, size_t len)
{
	int64_t lo, hi;
	char a[32], b[32];
	limits(d, &lo, &hi);
	print_int(a, sizeof a, lo);
	print_int(b, sizeof b, hi);
	snprintf(buf, len, "from %s to %s", a, b);
}

void param_describe(const struct gpulab_param *d, char *buf, size_t len)
{
	char range[80];
	range_text(d, range, sizeof range);
	switch (d->type) {
	case GPULAB_PARAM_COUNT:
		snprintf(buf, len, "a count %s", range);
		return;
	case GPULAB_PARAM_INT:
		snprintf(buf, len, "an integer %s", range);
		return;
	case GPULAB_PARAM_ENUM:
		snprintf(buf, len, "one of %s", d->choices ? d->choices : "");
		return;
	case GPULAB_PARAM_SHAPE:
		snprintf(buf, len, "a shape WxH, each side %s", range);
		return;
	case GPULAB_PARAM_SEED:
		snprintf(buf, len, "a number, or random");
		return;
	case GPULAB_PARAM_PATH:
		snprintf(buf, len, "a file name of at most %d bytes", GPULAB_PATH_MAX);
		return;
	}
	snprintf(buf, len, "nothing (type %d is unknown)", (int)d->type);
}

/* A decimal without sign or spaces, up to max. */
static int decimal(const char *s, const char *end, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int parse_int(const char *text, int64_t *out)
{
	uint64_t mag;
	int neg = *text == '-';
	const char *digits = text + neg;
	if (decimal(digits, digits + strlen(digits), neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &mag))
		return -1;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

static int parse_shape(const char *text, struct gpulab_shape *s)
{
	const char *x = strchr(text, 'x');
	uint64_t w, h;
	if (!x || decimal(text, x, UINT32_MAX, &w) || decimal(x + 1, x + 1 + strlen(x + 1), UINT32_MAX, &h))
		return -1;
	s->x = (uint32_t)w;
	s->y = (uint32_t)h;
	return 0;
}

/* The index of `text` among the '|'-separated choices, or -1. */
static int choice(const char *choices, const char *text)
{
	size_t len = strlen(text);
	int i = 0;
	for (const char *c = choices; c && *c; i++) {
		size_t n = strcspn(c, "|");
		if (n == len && !strncmp(c, text, len))
			return i;
		c += n + (c[n] == '|');
	}
	return -1;
}

static enum parse_result parse_typed(const struct gpulab_param *d, const char *text, struct param_value *v)
{
	int k;
	switch (d->type) {
	case GPULAB_PARAM_COUNT:
		return parse_size(text, &v->u) ? PARSE_MALFORMED : PARSE_OK;
	case GPULAB_PARAM_INT:
		return parse_int(text, &v->i) ? PARSE_MALFORMED : PARSE_OK;
	case GPULAB_PARAM_SHAPE:
		return parse_shape(text, &v->s) ? PARSE_MALFORMED : PARSE_OK;
	case GPULAB_PARAM_ENUM:
		if ((k = choice(d->choices, text)) < 0)
			return PARSE_RANGE;
		v->e = (unsigned)k;
		return PARSE_OK;
	case GPULAB_PARAM_SEED:
		v->random = !strcmp(text, "random");
		return v->random || parse_size(text, &v->u) == 0 ? PARSE_OK : PARSE_MALFORMED;
	case GPULAB_PARAM_PATH: /* the reports hold it whole, or not at all */
		v->str = text;
		return strlen(text) <= GPULAB_PATH_MAX ? PARSE_OK : PARSE_RANGE;
	}
	return PARSE_MALFORMED;
}

static int in_range(const struct gpulab_param *d, const struct param_value *v)
{
	int64_t lo, hi;
	limits(d, &lo, &hi);
	switch (d->type) {
	case GPULAB_PARAM_COUNT: return v->u >= (uint64_t)lo && v->u <= (uint64_t)hi;
	case GPULAB_PARAM_INT: return v->i >= lo && v->i <= hi;
	case GPULAB_PARAM_SHAPE:
		return v->s.x >= lo && v->s.x <= hi && v->s.y >= lo && v->s.y <= hi;
	default: return 1;
	}
}

/* What d takes, as a refusal says it. */
static void param_expected(const struct gpulab_param *d, char *why, size_t len)
{
	static const char *const examples[] = { [GPULAB_PARAM_COUNT] = " (e.g. 1024, 2^10 or 1K)",
						[GPULAB_PARAM_SHAPE] = " (e.g. 32x8)" };
	size_t t = (size_t)d->type;
	char what[160];
	param_describe(d, what, sizeof what);
	snprintf(why, len, "expected %s%s", what, t < sizeof examples / sizeof examples[0] && examples[t] ? examples[t] : "");
}

enum parse_result param_parse(const struct gpulab_param *d, const char *text, struct param_value *v,
			      char *why, size_t len)
{
	enum parse_result r;
	*v = (struct param_value){ 0 };
	r = text ? parse_typed(d, text, v) : PARSE_MALFORMED;
	if (r == PARSE_OK && !in_range(d, v))
		r = PARSE_RANGE;
	if (r != PARSE_OK)
		param_expected(d, why, len);
	return r;
}

enum parse_result param_narrow(const struct gpulab_param *d, const struct param_value *v, char *why, size_t len)
{
	if (in_range(d, v))
		return PARSE_OK;
	param_expected(d, why, len);
	return PARSE_RANGE;
}

/* The range "A:B[:K]" of text[0..n): its first value, last bound, step
 * exponent.  -1 if it is not one. */
static int range(const char *text, size_t n, uint64_t *a, uint64_t *b, unsigned *k)
{
	char buf[128], *colon, *colon2;
	uint64_t step = 1;
	if (n >= sizeof buf)
		return -1;
	memcpy(buf, text, n);
	buf[n] = 0;
	if (!(colon = strchr(buf, ':')))
		return -1;
	*colon = 0;
	if ((colon2 = strchr(colon + 1, ':')))
		*colon2 = 0;
	if (parse_size(buf, a) || parse_size(colon + 1, b) || (colon2 && parse_size(colon2 + 1, &step)))
		return -1;
	if (*a == 0 || *a > *b || step == 0 || step > 63)
		return -1;
	*k = (unsigned)step;
	return 0;
}

/* How many values the range holds: A, A*2^K, ... while <= B. */
static size_t range_count(uint64_t a, uint64_t b, unsigned k)
{
	size_t n = 1;
	while (a <= b >> k && (a << k) <= b)
		a <<= k, n++;
	return n;
}

/* One piece of a list, a value or a range, checked: its values counted
 * into *count. */
static enum parse_result axis_piece(const struct gpulab_param *d, const char *p, size_t n, size_t *count, char *why,
				    size_t len)
{
	uint64_t a, b;
	unsigned k;
	char one[128];
	if (!memchr(p, ':', n)) {
		*count = 1;
		snprintf(one, sizeof one, "%.*s", n < sizeof one ? (int)n : 0, p); /* too long for any value: "" */
		return param_parse(d, one, &(struct param_value){ 0 }, why, len);
	}
	if (d->type != GPULAB_PARAM_COUNT || range(p, n, &a, &b, &k)) {
		snprintf(why, len, "'%.*s' is not a range A:B or A:B:K of counts, 0 < A <= B, K from 1 to 63",
			 (int)(n < 60 ? n : 60), p);
		return PARSE_MALFORMED;
	}
	*count = range_count(a, b, k);
	enum parse_result r = PARSE_OK;
	for (int end = 0; end < 2 && r == PARSE_OK; end++) { /* the first and the largest */
		snprintf(one, sizeof one, "%" PRIu64, end ? a << (k * (*count - 1)) : a);
		r = param_parse(d, one, &(struct param_value){ 0 }, why, len);
	}
	return r;
}

enum parse_result param_axis(const struct gpulab_param *d, const char *text, size_t *count, char *why, size_t len)
{
	enum parse_result worst = PARSE_OK;
	const char *p = text;
	char first[256] = "";
	*count = 0;
	if (!text || d->type == GPULAB_PARAM_PATH) {
		*count = 1;
		return param_parse(d, text, &(struct param_value){ 0 }, why, len);
	}
	do {
		size_t n = strcspn(p, ","), values;
		enum parse_result r = axis_piece(d, p, n, &values, why, len);
		if (r == PARSE_MALFORMED)
			return r;
		if (r == PARSE_RANGE && worst == PARSE_OK) /* go on counting: points out of range are skipped */
			worst = r, snprintf(first, sizeof first, "%s", why);
		*count += values;
		if (*count > PARAM_MAX_POINTS) {
			snprintf(why, len, "more than %d values", PARAM_MAX_POINTS);
			return PARSE_MALFORMED;
		}
		p += n;
	} while (*p++ == ',');
	if (worst != PARSE_OK)
		snprintf(why, len, "%s", first);
	return worst;
}

void param_axis_value(const char *text, size_t i, char *buf, size_t len)
{
	const char *p = text;
	buf[0] = 0;
	do {
		size_t n = strcspn(p, ","), values = 1;
		uint64_t a, b;
		unsigned k;
		if (memchr(p, ':', n) && range(p, n, &a, &b, &k) == 0)
			values = range_count(a, b, k);
		if (i < values) {
			if (values > 1 || memchr(p, ':', n))
				snprintf(buf, len, "%" PRIu64, a << (k * i));
			else
				snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		i -= values;
		p += n;
	} while (*p++ == ',');
}

enum parse_result typed_axis_parse(const struct gpulab_param *d, const char *text, struct typed_axis *a, char *why,
				   size_t len)
{
	size_t n;
	enum parse_result r = param_axis(d, text, &n, why, len);
	*a = (struct typed_axis){ 0 };
	if (r != PARSE_OK)
		return r;
	*a = (struct typed_axis){ .text = text, .n = n };
	if (!(a->v = calloc(a->n, sizeof *a->v))) {
		snprintf(why, len, "out of memory");
		return PARSE_MALFORMED;
	}
	for (size_t i = 0; i < a->n && r == PARSE_OK; i++) {
		struct typed_value *v = &a->v[i];
		param_axis_value(text, i, v->text, sizeof v->text);
		/* a path is its whole axis (param_axis counts it one) */
		r = param_parse(d, d->type == GPULAB_PARAM_PATH ? text : v->text, &v->value, why, len);
	}
	return r;
}

void typed_axis_free(struct typed_axis *a)
{
	free(a->v);
	*a = (struct typed_axis){ 0 };
}

void param_format(const struct gpulab_param *d, const struct param_value *v, char *buf, size_t len)
{
	const char *c = d->choices;
	switch (d->type) {
	case GPULAB_PARAM_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		return;
	case GPULAB_PARAM_SHAPE:
		snprintf(buf, len, "%" PRIu32 "x%" PRIu32, v->s.x, v->s.y);
		return;
	case GPULAB_PARAM_PATH:
		snprintf(buf, len, "%s", v->str ? v->str : "");
		return;
	case GPULAB_PARAM_ENUM:
		for (unsigned i = 0; c && i < v->e; i++)
			c += strcspn(c, "|") + (c[strcspn(c, "|")] == '|');
		snprintf(buf, len, "%.*s", c ? (int)strcspn(c, "|") : 0, c ? c : "");
		return;
	default: /* COUNT, and SEED once drawn */
		if (d->type == GPULAB_PARAM_SEED && v->random)
			snprintf(buf, len, "random");
		else
			snprintf(buf, len, "%" PRIu64, v->u);
	}
}

int param_equal(const struct gpulab_param *d, const struct param_value *a, const struct param_value *b)
{
	switch (d->type) {
	case GPULAB_PARAM_INT:
		return a->i == b->i;
	case GPULAB_PARAM_ENUM:
		return a->e == b->e;
	case GPULAB_PARAM_SHAPE:
		return a->s.x == b->s.x && a->s.y == b->s.y;
	case GPULAB_PARAM_PATH:
		return !strcmp(a->str ? a->str : "", b->str ? b->str : "");
	default: /* COUNT, SEED */
		return a->u == b->u && a->random == b->random;
	}
}

void param_store(const struct gpulab_param *d, const struct param_value *v, void *base)
{
	/* memcpy: the plugin's struct need not be aligned the way we are */
	memcpy((char *)base + d->offset, &v->u, param_width(d->type));
}

static int check_choices(const char *c)
{
	if (!c || !*c)
		return -1;
	while (*c) {
		size_t n = strcspn(c, "|");
		char name[64];
		if (n == 0 || n >= sizeof name)
			return -1;
		snprintf(name, sizeof name, "%.*s", (int)n, c);
		if (!param_valid_name(name))
			return -1;
		c += n;
		if (*c == '|' && !*++c)
			return -1; /* a trailing '|' names an empty choice */
	}
	return 0;
}

int param_check_decl(const struct gpulab_param *d, size_t params_size, char *why, size_t len)
{
	struct param_value v;
	char bad[200];
	size_t w = param_width(d->type);
	int none = d->min == 0 && d->max == 0;
	if (!param_valid_name(d->key))
		snprintf(why, len, "a parameter's key '%s' is not [a-z0-9_]+", d->key ? d->key : "(null)");
	else if (!w)
		snprintf(why, len, "parameter '%s' has an unknown type %d", d->key, (int)d->type);
	else if (d->offset > params_size || params_size - d->offset < w)
		snprintf(why, len, "parameter '%s' lies outside its struct (offset %zu, %zu bytes of %zu)", d->key, d->offset,
			 w, params_size);
	else if (!none && (d->min > d->max || (d->type != GPULAB_PARAM_INT && d->min < 0)))
		snprintf(why, len, "parameter '%s' has limits out of order", d->key);
	else if (d->type == GPULAB_PARAM_ENUM && check_choices(d->choices))
		snprintf(why, len, "parameter '%s' needs choices like \"a|b\", each [a-z0-9_]+", d->key);
	else if (!d->help)
		snprintf(why, len, "parameter '%s' has no help line", d->key);
	else if (param_parse(d, d->def, &v, bad, sizeof bad) != PARSE_OK)
		snprintf(why, len, "parameter '%s' has default '%s', but %s", d->key, d->def ? d->def : "(null)", bad);
	else
		return 0;
	return -1;
}

int exercise_takes(const struct gpulab_exercise *e, enum generic g)
{
	return g == GEN_N ? e->n != 0 : g == GEN_BLOCK ? e->block != 0 : 1;
}

void exercise_generic(const struct gpulab_exercise *e, enum generic g, struct gpulab_param *d, char *buf, size_t len)
{
	*d = generic_params[g];
	if (g == GEN_N) {
		snprintf(buf, len, "%" PRIu64, e->n);
		d->def = buf;
		if (e->n_max && e->n_max < PARAM_MAX_N)
			d->max = (int64_t)e->n_max;
	} else if (g == GEN_BLOCK) {
		snprintf(buf, len, "%u", e->block);
		d->def = buf;
	} else if (g == GEN_TYPE) {
		d->def = dtype_name((enum gpulab_dtype)(e->dtypes & -e->dtypes)); /* the lowest bit */
	}
}

const struct gpulab_param *exercise_param(const struct gpulab_exercise *e, const char *key)
{
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
}

const char *dtypes_text(unsigned dtypes, const char *both)
{
	unsigned all = GPULAB_INT32 | GPULAB_FLOAT32;
	return (dtypes & all) == all ? both : dtypes & GPULAB_INT32 ? "int" : "float";
}

int exercise_generic_key(const struct gpulab_exercise *e, const char *key)
{
	return exercise_param(e, key) ? -1 : generic_index(key);
}

/* Does e take the element type v (text as given)?  PARSE_RANGE with why if not. */
static enum parse_result type_taken(const struct gpulab_exercise *e, const char *text, const struct param_value *v,
				    char *why, size_t len)
{
	if (e->dtypes & (1u << v->e))
		return PARSE_OK;
	snprintf(why, len, "element type %s is not supported (it takes %s)", text, dtypes_text(e->dtypes, "int or float"));
	return PARSE_RANGE;
}

enum parse_result exercise_parse(const struct gpulab_exercise *e, const char *key, const char *text,
				 struct param_value *v, char *why, size_t len)
{
	int g = exercise_generic_key(e, key);
	struct gpulab_param d;
	char def[32];
	enum parse_result r;
	if (g < 0) {
		const struct gpulab_param *own = exercise_param(e, key);
		if (own)
			return param_parse(own, text, v, why, len);
		snprintf(why, len, "it has no key '%s'", key);
		return PARSE_RANGE;
	}
	if (!exercise_takes(e, (enum generic)g)) {
		snprintf(why, len, "it takes no %s", g == GEN_N ? "size n: its own keys set it" : "block size");
		return PARSE_RANGE;
	}
	exercise_generic(e, (enum generic)g, &d, def, sizeof def);
	r = param_parse(&d, text, v, why, len);
	return r == PARSE_OK && g == GEN_TYPE ? type_taken(e, text, v, why, len) : r;
}

enum parse_result exercise_narrow(const struct gpulab_exercise *e, enum generic g, const struct typed_value *v,
				  char *why, size_t len)
{
	struct gpulab_param d;
	char def[32];
	exercise_generic(e, g, &d, def, sizeof def);
	enum parse_result r = param_narrow(&d, &v->value, why, len);
	return r == PARSE_OK && g == GEN_TYPE ? type_taken(e, v->text, &v->value, why, len) : r;
}

enum parse_result exercise_axis(const struct gpulab_exercise *e, const char *key, const char *text, size_t *count,
				char *why, size_t len)
{
	struct param_value v;
	char one[128];
	enum parse_result r = PARSE_OK;
	/* the declaration's own checks on each value, then e's on each */
	int g = exercise_generic_key(e, key);
	const struct gpulab_param *own = g < 0 ? exercise_param(e, key) : NULL;
	if (g >= 0 || own) {
		struct gpulab_param d;
		char def[32];
		if (g >= 0)
			exercise_generic(e, (enum generic)g, &d, def, sizeof def);
		if ((r = param_axis(g >= 0 ? &d : own, text, count, why, len)) != PARSE_OK)
			return r;
	} else {
		*count = 1;
	}
	for (size_t i = 0; i < *count && r == PARSE_OK; i++) {
		param_axis_value(text, i, one, sizeof one);
		r = exercise_parse(e, key, one, &v, why, len);
	}
	return r;
}
