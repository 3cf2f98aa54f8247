#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const filter_no_headers[] = { NULL };

/* The source as the compiler's third phase sees it: lines spliced where
 * a backslash ends one (with spaces after it too, as gcc allows), each
 * byte with the line it came from. */
struct text {
	char *s;
	int *line;
	size_t n;
};

static int splice(const char *src, size_t len, struct text *t)
{
	int line = 1;
	t->n = 0;
	t->s = malloc(len + 1);
	t->line = malloc((len + 1) * sizeof *t->line);
	if (!t->s || !t->line)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (src[i] == '\\') {
			size_t j = i + 1;
			while (j < len && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r'))
				j++;
			if (j < len && src[j] == '\n') {
				line++;
				i = j;
				continue;
			}
		}
		t->s[t->n] = src[i];
		t->line[t->n++] = line;
		line += src[i] == '\n';
	}
	t->s[t->n] = 0;
	t->line[t->n] = line;
	return 0;
}

struct lexer {
	const struct text *t;
	size_t i;
	const char *const *headers;
	int *line;
	char *err;
	size_t errlen;
};

static int refuse(struct lexer *x, size_t at, const char *fmt, const char *what, int what_len)
{
	*x->line = x->t->line[at < x->t->n ? at : x->t->n];
	snprintf(x->err, x->errlen, fmt, what_len, what);
	return -1;
}

static int is_ident_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static int is_ident(unsigned char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int at(const struct lexer *x, size_t i, const char *s)
{
	size_t n = strlen(s);
	return i + n <= x->t->n && !memcmp(x->t->s + i, s, n);
}

/* A `#` as any spelling of it: its length, 0 if none. */
static size_t hash_at(const struct lexer *x, size_t i)
{
	return at(x, i, "#") ? 1 : at(x, i, "%:") ? 2 : at(x, i, "?\?=") ? 3 : 0;
}

/* Past spaces, tabs and block comments on this line. */
static size_t skip_blanks(const struct lexer *x, size_t i)
{
	for (;;) {
		const char *s = x->t->s;
		while (i < x->t->n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f'))
			i++;
		if (!at(x, i, "/*"))
			return i;
		const char *end = i + 2 <= x->t->n ? memmem(s + i + 2, x->t->n - i - 2, "*/", 2) : NULL;
		i = end ? (size_t)(end - s) + 2 : x->t->n;
	}
}

static size_t ident_end(const struct lexer *x, size_t i)
{
	while (i < x->t->n && is_ident((unsigned char)x->t->s[i]))
		i++;
	return i;
}

static int word_is(const struct lexer *x, size_t i, size_t end, const char *w)
{
	return strlen(w) == end - i && !memcmp(x->t->s + i, w, end - i);
}

static int word_in(const struct lexer *x, size_t i, size_t end, const char *const *words)
{
	for (; *words; words++)
		if (word_is(x, i, end, *words))
			return 1;
	return 0;
}

static const char *const banned_words[] = { "__has_include", "__has_include_next", "__has_embed", "include_alias", NULL };

static int banned(struct lexer *x, size_t i, size_t end)
{
	if (!word_in(x, i, end, banned_words))
		return 0;
	if (word_is(x, i, end, "include_alias"))
		return refuse(x, i, "%.*s is refused: a kernel is one file, and may not rename a header", "include_alias", 13);
	return refuse(x, i, "%.*s is refused: a kernel may not ask which files exist", x->t->s + i, (int)(end - i));
}

/* An #include's argument: written out, and one of the contract's headers. */
static int include_argument(struct lexer *x, size_t hash, size_t name, size_t name_end)
{
	const char *s = x->t->s;
	size_t i = skip_blanks(x, name_end);
	char close = s[i] == '<' ? '>' : s[i] == '"' ? '"' : 0;
	int dlen = (int)(name_end - name);
	if (!close)
		return refuse(x, hash, "#%.*s through a macro is refused: a kernel is one file, and may include only its "
				       "challenge's headers, by name", s + name, dlen);
	size_t end = i + 1;
	while (end < x->t->n && s[end] != close && s[end] != '\n')
		end++;
	if (s[end] == close)
		for (const char *const *h = x->headers; *h; h++)
			if (strlen(*h) == end - i - 1 && !memcmp(s + i + 1, *h, end - i - 1))
				return 0;
	char what[160];
	size_t shown = end - i + (s[end] == close); /* its closing quote, not the line's end */
	int n = shown > 60 ? 60 : (int)shown;
	snprintf(what, sizeof what, "#%.*s %.*s%s", dlen, s + name, n, s + i, shown > 60 ? "..." : "");
	return refuse(x, hash, x->headers[0] ? "%.*s is refused: a kernel is one file, and may include only its "
						"challenge's headers"
					      : "%.*s is refused: a kernel is one file, and may include only its challenge's "
						"headers (it provides none)",
		      what, (int)strlen(what));
}

static const char *const includes[] = { "include", "include_next", "import", "embed", NULL };
static const char *const allowed[] = { "define", "undef", "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef",
				       "else", "endif", "error", "warning", "pragma", NULL };

/* The directive whose `#` is at hash, n bytes long: refused, or where
 * lexing goes on (its name read, its arguments to be lexed as code). */
static int directive(struct lexer *x, size_t hash, size_t n, size_t *next)
{
	const char *s = x->t->s;
	size_t i = skip_blanks(x, hash + n), end;
	*next = i;
	if (s[i] >= '0' && s[i] <= '9')
		return refuse(x, hash, "%.*s is refused: the compiler's messages must name this file and its own lines",
			      "# LINE \"FILE\"", 13);
	if (!is_ident_start((unsigned char)s[i]))
		return 0; /* the null directive, or a `#` the compiler refuses itself */
	end = ident_end(x, i);
	*next = end;
	if (word_in(x, i, end, includes))
		return include_argument(x, hash, i, end);
	if (word_is(x, i, end, "line"))
		return refuse(x, hash, "%.*s is refused: the compiler's messages must name this file and its own lines",
			      "#line", 5);
	if (!word_in(x, i, end, allowed))
		return refuse(x, hash, "#%.*s is refused: a kernel may use #define, #undef, #if and its kin, #error, "
				       "#warning and #pragma", s + i, (int)(end - i));
	return 0;
}

/* A raw string literal's delimiter after R": its length, or -1 where it
 * is not one (then the quote is read as an ordinary string's, which
 * ends with its line: stricter). */
static int raw_delimiter(const struct lexer *x, size_t i)
{
	for (int d = 0; d <= 16 && i + (size_t)d < x->t->n; d++) {
		char c = x->t->s[i + (size_t)d];
		if (c == '(')
			return d;
		if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' || c == '\f' || c == '\n' || c == '"')
			return -1;
	}
	return -1;
}

/* Past a raw string whose delimiter (d bytes) starts at i; a line inside
 * it that begins as a directive would is refused all the same. */
static int raw_string(struct lexer *x, size_t i, int d, size_t *next)
{
	const char *s = x->t->s, *delim = s + i;
	for (size_t j = i + (size_t)d + 1; j < x->t->n; j++) {
		if (s[j] == ')' && j + 1 + (size_t)d < x->t->n && !memcmp(s + j + 1, delim, (size_t)d)
		    && s[j + 1 + (size_t)d] == '"') {
			*next = j + 2 + (size_t)d;
			return 0;
		}
		if (s[j] == '\n') {
			size_t k = skip_blanks(x, j + 1), h = hash_at(x, k);
			if (h)
				return refuse(x, k, "%.*s is refused: a line of a raw string may not begin as a directive", "#",
					      1);
		}
	}
	*next = x->t->n;
	return 0;
}

/* Past an ordinary string or character literal opened at i; it ends at
 * its quote or its line.  What _Pragma is given is read for include_alias. */
static size_t literal(struct lexer *x, size_t i, int pragma)
{
	const char *s = x->t->s, q = s[i];
	size_t j = i + 1;
	while (j < x->t->n && s[j] != q && s[j] != '\n')
		j += s[j] == '\\' && j + 1 < x->t->n && s[j + 1] != '\n' ? 2 : 1;
	if (pragma && memmem(s + i, j - i, "include", 7))
		return (size_t)-1;
	return j < x->t->n && s[j] == q ? j + 1 : j;
}

/* A pp-number: digits, letters, _, ., exponent signs and digit
 * separators (1'000), so that a separator is not read as a quote. */
static size_t pp_number(const struct lexer *x, size_t i)
{
	const char *s = x->t->s;
	for (i++; i < x->t->n; i++) {
		if (is_ident((unsigned char)s[i]) || s[i] == '.')
			continue;
		if ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))
			continue;
		if (s[i] == '\'' && i + 1 < x->t->n && is_ident((unsigned char)s[i + 1]))
			continue;
		break;
	}
	return i;
}

static const char *const raw_prefixes[] = { "R", "LR", "uR", "UR", "u8R", NULL };

static int lex(struct lexer *x)
{
	const char *s = x->t->s;
	int line_start = 1, pragma = 0;
	size_t i = 0, h, next;
	while (i < x->t->n) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			line_start = 1;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
			i++;
		} else if (at(x, i, "//")) {
			while (i < x->t->n && s[i] != '\n')
				i++;
		} else if (at(x, i, "/*")) {
			/* a newline inside leaves the next `#` at a line's start, as gcc reads it */
			const char *end = memmem(s + i + 2, x->t->n - i - 2, "*/", 2);
			size_t stop = end ? (size_t)(end - s) + 2 : x->t->n;
			line_start |= memchr(s + i, '\n', stop - i) != NULL;
			i = stop;
		} else if ((h = hash_at(x, i))) {
			if (hash_at(x, i + h))
				return refuse(x, i, "%.*s is refused: it can build __has_include out of pieces",
					      "token pasting (##)", 18);
			if (line_start && directive(x, i, h, &next))
				return -1;
			i = line_start ? next : i + h;
			line_start = 0;
		} else if (c == '"' || c == '\'') {
			if ((next = literal(x, i, pragma)) == (size_t)-1)
				return refuse(x, i, "%.*s is refused: a kernel is one file, and may not rename a header",
					      "_Pragma with include", 20);
			i = next;
			line_start = pragma = 0;
		} else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < x->t->n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
			i = pp_number(x, i);
			line_start = 0;
		} else if (is_ident_start(c)) {
			size_t end = ident_end(x, i);
			int d;
			if (banned(x, i, end))
				return -1;
			pragma = word_is(x, i, end, "_Pragma");
			line_start = 0;
			if (s[end] == '"' && word_in(x, i, end, raw_prefixes) && (d = raw_delimiter(x, end + 1)) >= 0) {
				if (raw_string(x, end + 1, d, &next))
					return -1;
				i = next;
			} else {
				i = end;
			}
		} else if (c == '\\') {
			return refuse(x, i, "%.*s is refused: a universal character name could spell __has_include",
				      "a backslash outside a literal or a comment", 42);
		} else {
			i++;
			line_start = 0;
		}
	}
	return 0;
}

int filter_source(const char *src, size_t len, const char *const *headers, int *line, char *err, size_t errlen)
{
	struct text t;
	int rc = -1;
	*line = 0;
	err[0] = 0;
	if (splice(src, len, &t) == 0) {
		struct lexer x = { &t, 0, headers ? headers : filter_no_headers, line, err, errlen };
		const char *nul = memchr(t.s, 0, t.n); /* anywhere, in a comment too */
		rc = nul ? refuse(&x, (size_t)(nul - t.s), "%.*s is refused: the compiler would stop reading there",
				  "a NUL byte", 10)
			 : lex(&x);
	} else {
		snprintf(err, errlen, "out of memory to read the file");
	}
	free(t.s);
	free(t.line);
	return rc;
}
