#include "job.h"

#include "exitcode.h"
#include "size.h"

#include <stdarg.h>
#include <string.h>

static struct job *job_of(const struct gpulab_ctx *ctx)
{
	return ctx->core;
}

const char *job_name(const struct job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", j->pick.plugin->name, j->pick.ex->name);
	return buf;
}

static const char *lookup(const struct job *j, const char *key)
{
	const struct setting *s = config_get(j->cfg, j->pick.plugin->name, j->pick.ex->name, key);
	return s ? s->value : NULL;
}

static const char *ctx_param(const struct gpulab_ctx *ctx, const char *key)
{
	const struct job *j = job_of(ctx);
	const struct gpulab_param *p = exercise_param(j->pick.ex, key);
	const char *v;
	if (!p)
		return NULL;
	if ((v = options_param(j->opt, key)))
		return v;
	const struct setting *s = config_get_plugin_key(j->cfg, j->pick.plugin->name, j->pick.ex->name, key);
	return s ? s->value : p->def;
}

static void ctx_error(struct gpulab_ctx *ctx, const char *fmt, ...)
{
	struct job *j = job_of(ctx);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->res.message, sizeof j->res.message, fmt, ap);
	va_end(ap);
}

static int ctx_param_u64(struct gpulab_ctx *ctx, const char *key, uint64_t *out)
{
	const char *v = ctx_param(ctx, key);
	if (v && parse_size(v, out) == 0)
		return GPULAB_OK;
	ctx_error(ctx, "-p %s=%s: expected a count such as 1024, 2^10 or 1K", key, v ? v : "(undeclared)");
	return GPULAB_EPARAM;
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

/* A generic count: the command line first, then the INI files. */
static uint64_t generic_count(const struct job *j, const char *key, int on_cli, uint64_t cli, uint64_t def)
{
	const char *v;
	uint64_t x;
	if (on_cli)
		return cli;
	v = lookup(j, key);
	return v && parse_size(v, &x) == 0 ? x : def; /* INI values were checked on load */
}

static enum gpulab_dtype default_dtype(unsigned mask)
{
	return (enum gpulab_dtype)(mask & -mask);
}

static int resolve(struct job *j)
{
	const struct options *o = j->opt;
	const struct gpulab_exercise *e = j->pick.ex;
	const char *t = o->have_dtype ? NULL : lookup(j, "type");
	char name[256], why[512];

	j->ctx.n = generic_count(j, "n", o->have_n, o->n, e->default_n);
	/* an exercise that declares no block size gets none, whatever -b says */
	j->ctx.block = e->default_block ? (unsigned)generic_count(j, "block", o->have_block, o->block, e->default_block) : 0;
	j->ctx.dtype = o->have_dtype ? o->dtype : t ? dtype_from_name(t) : default_dtype(e->dtypes);
	j->reps = (unsigned)generic_count(j, "reps", o->have_reps, o->reps, 20);
	j->warmup = (unsigned)generic_count(j, "warmup", o->have_warmup, o->warmup, 3);
	if (o->metrics && metrics_resolve(&j->metrics, o->metrics, e->metrics, why, sizeof why)) {
		snprintf(j->res.message, sizeof j->res.message, "%s: %s", job_name(j, name, sizeof name), why);
		return EXIT_USAGE;
	}
	if (!(j->ctx.dtype & e->dtypes)) {
		snprintf(j->res.message, sizeof j->res.message, "%s: element type %s is not supported (it takes %s%s%s)",
			 job_name(j, name, sizeof name), dtype_name(j->ctx.dtype),
			 e->dtypes & GPULAB_INT32 ? "int" : "",
			 (e->dtypes & GPULAB_INT32) && (e->dtypes & GPULAB_FLOAT32) ? ", " : "",
			 e->dtypes & GPULAB_FLOAT32 ? "float" : "");
		return EXIT_PARAM;
	}
	return 0;
}

int job_plan(struct job *j, const struct pick *p, const struct options *o, const struct config *c)
{
	char name[256], why[sizeof j->res.message];
	*j = (struct job){ .pick = *p, .opt = o, .cfg = c };
	j->ctx = (struct gpulab_ctx){ .quiet = o->quiet, .param = ctx_param, .param_u64 = ctx_param_u64,
				      .error = ctx_error, .note = ctx_note,
				      .data = p->ex->data, .core = j };
	int rc = resolve(j);
	if (rc)
		return rc;
	rc = p->ex->plan(&j->ctx);
	if (rc == GPULAB_OK)
		return 0;
	snprintf(why, sizeof why, "%s", j->res.message[0] ? j->res.message : "rejected its parameters");
	snprintf(j->res.message, sizeof j->res.message, "%s: %s", job_name(j, name, sizeof name), why);
	return rc == GPULAB_EPARAM ? EXIT_PARAM : EXIT_CUDA;
}
