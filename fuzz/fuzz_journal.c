/* libFuzzer target for the journal reader (core/records/ondisk.c): the
 * input is a record file, journal or document.  Beyond not crashing, it
 * checks what the reader promises: a refusal is one escaped line naming
 * the file; a journal read back holds as many results as points it
 * counted, every one an object, and cutting the input at the end of its
 * last complete line reads back the same points with nothing dropped;
 * the tree then passes or fails the one check (record_take) cleanly.
 * Read keeping its lines (--resume's way), every point's line is one
 * JSON object on its own, ending where its newline is, and the tree is
 * the same size. */
#include "escaped.h"
#include "records/ondisk.h"
#include "records/record.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_lines(const char *text, size_t size, const struct ondisk *plain)
{
	struct ondisk d;
	char err[1024];
	struct json *doc = ondisk_parse_lines("f.json", text, size, &d, err, sizeof err);
	if (!doc || d.points != plain->points || (d.points && !d.line_at))
		abort();
	for (size_t i = 0; i < d.points; i++) {
		if (d.line_at[i] + d.line_len[i] >= size || text[d.line_at[i] + d.line_len[i]] != '\n')
			abort();
		struct json *v = json_parse(text + d.line_at[i], d.line_len[i], NULL, 0);
		if (json_type(v) != JSON_OBJECT)
			abort();
		json_free(v);
	}
	ondisk_lines_free(&d);
	json_free(doc);
}

static void check_cut(const char *text, size_t size, const struct ondisk *d)
{
	struct ondisk again;
	char err[1024];
	size_t whole = size - d->torn_bytes;
	struct json *doc = ondisk_parse("f.json", text, whole, &again, err, sizeof err);
	if (!doc || again.torn_line || again.points != d->points)
		abort();
	json_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], warn[1024];
	struct ondisk d;
	struct json *doc = ondisk_parse("f.json", (const char *)data, size, &d, err, sizeof err);
	if (!doc) {
		if (strncmp(err, "f.json: ", 8))
			abort();
		fuzz_check_escaped(err);
		return 0;
	}
	const struct json *results = json_get(doc, "results");
	if (d.journal) {
		if (json_len(results) != d.points)
			abort();
		for (size_t i = 0; i < d.points; i++)
			if (json_type(json_index(results, i)) != JSON_OBJECT)
				abort();
		if (d.torn_line)
			check_cut((const char *)data, size, &d);
		check_lines((const char *)data, size, &d);
	}
	ondisk_warning("f.json", &d, warn, sizeof warn);
	if (warn[0])
		fuzz_check_escaped(warn);
	struct record r = { .path = "f.json" };
	if (record_take(&r, doc, err, sizeof err)) {
		if (strncmp(err, "f.json: ", 8))
			abort();
		fuzz_check_escaped(err);
	}
	record_free(&r);
	return 0;
}
