#include "command_names.h"
#include "run/job.h"

#include "exitcode.h"
#include "escape.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct job *job_of(const struct gpulab_ctx *ctx)
{
	return ctx->core;
}

const char *stop_reason_name(enum stop_reason why)
{
	static const char *const names[] = { [STOP_COUNT] = "count", [STOP_NOISE] = "noise", [STOP_STABLE] = "stable",
					     [STOP_TIMEOUT] = "timeout", [STOP_MAX_RUNS] = "max_runs" };
	return names[why];
}

const char *timing_mode_name(enum timing_mode how)
{
	static const char *const names[] = { [TIMING_HELD] = "held", [TIMING_UNHELD] = "unheld", [TIMING_HOST] = "host" };
	return names[how];
}

const char *job_name(const struct job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", j->pick.plugin->name, j->pick.ex->name);
	return buf;
}

const struct job_param *job_param_find(const struct job *j, const char *key)
{
	for (size_t i = 0; i < j->nparams; i++)
		if (!strcmp(j->params[i].decl.key, key))
			return &j->params[i];
	return NULL;
}

const char *job_case(const struct job *j, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		enum gpulab_param_type t = p->decl.type;
		size_t at = strlen(buf);
		if (p->generic == GEN_N || (p->generic < 0 && (t == GPULAB_PARAM_COUNT || t == GPULAB_PARAM_SHAPE)))
			snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", p->decl.key, p->text);
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "", dtype_name(j->ctx.dtype));
	return buf;
}

static void ctx_error(struct gpulab_ctx *ctx, const char *fmt, ...)
{
	struct job *j = job_of(ctx);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->res.message, sizeof j->res.message, fmt, ap);
	va_end(ap);
}

static void ctx_note(struct gpulab_ctx *ctx, const char *name, double value)
{
	struct result *r = &job_of(ctx)->res;
	for (int i = 0; i < r->nnotes; i++)
		if (!strcmp(r->notes[i].name, name)) {
			r->notes[i].value = value;
			return;
		}
	if (r->nnotes < MAX_NOTES) {
		snprintf(r->notes[r->nnotes].name, sizeof r->notes[0].name, "%s", name);
		r->notes[r->nnotes++].value = value;
	}
}

/* The exercise's own key called key (not a generic one), to write a
 * choice into; NULL if it has none. */
static struct job_param *own_param(struct job *j, const char *key)
{
	for (size_t i = 0; key && i < j->nparams; i++)
		if (j->params[i].generic < 0 && !strcmp(j->params[i].decl.key, key))
			return &j->params[i];
	return NULL;
}

/* A choice the core cannot record: the plugin's bug, not the user's
 * parameter.  The first is kept apart from the message, so job_plan and
 * bench_run can end the point with it whatever the plugin returns or
 * says after. */
static int bad_choice(struct job *j, const char *key, const char *value, const char *why)
{
	char k[64], v[64];
	if (!j->bad_choice[0])
		snprintf(j->bad_choice, sizeof j->bad_choice, "the exercise chose %s = \"%s\": %s (a plugin's bug)",
			 escape_into(k, sizeof k, key ? key : "(null)"), escape_into(v, sizeof v, value ? value : "(null)"),
			 why);
	return GPULAB_EPARAM;
}

/* What an automatic value of the exercise's own key came to (ctx->chose),
 * from setup: checked as declared, so the record holds only what the key
 * takes. */
static int ctx_chose(struct gpulab_ctx *ctx, const char *key, const char *value)
{
	struct job *j = job_of(ctx);
	struct job_param *p = own_param(j, key);
	struct param_value v;
	char why[256];
	if (!j->in_setup)
		return bad_choice(j, key, value, "told outside setup()");
	if (!p || p->decl.type == GPULAB_PARAM_PATH || p->decl.type == GPULAB_PARAM_SEED)
		return bad_choice(j, key, value, "not one of its own keys, or a seed or path");
	if (!value || param_parse(&p->decl, value, &v, why, sizeof why) != PARSE_OK)
		return bad_choice(j, key, value, value ? why : "no value");
	param_format(&p->decl, &v, p->chosen, sizeof p->chosen);
	return GPULAB_OK;
}

/* The refusal of a job: why, in its message; the caller names it. */
__attribute__((format(printf, 3, 4)))
static int refuse(struct job *j, int code, const char *fmt, ...)
{
	char why[sizeof j->res.message];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap); /* fmt may print the message itself */
	va_end(ap);
	snprintf(j->res.message, sizeof j->res.message, "%s", why);
	return code;
}

/* A seed for "random": different each time, and recorded.  Under a
 * launcher every rank draws from rank 0's base, in the same order (they
 * plan the same points), so the ranks' inputs fit one reference. */
static uint64_t draw_seed(const struct options *o)
{
	static uint64_t calls;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t z = o->seed_base ? o->seed_base ^ ++calls
				  : (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^ ++calls;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; /* splitmix64's finaliser spreads the bits */
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (z ^ (z >> 31)) & 0xffffffffffffull;  /* 48 bits: short enough to type back */
}

/* Parameter p set to value v of its axis (typed by the sweep): a value
 * out of range refuses the point; a random seed is drawn now, each point
 * its own. */
static int take_value(struct job *j, struct job_param *p, const struct sweep_value *v)
{
	if (v->why && p->values > 1)
		return refuse(j, EXIT_PARAM, "%s: %s %s: %s", p->where, p->decl.key, v->text, v->why);
	if (v->why)
		return refuse(j, EXIT_PARAM, "%s: %s", p->where, v->why);
	p->value = v->value;
	if (p->decl.type == GPULAB_PARAM_SEED && p->value.random) {
		p->value.u = draw_seed(j->opt);
		p->value.random = 0;
	}
	param_format(&p->decl, &p->value, p->text, sizeof p->text);
	return 0;
}

/* The exercise's keys as the sweep resolved them, each with where its
 * value comes from and its axis's length. */
static int list_params(struct job *j, const struct sweep *s)
{
	const struct gpulab_exercise *e = j->pick.ex;
	j->params = calloc(s->nkeys ? s->nkeys : 1, sizeof *j->params);
	j->opts = calloc(1, e->params_size ? e->params_size : 1);
	if (!j->params || !j->opts)
		return refuse(j, EXIT_NOMEM, "out of memory");
	for (size_t i = 0; i < s->nkeys; i++) {
		const struct sweep_key *k = &s->keys[i];
		struct job_param *p = &j->params[i];
		p->decl = k->decl;
		p->generic = k->generic;
		memcpy(p->def, k->def, sizeof p->def);
		if (k->decl.def == k->def) /* n's and block's default text: the job's copy */
			p->decl.def = p->def;
		p->axis = k->axis;
		p->values = k->nvalues;
		memcpy(p->where, k->where, sizeof p->where);
		p->defaulted = k->defaulted;
	}
	j->nparams = s->nkeys;
	j->points = s->points;
	return 0;
}

/* The parameters of point `point` of the exercise's sweep (sweep.h has
 * the order). */
static int resolve(struct job *j, const struct sweep *s, size_t point)
{
	int rc;
	if (s->refused && !s->nkeys) /* before any key was listed: -n it does not take */
		return refuse(j, s->refused, "%s", s->why);
	if ((rc = list_params(j, s)))
		return rc;
	if (s->refused)
		return refuse(j, s->refused, "%s", s->why);
	for (size_t i = 0; i < j->nparams; i++) {
		struct job_param *p = &j->params[i];
		int g = p->generic;
		if ((rc = take_value(j, p, &s->keys[i].values[point % p->values])))
			return rc;
		point /= p->values;
		switch (g) {
		case GEN_N: j->ctx.n = p->value.u; break;
		case GEN_BLOCK: j->ctx.block = (unsigned)p->value.u; break;
		case GEN_TYPE: j->ctx.dtype = (enum gpulab_dtype)(1u << p->value.e); break;
		case GEN_REPS:
			j->reps = (unsigned)p->value.u;
			j->exact_reps = !p->defaulted; /* asked for: that many, noise or not */
			if (!j->exact_reps)
				p->text[0] = 0; /* not a parameter of this run: the noise decides */
			break;
		case GEN_WARMUP: j->warmup = (unsigned)p->value.u; break;
		default: param_store(&p->decl, &p->value, j->opts);
		}
	}
	return 0;
}

int job_plan(struct job *j, const struct pick *p, const struct sweep *s, const struct options *o, size_t point)
{
	char why[512];
	int rc;
	*j = (struct job){ .pick = *p, .opt = o, .point = point, .points = 1 };
	j->ctx = (struct gpulab_ctx){ .quiet = o->quiet, .error = ctx_error, .note = ctx_note, .chose = ctx_chose,
				      .data = p->ex->data, .core = j, .group = o->group };
	if ((rc = resolve(j, s, point)))
		return rc;
	j->ctx.params = j->opts;
	j->ctx.elements = j->ctx.n;
	if (o->metrics && metrics_resolve(&j->metrics, o->metrics, p->ex->metrics, why, sizeof why))
		return refuse(j, EXIT_USAGE, "%s", why);
	/* an exercise whose reset restores what its run consumes is timed run
	 * by run in a batched run of several, and its row says so, as a
	 * refused point says why */
	j->unbatched = o->batch > 1 && p->ex->reset && !(p->ex->flags & GPULAB_REPEATS);
	j->batch = o->batch > 1 && !j->unbatched ? o->batch : 1;
	rc = p->ex->plan(&j->ctx);
	if (j->bad_choice[0]) /* chose from plan: the plugin's bug, not a parameter refused */
		return refuse(j, EXIT_PLUGIN, "%s", j->bad_choice);
	if (rc == GPULAB_OK)
		return 0;
	snprintf(why, sizeof why, "%s", j->res.message[0] ? j->res.message : "rejected its parameters");
	return refuse(j, exit_for_status(rc), "%s", why);
}

void job_free(struct job *j)
{
	free(j->params);
	free(j->opts);
	free(j->res.samples);
	j->params = NULL;
	j->opts = NULL;
	j->res.samples = NULL;
}

void job_command(const struct job *j, int cold, unsigned batch, char *buf, size_t len)
{
	char name[256], key[512];
	snprintf(buf, len, "gpulab " CMD_RUN " %s", job_name(j, name, sizeof name));
	for (size_t i = 0; i < j->nparams; i++) {
		const struct job_param *p = &j->params[i];
		size_t at = strlen(buf);
		if (p->text[0]) /* else not resolved: the job was refused before it */
			snprintf(buf + at, len - at, " %s",
				 options_key_spelling(p->generic, p->decl.key, p->text, key, sizeof key));
	}
	if (cold)
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", options_long(OPT_COLD));
	if (batch > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), " %s %u", options_long(OPT_BATCH), batch);
}
