/* A strict JSON reader (RFC 8259): a recursive descent that never goes
 * deeper than JSON_MAX_DEPTH, never reads past text[len), and on any
 * fault frees what it built and says where it stopped. */
#include "report/json.h"

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
	enum json_type type;
	int boolean;
	double number;
	char *text;          /* a string decoded, or a number as written; NUL-terminated */
	size_t len;          /* a string's bytes in text */
	struct json **kids;  /* an array's elements, an object's members */
	size_t n, cap;
	char *key;           /* as an object's member: its name */
	size_t keylen, at;   /* the name's bytes, and where it stood in the text */
};

struct parser {
	const char *s;
	size_t len, pos, nodes;
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

/* RFC 8259's grammar to the letter; strtod then reads what it took.
 * gpulab never calls setlocale(), so strtod's decimal point is '.'. */
static int parse_number(struct parser *p, struct json *n)
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
	n->type = JSON_NUMBER;
	if (!(n->text = strndup(p->s + start, p->pos - start)))
		return fail_at(p, start, "out of memory");
	n->number = strtod(n->text, NULL);
	if (isinf(n->number))
		return fail_at(p, start, "number too large for a double");
	return 0;
}

static int parse_word(struct parser *p, struct json *n, const char *word, enum json_type type, int boolean)
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

static int parse_value(struct parser *p, struct json *n, int depth);

/* An array or object at pos, one level deeper than depth. */
static int parse_container(struct parser *p, struct json *n, int depth, enum json_type type)
{
	int object = type == JSON_OBJECT;
	char close = object ? '}' : ']';
	if (depth >= JSON_MAX_DEPTH)
		return fail_at(p, p->pos, "nested deeper than %d arrays and objects", JSON_MAX_DEPTH);
	n->type = type;
	p->pos++;
	skip_ws(p);
	if (accept(p, close))
		return 0;
	for (;;) {
		struct json *kid = add_kid(p, n);
		if (!kid || (object && parse_key(p, kid)) || parse_value(p, kid, depth + 1))
			return -1;
		skip_ws(p);
		if (accept(p, close))
			return object ? check_duplicates(p, n) : 0;
		if (!accept(p, ','))
			return expected(p, object ? "',' or '}'" : "',' or ']'");
		skip_ws(p);
		if (peek(p) == close)
			return fail_at(p, p->pos, "expected a %s after ',' (JSON has no trailing commas)",
				       object ? "key" : "value");
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
	for (size_t i = 0; i < n->n; i++)
		json_free(n->kids[i]);
	free(n->kids);
	free(n->text);
	free(n->key);
	free(n);
}

/* --- files ------------------------------------------------------------------- */

/* The whole of a regular file of at most max bytes.  O_NONBLOCK: a FIFO
 * opens at once and is then refused, where a plain open would wait for a
 * writer that may never come. */
static char *slurp(const char *path, size_t max, size_t *len, char *err, size_t errlen)
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
		while (n <= (size_t)st.st_size && (r = read(fd, buf + n, (size_t)st.st_size + 1 - n)) > 0)
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

struct json *json_read_file(const char *path, size_t max_bytes, char *err, size_t errlen)
{
	char why[256];
	size_t len;
	char *text = slurp(path, max_bytes, &len, err, errlen);
	if (!text)
		return NULL;
	struct json *root = json_parse(text, len, why, sizeof why);
	free(text);
	if (!root)
		say(err, errlen, "%s: %s", path, why);
	return root;
}

/* --- reading the tree -------------------------------------------------------- */
enum json_type json_type(const struct json *n)
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

const struct json *json_index(const struct json *n, size_t i)
{
	return n && i < n->n ? n->kids[i] : NULL;
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
