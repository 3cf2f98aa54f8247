/* libFuzzer target for `gpulab run -o FILE --resume`: the input is the
 * record FILE holds and a record standing for the run's planned points,
 * split at its first NUL byte (or one record, resumed by itself).  The
 * planned points are typed from the second as the run types its own (each
 * row's exercise, and its parameters parsed with a fixed set of
 * declarations: n, block, type, reps, warmup, seed, tile, file, shift),
 * and its device, gpulab and timing are the run's; then FILE is matched
 * as core/records/resume.c matches it.  Beyond not crashing, it checks
 * what --resume promises of a hostile FILE: a refusal names the file and
 * is one escaped line; the rows it keeps (as the text the new record holds
 * them in) parse back as JSON, as many as kept, each of its planned
 * point's exercise. */
#include "escaped.h"
#include "config/params.h"
#include "records/json.h"
#include "records/resume.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAX 64

static const struct gpulab_param decls[] = {
	{ .key = "n", .type = GPULAB_PARAM_COUNT, .min = 1, .max = (int64_t)PARAM_MAX_N },
	{ .key = "block", .type = GPULAB_PARAM_COUNT, .min = 1, .max = 1024 },
	{ .key = "type", .type = GPULAB_PARAM_ENUM, .choices = "int|float" },
	{ .key = "reps", .type = GPULAB_PARAM_COUNT, .min = 1, .max = 1000000 },
	{ .key = "warmup", .type = GPULAB_PARAM_COUNT, .min = 0, .max = 1000000 },
	{ .key = "seed", .type = GPULAB_PARAM_SEED },
	{ .key = "tile", .type = GPULAB_PARAM_SHAPE, .min = 1, .max = 1024 },
	{ .key = "file", .type = GPULAB_PARAM_PATH },
	{ .key = "shift", .type = GPULAB_PARAM_INT, .min = -64, .max = 64 },
};
#define NDECLS (sizeof decls / sizeof decls[0])

struct fuzz_plan {
	struct resume_plan plan;
	struct resume_point points[PLAN_MAX];
	struct resume_param params[PLAN_MAX][NDECLS];
	char device[256], version[64], revision[64];
};

/* A run-level text of the plan's record ("" where it has none). */
static void text_of(const struct json *v, char *buf, size_t len)
{
	const char *t = json_scalar_text(v);
	snprintf(buf, len, "%s", t ? t : "");
}

/* The planned points, each row of doc typed with decls: a key it has and
 * a value they take is given, the rest are not. */
static void plan_from(const struct json *doc, struct fuzz_plan *p)
{
	const struct json *results = json_get(doc, "results"), *dev = json_get(doc, "device");
	char why[256];
	text_of(json_get(json_get(doc, "gpulab"), "version"), p->version, sizeof p->version);
	text_of(json_get(json_get(doc, "gpulab"), "revision"), p->revision, sizeof p->revision);
	text_of(json_get(dev, "uuid"), p->device, sizeof p->device);
	if (!p->device[0])
		text_of(json_get(dev, "name"), p->device, sizeof p->device);
	p->plan = (struct resume_plan){ .points = p->points, .device = json_type(dev) == JSON_OBJECT ? p->device : "the host",
					.version = p->version, .revision = p->revision,
					.cold = json_bool(json_get(doc, "cold")) == 1 };
	double batch = json_number(json_get(doc, "batch"));
	p->plan.batch = batch >= 1 && batch <= 1e6 ? (unsigned)batch : 1; /* a cast of NaN or 1e300 is undefined */
	for (size_t i = 0; i < json_len(results) && p->plan.n < PLAN_MAX; i++) {
		const struct json *row = json_index(results, i), *kv = json_get(row, "params");
		const char *ex = json_string(json_get(row, "exercise"));
		if (!ex)
			continue;
		struct resume_param *params = p->params[p->plan.n];
		for (size_t k = 0; k < NDECLS; k++) {
			params[k] = (struct resume_param){ .decl = &decls[k] };
			params[k].given = param_parse(&decls[k], json_scalar_text(json_get(kv, decls[k].key)), &params[k].value,
						      why, sizeof why) == PARSE_OK;
		}
		p->points[p->plan.n++] = (struct resume_point){ .exercise = ex, .params = params, .nparams = NDECLS };
	}
}

/* The rows the resumed record keeps, as text, parse back: as many as
 * kept, each of its planned point's exercise. */
static void check_rows(const struct resume *r, const struct resume_plan *plan)
{
	char *text = NULL, err[512];
	size_t size = 0, n = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return;
	fputc('[', out);
	for (size_t i = 0; i < plan->n; i++)
		if (r->kept[i])
			fprintf(out, "%s%s", n++ ? ", " : "", r->kept[i]);
	for (size_t i = 0; i < r->nextra; i++)
		fprintf(out, "%s%s", n++ ? ", " : "", r->extra[i]);
	fputc(']', out);
	fclose(out);
	struct json *back = json_parse(text, size, err, sizeof err);
	if (!back || json_len(back) != n || n != r->nkept + r->nextra)
		abort();
	for (size_t i = 0, k = 0; i < plan->n; i++) {
		if (!r->kept[i])
			continue;
		const char *a = json_string(json_get(json_index(back, k++), "exercise"));
		if (!a || strcmp(a, plan->points[i].exercise))
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
	static struct fuzz_plan p;
	struct resume r;
	if (!old || !plan) {
		json_free(old);
		json_free(plan);
		return 0;
	}
	memset(&p, 0, sizeof p);
	plan_from(plan, &p);
	int rc = resume_take(&r, "fuzz.json", old, &p.plan, err, sizeof err);
	if (rc && strncmp(err, "fuzz.json: ", 11))
		abort();
	if (rc)
		fuzz_check_escaped(err);
	else
		check_rows(&r, &p.plan);
	resume_free(&r);
	json_free(plan); /* after: the points' names and paths are its strings */
	return 0;
}
