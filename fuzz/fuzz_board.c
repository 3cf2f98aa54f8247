/* libFuzzer target for what `gpulab board` reads and prints: a record,
 * either form (a journal or a document), through the one check, then
 * board's own (a grade record, dated, on a named GPU, of one mode), as
 * one record and as two (the same twice: two boards' worth of history),
 * printed in every format and drawn as the page.  Beyond not crashing:
 * a refusal names the record and is one line, escaped, and no page
 * holds markup from the record. */
#include "escaped.h"
#include "draw/boards.h"
#include "emit/standings.h"
#include "records/board_read.h"
#include "records/ondisk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_all(const struct board_doc *b)
{
	const struct writer *const all[] = { &standings_table, &standings_csv, &standings_json, &standings_markdown };
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		writer_end(all[i], (void *)b, out);
	fclose(out);
	free(text);
	out = open_memstream(&text, &size);
	if (!out)
		return;
	boards_draw(out, b);
	fclose(out);
	if (strstr(text, "<script") || strstr(text, "<svg onload") || strstr(text, "<img"))
		abort();
	free(text);
}

/* The input as n records (n copies), boarded and printed. */
static void board_of(const uint8_t *data, size_t size, size_t n)
{
	char err[1024];
	struct ondisk d;
	struct json *docs[2] = { NULL, NULL };
	char *paths[] = { "fuzz.json", "fuzz.json" };
	struct board_doc b;
	for (size_t i = 0; i < n; i++)
		if (!(docs[i] = ondisk_parse("fuzz.json", (const char *)data, size, &d, err, sizeof err))) {
			json_free(docs[0]);
			return;
		}
	int rc = board_take(&b, paths, docs, n, err, sizeof err);
	if (rc && strncmp(err, "fuzz.json: ", 11) && strncmp(err, "out of memory", 13))
		abort();
	if (rc)
		fuzz_check_escaped(err);
	else
		print_all(&b);
	board_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	board_of(data, size, 1);
	board_of(data, size, 2);
	return 0;
}
