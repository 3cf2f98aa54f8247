#include "command_names.h"
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

/* The names as a table of four columns: name, what, metric, per. */
static void metrics_cells(FILE *out, const struct cell_style *c)
{
	static const char *const columns[] = { "name", "what", "metric", "per" };
	size_t n;
	const struct metric_alias *a = metrics_aliases(&n);
	cells_header(out, c, columns, 4);
	for (size_t i = 0; i < n; i++)
		cells_row(out, c, (const char *const[]){ a[i].name, a[i].what, a[i].metric, a[i].per }, 4);
}

static void metrics_csv_end(void *doc, FILE *out)
{
	(void)doc;
	metrics_cells(out, &csv_cells);
}

const struct writer metrics_csv = { .end = metrics_csv_end };

static void metrics_md_end(void *doc, FILE *out)
{
	(void)doc;
	metrics_cells(out, &md_cells);
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

/* The GPUs as a table: a row each, the JSON document's names as columns. */
static void info_cells(const struct info_doc *d, FILE *out, const struct cell_style *c)
{
	static const char *const columns[] = { "ordinal:", "name", "compute_capability", "multiprocessors:", "warp_size:",
					       "max_threads_per_block:", "shared_memory_per_block_bytes:",
					       "shared_memory_per_sm_bytes:", "l2_bytes:", "global_memory_bytes:",
					       "memory_clock_khz:", "bus_width_bits:", "peak_memory_gbps:", "pci_bus" };
	enum { N = sizeof columns / sizeof columns[0] };
	char v[N][40];
	cells_header(out, c, columns, N);
	for (size_t i = 0; i < d->n; i++) {
		const struct device_info *g = &d->v[i];
		snprintf(v[0], 40, "%d", g->ordinal), snprintf(v[2], 40, "%d.%d", g->cc_major, g->cc_minor);
		snprintf(v[3], 40, "%d", g->sms), snprintf(v[4], 40, "%d", g->warp_size);
		snprintf(v[5], 40, "%d", g->max_threads_per_block), snprintf(v[6], 40, "%zu", g->smem_per_block);
		snprintf(v[7], 40, "%zu", g->smem_per_sm), snprintf(v[8], 40, "%zu", g->l2_bytes);
		snprintf(v[9], 40, "%zu", g->mem_bytes), snprintf(v[10], 40, "%d", g->mem_clock_khz);
		snprintf(v[11], 40, "%d", g->bus_width_bits), json_double_text(v[12], 40, g->peak_gbps);
		cells_row(out, c, (const char *const[]){ v[0], g->name, v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
							 v[11], v[12], g->bus_id }, N);
	}
}

static void info_csv_end(void *doc, FILE *out)
{
	info_cells(doc, out, &csv_cells);
}

static void info_md_end(void *doc, FILE *out)
{
	info_cells(doc, out, &md_cells);
}

const struct writer info_csv = { .end = info_csv_end }, info_markdown = { .end = info_md_end };

/* --- `gpulab new`'s summary ---------------------------------------------------------------- */

static void new_text_end(void *doc, FILE *out)
{
	const struct new_doc *d = doc;
	fprintf(out, "%s/:", d->name);
	for (size_t i = 0; i < d->n; i++)
		fprintf(out, "%s %s", i ? "," : "", d->files[i]);
	fprintf(out, "\nnext: cd %s && make && make install && gpulab " CMD_RUN " %s   (make check: no GPU needed)\n", d->name,
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
	snprintf(next, sizeof next, "cd %s && make && make install && gpulab " CMD_RUN " %s", d->name, d->name);
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

/* The FILEs as a table: a row for each problem, with its file's plugin,
 * and one with no problem for a file that has none. */
static void check_cells(const struct check_doc *d, FILE *out, const struct cell_style *c)
{
	static const char *const columns[] = { "file", "plugin", "abi", "exercises:", "refused", "problem" };
	char abi[32], n[32];
	cells_header(out, c, columns, 6);
	for (size_t i = 0; i < d->n; i++) {
		const struct check_shown *f = &d->v[i];
		int shown = 0;
		snprintf(abi, sizeof abi, f->plugin[0] ? "%u.%u" : "", f->abi, f->abi_minor);
		snprintf(n, sizeof n, f->plugin[0] ? "%zu" : "", f->exercises);
		for (size_t at = 0; at < d->len;) {
			const char *file = d->problems + at, *what = file + strlen(file) + 1;
			if (what >= d->problems + d->len)
				break; /* a child cut short mid-line */
			if (!strcmp(file, f->file) && ++shown)
				cells_row(out, c, (const char *const[]){ f->file, f->plugin, abi, n, f->refused ? "yes" : "no", what }, 6);
			at = (size_t)(what + strlen(what) + 1 - d->problems);
		}
		if (!shown)
			cells_row(out, c, (const char *const[]){ f->file, f->plugin, abi, n, f->refused ? "yes" : "no", "" }, 6);
	}
}

static void check_csv_end(void *doc, FILE *out)
{
	check_cells(doc, out, &csv_cells);
}

static void check_md_end(void *doc, FILE *out)
{
	check_cells(doc, out, &md_cells);
}

const struct writer check_csv = { .end = check_csv_end }, check_markdown = { .end = check_md_end };
