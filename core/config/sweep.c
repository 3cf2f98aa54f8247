#include "config/sweep.h"

#include "exitcode.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The refusal of every point: why, and the code. */
__attribute__((format(printf, 3, 4)))
static int refuse_all(struct sweep *s, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof s->why, fmt, ap);
	va_end(ap);
	s->refused = code;
	return code;
}

/* Is an INI value from a section shared by several exercises one this
 * exercise can take?  Only the element type is passed over where it
 * cannot ([defaults] type = float means float where there is float). */
static int applies(const struct gpulab_exercise *e, const struct sweep_key *k, const char *text)
{
	struct param_value v;
	char why[256];
	if (strcmp(k->decl.key, "type"))
		return 1;
	return exercise_parse(e, "type", text, &v, why, sizeof why) == PARSE_OK;
}

/* Values typed before the sweep: handed over by code, or the command
 * line's generic axis (config/options.c typed it); n == 0: none, the
 * key's text is parsed here. */
struct typed_source {
	const struct typed_value *v;
	size_t n;
	enum gpulab_param_type type;  /* the declaration they were typed as */
};

/* The values handed over for k, or the command line's axis of a generic
 * key: typed already, with their text for k->where. */
static const char *typed_from(struct sweep_key *k, const struct options *o, struct typed_source *t)
{
	const struct handed_key *h = options_handed(o, k->decl.key);
	const struct typed_axis *a = k->generic >= 0 ? &o->axes[k->generic] : NULL;
	const char *text = NULL;
	*t = (struct typed_source){ 0 };
	if (h)
		*t = (struct typed_source){ h->v, h->n, h->type }, text = h->text;
	else if (a && a->n)
		*t = (struct typed_source){ a->v, a->n, generic_params[k->generic].type }, text = a->text;
	if (text)
		options_key_spelling(k->generic, k->decl.key, text, k->where, sizeof k->where);
	return text;
}

/* Where k's value comes from, highest first: values typed before the
 * sweep (into *t), then text: -p's, the INI files', the default.  Its
 * text, and k->where. */
static const char *source(struct sweep_key *k, const char *plugin, const struct gpulab_exercise *e,
			  const struct options *o, const struct config *c, struct typed_source *t)
{
	static const enum scope scopes[] = { SCOPE_EXERCISE, SCOPE_PLUGIN, SCOPE_DEFAULTS };
	const char *cli = typed_from(k, o, t);
	if (cli)
		return cli;
	if ((cli = options_param(o, k->decl.key))) {
		options_key_spelling(-1, k->decl.key, cli, k->where, sizeof k->where);
		return cli;
	}
	for (int i = 0; i < 3; i++) {
		const struct setting *st = config_get_at(c, scopes[i], plugin, e->name, k->decl.key);
		if (st && (scopes[i] == SCOPE_EXERCISE || applies(e, k, st->value))) {
			snprintf(k->where, sizeof k->where, "%s:%d: %s = %s", st->file, st->line, st->key, st->value);
			return st->value;
		}
	}
	snprintf(k->where, sizeof k->where, "the default %s = %s", k->decl.key, k->decl.def);
	k->defaulted = 1;
	return k->decl.def;
}

/* The keys e takes: the generic ones, then its own. */
static int list_keys(struct sweep *s, const struct gpulab_exercise *e)
{
	size_t n = 0, own = 0;
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		own++;
	if (!(s->keys = calloc(NGENERIC + own, sizeof *s->keys)))
		return refuse_all(s, EXIT_NOMEM, "out of memory");
	for (int g = 0; g < NGENERIC; g++)
		if (exercise_takes(e, (enum generic)g)) {
			struct sweep_key *k = &s->keys[n++];
			exercise_generic(e, (enum generic)g, &k->decl, k->def, sizeof k->def);
			k->generic = g;
		}
	for (size_t i = 0; i < own; i++) {
		s->keys[n].decl = e->params[i];
		s->keys[n++].generic = -1;
	}
	s->nkeys = n;
	return 0;
}

/* Every value of k's axis, typed; one out of range keeps why. */
static int take_values(struct sweep_key *k, const struct gpulab_exercise *e)
{
	char why[512];
	if (!(k->values = calloc(k->nvalues, sizeof *k->values)))
		return EXIT_NOMEM;
	for (size_t i = 0; i < k->nvalues; i++) {
		struct sweep_value *v = &k->values[i];
		enum parse_result r;
		/* a path is its whole axis, and the value points into it: the
		 * command line or the configuration, which outlive the sweep */
		param_axis_value(k->axis, i, v->text, sizeof v->text);
		const char *text = k->decl.type == GPULAB_PARAM_PATH ? k->axis : v->text;
		r = k->generic == GEN_TYPE ? exercise_parse(e, "type", text, &v->value, why, sizeof why)
					   : param_parse(&k->decl, text, &v->value, why, sizeof why);
		if (r != PARSE_OK && !(v->why = strdup(why)))
			return EXIT_NOMEM;
	}
	return 0;
}

/* k's values from t, typed before, narrowed by e's declaration of k:
 * one out of its range keeps why, as take_values would say it. */
static int narrow_values(struct sweep_key *k, const struct gpulab_exercise *e, const struct typed_source *t)
{
	char why[512];
	if (!(k->values = calloc(k->nvalues, sizeof *k->values)))
		return EXIT_NOMEM;
	for (size_t i = 0; i < k->nvalues; i++) {
		struct sweep_value *v = &k->values[i];
		enum parse_result r;
		snprintf(v->text, sizeof v->text, "%s", t->v[i].text);
		v->value = t->v[i].value;
		if (t->type != k->decl.type) /* a giver's mistake: typed by another declaration than e's */
			r = PARSE_RANGE, snprintf(why, sizeof why, "typed as a %s, where %s is a %s", param_type_name(t->type),
						  k->decl.key, param_type_name(k->decl.type));
		else if (k->generic >= 0)
			r = exercise_narrow(e, (enum generic)k->generic, &t->v[i], why, sizeof why);
		else
			r = param_narrow(&k->decl, &v->value, why, sizeof why);
		if (r != PARSE_OK && !(v->why = strdup(why)))
			return EXIT_NOMEM;
	}
	return 0;
}

/* Where each key's value comes from, how many values its axis holds (the
 * shape of the sweep), and the values. */
static int take_axes(struct sweep *s, const char *plugin, const struct gpulab_exercise *e, const struct options *o,
		     const struct config *c)
{
	char why[512];
	s->points = 1;
	for (size_t i = 0; i < s->nkeys; i++) {
		struct sweep_key *k = &s->keys[i];
		struct typed_source typed;
		k->axis = source(k, plugin, e, o, c, &typed);
		/* values out of range are refused point by point */
		if (typed.n)
			k->nvalues = typed.n;
		else if (param_axis(&k->decl, k->axis, &k->nvalues, why, sizeof why) == PARSE_MALFORMED)
			return refuse_all(s, EXIT_PARAM, "%s: %s", k->where, why);
		if (s->points > PARAM_MAX_POINTS / k->nvalues)
			return refuse_all(s, EXIT_USAGE, "a sweep of more than %d points; sweep fewer values", PARAM_MAX_POINTS);
		s->points *= k->nvalues;
		if (typed.n ? narrow_values(k, e, &typed) : take_values(k, e))
			return refuse_all(s, EXIT_NOMEM, "out of memory");
	}
	return 0;
}

/* The exercise's own keys, for a message: "-p rows, -p cols". */
static void own_keys(const struct gpulab_exercise *e, char *buf, size_t len)
{
	char one[128];
	buf[0] = 0;
	for (const struct gpulab_param *p = e->params; p && p->key; p++)
		if (p->type != GPULAB_PARAM_SEED)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "",
				 options_key_spelling(-1, p->key, NULL, one, sizeof one));
}

int sweep_resolve(struct sweep *s, const char *plugin, const struct gpulab_exercise *e, const struct options *o,
		  const struct config *c)
{
	char keys[256];
	*s = (struct sweep){ .points = 1 };
	/* session/plan.c asks too, of every chosen exercise at once: no one
	 * taking -n is a usage error of the command; here, one exercise that
	 * does not is refused alone, its row saying why, and the others run */
	int n_given = o->axes[GEN_N].n || ((options_param(o, "n") || options_handed(o, "n")) && !exercise_param(e, "n"));
	if (n_given && !exercise_takes(e, GEN_N)) {
		own_keys(e, keys, sizeof keys);
		return refuse_all(s, EXIT_PARAM, "takes no %s: its size is set by %s", options_flag(GEN_N),
				  keys[0] ? keys : "itself");
	}
	if (list_keys(s, e) == 0)
		take_axes(s, plugin, e, o, c);
	return s->refused;
}

size_t sweep_points(const struct sweep *s)
{
	return s->refused ? 1 : s->points;
}

void sweep_free(struct sweep *s)
{
	for (size_t i = 0; i < s->nkeys; i++) {
		for (size_t k = 0; s->keys[i].values && k < s->keys[i].nvalues; k++)
			free(s->keys[i].values[k].why);
		free(s->keys[i].values);
	}
	free(s->keys);
	*s = (struct sweep){ 0 };
}
