/* What a row of the report says, whatever the format: measured or not,
 * its flags, its comparisons with the baseline and the reference, its
 * parameters and metrics as text.  The writers (table.c, csv.c,
 * markdown.c, result.c's JSON) print them; none decides a value itself. */
#include "emit/row.h"
#include "emit/field.h"

#include "escape.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Measured by this run: not a point kept from a resumed record, whose
 * numbers are in its row there, not in the job. */
int measured(const struct job *j)
{
	return !j->kept && (j->res.outcome == OUTCOME_OK || j->res.outcome == OUTCOME_UNVERIFIED);
}

/* Did the timeout stop row j, unconverged, before it had the runs (6)
 * that an interval of its median needs?  How sure its median is, is not
 * known.  (Too few runs asked for with -r are the user's choice.) */
int cut_short(const struct job *j)
{
	const struct result *x = &j->res;
	return measured(j) && x->stopped_by == STOP_TIMEOUT && !(isfinite(x->median_lo) && isfinite(x->median_hi));
}

/* A measured row whose median is uncertain (stats.h), or not known
 * to be sure (cut_short): NOISY.  Not one whose single runs are spread,
 * over enough of them to pin the median down. */
int noisy(const struct job *j)
{
	return measured(j) && (cut_short(j) || stats_median_unsure(j->res.gpu_med, j->res.median_lo, j->res.median_hi));
}

/* Has the row a median interval to give (6 runs or more)? */
int has_interval(const struct job *j)
{
	const struct result *x = &j->res;
	return measured(j) && isfinite(x->median_lo) && isfinite(x->median_hi) && x->median_hi > 0;
}

/* The interval's half-width over the median, in %. */
double interval_pct(const struct job *j)
{
	const struct result *x = &j->res;
	return x->gpu_med > 0 ? 100 * (x->median_hi - x->median_lo) / 2 / x->gpu_med : 0;
}

/* A row of a --batch run timed run by run: its exercise cannot repeat
 * without its reset (run/job.h): UNBATCHED. */
int unbatched(const struct job *j)
{
	return !j->kept && j->unbatched && j->res.outcome != OUTCOME_SKIPPED && j->res.outcome != OUTCOME_NOT_RUN;
}

/* The runs per timed sample of row j. */
unsigned row_batch(const struct report *r, const struct job *j)
{
	return j->unbatched || r->batch < 1 ? 1 : r->batch;
}

/* A measured row whose run could not be held (run/hold.h): UNHELD. */
int unheld(const struct job *j)
{
	return measured(j) && j->res.timing == TIMING_UNHELD;
}

/* Did the GPU slow down during any of the job's timed runs? */
int throttled(const struct job *j)
{
	return j->res.clocks.throttled > 0;
}

const char *status_word(const struct job *j)
{
	switch (j->res.outcome) {
	case OUTCOME_OK: return "ok";
	case OUTCOME_UNVERIFIED: return "unverified";
	case OUTCOME_WRONG: return "FAILED";
	case OUTCOME_SKIPPED: return "skipped";
	case OUTCOME_NOT_RUN: return "not run";
	default: return "ERROR";
	}
}

/* The run's row for exercise `name` of j's plugin, if it was measured. */
/* Are j and k the same point: every parameter both were given holds the
 * same value?  The seed and the repetitions say how a point was measured,
 * not which it is; a key only one has (a block size cub lacks) says
 * nothing, and nor do the exercises' own defaults (sum_matrix's block
 * shapes are what its exercises differ in). */
static int same_point(const struct job *j, const struct job *k)
{
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i], *q = job_param_find(k, p->decl.key);
		if (!strcmp(p->decl.key, "seed") || p->generic == GEN_REPS || p->generic == GEN_WARMUP || !q
		    || p->defaulted || q->defaulted)
			continue;
		if (strcmp(p->text, q->text))
			return 0;
	}
	return j->ctx.n == k->ctx.n && j->ctx.dtype == k->ctx.dtype;
}

/* The plugin j's rows are compared within: its own, or the one its
 * exercise names as its peers (a `gpulab try` challenge, the plugin it
 * is a challenge of), where that plugin has rows in this run. */
const struct plugin *peers(const struct report *r, const struct job *j)
{
	const char *name = j->pick.ex->peers;
	for (size_t i = 0; name && i < r->njobs; i++)
		if (!strcmp(r->jobs[i].pick.plugin->name, name))
			return r->jobs[i].pick.plugin;
	return j->pick.plugin;
}

/* The run's row for exercise `name` of j's peers at j's point of a
 * sweep, if it was measured. */
const struct job *sibling(const struct report *r, const struct job *j, const char *name)
{
	const struct plugin *p = peers(r, j);
	for (size_t i = 0; name && i < r->njobs; i++) {
		const struct job *k = &r->jobs[i];
		if (k->pick.plugin == p && !strcmp(k->pick.ex->name, name) && measured(k) && same_point(j, k))
			return k;
	}
	return NULL;
}

/* Does j's exercise say it does other work than its baseline and
 * reference (GPULAB_UNLIKE, read from plugins of ABI 2.5 on)? */
static int unlike(const struct job *j)
{
	return j->pick.plugin->desc->abi_minor >= 5 && (j->pick.ex->flags & GPULAB_UNLIKE);
}

/* Speedup over the plugin's baseline, and share of its reference's speed;
 * 0 where there is none, the work differs (unlike), or the timing does
 * (one row batched, the other UNBATCHED: launch gaps count in one only). */
void compare(const struct report *r, const struct job *j, double *speedup, double *share)
{
	const struct job *b = unlike(j) ? NULL : sibling(r, j, peers(r, j)->desc->baseline);
	const struct job *f = unlike(j) ? NULL : sibling(r, j, peers(r, j)->desc->reference);
	b = b && b->unbatched == j->unbatched ? b : NULL;
	f = f && f->unbatched == j->unbatched ? f : NULL;
	*speedup = b && measured(j) ? b->res.total_med / j->res.total_med : 0;
	*share = f && measured(j) ? f->res.total_med / j->res.total_med : 0;
}

/* A measured row left uncompared for its work (unlike): its legend. */
int uncompared(const struct job *j)
{
	return measured(j) && unlike(j);
}

double peak_pct(const struct report *r, const struct job *j)
{
	return r->dev && r->dev->peak_gbps > 0 ? 100 * j->res.gbps / r->dev->peak_gbps : 0;
}

/* Each note exactly, as the record has it (a seed or an n of 2^40 in
 * %g's six digits named another value). */
void notes_text(const struct job *j, char *buf, size_t len, char sep)
{
	char v[40];
	buf[0] = 0;
	for (int i = 0; i < j->res.nnotes; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%s", i ? (char[]){ sep, 0 } : "",
			 j->res.notes[i].name, json_double_text(v, sizeof v, j->res.notes[i].value));
}

/* What the exercise chose for its automatic keys, "key=value" joined
 * by sep; "" where it chose nothing. */
void chosen_text(const struct job *j, char *buf, size_t len, char sep)
{
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		size_t at = strlen(buf);
		if (j->params[i].chosen[0])
			snprintf(buf + at, len - at, "%s%s=%s", at ? (char[]){ sep, 0 } : "", j->params[i].decl.key,
				 j->params[i].chosen);
	}
}

/* The exercise's own parameters as "key=value" joined by sep, those
 * swept (1), those not (0), or all (-1); the generic ones have columns of
 * their own.  Escaped for a terminal, or raw for CSV: a path is a value
 * as given, and may hold any byte. */
static void params_join(const struct job *j, char *buf, size_t len, char sep, int swept, int escaped)
{
	char value[512];
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		size_t at = strlen(buf);
		if (swept >= 0 && (p->values > 1) != swept)
			continue;
		if (p->generic < 0 && p->text[0])
			snprintf(buf + at, len - at, "%s%s=%s", at ? (char[]){ sep, 0 } : "", p->decl.key,
				 escaped ? escape_into(value, sizeof value, p->text) : p->text);
	}
}

/* For the table (swept as params_join's). */
void params_some(const struct job *j, char *buf, size_t len, char sep, int swept)
{
	params_join(j, buf, len, sep, swept, 1);
}

/* For CSV: all, raw. */
void params_text(const struct job *j, char *buf, size_t len, char sep)
{
	params_join(j, buf, len, sep, -1, 0);
}

/* A generic parameter's text, or "" where the job has none. */
const char *generic_text(const struct job *j, enum generic g)
{
	const struct job_param *p = job_param_find(j, generic_params[g].key);
	return p ? p->text : "";
}

/* Do all rows share their warm-up, and how they stopped (the same exact
 * count, or on noise)?  Then the table's title says it once. */
int same_repetitions(const struct report *r, unsigned *warmup, const struct job **first)
{
	*first = NULL;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i], *f = *first;
		if (j->res.outcome == OUTCOME_SKIPPED || j->kept)
			continue; /* its repetitions may not be resolved; or it ran before */
		if (f && (j->warmup != f->warmup || j->exact_reps != f->exact_reps || (j->exact_reps && j->reps != f->reps)))
			return 0;
		*first = j;
		*warmup = j->warmup;
	}
	return *first != NULL;
}

/* The noise as a percentage, for the reports; -1 where there is none. */
double noise_pct(const struct job *j)
{
	return j->res.nsamples > 1 && isfinite(j->res.noise) ? 100 * j->res.noise : -1;
}

/* --metrics: the labels any row has, in order of first appearance; the
 * caller frees them. */
size_t metric_labels(const struct report *r, const char ***out)
{
	size_t n = 0;
	const char **v = malloc((r->njobs * MAX_METRIC_COLS + 1) * sizeof *v);
	for (size_t i = 0; v && i < r->njobs; i++)
		for (size_t c = 0; c < r->jobs[i].metrics.ncols; c++) {
			const char *l = r->jobs[i].metrics.cols[c].label;
			size_t k = 0;
			while (k < n && strcmp(v[k], l))
				k++;
			if (k == n)
				v[n++] = l;
		}
	*out = v;
	return v ? n : 0;
}

/* Row j's value of the metric labelled l; 0 where it has none. */
int metric_of(const struct job *j, const char *l, double *v, const char **source, char *buf, size_t len)
{
	for (size_t c = 0; c < j->metrics.ncols; c++)
		if (!strcmp(j->metrics.cols[c].label, l)) {
			*v = metrics_value(&j->metrics, j->res.raw, c);
			if (source)
				*source = metrics_source(&j->metrics, c, buf, len);
			return j->res.profiled && isfinite(*v);
		}
	return 0;
}

/* The row's keys swept besides n and type (which have columns), as
 * "key=value", for the compact table and Markdown. */
static void swept_keys(const struct job *j, char *buf, size_t len)
{
	char value[512];
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		size_t at = strlen(buf);
		if (p->values > 1 && p->generic != GEN_N && p->generic != GEN_TYPE && p->text[0])
			snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", p->decl.key,
				 escape_into(value, sizeof value, p->text));
	}
}

/* The label of row j in the compact table and Markdown: its name, and the keys of its
 * own that its sweep changes. */
const char *row_label(const struct job *j, char *buf, size_t len)
{
	char keys[512];
	size_t at = strlen(job_name(j, buf, len));
	swept_keys(j, keys, sizeof keys);
	if (keys[0])
		snprintf(buf + at, len - at, " %s", keys);
	return buf;
}

/* Was row i's message already said for an earlier row of its exercise? */
int same_message_before(const struct report *r, size_t i)
{
	const struct job *j = &r->jobs[i];
	for (size_t k = 0; k < i; k++)
		if (r->jobs[k].pick.ex == j->pick.ex && r->jobs[k].res.outcome == j->res.outcome
		    && !strcmp(r->jobs[k].res.message, j->res.message))
			return 1;
	return 0;
}
