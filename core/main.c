/*
 * gpulab: load exercises from plugins named in INI files, run them on the
 * GPU, verify each against its CPU reference, and report honest timings.
 */
#include "config.h"

#include "bench.h"
#include "settings.h"
#include "device.h"
#include "escape.h"
#include "exitcode.h"
#include "job.h"
#include "match.h"
#include "metrics.h"
#include "options.h"
#include "profile.h"
#include "registry.h"
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One line on stderr.  It quotes arguments and files, so it is escaped:
 * no control byte or invalid UTF-8 reaches the terminal raw. */
__attribute__((format(printf, 2, 3)))
static int fail(int code, const char *fmt, ...)
{
	char *msg;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fputs("gpulab: ", stderr);
	fput_escaped(stderr, n < 0 ? "out of memory for an error message" : msg);
	fputc('\n', stderr);
	if (n >= 0)
		free(msg);
	return code;
}

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

/* Load the INI files and every plugin they name; say which failed. */
static int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken)
{
	char err[2048];
	int rc = config_load_all(c, env_or("GPULAB_SYSCONFDIR", GPULAB_SYSCONFDIR), o->config, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if (registry_load(r, c, env_or("GPULAB_PLUGIN_PATH", GPULAB_PLUGINDIR)) != 0)
		return fail(EXIT_PLUGIN, "out of memory loading plugins");
	*broken = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].error && warn) {
			fprintf(stderr, "gpulab: plugin '%s' (%s) not loaded: %s\n", r->v[i].name, r->v[i].ini, r->v[i].error);
			(*broken)++;
		}
	return 0;
}

static void list_exercise(const struct plugin *p, const struct gpulab_exercise *e, enum format f)
{
	char full[256], types[16];
	snprintf(full, sizeof full, "%s.%s", p->name, e->name);
	snprintf(types, sizeof types, "%s%s%s", e->dtypes & GPULAB_INT32 ? "int" : "",
		 e->dtypes == (GPULAB_INT32 | GPULAB_FLOAT32) ? "|" : "", e->dtypes & GPULAB_FLOAT32 ? "float" : "");
	if (f == FORMAT_CSV) {
		/* names and types hold no comma; the summary is quoted */
		printf("%s,%s,%s,%llu,%u,%s,\"", p->name, e->name, types, (unsigned long long)e->default_n,
		       e->default_block, p->path);
		for (const char *c = e->summary; *c; c++)
			printf(*c == '"' ? "\"\"" : "%c", *c);
		puts("\"");
		return;
	}
	printf("  %-30s %s\n", full, e->summary);
	printf("  %-30s type %s, n %llu", "", types, (unsigned long long)e->default_n);
	if (e->default_block)
		printf(", block %u", e->default_block);
	for (const struct gpulab_param *k = e->params; k && k->key; k++)
		printf(", -p %s=%s", k->key, k->def);
	putchar('\n');
}

static int cmd_list(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	int broken, rc = load(o, &c, &r, 1, &broken);
	if (rc == 0 && o->format == FORMAT_CSV)
		puts("plugin,exercise,types,n,block,file,summary");
	for (size_t i = 0; rc == 0 && i < r.n; i++) {
		const struct plugin *p = &r.v[i];
		if (!p->desc)
			continue;
		if (o->format != FORMAT_CSV)
			printf("%s: %s\n  file %s (from %s)\n", p->name, p->desc->summary ? p->desc->summary : "",
			       p->path, p->ini);
		for (size_t k = 0; k < p->desc->n_exercises; k++)
			list_exercise(p, &p->desc->exercises[k], o->format);
	}
	if (rc == 0 && r.n == 0 && o->format != FORMAT_CSV)
		printf("no plugins configured (see gpulab(1), FILES)\n");
	registry_free(&r);
	config_free(&c);
	return rc ? rc : broken ? EXIT_PLUGIN : 0;
}

static int cmd_info(void)
{
	struct device_info d;
	char err[512];
	int rc = device_open(&d, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	device_print(&d, stdout);
	return 0;
}

/* Every -p key must mean something to at least one chosen exercise. */
static int check_keys(const struct options *o, const struct selection *s)
{
	for (int i = 0; i < o->nparams; i++) {
		int known = 0;
		for (size_t k = 0; k < s->n && !known; k++)
			known = exercise_param(s->v[k].ex, o->params[i].key) != NULL;
		if (!known)
			return fail(EXIT_USAGE, "-p %s: no chosen exercise takes this key (`gpulab list` shows their keys)",
				    o->params[i].key);
	}
	return 0;
}

/* What only the device can tell: block size limit and free memory. */
static int check_device(const struct job *jobs, size_t n, const struct device_info *d)
{
	char name[256];
	size_t free_b = device_free_bytes(), flush = 2 * d->l2_bytes;
	for (size_t i = 0; i < n; i++) {
		const struct job *j = &jobs[i];
		if (j->pick.ex->default_block && j->ctx.block > (unsigned)d->max_threads_per_block)
			return fail(EXIT_PARAM, "%s: block size %u exceeds this GPU's limit of %d threads",
				    job_name(j, name, sizeof name), j->ctx.block, d->max_threads_per_block);
		if (j->ctx.device_bytes + flush > free_b)
			return fail(EXIT_PARAM, "%s: n = %llu needs %.2f GiB of device memory, but only %.2f GiB are free",
				    job_name(j, name, sizeof name), (unsigned long long)j->ctx.n,
				    (j->ctx.device_bytes + flush) / 1073741824.0, free_b / 1073741824.0);
	}
	return 0;
}

static int plan_all(const struct options *o, const struct config *c, const struct selection *s, struct job *jobs)
{
	for (size_t i = 0; i < s->n; i++) {
		int rc = job_plan(&jobs[i], &s->v[i], o, c);
		if (rc)
			return fail(rc, "%s", jobs[i].res.message);
	}
	return 0;
}

/* --metrics: CUPTI, permission and every metric checked before anything
 * runs, so a bad name costs no time. */
static int open_profiler(const struct job *jobs, size_t n, struct profiler **p)
{
	char err[1024], name[256];
	int rc;
	*p = NULL;
	if (n == 0 || jobs[0].metrics.ncols == 0)
		return 0; /* --metrics is for every job or none */
	if ((rc = profiler_open(p, err, sizeof err)))
		return fail(rc, "%s", err);
	for (size_t i = 0; i < n; i++)
		if ((rc = profiler_check(*p, jobs[i].metrics.raw_ptrs, jobs[i].metrics.nraw, err, sizeof err))) {
			profiler_close(*p);
			return fail(rc, "%s: %s", job_name(&jobs[i], name, sizeof name), err);
		}
	return 0;
}

static int run_all(const struct options *o, struct job *jobs, size_t n)
{
	struct device_info d;
	struct profiler *prof;
	char err[512];
	int rc = device_open(&d, err, sizeof err), worst = 0;
	if (rc)
		return fail(rc, "%s", err);
	if ((rc = check_device(jobs, n, &d)) || (rc = open_profiler(jobs, n, &prof)))
		return rc;
	struct bench b = { .dev = &d, .cold = o->cold, .verify = o->verify, .prof = prof };
	for (size_t i = 0; i < n; i++) {
		rc = bench_run(&b, &jobs[i]);
		if (rc && !worst)
			worst = rc;
	}
	bench_free(&b);
	profiler_close(prof);
	struct report r = { o->format, &d, o->cold, jobs, n };
	report_print(&r, stdout);
	return worst;
}

static int cmd_run(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection s = { 0 };
	struct job *jobs = NULL;
	char err[2048];
	int broken, rc;

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
	if ((rc = check_keys(o, &s)))
		goto out;
	if (!(jobs = calloc(s.n, sizeof *jobs))) {
		rc = fail(EXIT_CUDA, "out of memory");
		goto out;
	}
	if (o->metrics && (rc = profiler_built(err, sizeof err)))
		fail(rc, "%s", err);
	else if ((rc = plan_all(o, &c, &s, jobs)) == 0)
		rc = run_all(o, jobs, s.n);
out:
	free(jobs);
	selection_free(&s);
	registry_free(&r);
	config_free(&c);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if (!strcmp(o.command, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(o.command, "version")) {
		printf("gpulab %s (plugin ABI %d)\n", PACKAGE_VERSION, GPULAB_ABI_VERSION);
		return 0;
	}
	if (strcmp(o.command, "run") && o.npatterns > 0)
		return fail(EXIT_USAGE, "%s: unexpected argument '%s'", o.command, o.patterns[0]);
	if (!strcmp(o.command, "list"))
		return cmd_list(&o);
	if (!strcmp(o.command, "info"))
		return cmd_info();
	if (!strcmp(o.command, "metrics")) {
		metrics_print_aliases(stdout);
		return 0;
	}
	if (!strcmp(o.command, "run"))
		return cmd_run(&o);
	return fail(EXIT_USAGE, "unknown command '%s' (list, info, metrics, run); `gpulab --help` says more", o.command);
}
