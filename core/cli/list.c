#include "config.h"

#include "cli/list.h"

#include "emit/field.h"
#include "emit/writer.h"
#include "escape.h"
#include "config/params.h"

#include <inttypes.h>
#include <string.h>

/* Each parameter e takes, the generic ones first, as `fn` sees them;
 * reps and warmup, the same for all, are left to the header. */
static void each_param(const struct gpulab_exercise *e, void (*fn)(const struct gpulab_param *, int, void *), void *arg)
{
	for (int g = 0; g < GEN_REPS; g++)
		if (exercise_takes(e, (enum generic)g)) {
			struct gpulab_param d;
			char def[32];
			exercise_generic(e, (enum generic)g, &d, def, sizeof def);
			if (g == GEN_TYPE)
				d.choices = dtypes_text(e->dtypes, "int|float");
			fn(&d, g, arg);
		}
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		fn(p, -1, arg);
}

static void table_param(const struct gpulab_param *d, int g, void *arg)
{
	char flag[64], what[256];
	if (g >= 0)
		snprintf(flag, sizeof flag, "%s", options_flag((enum generic)g));
	else
		snprintf(flag, sizeof flag, "-p %s", d->key);
	param_describe(d, what, sizeof what);
	fprintf(arg, "      %-16s %-5s  default %-10s %s; %s\n", flag, param_type_name(d->type), d->def, d->help, what);
}

static void list_table_head(void *doc, FILE *out)
{
	const struct registry *r = doc;
	size_t loaded = 0;
	for (size_t i = 0; i < r->n; i++)
		loaded += r->v[i].desc != NULL;
	if (loaded) /* with none, stdout stays empty: the errors said it all */
		fprintf(out, "every exercise also takes -r (%s, default %s) and -w (%s, default %s)\n",
		generic_params[GEN_REPS].help, generic_params[GEN_REPS].def, generic_params[GEN_WARMUP].help,
		generic_params[GEN_WARMUP].def);
}

static void list_table_plugin(void *doc, size_t i, FILE *out)
{
	const struct plugin *p = &((const struct registry *)doc)->v[i];
	if (!p->desc)
		return;
	/* the paths come from INI files: escaped, like every error line */
	fprintf(out, "\n%s: %s\n  file ", p->name, p->desc->summary ? p->desc->summary : "");
	fput_escaped(out, p->path);
	fputs(" (from ", out);
	fput_escaped(out, p->ini);
	fputs(")\n", out);
	for (size_t k = 0; k < p->desc->n_exercises; k++) {
		const struct gpulab_exercise *e = &p->desc->exercises[k];
		char full[256];
		snprintf(full, sizeof full, "%s.%s", p->name, e->name);
		fprintf(out, "  %-30s %s\n", full, e->summary);
		each_param(e, table_param, out);
	}
}

static void list_table_none(void *doc, FILE *out)
{
	if (((const struct registry *)doc)->n == 0)
		fprintf(out, "no plugins configured (see gpulab(1), FILES)\n");
}

static const struct writer list_table = {
	.for_people = 1, .streams = 1, .begin = list_table_head, .row = list_table_plugin, .end = list_table_none
};

/* CSV: "key=default;..." for one field. */
static void csv_param(const struct gpulab_param *d, int g, void *arg)
{
	char *buf = arg;
	size_t at = strlen(buf);
	(void)g;
	snprintf(buf + at, 4096 - at, "%s%s=%s", at ? ";" : "", d->key, d->def);
}

static void list_csv_head(void *doc, FILE *out)
{
	(void)doc;
	fputs("plugin,exercise,types,n,block,file,summary,params\n", out);
}

static void list_csv_plugin(void *doc, size_t i, FILE *out)
{
	const struct plugin *p = &((const struct registry *)doc)->v[i];
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
		const struct gpulab_exercise *e = &p->desc->exercises[k];
		char params[4096] = "";
		each_param(e, csv_param, params);
		emit_csv(out, p->name);
		fputc(',', out);
		emit_csv(out, e->name);
		fprintf(out, ",%s,%" PRIu64 ",%u,", dtypes_text(e->dtypes, "int|float"), e->n, e->block);
		emit_csv(out, p->path);
		fputc(',', out);
		emit_csv(out, e->summary);
		fputc(',', out);
		emit_csv(out, params);
		fputc('\n', out);
	}
}

static const struct writer list_csv = { .streams = 1, .begin = list_csv_head, .row = list_csv_plugin };

struct json_params {
	FILE *out;
	int first;
};

static void json_param(const struct gpulab_param *d, int g, void *arg)
{
	struct json_params *j = arg;
	char what[256];
	(void)g;
	param_describe(d, what, sizeof what);
	fputs(j->first ? "{\"key\": " : ", {\"key\": ", j->out);
	emit_json(j->out, d->key);
	fprintf(j->out, ", \"type\": \"%s\", \"default\": ", param_type_name(d->type));
	emit_json(j->out, d->def);
	fputs(", \"takes\": ", j->out);
	emit_json(j->out, what);
	fputs(", \"help\": ", j->out);
	emit_json(j->out, d->help);
	fputc('}', j->out);
	j->first = 0;
}

static void json_exercise(const struct gpulab_exercise *e, FILE *out)
{
	struct json_params jp = { out, 1 };
	fputs("{\"name\": ", out);
	emit_json(out, e->name);
	fputs(", \"summary\": ", out);
	emit_json(out, e->summary);
	fputs(", \"params\": [", out);
	each_param(e, json_param, &jp);
	fputs("]}", out);
}

static void json_plugin(const struct plugin *p, FILE *out)
{
	fputs("    {\"name\": ", out);
	emit_json(out, p->name);
	fputs(", \"file\": ", out);
	emit_json(out, p->path);
	fputs(", \"ini\": ", out);
	emit_json(out, p->ini);
	emit_json_string(out, "error", p->error);
	fputs(", \"exercises\": [", out);
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
		fputs(k ? ",\n      " : "\n      ", out);
		json_exercise(&p->desc->exercises[k], out);
	}
	fputs("]}", out);
}

static void list_json_head(void *doc, FILE *out)
{
	(void)doc;
	fprintf(out, "{\n  \"gpulab\": \"%s\", \"abi\": \"%d.%d\",\n  \"plugins\": [\n", PACKAGE_VERSION, GPULAB_ABI_VERSION,
		GPULAB_ABI_MINOR);
}

static void list_json_row(void *doc, size_t i, FILE *out)
{
	const struct registry *r = doc;
	json_plugin(&r->v[i], out);
	fputs(i + 1 < r->n ? ",\n" : "\n", out);
}

static void list_json_end(void *doc, FILE *out)
{
	(void)doc;
	fputs("  ]\n}\n", out);
}

static const struct writer list_json = { .begin = list_json_head, .row = list_json_row, .end = list_json_end };

/* Markdown: a row per exercise, its keys' defaults in one cell. */
static void list_md_head(void *doc, FILE *out)
{
	static const char *const names[] = { "exercise", "types", "n:", "block:", "summary", "params" };
	(void)doc;
	md_header(out, names, sizeof names / sizeof names[0]);
}

static void list_md_plugin(void *doc, size_t i, FILE *out)
{
	const struct plugin *p = &((const struct registry *)doc)->v[i];
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
		const struct gpulab_exercise *e = &p->desc->exercises[k];
		char params[4096] = "", full[256];
		each_param(e, csv_param, params);
		snprintf(full, sizeof full, "%s.%s", p->name, e->name);
		fputs("| ", out);
		md_cell(out, full);
		fputs(" | ", out);
		md_cell(out, dtypes_text(e->dtypes, "int|float"));
		fprintf(out, " | %" PRIu64 " | %u | ", e->n, e->block);
		md_cell(out, e->summary);
		fputs(" | ", out);
		md_cell(out, params);
		fputs(" |\n", out);
	}
}

static const struct writer list_markdown = { .streams = 1, .begin = list_md_head, .row = list_md_plugin };

void list_print(const struct registry *r, enum format f, FILE *out)
{
	static const struct writer *const by_format[FORMATS] = {
		[FORMAT_TABLE] = &list_table, [FORMAT_CSV] = &list_csv, [FORMAT_JSON] = &list_json,
		[FORMAT_MD] = &list_markdown,
	};
	struct registry doc = *r;
	writer_begin(by_format[f], &doc, out);
	for (size_t i = 0; i < doc.n; i++)
		writer_row(by_format[f], &doc, i, out);
	writer_end(by_format[f], &doc, out);
}
