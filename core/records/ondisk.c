#include "records/ondisk.h"

#include "config/options.h"
#include "emit/field.h"
#include "records/schema.h"
#include "records/validate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does the object's schema name a journal (gpulab-record/2 or 2.N)? */
static int journal_schema(const struct json *head)
{
	const char *s = json_string(json_get(head, "schema"));
	size_t n = strlen(RECORD_JOURNAL_MAJOR);
	return json_type(head) == JSON_OBJECT && s && !strncmp(s, RECORD_JOURNAL_MAJOR, n) && (!s[n] || s[n] == '.');
}

/* Where text opens as a record's header does, {"schema": "gpulab-record/
 * (spaces anywhere JSON allows them), the offset after that slash; else
 * 0.  Only a journal's line is parsed as a header: a document on one
 * line (16 MB of it) is not parsed twice. */
static size_t schema_at(const char *text, size_t len)
{
	static const char *const parts[] = { "{", "\"schema\"", ":", "\"" RECORD_SCHEMA_PREFIX };
	size_t at = 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		size_t n = strlen(parts[i]);
		while (at < len && strchr(" \t\r", text[at]))
			at++;
		if (len - at < n || memcmp(text + at, parts[i], n))
			return 0;
		at += n;
	}
	return at;
}

/* The schema's major, from its text after the slash ("2" or "2.0": 2),
 * that text (plain characters alone) in version; 0 where it is no
 * number followed by the string's end. */
static unsigned long schema_major(const char *text, size_t len, size_t at, char *version, size_t vlen)
{
	size_t end = at;
	unsigned long major = 0;
	while (end < len && end - at < 16 && (isalnum((unsigned char)text[end]) || text[end] == '.' || text[end] == '-'))
		end++;
	snprintf(version, vlen, "%.*s", (int)(end - at), text + at);
	for (size_t i = at; i < end && isdigit((unsigned char)text[i]) && major < 1000; i++)
		major = major * 10 + (unsigned long)(text[i] - '0');
	return end < len && text[end] == '"' ? major : 0;
}

/* The closing line: {"end": {...}} alone. */
static const struct json *end_of(const struct json *line)
{
	const struct json *e = json_get(line, "end");
	return json_len(line) == 1 && json_type(e) == JSON_OBJECT ? e : NULL;
}

/* A line with an "end" member that is not the closing line end_of
 * takes: {"end": 5}, or "end" beside other members.  A point has no
 * "end", so this is a closing line written wrong, not a point with no
 * exercise.  1 with why said. */
static int bad_end(const struct json *line, char *why, size_t len)
{
	const struct json *e = json_get(line, "end");
	if (!e || end_of(line))
		return 0;
	if (json_len(line) != 1)
		snprintf(why, len, "a closing entry with members beside \"end\"");
	else
		snprintf(why, len, "a closing entry whose \"end\" is not an object");
	return 1;
}

struct lines {
	const char *path, *text;
	size_t len;
	struct ondisk *d;
	char *err;
	size_t errlen;
	size_t values, numbers; /* what the lines weigh together, against json.h's limits */
	size_t end_line;        /* the closing line's number; 0: none */
	int keep;               /* record each point's line in d (ondisk_read_lines) */
	size_t room;            /* for that many in d->line_at and d->line_len */
};

/* Point line's place in the text, where the caller asked: 0, or -1 out
 * of memory. */
static int keep_line(struct lines *l, size_t at, size_t n)
{
	struct ondisk *d = l->d;
	if (!l->keep)
		return 0;
	if (d->points == l->room) {
		size_t room = l->room ? 2 * l->room : 64;
		size_t *a = realloc(d->line_at, room * sizeof *a), *b = a ? realloc(d->line_len, room * sizeof *b) : NULL;
		if (a)
			d->line_at = a;
		if (!b)
			return -1;
		d->line_len = b;
		l->room = room;
	}
	d->line_at[d->points] = at;
	d->line_len[d->points] = n;
	return 0;
}

/* Line `line`'s tree added to the rest: its weight, within the limits a
 * document has.  0, or -1 with err said. */
static int weigh(struct lines *l, const struct json *v, size_t line)
{
	json_weight(v, &l->values, &l->numbers);
	if (l->values > JSON_MAX_NODES || l->numbers > JSON_MAX_NUMBERS) {
		snprintf(l->err, l->errlen, "%s: line %zu: more than %u %s", l->path, line,
			 l->values > JSON_MAX_NODES ? JSON_MAX_NODES : JSON_MAX_NUMBERS,
			 l->values > JSON_MAX_NODES ? "values" : "numbers in arrays");
		return -1;
	}
	return 0;
}

/* Each line after the header parsed alone, its point appended to
 * results; the closing line's tree in *end (to free).  0, or -1 with err
 * said. */
static int points(struct lines *l, size_t at, struct json *results, struct json **end)
{
	char why[256];
	for (size_t line = 2; at < l->len; line++) {
		const char *s = l->text + at, *nl = memchr(s, '\n', l->len - at);
		size_t n = nl ? (size_t)(nl - s) : l->len - at;
		if (!nl) { /* cut off while written: dropped */
			l->d->torn_line = line, l->d->torn_bytes = n;
			return 0;
		}
		at += n + 1;
		struct json *v = json_parse(s, n, why, sizeof why);
		const char *what = !v ? why : json_type(v) != JSON_OBJECT ? "an entry that is not an object"
				   : *end ? "an entry after the closing one" : bad_end(v, why, sizeof why) ? why : NULL;
		if (what) {
			/* the parser read this line alone, as its line 1: the column is this line's */
			int one = !v && !strncmp(why, "line 1, ", 8);
			snprintf(l->err, l->errlen, "%s: line %zu%s%s", l->path, line, one ? ", " : ": ", one ? why + 8 : what);
			json_free(v);
			return -1;
		}
		if (weigh(l, v, line)) {
			json_free(v);
			return -1;
		}
		if (end_of(v))
			*end = v, l->end_line = line;
		else if (keep_line(l, (size_t)(s - l->text), n)) {
			json_free(v);
			return -1;
		} else if (json_append(results, v))
			return -1;
		else
			l->d->points++;
	}
	return 0;
}

/* A scalar's tree, from its JSON text. */
static struct json *scalar(const char *text)
{
	return json_parse(text, strlen(text), NULL, 0);
}

/* "interruption": the closing line's reason, or why there is none. */
static struct json *interruption(const struct json *e)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct json *v = NULL;
	if (!f)
		return NULL;
	if (!e)
		emit_json(f, "the run did not finish: its journal has no closing entry");
	else if (json_bool(json_get(e, "interrupted")) == 1 && json_string(json_get(e, "interruption")))
		emit_json(f, json_string(json_get(e, "interruption")));
	else
		fputs("null", f);
	if (fclose(f) == 0)
		v = json_parse(text, size, NULL, 0);
	free(text);
	return v;
}

/* The journal as the tree of a document: the header's members (head,
 * which it takes), its points as "results", and how the run ended.  The
 * lines are parsed once each, and their trees become the document's. */
static struct json *journal_tree(struct lines *l, struct json *head, size_t head_len)
{
	struct json *end = NULL, *results = json_array_new();
	int bad = !results || json_adopt(head, "results", results);
	if (!bad && (bad = points(l, head_len + 1, results, &end)) == 0) {
		const struct json *e = end_of(end);
		if (e && record_check_end(l->path, l->end_line, e, l->d->points, l->err, l->errlen)) {
			json_free(end);
			json_free(head);
			return NULL;
		}
		l->d->finished = e != NULL;
		bad = json_adopt(head, "finished", scalar(e ? "true" : "false"))
		      || json_adopt(head, "interrupted", scalar(!e || json_bool(json_get(e, "interrupted")) == 1 ? "true" : "false"))
		      || json_adopt(head, "interruption", interruption(e));
	}
	json_free(end);
	if (!bad)
		return head;
	if (!l->err[0])
		snprintf(l->err, l->errlen, "%s: out of memory", l->path);
	json_free(head);
	return NULL;
}

/* A header line: the journal's, not a document's members. */
static int header_line(const struct json *head)
{
	return journal_schema(head) && !json_get(head, "results") && !json_get(head, "finished")
	       && !json_get(head, "interrupted") && !json_get(head, "interruption");
}

/* text as a document; where it opened as a journal's header but has no
 * newline, and is no document, the header cut off: no record. */
static struct json *document(const char *path, const char *text, size_t len, int journal, char *err, size_t errlen)
{
	char why[256];
	struct json *doc = json_parse(text, len, why, sizeof why);
	if (journal && !memchr(text, '\n', len) && !json_get(doc, "results")) {
		json_free(doc);
		snprintf(err, errlen, "%s: line 1, a journal's header, is cut off after %zu bytes (no newline), and no "
			 "point follows it: no record", path, len);
		return NULL;
	}
	if (!doc)
		snprintf(err, errlen, "%s: %s", path, why);
	return doc;
}

/* ondisk_parse, each point's line kept in d where keep is 1. */
static struct json *parse_text(const char *path, const char *text, size_t len, int keep, struct ondisk *d, char *err,
			       size_t errlen)
{
	char version[32];
	const char *nl = memchr(text, '\n', len);
	struct lines l = { .path = path, .text = text, .len = len, .d = d, .err = err, .errlen = errlen, .keep = keep };
	*d = (struct ondisk){ .finished = 1 };
	err[0] = 0;
	size_t at = schema_at(text, len);
	unsigned long major = at ? schema_major(text, len, at, version, sizeof version) : 0;
	if (major > 2) { /* told before its lines are read as a document's */
		snprintf(err, errlen, "%s: its schema is gpulab-record/%s, which this gpulab does not read (it reads "
			 "gpulab-record/1 and /2; a newer one wrote it)", path, version);
		return NULL;
	}
	struct json *head = nl && major == 2 ? json_parse(text, (size_t)(nl - text), NULL, 0) : NULL;
	if (header_line(head)) {
		d->journal = 1;
		return journal_tree(&l, head, (size_t)(nl - text));
	}
	json_free(head);
	return document(path, text, len, major == 2, err, errlen);
}

struct json *ondisk_parse(const char *path, const char *text, size_t len, struct ondisk *d, char *err, size_t errlen)
{
	return parse_text(path, text, len, 0, d, err, errlen);
}

/* The file's text (*text, to free) parsed, its points' lines kept where
 * keep is 1. */
static struct json *read_parse(const char *path, size_t max, int keep, struct ondisk *d, char **text, char *err,
			       size_t errlen)
{
	size_t len;
	*d = (struct ondisk){ .finished = 1 };
	if (!(*text = json_read_text(path, max, &len, err, errlen)))
		return NULL;
	if (len == 0) {
		snprintf(err, errlen, "%s: empty: no record", path);
		return NULL;
	}
	return parse_text(path, *text, len, keep, d, err, errlen);
}

/* Lines kept only for a journal read: else none to free. */
static struct json *lines_kept(struct json *doc, struct ondisk *d)
{
	if (!doc || !d->journal)
		ondisk_lines_free(d);
	return doc;
}

struct json *ondisk_parse_lines(const char *path, const char *text, size_t len, struct ondisk *d, char *err,
				size_t errlen)
{
	return lines_kept(parse_text(path, text, len, 1, d, err, errlen), d);
}

struct json *ondisk_read_lines(const char *path, size_t max, struct ondisk *d, char **text, char *err, size_t errlen)
{
	return lines_kept(read_parse(path, max, 1, d, text, err, errlen), d);
}

void ondisk_lines_free(struct ondisk *d)
{
	free(d->line_at);
	free(d->line_len);
	d->line_at = d->line_len = NULL;
}

struct json *ondisk_read(const char *path, size_t max, struct ondisk *d, char *err, size_t errlen)
{
	char *text;
	struct json *doc = read_parse(path, max, 0, d, &text, err, errlen);
	free(text);
	return doc;
}

const char *ondisk_warning(const char *path, const struct ondisk *d, char *buf, size_t len)
{
	char torn[128] = "", open[128] = "";
	if (d->torn_line)
		snprintf(torn, sizeof torn, "line %zu, cut off after %zu bytes as it was written, is dropped", d->torn_line,
			 d->torn_bytes);
	if (!d->finished)
		snprintf(open, sizeof open, "the run did not finish (its journal has no closing entry): %zu point%s recorded",
			 d->points, d->points == 1 ? "" : "s");
	if (torn[0] || open[0])
		snprintf(buf, len, "%s: %s%s%s", path, torn, torn[0] && open[0] ? "; " : "", open);
	else
		buf[0] = 0;
	return buf;
}

void ondisk_write_tree(FILE *out, const struct json *v)
{
	enum json_kind t = json_type(v);
	size_t n;
	const double *packed = json_numbers(v, &n);
	if (packed) { /* from its doubles: a node a sample would cost 100 bytes each */
		fputc('[', out);
		for (size_t i = 0; i < n; i++) {
			fputs(i ? ", " : "", out);
			emit_json_double(out, packed[i]);
		}
		fputc(']', out);
	} else if (t == JSON_ARRAY || t == JSON_OBJECT) {
		fputc(t == JSON_ARRAY ? '[' : '{', out);
		for (size_t i = 0; i < json_len(v); i++) {
			fputs(i ? ", " : "", out);
			if (t == JSON_OBJECT) {
				emit_json(out, json_key(v, i));
				fputs(": ", out);
			}
			ondisk_write_tree(out, json_index(v, i));
		}
		fputc(t == JSON_ARRAY ? ']' : '}', out);
	} else if (t == JSON_STRING) {
		emit_json(out, json_string(v));
	} else if (t == JSON_NUMBER) {
		fputs(json_number_text(v), out);
	} else if (t == JSON_BOOL) {
		fputs(json_bool(v) ? "true" : "false", out);
	} else {
		fputs("null", out); /* null, and a packed array's node memory could not be had for */
	}
}

int ondisk_is_record(int fd, char *err, size_t len)
{
	char head[4097];
	ssize_t n = pread(fd, head, sizeof head - 1, 0);
	if (n == 0)
		return 1; /* an empty file: nothing lost */
	head[n > 0 ? n : 0] = 0;
	const char *p = head + strspn(head, " \t\r\n");
	if (n > 0 && *p == '{' && strstr(p, "\"" RECORD_SCHEMA_PREFIX))
		return 1;
	snprintf(err, len, "is not a gpulab record, and %s replaces only a record: nothing was run (move it, or name "
		      "another file)", options_short(OPT_OUTPUT));
	return 0;
}
