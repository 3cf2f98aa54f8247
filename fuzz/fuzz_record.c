/* libFuzzer target for what `gpulab report` reads and draws: a record
 * through the JSON reader, plot.c's checks, the choice of charts and the
 * whole page, as one record and as the pair compared.  Beyond not
 * crashing, it checks what the report promises: a refusal names the
 * record and, escaped as every error line is, is one line (a record may
 * spell a newline or ESC in the strings a refusal quotes: its schema, an
 * exercise's name), and no page holds markup from the record (nothing
 * can open a <script> or an element with an event handler). */
#include "escaped.h"
#include "draw/html.h"
#include "records/json.h"
#include "draw/plot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void draw(struct plot *pl, size_t n)
{
	char *page = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&page, &size);
	if (!out)
		return;
	report_html(out, pl, n);
	fclose(out);
	if (strstr(page, "<script") || strstr(page, "<svg onload") || strstr(page, "<img"))
		abort();
	free(page);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct plot pl[2];
	struct json *doc = json_parse((const char *)data, size, err, sizeof err), *again;
	if (!doc)
		return 0;
	again = json_parse((const char *)data, size, err, sizeof err);
	int rc = plot_take(&pl[0], "fuzz.json", doc, err, sizeof err);
	if (rc && strncmp(err, "fuzz.json: ", 11))
		abort();
	if (rc)
		fuzz_check_escaped(err);
	if (!rc && !plot_take(&pl[1], "fuzz.json", again, err, sizeof err)) {
		draw(pl, 1);
		draw(pl, 2);
		plot_free(&pl[1]);
	} else if (!rc) {
		plot_free(&pl[1]);
	} else {
		json_free(again);
	}
	plot_free(&pl[0]);
	return 0;
}
