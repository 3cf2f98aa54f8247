#include "emit/facts.h"

#include "emit/field.h"
#include "run/metrics.h"

#include <stdio.h>
#include <string.h>

/* --- `gpulab metrics` ---------------------------------------------------------------------- */

static void metrics_text_end(void *doc, FILE *out)
{
	(void)doc;
	metrics_print_aliases(out);
}

const struct writer metrics_table = { .for_people = 1, .end = metrics_text_end };

static void metrics_json_end(void *doc, FILE *out)
{
	size_t n;
	const struct metric_alias *a = metrics_aliases(&n);
	(void)doc;
	fputs("{\n  \"schema\": \"gpulab-metrics/1\",\n  \"metrics\": [\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("    {\"name\": ", out);
		emit_json(out, a[i].name);
		emit_json_string(out, "what", a[i].what);
		emit_json_string(out, "metric", a[i].metric);
		emit_json_string(out, "per", a[i].per);
		fputs(i + 1 < n ? "},\n" : "}\n", out);
	}
	fputs("  ]\n}\n", out);
}

const struct writer metrics_json = { .end = metrics_json_end };

/* The names as a table of four columns: name, what, metric, per (CSV or
 * Markdown: a cell each, escaped as that format escapes). */
static void metrics_cells(FILE *out, void (*cell)(FILE *, const char *), const char *sep, const char *open,
			  const char *close)
{
	size_t n;
	const struct metric_alias *a = metrics_aliases(&n);
	for (size_t i = 0; i < n; i++) {
		const char *v[] = { a[i].name, a[i].what, a[i].metric, a[i].per ? a[i].per : "" };
		fputs(open, out);
		for (size_t k = 0; k < 4; k++)
			fputs(k ? sep : "", out), cell(out, v[k]);
		fputs(close, out);
	}
}

static const char *const metrics_columns[] = { "name", "what", "metric", "per" };

static void metrics_csv_end(void *doc, FILE *out)
{
	(void)doc;
	fputs("name,what,metric,per\n", out);
	metrics_cells(out, emit_csv, ",", "", "\n");
}

const struct writer metrics_csv = { .end = metrics_csv_end };

static void metrics_md_end(void *doc, FILE *out)
{
	(void)doc;
	md_header(out, metrics_columns, 4);
	metrics_cells(out, md_cell, " | ", "| ", " |\n");
}

const struct writer metrics_markdown = { .end = metrics_md_end };

/* --- `gpulab info` as JSON (the table is run/device.c's device_print_all) ------------------ */

static void info_device(const struct device_info *d, FILE *out)
{
	fprintf(out, "    {\"ordinal\": %d, \"name\": ", d->ordinal);
	emit_json(out, d->name);
	fprintf(out, ", \"compute_capability\": \"%d.%d\", \"multiprocessors\": %d, \"warp_size\": %d, "
		     "\"max_threads_per_block\": %d,\n     \"shared_memory_per_block_bytes\": %zu, "
		     "\"shared_memory_per_block_optin_bytes\": %zu, \"shared_memory_per_sm_bytes\": %zu,\n"
		     "     \"l2_bytes\": %zu, \"global_memory_bytes\": %zu, \"memory_clock_khz\": %d, "
		     "\"bus_width_bits\": %d,\n     \"peak_memory_gbps\": ",
		d->cc_major, d->cc_minor, d->sms, d->warp_size, d->max_threads_per_block, d->smem_per_block,
		d->smem_per_block_optin, d->smem_per_sm, d->l2_bytes, d->mem_bytes, d->mem_clock_khz, d->bus_width_bits);
	emit_json_double(out, d->peak_gbps);
	fprintf(out, ", \"driver_version\": %d, \"runtime_version\": %d", d->driver_version, d->runtime_version);
	emit_json_string(out, "pci_bus", d->bus_id);
	fputc('}', out);
}

static void info_json_end(void *doc, FILE *out)
{
	const struct info_doc *d = doc;
	fputs("{\n  \"schema\": \"gpulab-info/1\",\n  \"devices\": [\n", out);
	for (size_t i = 0; i < d->n; i++) {
		info_device(&d->v[i], out);
		fputs(i + 1 < d->n ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

const struct writer info_json = { .end = info_json_end };

/* --- `gpulab new`'s summary ---------------------------------------------------------------- */

static void new_text_end(void *doc, FILE *out)
{
	const struct new_doc *d = doc;
	fprintf(out, "%s/:", d->name);
	for (size_t i = 0; i < d->n; i++)
		fprintf(out, "%s %s", i ? "," : "", d->files[i]);
	fprintf(out, "\nnext: cd %s && make && make install && gpulab run %s   (make check: no GPU needed)\n", d->name,
		d->name);
}

const struct writer new_table = { .for_people = 1, .end = new_text_end };

static void new_json_end(void *doc, FILE *out)
{
	const struct new_doc *d = doc;
	char next[512];
	fputs("{\n  \"schema\": \"gpulab-new/1\", \"directory\": ", out);
	emit_json(out, d->name);
	fputs(",\n  \"files\": [", out);
	for (size_t i = 0; i < d->n; i++) {
		fputs(i ? ", " : "", out);
		emit_json(out, d->files[i]);
	}
	snprintf(next, sizeof next, "cd %s && make && make install && gpulab run %s", d->name, d->name);
	fputs("],\n  \"next\": ", out);
	emit_json(out, next);
	fputs("\n}\n", out);
}

const struct writer new_json = { .end = new_json_end };

/* --- `gpulab check` as JSON (the lines are session/plan_check.c's) ------------------------- */

static void check_json_end(void *doc, FILE *out)
{
	const struct check_doc *d = doc;
	fputs("{\n  \"schema\": \"gpulab-check/1\",\n  \"files\": [\n", out);
	for (size_t i = 0; i < d->n; i++) {
		const struct check_shown *c = &d->v[i];
		fputs("    {\"file\": ", out);
		emit_json(out, c->file);
		emit_json_string(out, "plugin", c->plugin[0] ? c->plugin : NULL);
		if (c->plugin[0])
			fprintf(out, ", \"abi\": \"%u.%u\", \"exercises\": %zu", c->abi, c->abi_minor, c->exercises);
		fprintf(out, ", \"refused\": %s, \"problems\": %d}%s\n", c->refused ? "true" : "false", c->problems,
			i + 1 < d->n ? "," : "");
	}
	fputs("  ],\n  \"problems\": [", out);
	for (size_t at = 0, k = 0; at < d->len; k++) {
		const char *file = d->problems + at, *what = file + strlen(file) + 1;
		if (what >= d->problems + d->len) /* a child cut short mid-line: no problem text */
			break;
		fputs(k ? ",\n    {\"file\": " : "\n    {\"file\": ", out);
		emit_json(out, file);
		emit_json_string(out, "problem", what);
		fputc('}', out);
		at = (size_t)(what + strlen(what) + 1 - d->problems);
	}
	fputs(d->len ? "\n  ]\n}\n" : "]\n}\n", out);
}

const struct writer check_json = { .end = check_json_end };
