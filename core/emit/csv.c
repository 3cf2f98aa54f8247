/* The run's report as CSV (RFC 4180): a header, then one line per
 * point, as each is done; the points not run last. */
#include "emit/csv.h"

#include "emit/compared.h"
#include "emit/field.h"
#include "emit/list_doc.h"
#include "emit/row.h"

#include <inttypes.h>
#include <math.h>

#include <stdlib.h>

/* One CSV row: strings quoted (RFC 4180), numbers bare, nothing where
 * there is no value. */
static void csv_row(const struct report *r, const struct job *j, const char **labels, size_t nl, FILE *out)
{
	char name[256], notes[256], params[512], rerun[1024], chosen[256];
	const struct result *x = &j->res;
	double speedup, share, v;
	int m = measured(j);
	compare(r, j, &speedup, &share);
	notes_text(j, notes, sizeof notes, ';');
	params_text(j, params, sizeof params, ';');
	chosen_text(j, chosen, sizeof chosen, ';');
	job_command(j, r->cold, row_batch(r, j), rerun, sizeof rerun);
	emit_csv(out, job_name(j, name, sizeof name));
	fputc(',', out);
	emit_csv(out, generic_text(j, GEN_TYPE));
	fprintf(out, ",%s,%s,%s,%s,", generic_text(j, GEN_N), generic_text(j, GEN_BLOCK), generic_text(j, GEN_REPS),
		generic_text(j, GEN_WARMUP));
	emit_csv(out, params);
	fprintf(out, ",%llu,%d,", (unsigned long long)j->ctx.elements, r->cold);
	if (m)
		fprintf(out, "%.6f,%.6f,%.6f,%.6f,%.6f,%u,", x->gpu_med, x->gpu_min, x->gpu_max, x->host_med, x->total_med,
			x->nsamples);
	else
		fputs(",,,,,,", out);
	if (m && noise_pct(j) >= 0)
		fprintf(out, "%.4f", noise_pct(j));
	fprintf(out, ",%d,%s,", m ? x->converged : 0, m ? stop_reason_name(x->stopped_by) : "");
	fprintf(out, "%llu,", (unsigned long long)(j->ctx.bytes_read + j->ctx.bytes_written));
	if (m)
		fprintf(out, "%.3f,", x->gbps);
	else
		fputc(',', out);
	if (m && r->dev)
		fprintf(out, "%.3f", peak_pct(r, j));
	fputc(',', out);
	if (speedup > 0)
		fprintf(out, "%.4f", speedup);
	fputc(',', out);
	if (share > 0)
		fprintf(out, "%.4f", share);
	fputc(',', out);
	emit_csv(out, status_word(j));
	fputc(',', out);
	emit_csv(out, notes);
	fputc(',', out);
	emit_csv(out, x->message);
	fputc(',', out);
	emit_csv(out, rerun);
	if (x->clocks.samples)
		fprintf(out, ",%.1f,%u,%u", x->clocks.sm_mean, x->clocks.mem_mhz, x->clocks.throttled);
	else
		fputs(",,,", out);
	fputc(',', out);
	emit_csv(out, chosen);
	if (has_interval(j))
		fprintf(out, ",%.6f,%.6f,%.4f", x->median_lo, x->median_hi, interval_pct(j));
	else
		fputs(",,,", out);
	fprintf(out, ",%d,%u", noisy(j), row_batch(r, j));
	for (size_t k = 0; k < nl; k++) {
		fputc(',', out);
		if (metric_of(j, labels[k], &v, NULL, NULL, 0))
			fprintf(out, "%.9g", v);
	}
	fputc('\n', out);
}

static void csv_begin(void *doc, FILE *out)
{
	const struct report *r = doc;
	const char **l;
	size_t nl = metric_labels(r, &l);
	fputs("exercise,type,n,block,reps,warmup,params,elements,cold,median_ms,min_ms,max_ms,host_ms,total_ms,runs,"
	      "noise_pct,converged,stopped_by,"
	      "bytes,gbps,peak_pct,speedup,ref_share,status,notes,message,rerun,sm_mhz,mem_mhz,throttled,chosen,"
	      "median_lo_ms,median_hi_ms,median_ci_pct,noisy,batch", out);
	for (size_t k = 0; k < nl; k++) {
		fputc(',', out);
		emit_csv(out, l[k]);
	}
	fputc('\n', out);
	free(l);
}

/* Row i, or with not_run the rows of the points not run (at the end). */
static void csv_point(const struct report *r, size_t i, int not_run, FILE *out)
{
	const struct job *j = &r->jobs[i];
	const char **l;
	if (j->kept || (j->res.outcome == OUTCOME_NOT_RUN) != not_run)
		return;
	size_t nl = metric_labels(r, &l);
	csv_row(r, j, l, nl, out);
	free(l);
}

static void csv_run(void *doc, size_t i, FILE *out)
{
	csv_point(doc, i, 0, out);
}

/* The rows of the points not run, last. */
static void csv_not_run(void *doc, FILE *out)
{
	const struct report *r = doc;
	for (size_t i = 0; i < r->njobs; i++)
		csv_point(r, i, 1, out);
}

const struct writer report_csv = { .streams = 1, .begin = csv_begin, .row = csv_run, .footer = csv_not_run };

/* --- `gpulab list` as CSV: a line per exercise ----------------------------------------- */

static void list_csv_head(void *doc, FILE *out)
{
	(void)doc;
	fputs("plugin,exercise,types,n,block,file,summary,params\n", out);
}

static void list_csv_plugin(void *doc, size_t i, FILE *out)
{
	const struct list_doc *l = doc;
	const struct plugin *p = &l->r->v[i];
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
		const struct gpulab_exercise *e = &p->desc->exercises[k];
		char params[4096] = "";
		if (!picked(l->only, e))
			continue;
		each_param(e, list_default_param, params);
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

const struct writer list_csv = { .streams = 1, .begin = list_csv_head, .row = list_csv_plugin };

/* --- `gpulab compare` as CSV --------------------------------------------------------------- */

static void csv_head(void *doc, FILE *out)
{
	(void)doc;
	fputs("exercise,params,base_ms,new_ms,ratio,p,verdict\n", out);
}

static void csv_pair(void *doc, size_t i, FILE *out)
{
	const struct compared_pair *pr = &((const struct compared *)doc)->pair;
	(void)i; /* the row is the document's pair */
	emit_csv(out, pr->both);
	fputc(',', out);
	emit_csv(out, pr->params);
	if (pr->have)
		fprintf(out, ",%.6f,%.6f,%.6f,", pr->base_ms, pr->new_ms, pr->ratio);
	else
		fputs(",,,,", out);
	if (isfinite(pr->p))
		fprintf(out, "%.6g", pr->p);
	fputc(',', out);
	emit_csv(out, pr->verdict);
	fputc('\n', out);
}

static void csv_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	(void)first;
	emit_csv(out, ex);
	fputc(',', out);
	emit_csv(out, params);
	fprintf(out, ",,,,,\"only in %s\"\n", which);
}

static void csv_unmatched(void *doc, FILE *out)
{
	compared_each_unmatched(doc, out, csv_unmatched_one);
}

const struct writer compare_csv = {
	.streams = 1, .begin = csv_head, .row = csv_pair, .footer = csv_unmatched
};
