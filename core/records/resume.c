#include "records/resume.h"

#include "emit/field.h"
#include "records/ondisk.h"
#include "exitcode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run-level field's text ("gpulab" "version", "device" "uuid", "cold"),
 * for a message and to compare; "" where the record has none. */
static const char *field(const struct json *doc, const char *obj, const char *key, char *buf, size_t len)
{
	const struct json *v = obj ? json_get(json_get(doc, obj), key) : json_get(doc, key);
	const char *text = json_scalar_text(v);
	int b = json_bool(v);
	snprintf(buf, len, "%s", text ? text : b >= 0 ? (b ? "true" : "false") : "");
	return buf;
}

/* The device a record was made on: its UUID where NVML gave one, else
 * its name; "the host" for a run with no GPU. */
static const char *device_of(const struct json *doc, char *buf, size_t len)
{
	const struct json *d = json_get(doc, "device");
	if (json_type(d) != JSON_OBJECT)
		return snprintf(buf, len, "the host"), buf;
	field(doc, "device", "uuid", buf, len);
	return buf[0] ? buf : field(doc, "device", "name", buf, len);
}

/* What must be the same for the points of two runs to be one record:
 * 0, or EXIT_USAGE with why. */
static int same_conditions(const struct resume *r, char *err, size_t len)
{
	static const struct { const char *obj, *key, *what; } must[] = {
		{ "gpulab", "version", "gpulab version" }, { "gpulab", "revision", "gpulab revision" },
		{ NULL, "cold", "--cold" }, { NULL, "batch", "--batch" },
	};
	char a[256], b[256];
	if (strcmp(device_of(r->old.doc, a, sizeof a), device_of(r->plan.doc, b, sizeof b))) {
		snprintf(err, len, "%s: recorded on %s, and this run is on %s: not resumed", r->old.path, a, b);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
		field(r->old.doc, must[i].obj, must[i].key, a, sizeof a);
		field(r->plan.doc, must[i].obj, must[i].key, b, sizeof b);
		if (strcmp(a, b) && !(!strcmp(must[i].key, "batch") && !a[0] && !strcmp(b, "1"))) { /* no batch: 1 */
			snprintf(err, len, "%s: its %s is %s, and this run's %s: not resumed", r->old.path, must[i].what,
				 a[0] ? a : "not given", b);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* A row of FILE as the text the new record holds it in; NULL where
 * memory ran out. */
static char *row_text(const struct json *row)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return NULL;
	ondisk_write_tree(out, row);
	if (fclose(out)) {
		free(text);
		return NULL;
	}
	return text;
}

static int not_run(const struct record_point *p)
{
	const char *status = json_string(json_get(p->row, "status"));
	return status && !strcmp(status, "not run");
}

/* Each planned point to FILE's first unmatched row of its key, as
 * compare pairs them; FILE's "not run" rows are lacking, so never paired. */
static int match(struct resume *r)
{
	struct record_pair *pairs = calloc(r->plan.n ? r->plan.n : 1, sizeof *pairs);
	r->kept = calloc(r->plan.n ? r->plan.n : 1, sizeof *r->kept);
	r->extra = calloc(r->old.n ? r->old.n : 1, sizeof *r->extra);
	if (!pairs || !r->kept || !r->extra) {
		free(pairs);
		return EXIT_NOMEM;
	}
	for (size_t i = 0; i < r->old.n; i++)
		r->old.v[i].matched = not_run(&r->old.v[i]);
	size_t n = record_pair_up(&r->plan, &r->old, pairs);
	int bad = 0;
	for (size_t i = 0; i < n; i++)
		bad |= !(r->kept[pairs[i].base - r->plan.v] = row_text(pairs[i].cand->row));
	r->nkept = n;
	for (size_t i = 0; i < r->old.n; i++)
		if (!r->old.v[i].matched)
			bad |= !(r->extra[r->nextra++] = row_text(r->old.v[i].row));
	free(pairs);
	return bad ? EXIT_NOMEM : 0;
}

int resume_take(struct resume *r, const char *path, struct json *old, struct json *plan, char *err, size_t len)
{
	char why[1024];
	int rc;
	*r = (struct resume){ .old = { .path = path }, .plan = { .path = "this run" } };
	if ((rc = record_take(&r->old, old, err, len))) {
		json_free(plan);
		return rc;
	}
	if ((rc = record_take(&r->plan, plan, why, sizeof why))) { /* the core's own: only memory can fail it */
		snprintf(err, len, "%s: %s", path, why);
		return rc;
	}
	if ((rc = same_conditions(r, err, len)))
		return rc;
	if ((rc = match(r)))
		snprintf(err, len, "%s: out of memory", path);
	return rc;
}

int resume_load(struct resume *r, const char *path, struct json *plan, char *err, size_t len)
{
	char why[512];
	struct json *old = record_read(path, why, sizeof why);
	if (!old) {
		*r = (struct resume){ 0 };
		json_free(plan);
		snprintf(err, len, "%s", why);
		return EXIT_USAGE;
	}
	return resume_take(r, path, old, plan, err, len);
}

void resume_free(struct resume *r)
{
	for (size_t i = 0; r->kept && i < r->plan.n; i++)
		free(r->kept[i]);
	for (size_t i = 0; r->extra && i < r->nextra; i++)
		free(r->extra[i]);
	record_free(&r->old);
	record_free(&r->plan);
	free(r->kept);
	free(r->extra);
	r->kept = NULL;
	r->extra = NULL;
}
