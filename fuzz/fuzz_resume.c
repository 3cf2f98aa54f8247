/* libFuzzer target for `gpulab run -o FILE --resume`: the input is the
 * record FILE holds and the record of the run's planned points, split at
 * its first NUL byte (or one record, resumed by itself), matched as
 * core/records/resume.c matches them.  Beyond not crashing, it checks what
 * --resume promises of a hostile FILE: a refusal names the file and is
 * one escaped line; the rows it keeps (as the text the new record holds
 * them in) parse back as JSON, as many as kept, each of its planned
 * point's exercise. */
#include "escaped.h"
#include "records/json.h"
#include "records/resume.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows the resumed record keeps, as text, parse back: as many as
 * kept, each of its planned point's exercise. */
static void check_rows(const struct resume *r)
{
	char *text = NULL, err[512];
	size_t size = 0, n = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return;
	fputc('[', out);
	for (size_t i = 0; i < r->plan.n; i++)
		if (r->kept[i])
			fprintf(out, "%s%s", n++ ? ", " : "", r->kept[i]);
	for (size_t i = 0; i < r->nextra; i++)
		fprintf(out, "%s%s", n++ ? ", " : "", r->extra[i]);
	fputc(']', out);
	fclose(out);
	struct json *back = json_parse(text, size, err, sizeof err);
	if (!back || json_len(back) != n || n != r->nkept + r->nextra)
		abort();
	for (size_t i = 0, k = 0; i < r->plan.n; i++) {
		if (!r->kept[i])
			continue;
		const char *a = json_string(json_get(json_index(back, k++), "exercise"));
		const char *b = json_string(json_get(r->plan.v[i].row, "exercise"));
		if (!a || !b || strcmp(a, b))
			abort(); /* a point kept for another exercise's */
	}
	json_free(back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	const uint8_t *nul = memchr(data, 0, size);
	size_t first = nul ? (size_t)(nul - data) : size;
	const char *plan_text = nul ? (const char *)nul + 1 : (const char *)data;
	size_t plan_size = nul ? size - first - 1 : size;
	struct json *old = json_parse((const char *)data, first, err, sizeof err);
	struct json *plan = json_parse(plan_text, plan_size, err, sizeof err);
	struct resume r;
	if (!old || !plan) {
		json_free(old);
		json_free(plan);
		return 0;
	}
	int rc = resume_take(&r, "fuzz.json", old, plan, err, sizeof err);
	if (rc && strncmp(err, "fuzz.json: ", 11))
		abort();
	if (rc)
		fuzz_check_escaped(err);
	else
		check_rows(&r);
	resume_free(&r);
	return 0;
}
