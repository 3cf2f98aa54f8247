/* A strict JSON reader (RFC 8259): a recursive descent that never goes
 * deeper than JSON_MAX_DEPTH, never reads past text[len), and on any
 * fault frees what it built and says where it stopped. */
#include "records/json.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct json {
	enum json_kind type;
	int boolean;
	double number;
	char *text;          /* a string decoded, or a number as written; NUL-terminated */
	size_t len;          /* a string's bytes in text */
	struct json **kids;  /* an array's elements, an object's members; a packed array's once built */
	double *nums;        /* a packed array's elements (json.h), or NULL */
	size_t n, cap;       /* elements, and room for them in kids or, while packing, nums */
	char *key;           /* as an object's member: its name */
	size_t keylen, at;   /* the name's bytes, and where it stood in the text */
};

struct parser {
	const char *s;
	size_t len, pos, nodes, numbers;
	char *err;
	size_t errlen;
};

static void vsay(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
}

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(err, errlen, fmt, ap);
	va_end(ap);
}

/* "line L, column C: " and the message, for the byte at offset at.  The
 * line and column are counted only here, so parsing pays nothing for
 * them. */
static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
	size_t line = 1, col = 1, k;
	for (size_t i = 0; i < at && i < p->len; i++, col++)
		if (p->s[i] == '\n')
			line++, col = 0;
	if (!p->err || !p->errlen)
		return -1;
	snprintf(p->err, p->errlen, "line %zu, column %zu: ", line, col);
	k = strlen(p->err);
	va_list ap;
	va_start(ap, fmt);
	vsay(p->err + k, p->errlen - k, fmt, ap);
	va_end(ap);
	return -1;
}

/* What stands at pos, in words: a character, a byte, or the end. */
static const char *found(const struct parser *p, char *buf, size_t len)
{
	unsigned char c = p->pos < p->len ? (unsigned char)p->s[p->pos] : 0;
	if (p->pos >= p->len)
		return "the end of the input";
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static int expected(struct parser *p, const char *what)
{
	char buf[16];
	return fail_at(p, p->pos, "expected %s, found %s", what, found(p, buf, sizeof buf));
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int accept(struct parser *p, char c)
{
	if (peek(p) != (unsigned char)c)
		return 0;
	p->pos++;
	return 1;
}

static void skip_ws(struct parser *p)
{
	int c;
	while ((c = peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		p->pos++;
}

static int is_digit(const struct parser *p)
{
	int c = peek(p);
	return c >= '0' && c <= '9';
}

/* --- strings ---------------------------------------------------------------- */

/* The offset of the quote closing the string whose opening quote is at
 * pos, or len where there is none.  A backslash always takes the next
 * byte with it, so an escaped quote never closes. */
static size_t string_end(const struct parser *p)
{
	size_t i = p->pos + 1;
	while (i < p->len && p->s[i] != '"')
		i += p->s[i] == '\\' ? 2 : 1;
	return i < p->len ? i : p->len;
}

/* The length of the well-formed UTF-8 sequence at s[0..avail) (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n > avail || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	unsigned char *o = (unsigned char *)out;
	if (cp < 0x80)
		return o[0] = (unsigned char)cp, 1;
	if (cp < 0x800)
		return o[0] = 0xc0 | cp >> 6, o[1] = 0x80 | (cp & 0x3f), 2;
	if (cp < 0x10000)
		return o[0] = 0xe0 | cp >> 12, o[1] = 0x80 | (cp >> 6 & 0x3f), o[2] = 0x80 | (cp & 0x3f), 3;
	o[0] = 0xf0 | cp >> 18, o[1] = 0x80 | (cp >> 12 & 0x3f);
	o[2] = 0x80 | (cp >> 6 & 0x3f), o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* The four hex digits of a \u escape at s[at..at+4), all before end. */
static int hex4(const struct parser *p, size_t at, size_t end, unsigned long *out)
{
	*out = 0;
	if (at + 4 > end)
		return -1;
	for (size_t i = at; i < at + 4; i++) {
		char c = p->s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*out = *out << 4 | (unsigned long)d;
	}
	return 0;
}

/* A \u escape at pos, with the low half that must follow a high
 * surrogate. */
static int unicode_escape(struct parser *p, size_t end, char *buf, size_t *k)
{
	size_t at = p->pos;
	unsigned long cp, lo;
	if (hex4(p, at + 2, end, &cp))
		return fail_at(p, at, "expected 4 hex digits after \\u");
	p->pos += 6;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->pos + 1 >= end || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u' ||
		    hex4(p, p->pos + 2, end, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail_at(p, at, "unpaired surrogate \\u%04lX", cp);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		p->pos += 6;
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		return fail_at(p, at, "unpaired surrogate \\u%04lX", cp);
	}
	*k += put_utf8(buf + *k, cp);
	return 0;
}

/* The escape at pos; string_end() saw to it that its second byte lies
 * before end. */
static int escape(struct parser *p, size_t end, char *buf, size_t *k)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	char c = p->s[p->pos + 1];
	const char *hit = c ? strchr(from, c) : NULL;
	if (c == 'u')
		return unicode_escape(p, end, buf, k);
	if (!hit) {
		p->pos++;
		return expected(p, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\'");
	}
	buf[(*k)++] = to[hit - from];
	p->pos += 2;
	return 0;
}

/* One character of a string: plain ASCII, an escape or UTF-8. */
static int string_char(struct parser *p, size_t end, char *buf, size_t *k)
{
	unsigned char c = (unsigned char)p->s[p->pos];
	size_t n;
	if (c == '\\')
		return escape(p, end, buf, k);
	if (c < 0x20)
		return fail_at(p, p->pos, "control character 0x%02x in a string (it must be escaped)", c);
	n = c < 0x80 ? 1 : utf8_len((const unsigned char *)p->s + p->pos, end - p->pos);
	if (!n)
		return fail_at(p, p->pos, "invalid UTF-8 in a string (byte 0x%02x)", c);
	memcpy(buf + *k, p->s + p->pos, n);
	*k += n, p->pos += n;
	return 0;
}

/* The string whose quote is at pos, decoded.  No escape grows when
 * decoded, so the bytes between the quotes bound the buffer. */
static int parse_string(struct parser *p, char **out, size_t *outlen)
{
	size_t open = p->pos, end = string_end(p), k = 0;
	if (end >= p->len)
		return fail_at(p, open, "string not closed before the end of the input");
	char *buf = *out = malloc(end - open);
	if (!buf)
		return fail_at(p, open, "out of memory");
	for (p->pos = open + 1; p->pos < end;)
		if (string_char(p, end, buf, &k))
			return -1;
	buf[k] = 0;
	*outlen = k;
	p->pos = end + 1;
	return 0;
}

/* --- numbers and words ---------------------------------------------------- */
static void digits(struct parser *p)
{
	while (is_digit(p))
		p->pos++;
}

/* RFC 8259's grammar to the letter, from pos to the number's end; the
 * one grammar for numbers in nodes and in packed arrays alike. */
static int scan_number(struct parser *p)
{
	size_t start = p->pos;
	accept(p, '-');
	if (!is_digit(p))
		return expected(p, p->pos == start ? "a value" : "a digit after '-'");
	if (accept(p, '0') && is_digit(p))
		return fail_at(p, start, "a number may not have leading zeros");
	digits(p);
	if (accept(p, '.') && !is_digit(p))
		return expected(p, "a digit after '.'");
	digits(p);
	if (accept(p, 'e') || accept(p, 'E')) {
		if (!accept(p, '+'))
			accept(p, '-');
		if (!is_digit(p))
			return expected(p, "a digit in the exponent");
		digits(p);
	}
	return 0;
}

/* Clinger's fast path: a number whose digits, read as an integer m, are
 * at most 2^53 and whose decimal exponent e is within 22 of 0 is exactly
 * m * 10^e or m / 10^-e, both operands exact doubles, so one correctly
 * rounded operation gives what strtod would.  A record's samples are
 * millions of such numbers ("0.0034", "4.000007174909115e-05"), and
 * strtod takes several times as long on them.  1 with *out, or 0: use
 * strtod.  text is a number scan_number accepted. */
static int fast_double(const char *text, double *out)
{
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
					1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	const char *c = text;
	uint64_t m = 0;
	int e = 0, neg = *c == '-', esign = 1, ex = 0;
	c += neg;
	for (; *c >= '0' && *c <= '9'; c++)
		if ((m = m * 10 + (uint64_t)(*c - '0')) > (1ull << 53))
			return 0;
	if (*c == '.')
		for (c++; *c >= '0' && *c <= '9'; c++, e--)
			if ((m = m * 10 + (uint64_t)(*c - '0')) > (1ull << 53))
				return 0;
	if (*c == 'e' || *c == 'E') {
		c++;
		esign = *c == '-' ? -1 : 1;
		c += *c == '-' || *c == '+';
		for (; *c >= '0' && *c <= '9'; c++)
			if ((ex = ex * 10 + (*c - '0')) > 1000)
				return 0;
	}
	e += esign * ex;
	if (e < -22 || e > 22)
		return 0;
	*out = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
	*out = neg ? -*out : *out;
	return 1;
}

/* strtod on the text of the number at start, NUL-terminated (after the
 * fast path).  gpulab never calls setlocale(), so strtod's decimal point
 * is '.'. */
static int to_double(struct parser *p, size_t start, const char *text, double *out)
{
	if (fast_double(text, out))
		return 0;
	*out = strtod(text, NULL);
	return isinf(*out) ? fail_at(p, start, "number too large for a double") : 0;
}

static int parse_number(struct parser *p, struct json *n)
{
	size_t start = p->pos;
	if (scan_number(p))
		return -1;
	n->type = JSON_NUMBER;
	if (!(n->text = strndup(p->s + start, p->pos - start)))
		return fail_at(p, start, "out of memory");
	return to_double(p, start, n->text, &n->number);
}

/* The number at pos as a double alone, for a packed array: 0, -1 on a
 * fault, or 1 for a whole number of 2^53 or more in plain digits, whose
 * text says more than its double (json_u64 reads the text, a seed
 * lives there), so that its array is not packed.  strtod needs a NUL
 * after the number, which text[len) need not have: a short one is
 * copied to the stack, a long one (a thousand digits is JSON too) to the
 * heap. */
static int packed_number(struct parser *p, double *out)
{
	size_t start = p->pos, len;
	char buf[64], *text = buf;
	if (scan_number(p))
		return -1;
	len = p->pos - start;
	if (len >= sizeof buf && !(text = malloc(len + 1)))
		return fail_at(p, start, "out of memory");
	memcpy(text, p->s + start, len);
	text[len] = 0;
	int rc = to_double(p, start, text, out);
	if (!rc && *out >= 0x1p53 && strspn(text, "0123456789") == len)
		rc = 1;
	if (text != buf)
		free(text);
	return rc;
}

static int parse_word(struct parser *p, struct json *n, const char *word, enum json_kind type, int boolean)
{
	size_t len = strlen(word);
	if (p->len - p->pos < len || memcmp(p->s + p->pos, word, len))
		return fail_at(p, p->pos, "expected a value (true, false or null?)");
	p->pos += len;
	n->type = type;
	n->boolean = boolean;
	return 0;
}

/* --- arrays and objects ------------------------------------------------------ */
static int by_key(const void *a, const void *b)
{
	const struct json *x = *(const struct json *const *)a, *y = *(const struct json *const *)b;
	int c = memcmp(x->key, y->key, x->keylen < y->keylen ? x->keylen : y->keylen);
	if (c)
		return c;
	if (x->keylen != y->keylen)
		return x->keylen < y->keylen ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* A key as one printable line for a message: the first 60 bytes, with
 * control bytes shown as '?'. */
static const char *printable(const struct json *m, char *buf, size_t len)
{
	size_t n = m->keylen < len - 1 ? m->keylen : len - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = (unsigned char)m->key[i] < 0x20 || m->key[i] == 0x7f ? '?' : m->key[i];
	buf[n] = 0;
	return buf;
}

/* Sorting a copy of the members finds a repeated key in n log n, so an
 * object of a million keys costs no quadratic scan; the repeat reported
 * is the first in the text. */
static int check_duplicates(struct parser *p, const struct json *obj)
{
	const struct json *dup = NULL;
	char name[61];
	if (obj->n < 2)
		return 0;
	struct json **v = malloc(obj->n * sizeof *v);
	if (!v)
		return fail_at(p, p->pos, "out of memory");
	memcpy(v, obj->kids, obj->n * sizeof *v);
	qsort(v, obj->n, sizeof *v, by_key);
	for (size_t i = 1; i < obj->n; i++)
		if (v[i]->keylen == v[i - 1]->keylen && !memcmp(v[i]->key, v[i - 1]->key, v[i]->keylen) &&
		    (!dup || v[i]->at < dup->at))
			dup = v[i];
	free(v);
	return dup ? fail_at(p, dup->at, "duplicate key \"%s\"", printable(dup, name, sizeof name)) : 0;
}

/* A new, empty member of n, counted against JSON_MAX_NODES.  It is
 * attached before it is filled, so freeing the root frees it however
 * far its parse got. */
static struct json *add_kid(struct parser *p, struct json *n)
{
	if (++p->nodes > JSON_MAX_NODES) {
		fail_at(p, p->pos, "more than %u values", JSON_MAX_NODES);
		return NULL;
	}
	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 4;
		struct json **k = realloc(n->kids, cap * sizeof *k);
		if (!k) {
			fail_at(p, p->pos, "out of memory");
			return NULL;
		}
		n->kids = k, n->cap = cap;
	}
	struct json *kid = calloc(1, sizeof *kid);
	if (!kid)
		fail_at(p, p->pos, "out of memory");
	else
		n->kids[n->n++] = kid;
	return kid;
}

static int parse_key(struct parser *p, struct json *kid)
{
	if (peek(p) != '"')
		return expected(p, "a key in double quotes");
	kid->at = p->pos;
	if (parse_string(p, &kid->key, &kid->keylen))
		return -1;
	skip_ws(p);
	return accept(p, ':') ? 0 : expected(p, "':'");
}

/* What follows an element: 1 for the closing bracket, 0 for a ',' and
 * the next element, -1 for anything else. */
static int next_element(struct parser *p, int object)
{
	char close = object ? '}' : ']';
	skip_ws(p);
	if (accept(p, close))
		return 1;
	if (!accept(p, ','))
		return expected(p, object ? "',' or '}'" : "',' or ']'");
	skip_ws(p);
	if (peek(p) == close)
		return fail_at(p, p->pos, "expected a %s after ',' (JSON has no trailing commas)",
			       object ? "key" : "value");
	return 0;
}

/* Whether the value at pos is one parse_value() reads as a number: all
 * but these, so that what is neither a number nor one of these is
 * refused by parse_number in a packed array as in any other. */
static int number_ahead(const struct parser *p)
{
	int c = peek(p);
	return c != '{' && c != '[' && c != '"' && c != 't' && c != 'f' && c != 'n';
}

/* Room for one more number in the packed array n, within
 * JSON_MAX_NUMBERS.  nums is attached as it grows, so freeing the root
 * frees it however far the parse got. */
static int room_for_number(struct parser *p, struct json *n)
{
	if (p->numbers >= JSON_MAX_NUMBERS)
		return fail_at(p, p->pos, "more than %u numbers in arrays", JSON_MAX_NUMBERS);
	if (n->n == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 16;
		double *v = realloc(n->nums, cap * sizeof *v);
		if (!v)
			return fail_at(p, p->pos, "out of memory");
		n->nums = v, n->cap = cap;
	}
	return 0;
}

/* The elements of the array n, from its first, as doubles alone while
 * they are numbers: 0 at its end, 1 at an element that cannot be packed
 * (not a number, or a seed-like integer), -1 on a fault. */
static int parse_packed(struct parser *p, struct json *n)
{
	int end = 0, rc;
	while (!end) {
		if (!number_ahead(p))
			return 1;
		if (room_for_number(p, n))
			return -1;
		if ((rc = packed_number(p, &n->nums[n->n])))
			return rc;
		p->numbers++, n->n++;
		end = next_element(p, 0);
	}
	if (end < 0)
		return -1;
	double *fit = realloc(n->nums, n->n * sizeof *fit); /* the doubling's slack back */
	if (fit)
		n->nums = fit, n->cap = n->n;
	return 0;
}

/* An array found not to be numbers alone after all: forget its doubles
 * and read it again from its first element as an ordinary array, so that
 * its numbers keep their text as written and its limits and messages are
 * those of any array.  What is read again is numbers alone, never a
 * nested array, so no byte of the text is read more than twice. */
static void unpack(struct parser *p, struct json *n, size_t first)
{
	p->numbers -= n->n;
	free(n->nums);
	n->nums = NULL;
	n->n = n->cap = 0;
	p->pos = first;
}

static int parse_value(struct parser *p, struct json *n, int depth);

/* An array or object at pos, one level deeper than depth; an array
 * whose first element is a number is tried packed. */
static int parse_container(struct parser *p, struct json *n, int depth, enum json_kind type)
{
	int object = type == JSON_OBJECT, end, packed;
	char close = object ? '}' : ']';
	if (depth >= JSON_MAX_DEPTH)
		return fail_at(p, p->pos, "nested deeper than %d arrays and objects", JSON_MAX_DEPTH);
	n->type = type;
	p->pos++;
	skip_ws(p);
	if (accept(p, close))
		return 0;
	if (!object && number_ahead(p)) {
		size_t first = p->pos;
		if ((packed = parse_packed(p, n)) <= 0)
			return packed;
		unpack(p, n, first);
	}
	for (;;) {
		struct json *kid = add_kid(p, n);
		if (!kid || (object && parse_key(p, kid)) || parse_value(p, kid, depth + 1))
			return -1;
		if ((end = next_element(p, object)))
			return end < 0 ? -1 : object ? check_duplicates(p, n) : 0;
	}
}

static int parse_value(struct parser *p, struct json *n, int depth)
{
	skip_ws(p);
	switch (peek(p)) {
	case '{': return parse_container(p, n, depth, JSON_OBJECT);
	case '[': return parse_container(p, n, depth, JSON_ARRAY);
	case '"': n->type = JSON_STRING; return parse_string(p, &n->text, &n->len);
	case 't': return parse_word(p, n, "true", JSON_BOOL, 1);
	case 'f': return parse_word(p, n, "false", JSON_BOOL, 0);
	case 'n': return parse_word(p, n, "null", JSON_NULL, 0);
	default: return parse_number(p, n);
	}
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser p = { .s = text, .len = text ? len : 0, .nodes = 1, .err = err, .errlen = errlen };
	struct json *root = calloc(1, sizeof *root);
	say(err, errlen, "%s", "");
	if (!root) {
		say(err, errlen, "out of memory");
		return NULL;
	}
	if (!parse_value(&p, root, 0)) {
		skip_ws(&p);
		if (p.pos == p.len)
			return root;
		expected(&p, "the end of the input after the value");
	}
	json_free(root);
	return NULL;
}

void json_free(struct json *n)
{
	if (!n)
		return;
	for (size_t i = 0; n->kids && i < n->n; i++)
		json_free(n->kids[i]);
	free(n->kids);
	free(n->nums);
	free(n->text);
	free(n->key);
	free(n);
}

/* --- building a tree of trees ---------------------------------------------------- */

/* Room for one more kid in n: 0, or -1 where memory ran out. */
static int make_room(struct json *n)
{
	if (n->n < n->cap)
		return 0;
	size_t cap = n->cap ? 2 * n->cap : 4;
	struct json **k = realloc(n->kids, cap * sizeof *k);
	if (!k)
		return -1;
	n->kids = k, n->cap = cap;
	return 0;
}

struct json *json_array_new(void)
{
	struct json *a = calloc(1, sizeof *a);
	if (a)
		a->type = JSON_ARRAY;
	return a;
}

int json_append(struct json *arr, struct json *v)
{
	if (json_type(arr) != JSON_ARRAY || arr->nums || !v || make_room(arr)) {
		json_free(v);
		return -1;
	}
	arr->kids[arr->n++] = v;
	return 0;
}

int json_adopt(struct json *obj, const char *key, struct json *v)
{
	if (json_type(obj) != JSON_OBJECT || !v || json_get(obj, key) || make_room(obj) || !(v->key = strdup(key))) {
		json_free(v);
		return -1;
	}
	v->keylen = strlen(key);
	obj->kids[obj->n++] = v;
	return 0;
}

void json_weight(const struct json *n, size_t *values, size_t *numbers)
{
	if (!n)
		return;
	*values += 1;
	if (n->nums) { /* packed: its numbers, no node each (until json_index builds them) */
		*numbers += n->n;
		return;
	}
	for (size_t i = 0; n->kids && i < n->n; i++)
		json_weight(n->kids[i], values, numbers);
}

/* --- files ------------------------------------------------------------------- */

/* The whole of a regular file of at most max bytes.  O_NONBLOCK: a FIFO
 * opens at once and is then refused, where a plain open would wait for a
 * writer that may never come.  growing: a file appended to meanwhile (a
 * journal) is read as far as it was when opened; else that is an error. */
static char *slurp(const char *path, size_t max, size_t *len, char *err, size_t errlen, int growing)
{
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	ssize_t r = 1;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		say(err, errlen, "%s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		say(err, errlen, "%s: not a regular file", path);
	} else if ((unsigned long long)st.st_size > max) {
		say(err, errlen, "%s: %lld bytes, more than the %zu allowed", path, (long long)st.st_size, max);
	} else if (!(buf = malloc((size_t)st.st_size + 1))) {
		say(err, errlen, "%s: out of memory", path);
	} else {
		/* one byte more than fstat saw, to notice a file still growing */
		size_t want = (size_t)st.st_size + !growing;
		while (n < want && (r = read(fd, buf + n, want - n)) > 0)
			n += (size_t)r;
		if (r < 0 || n > (size_t)st.st_size) {
			say(err, errlen, "%s: %s", path, r < 0 ? strerror(errno) : "grew while being read");
			free(buf);
			buf = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	*len = n;
	return buf;
}

char *json_read_text(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
	return slurp(path, max_bytes, len, err, errlen, 1);
}

struct json *json_read_file(const char *path, size_t max_bytes, char *err, size_t errlen)
{
	char why[256];
	size_t len;
	char *text = slurp(path, max_bytes, &len, err, errlen, 0);
	if (!text)
		return NULL;
	struct json *root = json_parse(text, len, why, sizeof why);
	free(text);
	if (!root)
		say(err, errlen, "%s: %s", path, why);
	return root;
}

/* --- reading the tree -------------------------------------------------------- */
enum json_kind json_type(const struct json *n)
{
	return n ? n->type : JSON_NONE;
}

const struct json *json_get(const struct json *obj, const char *key)
{
	size_t len = key ? strlen(key) : 0;
	for (size_t i = 0; key && json_type(obj) == JSON_OBJECT && i < obj->n; i++)
		if (obj->kids[i]->keylen == len && !memcmp(obj->kids[i]->key, key, len))
			return obj->kids[i];
	return NULL;
}

/* A packed number's text, rebuilt from its double when its node is
 * built (json.h): the shortest of %.15g to %.17g that reads back as the
 * same double.  A whole number below 1e17 goes straight to %.17g, which
 * writes it in plain digits where %.15g would write 1e+15. */
static const char *number_text(double v, char *buf, size_t len)
{
	for (int prec = v == floor(v) && fabs(v) < 1e17 ? 17 : 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

/* The nodes of a packed array, for json_index: built only when a reader
 * asks for one, so that one reading the numbers alone (record.c) never
 * pays 100 bytes a number for them.  All or none: 0 or -1. */
static int build_kids(struct json *arr)
{
	char text[32];
	size_t i;
	struct json **kids = calloc(arr->n, sizeof *kids);
	if (!kids)
		return -1;
	for (i = 0; i < arr->n; i++) {
		struct json *k = kids[i] = calloc(1, sizeof *k);
		if (!k || !(k->text = strdup(number_text(arr->nums[i], text, sizeof text))))
			break;
		k->type = JSON_NUMBER;
		k->number = arr->nums[i];
	}
	if (i < arr->n) {
		for (size_t k = 0; k <= i; k++)
			json_free(kids[k]);
		free(kids);
		return -1;
	}
	arr->kids = kids;
	return 0;
}

/* The cast is sound: every node was allocated writable by json_parse. */
const struct json *json_index(const struct json *n, size_t i)
{
	if (!n || i >= n->n)
		return NULL;
	if (n->nums && !n->kids && build_kids((struct json *)n))
		return NULL;
	return n->kids[i];
}

const double *json_numbers(const struct json *arr, size_t *count)
{
	int packed = json_type(arr) == JSON_ARRAY && arr->nums;
	if (count)
		*count = packed ? arr->n : 0;
	return packed ? arr->nums : NULL;
}

double json_number_at(const struct json *n, size_t i)
{
	if (!n || i >= n->n)
		return NAN;
	return n->nums ? n->nums[i] : json_number(n->kids[i]);
}

const char *json_key(const struct json *obj, size_t i)
{
	return json_type(obj) == JSON_OBJECT && i < obj->n ? obj->kids[i]->key : NULL;
}

size_t json_len(const struct json *n)
{
	return n ? n->n : 0;
}

const char *json_string(const struct json *n)
{
	return json_type(n) == JSON_STRING ? n->text : NULL;
}

size_t json_string_len(const struct json *n)
{
	return json_type(n) == JSON_STRING ? n->len : 0;
}

double json_number(const struct json *n)
{
	return json_type(n) == JSON_NUMBER ? n->number : NAN;
}

const char *json_number_text(const struct json *n)
{
	return json_type(n) == JSON_NUMBER ? n->text : NULL;
}

const char *json_scalar_text(const struct json *n)
{
	return json_type(n) == JSON_STRING ? json_string(n) : json_number_text(n);
}

int json_u64(const struct json *n, uint64_t *out)
{
	uint64_t v = 0;
	if (json_type(n) != JSON_NUMBER)
		return -1;
	for (const char *s = n->text; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int json_bool(const struct json *n)
{
	return json_type(n) == JSON_BOOL ? n->boolean : -1;
}
