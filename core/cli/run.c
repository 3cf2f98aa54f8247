/*
 * What `gpulab run` and `gpulab try` share: loading the configuration and
 * the plugins it names, and running a list of jobs (cli/commands.h).
 */
#include "config.h"

#include "run/bench.h"
#include "cli/commands.h"
#include "cli/paths.h"
#include "config/settings.h"
#include "run/device.h"
#include "run/group.h"
#include "exitcode.h"
#include "fail.h"
#include "run/job.h"
#include "escape.h"
#include "emit/journal.h"
#include "records/resume.h"
#include "run/interrupt.h"
#include "plugins/match.h"
#include "run/metrics.h"
#include "config/options.h"
#include "run/profile.h"
#include "plugins/registry.h"
#include "emit/result.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken)
{
	char err[2048], dirs[2 * PATH_MAX];
	int rc = config_load_all(c, paths_sysconfdir(), o->config, err, sizeof err);
	if (!rc)
		rc = paths_plugin_path(dirs, sizeof dirs, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if (registry_load(r, c, dirs) != 0)
		return fail(EXIT_NOMEM, "out of memory loading plugins");
	*broken = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].error && warn) {
			fail(0, "plugin '%s' (%s) not loaded: %s", r->v[i].name, r->v[i].ini, r->v[i].error); /* escaped */
			if (!*broken)
				*broken = r->v[i].error_code;
		}
	return 0;
}

/* Does any chosen exercise take `key` (its own, or a generic one)? */
static int someone_takes(const struct selection *s, const char *key)
{
	for (size_t k = 0; k < s->n; k++) {
		int g = exercise_generic_key(s->v[k].ex, key);
		if (g >= 0 ? exercise_takes(s->v[k].ex, (enum generic)g) : exercise_param(s->v[k].ex, key) != NULL)
			return 1;
	}
	return 0;
}

/* Every key on the command line must mean something to at least one
 * chosen exercise: -p keys, and -n (which some take no size from). */
static int check_cli_keys(const struct options *o, const struct selection *s)
{
	if ((o->generic[GEN_N] || options_param(o, "n")) && !someone_takes(s, "n"))
		return fail(EXIT_USAGE, "-n: no chosen exercise takes a size; %s.%s's is set by its own keys (`gpulab list` shows them)",
			    s->v[0].plugin->name, s->v[0].ex->name);
	for (int i = 0; i < o->nparams; i++)
		if (!someone_takes(s, o->params[i].key))
			return fail(EXIT_USAGE, "-p %s: no chosen exercise takes this key (`gpulab list` shows their keys)",
				    o->params[i].key);
	return 0;
}

static int needs_gpu(const struct job *j)
{
	return j->res.outcome != OUTCOME_SKIPPED && !(j->pick.ex->flags & GPULAB_HOST_ONLY);
}

/* Is j the run's one point: an exercise named alone (a point of a
 * sweep never is), or the only job? */
static int alone(const struct job *j, size_t njobs)
{
	return (j->pick.named && j->points == 1) || njobs == 1;
}

/* A refusal: in a run of several exercises the job is skipped and the
 * others run; an exercise named alone, or the only one, fails the run. */
static int refused(struct job *j, int rc, size_t njobs)
{
	char name[256];
	if (rc != EXIT_PARAM || alone(j, njobs))
		return fail(rc, "%s: %s", job_name(j, name, sizeof name), j->res.message);
	j->res.outcome = OUTCOME_SKIPPED;
	return 0;
}

/* What only the device can tell: the block size limit, and whether the
 * job's memory and the L2 flush buffer fit what is free.  0, or
 * EXIT_PARAM with the reason in the job's message. */
static int device_refuses(struct job *j, const struct device_info *d, size_t free_b)
{
	size_t flush = 2 * d->l2_bytes;
	if (j->ctx.block > (unsigned)d->max_threads_per_block) {
		snprintf(j->res.message, sizeof j->res.message, "block size %u exceeds this GPU's limit of %d threads",
			 j->ctx.block, d->max_threads_per_block);
		return EXIT_PARAM;
	}
	if (j->ctx.device_bytes > free_b || flush > free_b - j->ctx.device_bytes) { /* no sum to overflow */
		snprintf(j->res.message, sizeof j->res.message,
			 "%llu elements need %.2f GiB of device memory, but only %.2f GiB are free",
			 (unsigned long long)j->ctx.elements,
			 ((double)j->ctx.device_bytes + flush) / 1073741824.0, free_b / 1073741824.0);
		return EXIT_PARAM;
	}
	return 0;
}

static int check_device(struct job *jobs, size_t n, const struct device_info *d)
{
	size_t free_b = device_free_bytes();
	for (size_t i = 0; i < n; i++) {
		int rc = needs_gpu(&jobs[i]) ? device_refuses(&jobs[i], d, free_b) : 0;
		if (rc && (rc = refused(&jobs[i], rc, n)))
			return rc;
	}
	return 0;
}

/* Every chosen exercise's sweep, resolved once (one per pick, in
 * order), and every point of them, as jobs: allocated once, since a
 * job's context points into the job itself. */
static int make_jobs(const struct options *o, const struct config *c, const struct selection *s, struct sweep **sweeps,
		     struct job **jobs, size_t *n)
{
	*n = 0;
	if (!(*sweeps = calloc(s->n ? s->n : 1, sizeof **sweeps)))
		return fail(EXIT_NOMEM, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		sweep_resolve(&(*sweeps)[i], s->v[i].plugin->name, s->v[i].ex, o, c);
		*n += sweep_points(&(*sweeps)[i]);
		if (*n > PARAM_MAX_POINTS)
			return fail(EXIT_USAGE, "a sweep of more than %d points in all; sweep fewer values", PARAM_MAX_POINTS);
	}
	if (!(*jobs = calloc(*n, sizeof **jobs)))
		return fail(EXIT_NOMEM, "out of memory for %zu points", *n);
	return 0;
}

/* Is this pick its plugin's baseline or reference? */
static int yardstick(const struct pick *p)
{
	const char *base = p->plugin->desc->baseline, *ref = p->plugin->desc->reference;
	return (base && !strcmp(p->ex->name, base)) || (ref && !strcmp(p->ex->name, ref));
}

/* Rows are printed as their points are done, and a row's speedup and
 * share of the reference need those exercises measured already: so a
 * plugin's baseline and reference run first (a stable move to the front;
 * every other pick keeps the order it was named in). */
static void yardsticks_first(struct selection *s)
{
	size_t front = 0;
	for (size_t i = 0; i < s->n; i++)
		if (yardstick(&s->v[i])) {
			struct pick p = s->v[i];
			memmove(&s->v[front + 1], &s->v[front], (i - front) * sizeof p);
			s->v[front++] = p;
		}
}

/* --batch where no exercise asked for can take it: the run would time
 * nothing as asked, so it is refused, naming the first.  (In a run where
 * some can, the others run unbatched, their rows say UNBATCHED.) */
static int batch_refused(const struct options *o, const struct job *jobs, size_t n)
{
	char name[256];
	const struct job *first = NULL;
	for (size_t i = 0; o->batch > 1 && i < n; i++) {
		if (jobs[i].res.outcome == OUTCOME_SKIPPED)
			continue;
		if (!jobs[i].unbatched)
			return 0;
		first = first ? first : &jobs[i];
	}
	return first ? fail(EXIT_PARAM, "%s: takes no --batch: each run needs its reset first (it may restore an input "
				     "the run consumes)", job_name(first, name, sizeof name)) : 0;
}

/* Under a launcher, an exercise that runs in one process would run once
 * a rank, each on its own GPU: it is refused, as a parameter would be. */
static int refuse_alone(struct job *j)
{
	snprintf(j->res.message, sizeof j->res.message,
		 "runs in one process, not as ranks of a launched job: run it without mpirun or srun");
	return EXIT_PARAM;
}

/* Plan every job before any runs: a bad parameter costs no time. */
static int plan_all(const struct options *o, const struct selection *s, const struct sweep *sweeps, struct job *jobs,
		    size_t n, const struct gpulab_group *g)
{
	size_t skipped = 0, k = 0;
	for (size_t i = 0; i < s->n; i++)
		for (size_t point = 0, points = sweep_points(&sweeps[i]); point < points && k < n; point++, k++) {
			int rc = job_plan(&jobs[k], &s->v[i], &sweeps[i], o, point);
			if (rc == 0 && g && !(s->v[i].ex->flags & GPULAB_RANKS))
				rc = refuse_alone(&jobs[k]);
			if (rc && (rc = refused(&jobs[k], rc, n)))
				return rc;
			skipped += jobs[k].res.outcome == OUTCOME_SKIPPED;
		}
	if (skipped == n) { /* nothing would run: say why the first cannot */
		char name[256];
		return fail(EXIT_PARAM, "%s: %s", job_name(&jobs[0], name, sizeof name), jobs[0].res.message);
	}
	return batch_refused(o, jobs, n);
}

/* --metrics: CUPTI, permission and every metric checked before anything
 * runs, so a bad name costs no time. */
static int open_job_profiler(const struct job *jobs, size_t n, struct profiler **p)
{
	char err[1024], name[256];
	int rc;
	*p = NULL;
	if (n == 0 || jobs[0].metrics.ncols == 0)
		return 0; /* --metrics is for every job or none */
	if ((rc = profiler_open(p, err, sizeof err)))
		return fail(rc, "%s", err);
	for (size_t i = 0; i < n; i++)
		if (needs_gpu(&jobs[i])
		    && (rc = profiler_check(*p, jobs[i].metrics.raw_ptrs, jobs[i].metrics.nraw, err, sizeof err))) {
			profiler_close(*p);
			return fail(rc, "%s: %s", job_name(&jobs[i], name, sizeof name), err);
		}
	return 0;
}

/* A rank's GPU is the one its local rank names: a machine with more
 * ranks than GPUs lacks it. */
static int rank_device_missing(const struct gpulab_group *g, const struct device_info *d, int rc, const char *err)
{
	char host[64] = "";
	gethostname(host, sizeof host - 1);
	if (d->count > 0 && (int)g->local_rank >= d->count)
		return fail(EXIT_RANKS, "rank %u: local rank %u of %u on %s, which has %d GPU%s: one rank a GPU, so start "
				      "at most %d ranks a machine", g->rank, g->local_rank, g->local_size, host, d->count,
			    d->count == 1 ? "" : "s", d->count);
	return fail(rc, "rank %u: %s", g->rank, err);
}

/* The device, where any job needs one: under a launcher the rank's own. */
static int open_job_device(const struct job *jobs, size_t n, struct device_info *d, int *have,
			   const struct gpulab_group *g)
{
	char err[512];
	int rc;
	*have = 0;
	for (size_t i = 0; i < n && !*have; i++)
		*have = needs_gpu(&jobs[i]);
	if (*have && !g && (rc = device_open(d, err, sizeof err)))
		return fail(rc, "%s", err);
	if (*have && g && (rc = device_open_at(d, (int)g->local_rank, err, sizeof err)))
		return rank_device_missing(g, d, rc, err);
	return 0;
}

/* A long run says where it is, on one line of the terminal it rewrites:
 * points done and total, and the point under way. */
static void show_progress(const struct job *j, size_t i, size_t n)
{
	char name[256], point[512] = "";
	for (size_t k = 0; k < j->nparams; k++)
		if (j->params[k].values > 1)
			snprintf(point + strlen(point), sizeof point - strlen(point), " %s=%s", j->params[k].decl.key,
				 j->params[k].text);
	fprintf(stderr, "\r\033[K[%zu/%zu] %s%s", i + 1, n, job_name(j, name, sizeof name), point);
	fflush(stderr);
}

/* --output FILE: checked and locked before anything runs (a device, a
 * FIFO, a directory, another run's record: one line, exit 2, nothing
 * run); the journal it becomes is appended to as each point is done
 * (emit/journal.h). */
struct record_out {
	const char *path;   /* -o as given, for messages; NULL: no record */
	struct journal j;
	struct report json; /* the run's report, as the record has it */
	size_t lines;       /* points in the journal */
	int writable;       /* no write has failed: one failure is said once */
};

static int output_open(struct record_out *out, const char *path)
{
	char err[PATH_MAX + 512];
	int rc;
	*out = (struct record_out){ .path = path, .writable = 1 };
	if (path && (rc = journal_open(&out->j, path, err, sizeof err)))
		return fail(rc, "--output %s: %s", path, err);
	return 0;
}

/* A line in memory: opened, then closed into its text (NULL where
 * memory ran out), to free. */
struct line {
	char *text;
	size_t n;
	FILE *f;
};

static FILE *line_open(struct line *l)
{
	*l = (struct line){ 0 };
	return l->f = open_memstream(&l->text, &l->n);
}

static char *line_close(struct line *l)
{
	if (l->f && fclose(l->f)) {
		free(l->text);
		l->text = NULL;
	}
	l->f = NULL;
	return l->text;
}

static void kept_rows(const struct report *r, FILE *f)
{
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].kept)
			fprintf(f, "%s\n", r->jobs[i].kept);
	report_journal_extras(r, f);
}

/* What the journal starts with, written with its first entry: the
 * header, and the points a resumed record kept. */
static int output_begin(struct record_out *out, const struct report *r, unsigned samples_keep)
{
	struct line l;
	int rc = EXIT_NOMEM;
	if (!out->path)
		return 0;
	out->json = *r;
	out->json.format = FORMAT_JSON;
	out->json.samples = 1;
	out->json.samples_keep = samples_keep;
	if (line_open(&l)) {
		report_journal_header(&out->json, l.f);
		kept_rows(&out->json, l.f);
	}
	if (line_close(&l))
		rc = journal_header(&out->j, l.text, l.n);
	free(l.text);
	for (size_t i = 0; i < r->njobs; i++)
		out->lines += r->jobs[i].kept != NULL;
	out->lines += r->nextra;
	return rc ? fail(rc, "out of memory") : 0;
}

/* One line appended: 0, or the failure, said once (the rest are not tried). */
static int output_line(struct record_out *out, char *text, size_t n)
{
	char err[512];
	int rc = text ? 0 : EXIT_NOMEM;
	if (!out->path || !out->writable) {
		free(text);
		return 0;
	}
	if (!rc && (rc = journal_append(&out->j, text, n, err, sizeof err)) == 0)
		out->lines++;
	free(text);
	if (rc)
		out->writable = 0;
	return rc == EXIT_NOMEM ? fail(rc, "out of memory") : rc ? fail(rc, "--output %s: %s", out->path, err) : 0;
}

/* Point i's row, appended as it is done. */
static int output_point(struct record_out *out, size_t i)
{
	struct line l;
	if (!out->path)
		return 0;
	if (line_open(&l))
		report_journal_point(&out->json, i, l.f);
	line_close(&l);
	return output_line(out, l.text, l.n);
}

/* The run ended: the points not run, and the closing line.  A run that
 * a signal stopped before its first entry leaves FILE as it was. */
static int output_end(struct record_out *out, const struct report *r, int by_signal)
{
	struct line l;
	int rc = 0, worst = 0;
	if (!out->path || (by_signal && !journal_committed(&out->j)))
		return 0;
	out->json.interruption = r->interruption;
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].res.outcome == OUTCOME_NOT_RUN && !r->jobs[i].kept && (rc = output_point(out, i)) && !worst)
			worst = rc;
	if (line_open(&l))
		report_journal_end(&out->json, out->lines, l.f);
	line_close(&l);
	rc = output_line(out, l.text, l.n);
	return worst ? worst : rc;
}

static void output_close(struct record_out *out)
{
	if (out->path)
		journal_close(&out->j);
}

/* Every point still to run, marked so until it has: a record written
 * meanwhile (checkpoint) says it was not reached. */
static void mark_pending(struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!jobs[i].kept && jobs[i].res.outcome != OUTCOME_SKIPPED) {
			jobs[i].res.outcome = OUTCOME_NOT_RUN;
			snprintf(jobs[i].res.message, sizeof jobs[i].res.message,
				 "not reached when this record was written: the run was still going");
		}
}

/* The points not reached once the run stopped, and why. */
static void mark_not_run(struct job *jobs, size_t n, const char *why)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.outcome == OUTCOME_NOT_RUN)
			snprintf(jobs[i].res.message, sizeof jobs[i].res.message, "%s", why);
}

/* --resume: the points the -o FILE has are kept, and only the rest run;
 * FILE's other points are kept after them.  The run's own record, with
 * nothing run yet, is what FILE's points are matched against. */
static int resume_from(const struct options *o, struct report *r, struct job *jobs, struct resume *res)
{
	char *text = NULL, err[1024], name[256];
	size_t size = 0, kept;
	struct report plan = *r;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return fail(EXIT_NOMEM, "out of memory");
	plan.format = FORMAT_JSON;
	report_end(&plan, f);
	fclose(f);
	struct json *doc = json_parse(text, size, err, sizeof err);
	free(text);
	int rc = doc ? resume_load(res, o->output, doc, err, sizeof err) : EXIT_NOMEM;
	if (rc)
		return fail(rc, "--resume: %s", doc ? err : "out of memory");
	for (size_t i = kept = 0; i < r->njobs; i++)
		if ((jobs[i].kept = res->kept[i])) { /* no point of this run's: its row is FILE's */
			jobs[i].res.outcome = OUTCOME_OK;
			jobs[i].res.message[0] = 0;
			kept++;
		}
	r->extra = res->extra;
	r->nextra = res->nextra;
	if (!o->quiet && report_for_people(r->format))
		printf("resuming %s: %zu of %zu points kept from it, %zu to run%s\n", escape_into(name, sizeof name, o->output),
		       kept, r->njobs, r->njobs - kept, kept == r->njobs ? " (nothing: it is complete)" : "");
	return 0;
}

/* The point the run went through: 0, or the exit code it earns.  A
 * refusal only the device could tell (setup's GPULAB_EPARAM) skips the
 * point, as plan's refusals do. */
static int run_point(struct bench *b, struct job *j, size_t i, size_t n, int progress)
{
	int rc;
	if (j->res.outcome == OUTCOME_SKIPPED)
		return 0;
	j->res.outcome = OUTCOME_OK;
	j->res.message[0] = 0;
	if (progress)
		show_progress(j, i, n);
	rc = bench_run(b, j);
	if (progress)
		fputs("\r\033[K", stderr); /* its row follows on a clean line */
	if (rc == EXIT_PARAM && !alone(j, n)) {
		j->res.outcome = OUTCOME_SKIPPED;
		rc = 0;
	}
	return rc;
}

/* Were points left not run?  Only then did the run stop before its
 * end: a signal after the last point, or a device lost at it, leaves
 * nothing undone, and the record is not interrupted. */
static int left_undone(const struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.outcome == OUTCOME_NOT_RUN)
			return 1;
	return 0;
}

/* Why the run stopped before its last point: a signal ("SIGINT"), or
 * a point that left the device unusable; "" where it did not.  And what
 * each point not run then says. */
static void stopped_because(const struct job *jobs, size_t n, char *why, size_t len, char *msg, size_t mlen)
{
	char name[256], point[512];
	why[0] = 0;
	snprintf(msg, mlen, "not run");
	if (!left_undone(jobs, n))
		return;
	if (interrupt_pending()) {
		snprintf(why, len, "%s", interrupt_name(interrupt_pending()));
		snprintf(msg, mlen, "interrupted by %s", why);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.lost) {
			snprintf(why, len, "the CUDA context was lost at %s %s", job_name(&jobs[i], name, sizeof name),
				 job_case(&jobs[i], point, sizeof point));
			snprintf(msg, mlen, "%s", why);
			return;
		}
}

/* A rank but rank 0 prints no table: its own failures go to stderr. */
static void say_rank_failed(const struct gpulab_group *g, const struct job *j)
{
	char name[256], point[512];
	fail(0, "rank %u: %s (%s): %s", g->rank, job_name(j, name, sizeof name), job_case(j, point, sizeof point),
	     j->res.message);
}

/* Each point in turn, its row printed and the record written as it is
 * done, until the last, a signal, or a lost device. */
static int run_points(const struct options *o, struct bench *b, struct report *r, struct job *jobs, size_t n,
		      struct record_out *out)
{
	int progress = n > 1 && !o->quiet && isatty(STDERR_FILENO), worst = 0, rc;
	report_begin(r, stdout);
	fflush(stdout);
	for (size_t i = 0; i < n && !interrupt_pending(); i++) {
		if (jobs[i].kept)
			continue;
		if ((rc = run_point(b, &jobs[i], i, n, progress)) && !worst)
			worst = rc;
		if (rc && !group_speaks(b->group) && !jobs[i].res.by_peer) /* its table is rank 0's */
			say_rank_failed(b->group, &jobs[i]);
		if (jobs[i].res.outcome == OUTCOME_NOT_RUN) /* stopped by a signal in its midst */
			break;
		report_point(r, i, stdout);
		fflush(stdout);
		if ((rc = output_point(out, i)) && !worst)
			worst = rc;
		if (jobs[i].res.lost)
			break;
	}
	return worst;
}

/* One line on stderr where the run stopped before its end: why, what it
 * did, and where that is kept. */
static void say_stopped(const struct options *o, const struct job *jobs, size_t n, const char *why, int by_signal,
			int written)
{
	size_t done = 0, left = 0;
	for (size_t i = 0; i < n; i++) {
		left += jobs[i].res.outcome == OUTCOME_NOT_RUN;
		done += jobs[i].res.outcome != OUTCOME_NOT_RUN && jobs[i].res.outcome != OUTCOME_SKIPPED && !jobs[i].kept;
	}
	fail(0, "%s%s: %zu point%s done, %zu not run%s%s%s", by_signal ? "interrupted by " : "", why, done,
	     done == 1 ? "" : "s", left, o->output ? "; " : "", o->output ? o->output : "",
	     !o->output ? "" : written ? " has what was done, and the same command with --resume runs the rest"
	     : " is as it was: nothing was done to replace it with");
}

/* The run's exit code: 128 + the signal that stopped it; else 8 where a
 * point lost the device, over a wrong result or any other failure, since
 * it cost every point after it (README, gpulab(1) EXIT STATUS); else the
 * first failure's. */
static int exit_code(const struct job *jobs, size_t n, int by_signal, int worst)
{
	if (by_signal)
		return 128 + interrupt_pending();
	for (size_t i = 0; i < n; i++)
		if (jobs[i].res.lost)
			return EXIT_CUDA;
	return worst;
}

/* After the last point, a signal or a lost device: the points not run
 * say why, the report ends, the record is written a last time; the exit
 * code (exit_code). */
static int finish(const struct options *o, struct report *r, struct job *jobs, size_t n, int worst,
		  struct record_out *out)
{
	char why[1024], msg[1024];
	int rc;
	stopped_because(jobs, n, why, sizeof why, msg, sizeof msg);
	int by_signal = why[0] && interrupt_pending();
	mark_not_run(jobs, n, msg);
	r->interruption = why[0] ? why : NULL;
	if ((rc = output_end(out, r, by_signal)) && !worst) /* first: a second signal may end the printing */
		worst = rc;
	report_end(r, stdout);
	fflush(stdout);
	if (why[0])
		say_stopped(o, jobs, n, why, by_signal, out->path && journal_committed(&out->j));
	return exit_code(jobs, n, by_signal, worst);
}

/* Under a launcher: every rank's machine and GPU, for rank 0's record. */
static int rank_places(const struct gpulab_group *g, const struct device_info *d, int gpu, struct rank_place **places)
{
	struct rank_place mine = { .ordinal = gpu ? d->ordinal : -1 };
	*places = NULL;
	if (!g || g->size < 2)
		return 0;
	gethostname(mine.host, sizeof mine.host - 1);
	snprintf(mine.device, sizeof mine.device, "%s", gpu ? d->name : "");
	snprintf(mine.bus_id, sizeof mine.bus_id, "%s", gpu ? d->bus_id : "");
	if (!(*places = calloc(g->size, sizeof **places)))
		return fail(EXIT_NOMEM, "out of memory");
	return group_places(g, &mine, *places);
}

static int run_all(const struct options *o, struct job *jobs, size_t n, const struct gpulab_group *g)
{
	struct device_info d;
	struct profiler *prof = NULL;
	struct clocks clk = { 0 };
	struct resume res = { 0 };
	struct rank_place *places = NULL;
	struct record_out out;
	int rc, worst = 0, gpu, refused;
	if ((rc = output_open(&out, o->output)) || (rc = open_job_device(jobs, n, &d, &gpu, g))
	    || (gpu && (rc = check_device(jobs, n, &d))) || (gpu && (rc = open_job_profiler(jobs, n, &prof)))) {
		output_close(&out);
		return group_worst(g, rc);
	}
	if ((rc = group_worst(g, 0)) && g) /* another rank could not start */
		fail(0, "rank %u: another rank could not start (its own line says why); every rank stops", g->rank);
	if (rc || (rc = rank_places(g, &d, gpu, &places))) {
		output_close(&out);
		free(places);
		return rc;
	}
	if (gpu)
		clocks_open(&clk, d.bus_id);
	struct bench b = { .dev = gpu ? &d : NULL, .cold = o->cold, .batch = o->batch, .unheld = o->profile, .verify = o->verify, .prof = prof,
			   .clk = gpu ? &clk : NULL, .stop = o->stop, .watchdog_s = o->watchdog, .group = g };
	struct report r = { .format = o->format, .dev = gpu ? &d : NULL, .cold = o->cold, .batch = o->batch, .jobs = jobs,
			    .njobs = n, .clk = gpu ? &clk : NULL, .command = o->command_line, .samples = o->samples,
			    .samples_keep = o->samples_keep, .wide = o->wide, .stop = o->stop, .ranks = places,
			    .nranks = g ? g->size : 0 };
	mark_pending(jobs, n);
	refused = o->resume && (worst = resume_from(o, &r, jobs, &res)); /* then FILE stays as it was */
	if (!refused && !(worst = output_begin(&out, &r, o->samples_keep)))
		worst = run_points(o, &b, &r, jobs, n, &out);
	bench_free(&b);
	profiler_close(prof);
	if (!refused)
		worst = finish(o, &r, jobs, n, worst, &out);
	output_close(&out);
	resume_free(&res);
	clocks_close(&clk);
	free(places);
	return worst;
}

/* Under a launcher (a launcher plugin's join): the ranks checked to be
 * started alike, and all but rank 0 silenced but for errors, with no
 * record of their own: *mine is the options they run with. */
static int join_ranks(const struct options *o, const struct registry *r, const struct gpulab_group **g,
		      struct options *mine)
{
	char what[sizeof o->command_line + 128];
	int rc = group_join(r, g);
	if (rc || !*g)
		return rc;
	if (o->resume || o->metrics)
		return group_worst(*g, fail(EXIT_USAGE, "%s: not under a launcher yet; run it without mpirun or srun",
					    o->resume ? "--resume" : "--metrics"));
	snprintf(what, sizeof what, "gpulab %s %s: %s", PACKAGE_VERSION, GPULAB_REVISION, o->command_line);
	if ((rc = group_alike(*g, what)))
		return rc;
	*mine = *o;
	mine->group = *g;
	if ((rc = group_seed_base(*g, &mine->seed_base)))
		return rc;
	if (group_speaks(*g))
		return 0;
	mine->output = NULL;
	int devnull = open("/dev/null", O_WRONLY);
	if (devnull >= 0) {
		fflush(stdout);
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	return 0;
}

int cmd_run(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection s = { 0 };
	struct sweep *sweeps = NULL;
	struct job *jobs = NULL;
	size_t njobs = 0;
	char err[2048];
	int broken, rc;
	const struct gpulab_group *g = NULL;
	struct options mine;

	if (o->npatterns == 0)
		return fail(EXIT_USAGE, "run: name at least one exercise (`gpulab list` shows them)");
	/* a broken plugin matters to run only if it is asked for, and then
	 * select_exercises() says why */
	if ((rc = load(o, &c, &r, 0, &broken)))
		goto out;
	if ((rc = select_exercises(&r, o->patterns, o->npatterns, &s, err, sizeof err))) {
		fail(rc, "%s", err);
		goto out;
	}
	yardsticks_first(&s);
	if ((rc = check_cli_keys(o, &s)) || (rc = make_jobs(o, &c, &s, &sweeps, &jobs, &njobs)))
		goto out;
	if (o->metrics && (rc = profiler_built(err, sizeof err)))
		fail(rc, "%s", err);
	else if ((rc = join_ranks(o, &r, &g, &mine)) == 0 && (rc = plan_all(g ? &mine : o, &s, sweeps, jobs, njobs, g)) == 0) {
		interrupt_catch();
		rc = run_all(g ? &mine : o, jobs, njobs, g);
		interrupt_release();
	}
	group_leave(g);
out:
	for (size_t i = 0; jobs && i < njobs; i++)
		job_free(&jobs[i]);
	free(jobs);
	for (size_t i = 0; sweeps && i < s.n; i++)
		sweep_free(&sweeps[i]);
	free(sweeps);
	selection_free(&s);
	registry_free(&r);
	config_free(&c);
	return rc;
}
