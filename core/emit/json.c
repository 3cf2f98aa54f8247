#include "config.h"

#include "emit/json.h"

#include "emit/compared.h"
#include "emit/field.h"
#include "emit/list_doc.h"
#include "emit/row.h"
#include "run/group.h"
#include "stats.h"
#include "escape.h"

#include <limits.h>
#include <math.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* "metrics": {label: {"metric": Nsight Compute name, "value": v}}, and
 * the passes they took. */
static void json_metrics(const struct job *j, FILE *out)
{
	char src[2 * MAX_METRIC_NAME + 4];
	double v;
	if (!j->metrics.ncols)
		return;
	fputs(", \"metrics\": {", out);
	for (size_t c = 0; c < j->metrics.ncols; c++) {
		const char *l = j->metrics.cols[c].label, *source = NULL;
		int have = metric_of(j, l, &v, &source, src, sizeof src);
		fputs(c ? ", " : "", out);
		emit_json(out, l);
		fputs(": {\"metric\": ", out);
		emit_json(out, source);
		emit_json_number(out, "value", have, v);
		fputc('}', out);
	}
	fputc('}', out);
	emit_json_number(out, "metric_passes", j->res.profiled, j->res.passes);
}

/* "params": every effective parameter, as asked for; "chosen": what the
 * exercise chose for those it resolves itself (ctx->chose).  Numbers
 * bare, names quoted. */
static void print_json_params(const struct job *j, const char *field, int chosen, FILE *out)
{
	int first = 1;
	fprintf(out, ", \"%s\": {", field);
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		const char *text = chosen ? p->chosen : p->text;
		enum gpulab_param_type t = p->decl.type;
		int number = t != GPULAB_PARAM_ENUM && t != GPULAB_PARAM_SHAPE && t != GPULAB_PARAM_PATH;
		if (!text[0])
			continue; /* not resolved (the job was refused before it), or not chosen */
		fputs(first ? "" : ", ", out);
		emit_json(out, p->decl.key);
		fputs(": ", out);
		if (number)
			fputs(text, out);
		else
			emit_json(out, text);
		first = 0;
	}
	fputc('}', out);
}

/* "clocks": the SM and memory clocks over the timed runs, or null. */
static void json_clocks(const struct job *j, FILE *out)
{
	const struct clock_stats *c = &j->res.clocks;
	char words[128];
	if (!c->samples) {
		fputs(", \"clocks\": null", out);
		return;
	}
	fprintf(out, ", \"clocks\": {\"samples\": %u, \"sm_mhz_min\": %u, \"sm_mhz_mean\": %.1f, \"sm_mhz_max\": %u, "
		"\"mem_mhz\": %u, \"throttled\": %u, \"reasons\": ", c->samples, c->sm_min, c->sm_mean, c->sm_max,
		c->mem_mhz, c->throttled);
	emit_json(out, clocks_reasons(c->reasons, words, sizeof words));
	fputc('}', out);
}

/* "wall_s": where the point's wall time went (run/job.h's wall_split),
 * to the millisecond: what a sweep costs beyond its samples. */
static void json_wall(const struct job *j, FILE *out)
{
	const struct wall_split *w = &j->res.wall;
	fprintf(out, ", \"wall_s\": {\"setup\": %.3f, \"sampling\": %.3f, \"verify\": %.3f, \"rest\": %.3f}", w->setup,
		w->sampling, w->verify, w->rest);
}

/* The exact text of a sample, remembered: a clock's samples repeat a
 * few values (a host clock's nanoseconds, CUDA events' half
 * microseconds), and the shortest text that reads back costs two or three
 * snprintf and strtod, which a record of 4096 samples a point would
 * otherwise pay on every one. */
struct sample_texts {
	double v[256];
	char text[256][32];
	unsigned char have[256];
};

static const char *sample_text(struct sample_texts *c, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	unsigned slot = (unsigned)((bits * 0x9e3779b97f4a7c15ull) >> 56);
	if (!c->have[slot] || memcmp(&c->v[slot], &v, sizeof v)) {
		json_double_text(c->text[slot], sizeof c->text[slot], v);
		c->v[slot] = v;
		c->have[slot] = 1;
	}
	return c->text[slot];
}

static size_t samples_bound(unsigned keep)
{
	return keep ? keep : JSON_SAMPLES_KEPT;
}

void report_samples_kept(FILE *out, unsigned keep)
{
	if (keep == UINT_MAX)
		fputs(", \"samples_kept\": \"all\"", out);
	else
		fprintf(out, ", \"samples_kept\": %zu", samples_bound(keep));
}

void report_samples(FILE *out, const double *v, size_t n, unsigned bound)
{
	size_t keep = n <= samples_bound(bound) ? n : samples_bound(bound), k = 0;
	uint64_t state = 0x9e3779b97f4a7c15ull ^ n;
	struct sample_texts *c = calloc(1, sizeof *c);
	char text[40];
	fputc('[', out);
	for (size_t i = 0; i < n && k < keep; i++)
		if (keep == n || report_sample_kept(&state, n - i, keep - k)) {
			fputs(k++ ? ", " : "", out);
			fputs(c ? sample_text(c, v[i]) : json_double_text(text, sizeof text, v[i]), out);
		}
	fputc(']', out);
	free(c);
}

/* Selection sampling (Knuth's Algorithm S): the next of `left` samples
 * is kept with probability need/left, so that every subset of the size
 * is equally likely, drawn in one pass in the order they came.  Seeded
 * by the count, so a record written twice keeps the same subset. */
int report_sample_kept(uint64_t *state, uint64_t left, uint64_t need)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 * (double)left < (double)need;
}

static void json_result(const struct report *r, const struct job *j, FILE *out)
{
	char name[256], rerun[1024];
	const struct result *x = &j->res;
	double speedup, share;
	int m = measured(j);
	compare(r, j, &speedup, &share);
	fputs("{\"exercise\": ", out);
	emit_json(out, job_name(j, name, sizeof name));
	print_json_params(j, "params", 0, out);
	fprintf(out, ", \"elements\": %llu", (unsigned long long)j->ctx.elements);
	emit_json_number(out, "median_ms", m, x->gpu_med);
	emit_json_number(out, "min_ms", m, x->gpu_min);
	emit_json_number(out, "max_ms", m, x->gpu_max);
	fprintf(out, ", \"runs\": %u", x->nsamples);
	emit_json_number(out, "noise_pct", m && noise_pct(j) >= 0, noise_pct(j));
	fprintf(out, ", \"converged\": %s", x->converged ? "true" : "false");
	emit_json_string(out, "stopped_by", m ? stop_reason_name(x->stopped_by) : NULL);
	emit_json_string(out, "timing", m ? timing_mode_name(x->timing) : NULL);
	if (has_interval(j))
	{
		fputs(", \"median_ci_ms\": [", out);
		emit_json_double(out, x->median_lo);
		fputs(", ", out);
		emit_json_double(out, x->median_hi);
		fputc(']', out);
		emit_json_number(out, "median_ci_pct", 1, interval_pct(j)); /* exact, as every time is */
	}
	fprintf(out, ", \"noisy\": %s", noisy(j) ? "true" : "false");
	fprintf(out, ", \"batch\": %u", row_batch(r, j));
	emit_json_number(out, "host_ms", m && j->pick.ex->host, x->host_med);
	emit_json_number(out, "total_ms", m, x->total_med);
	fprintf(out, ", \"bytes\": %llu", (unsigned long long)(j->ctx.bytes_read + j->ctx.bytes_written));
	emit_json_number(out, "gbps", m, x->gbps);
	emit_json_number(out, "peak_pct", m && r->dev, peak_pct(r, j));
	emit_json_number(out, "speedup", speedup > 0, speedup);
	emit_json_number(out, "ref_share", share > 0, share);
	fprintf(out, ", \"verified\": %s, \"status\": \"%s\", \"message\": ",
		x->outcome == OUTCOME_OK ? "true" : "false", status_word(j));
	emit_json(out, x->message);
	fputs(", \"notes\": {", out);
	for (int i = 0; i < x->nnotes; i++) {
		fputs(i ? ", " : "", out);
		emit_json(out, x->notes[i].name);
		fputs(": ", out);
		emit_json_double(out, x->notes[i].value); /* exact: n = 1048576, not 1.04858e+06 */
	}
	fputc('}', out);
	print_json_params(j, "chosen", 1, out);
	json_metrics(j, out);
	json_clocks(j, out);
	json_wall(j, out);
	if (r->samples) {
		fputs(", \"samples_ms\": ", out);
		report_samples(out, x->samples, x->samples ? x->nsamples : 0, r->samples_keep);
	}
	job_command(j, r->cold, row_batch(r, j), rerun, sizeof rerun);
	fputs(", \"rerun\": ", out);
	emit_json(out, rerun);
	fputc('}', out);
}

/* "device": what the numbers depend on; null for a run on the host. */
static void json_device(const struct report *r, FILE *out)
{
	const struct device_info *d = r->dev;
	if (!d) {
		fputs("null", out);
		return;
	}
	fputs("{\"name\": ", out);
	emit_json(out, d->name);
	fputs(", \"uuid\": ", out);
	emit_json(out, r->clk && r->clk->uuid[0] ? r->clk->uuid : "");
	fputs(", \"bus_id\": ", out);
	emit_json(out, d->bus_id);
	fprintf(out, ", \"compute_capability\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %zu, \"memory_bytes\": %zu, "
		"\"memory_clock_mhz\": %d, \"bus_width_bits\": %d, \"peak_gbps\": %.1f",
		d->cc_major, d->cc_minor, d->sms, d->l2_bytes, d->mem_bytes, d->mem_clock_khz / 1000, d->bus_width_bits,
		d->peak_gbps);
	emit_json_number(out, "max_sm_mhz", r->clk && r->clk->max_sm_mhz, r->clk ? r->clk->max_sm_mhz : 0);
	fprintf(out, ", \"cuda_driver\": \"%d.%d\", \"cuda_runtime\": \"%d.%d\", \"driver\": ", d->driver_version / 1000,
		(d->driver_version % 1000) / 10, d->runtime_version / 1000, (d->runtime_version % 1000) / 10);
	emit_json(out, r->clk ? r->clk->driver : "");
	fputs(", \"clocks\": ", out);
	emit_json(out, r->clk && r->clk->lib ? "nvml" : r->clk ? r->clk->why : "");
	fputc('}', out);
}

/* "host", "date" (UTC), and the command as typed. */
static void json_provenance(const struct report *r, const char *sep, FILE *out)
{
	char host[256] = "", date[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	if (gethostname(host, sizeof host) != 0)
		host[0] = 0;
	host[sizeof host - 1] = 0;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("\"host\": ", out);
	emit_json(out, host);
	fputs(", \"date\": ", out);
	emit_json(out, date);
	fprintf(out, ",%s\"command\": ", sep);
	emit_json(out, r->command ? r->command : "");
	fprintf(out, ",%s", sep);
}

/* "ranks" (schema 1.3), under a launcher: every rank's machine and GPU,
 * in rank order; "device" above is rank 0's. */
static void json_ranks(const struct report *r, const char *sep, FILE *out)
{
	if (r->nranks < 2)
		return;
	fprintf(out, ",%s\"ranks\": [", sep);
	for (size_t i = 0; i < r->nranks; i++) {
		fprintf(out, "%s{\"rank\": %zu, \"host\": ", i ? ", " : "", i);
		emit_json(out, r->ranks[i].host);
		fputs(", \"device\": ", out);
		emit_json(out, r->ranks[i].device);
		fputs(", \"bus_id\": ", out);
		emit_json(out, r->ranks[i].bus_id);
		fprintf(out, ", \"ordinal\": %d}", r->ranks[i].ordinal);
	}
	fputc(']', out);
}

/* Row i: as run, or as kept from the record resumed. */
void json_row(const struct report *r, size_t i, FILE *out)
{
	if (!r->jobs[i].kept)
		json_result(r, &r->jobs[i], out);
	else
		fputs(r->jobs[i].kept, out);
}

/* What a record says of the whole run, but its points and how it ended:
 * members of one object, each after sep. */
void json_run_head(const struct report *r, const char *schema, const char *sep, int ended, FILE *out)
{
	fprintf(out, "{%s\"schema\": \"%s\",%s\"gpulab\": {\"version\": \"%s\", \"revision\": ", sep[0] == '\n' ? sep : "", schema, sep,
		PACKAGE_VERSION);
	emit_json(out, GPULAB_REVISION);
	fprintf(out, ", \"abi\": \"%d.%d\"},%s", GPULAB_ABI_VERSION, GPULAB_ABI_MINOR, sep);
	json_provenance(r, sep, out);
	fprintf(out, "\"cold\": %s,%s\"batch\": %u,%s\"stopping\": {\"max_noise_pct\": %g, \"min_time_s\": %g, "
		"\"timeout_s\": %g, \"min_runs\": %d}", r->cold ? "true" : "false", sep, r->batch > 1 ? r->batch : 1, sep,
		100 * r->stop.max_noise, r->stop.min_time_s, r->stop.timeout_s, MIN_SAMPLES);
	report_samples_kept(out, r->samples_keep);
	if (ended) { /* a document says here how the run ended; a journal, in its closing line */
		fprintf(out, ",%s\"interrupted\": %s", sep, r->interruption ? "true" : "false");
		emit_json_string(out, "interruption", r->interruption);
	}
	fprintf(out, ",%s\"device\": ", sep);
	json_device(r, out);
	json_ranks(r, sep, out);
}

static void print_json(const struct report *r, FILE *out)
{
	json_run_head(r, r->schema, "\n  ", 1, out);
	fputs(",\n  \"results\": [\n", out);
	for (size_t i = 0; i < r->njobs; i++) {
		fputs("    ", out);
		json_row(r, i, out);
		fputs(i + 1 < r->njobs || r->nextra ? ",\n" : "\n", out);
	}
	for (size_t i = 0; i < r->nextra; i++) {
		fprintf(out, "    %s", r->extra[i]);
		fputs(i + 1 < r->nextra ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

static void json_whole(void *doc, FILE *out)
{
	print_json(doc, out);
}

/* The report as JSON: the whole record, at the end (docs/record.md). */
const struct writer report_json = { .end = json_whole };

/* --- `gpulab list` as JSON: the plugins, each with its exercises and keys ------------------ */

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

static void json_plugin(const struct plugin *p, const struct selection *only, FILE *out)
{
	fputs("    {\"name\": ", out);
	emit_json(out, p->name);
	fputs(", \"file\": ", out);
	emit_json(out, p->path);
	fputs(", \"ini\": ", out);
	emit_json(out, p->ini);
	emit_json_string(out, "error", p->error);
	fputs(", \"exercises\": [", out);
	int first = 1;
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
		if (!picked(only, &p->desc->exercises[k]))
			continue;
		fputs(first ? "\n      " : ",\n      ", out);
		json_exercise(&p->desc->exercises[k], out);
		first = 0;
	}
	fputs("]}", out);
}

static void list_json_head(void *doc, FILE *out)
{
	(void)doc;
	fprintf(out, "{\n  \"schema\": \"gpulab-list/1\", \"gpulab\": \"%s\", \"abi\": \"%d.%d\",\n  \"plugins\": [\n", PACKAGE_VERSION, GPULAB_ABI_VERSION,
		GPULAB_ABI_MINOR);
}

static void list_json_row(void *doc, size_t i, FILE *out)
{
	struct list_doc *l = doc;
	if (l->only && !any_picked(l->only, &l->r->v[i]))
		return;
	fputs(l->shown++ ? ",\n" : "", out);
	json_plugin(&l->r->v[i], l->only, out);
}

/* The challenges found, where there are any: each name, the folder that
 * won, whether it is the user's, and the folder it hides (or null). */
static void list_json_challenges(const struct list_doc *l, FILE *out)
{
	const struct challenge_set *s = l->challenges;
	if (!s || !s->n || l->only)
		return;
	fputs(",\n  \"challenges\": [", out);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		emit_json(out, s->v[i].name);
		emit_json_string(out, "folder", s->v[i].dir);
		fprintf(out, ", \"user\": %s", s->v[i].user ? "true" : "false");
		emit_json_string(out, "hides", s->v[i].hidden[0] ? s->v[i].hidden : NULL);
		fputc('}', out);
	}
	fputs("\n  ]", out);
}

static void list_json_end(void *doc, FILE *out)
{
	fputs(((struct list_doc *)doc)->shown ? "\n  ]" : "  ]", out);
	list_json_challenges(doc, out);
	fputs("\n}\n", out);
}

const struct writer list_json = { .begin = list_json_head, .row = list_json_row, .end = list_json_end };

/* --- `gpulab compare` as JSON -------------------------------------------------------------- */

static void json_head(void *doc, FILE *out)
{
	const struct compared *c = doc;
	fputs("{\n  \"schema\": \"gpulab-compare/1\", \"base\": ", out);
	emit_json(out, c->base_path);
	fputs(", \"new\": ", out);
	emit_json(out, c->new_path);
	fprintf(out, ", \"test\": \"Mann-Whitney U, two-sided\", \"alpha\": %g, \"min_change_pct\": %g,\n  \"points\": [\n",
		STATS_ALPHA, c->min_change);
}

static void json_pair(void *doc, size_t i, FILE *out)
{
	const struct compared_pair *pr = &((const struct compared *)doc)->pair;
	fputs(i == 0 ? "    {\"exercise\": " : ",\n    {\"exercise\": ", out);
	emit_json(out, pr->base_ex);
	if (pr->two) {
		fputs(", \"new_exercise\": ", out);
		emit_json(out, pr->new_ex);
	}
	fputs(", \"params\": ", out);
	emit_json(out, pr->params);
	emit_json_number(out, "base_ms", pr->have, pr->base_ms);
	emit_json_number(out, "new_ms", pr->have, pr->new_ms);
	emit_json_number(out, "ratio", pr->have, pr->ratio);
	emit_json_number(out, "p", isfinite(pr->p), pr->p);
	fputs(", \"verdict\": ", out);
	emit_json(out, pr->verdict);
	fputc('}', out);
}

static void json_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	fputs(first ? "    {\"in\": " : ",\n    {\"in\": ", out);
	emit_json(out, which);
	fputs(", \"exercise\": ", out);
	emit_json(out, ex);
	fputs(", \"params\": ", out);
	emit_json(out, params);
	fputc('}', out);
}

static void json_unmatched(void *doc, FILE *out)
{
	fputs("\n  ],\n  \"unmatched\": [\n", out);
	compared_each_unmatched(doc, out, json_unmatched_one);
}

static void json_slow(void *doc, FILE *out)
{
	fprintf(out, "\n  ],\n  \"slower_than_allowed\": %d\n}\n", ((const struct compared *)doc)->slow);
}

const struct writer compare_json = {
	.begin = json_head, .row = json_pair, .footer = json_unmatched, .end = json_slow
};
