/* The try plugin's exercises, one a challenge folder (challenges.h). */
#include "challenges.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A side's key: a 2-D challenge's x or y, named as its kernel's parameter. */
static struct gpulab_param side(const char *name, size_t offset, const char *def)
{
	return (struct gpulab_param){ .key = name, .type = GPULAB_PARAM_COUNT, .offset = offset, .def = def,
				      .help = "a side of the data, as the kernel's parameter of this name",
				      .min = 1, .max = 0x7fffffff };
}

/* The exercise's declarations, from its challenge. */
static void declare(struct try_challenge *t, const struct gpulab_exercise *proto, struct gpulab_exercise *e)
{
	const struct challenge *c = &t->c;
	char sig[400];
	int k = 0;
	challenge_signature(c, sig, sizeof sig);
	snprintf(t->summary, sizeof t->summary, "%s: template <typename T> %s(%s)", c->description, c->kernel, sig);
	snprintf(t->peers, sizeof t->peers, "%.*s", (int)strcspn(c->against, "."), c->against);
	if (challenge_gate(c, t->gate, sizeof t->gate))
		t->gate[0] = 0; /* 16 sizes of short names always fit */
	t->params[k++] = (struct gpulab_param){ .key = "kernel", .type = GPULAB_PARAM_PATH,
						.offset = offsetof(struct try_opts, kernel), .def = "",
						.help = "your kernel's .cu file (gpulab try CHALLENGE FILE.cu sets it)" };
	for (int i = 0; c->two_d && i < c->nargs; i++) {
		int y = c->args[i].role == ROLE_Y;
		if (c->args[i].role != ROLE_X && !y)
			continue;
		snprintf(t->defaults[y], sizeof t->defaults[y], "%llu", (unsigned long long)(y ? c->bench[0].y : c->bench[0].x));
		t->params[k++] = side(c->args[i].name, y ? offsetof(struct try_opts, y) : offsetof(struct try_opts, x),
				      t->defaults[y]);
	}
	t->params[k++] = (struct gpulab_param){ .key = "seed", .type = GPULAB_PARAM_SEED,
						.offset = offsetof(struct try_opts, seed), .def = "random",
						.help = "input seed; the report records the one drawn" };
	t->params[k++] = (struct gpulab_param){ .key = "input", .type = GPULAB_PARAM_ENUM,
						.offset = offsetof(struct try_opts, input),
						.def = challenge_generator_name(c->generator),
						.help = "how the input is made (docs/challenge.md)", .choices = CHALLENGE_GENERATORS };
	t->params[k] = (struct gpulab_param){ 0 };
	*e = *proto;
	e->name = c->name;
	e->summary = t->summary;
	e->dtypes = c->types;
	e->n = c->two_d ? 0 : c->bench[0].x;
	e->n_max = c->two_d ? 0 : 0x7fffffff;
	e->params = t->params;
	e->params_size = sizeof(struct try_opts);
	e->data = t;
	e->metrics = c->metrics[0] ? c->metrics : NULL;
	e->peers = t->peers[0] ? t->peers : NULL;
	e->gate = t->gate;
}

/* Is `name` one of the first n exercises? */
static int taken(const struct gpulab_exercise *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return 1;
	return 0;
}

size_t try_challenges(const char *folders, const struct gpulab_exercise *proto, struct gpulab_exercise **out)
{
	size_t cap = 1, n = 0;
	char err[512];
	*out = NULL;
	for (const char *p = folders; p && *p; p++)
		cap += *p == ':';
	struct gpulab_exercise *v = calloc(cap, sizeof *v);
	struct try_challenge *t = calloc(cap, sizeof *t);
	if (!v || !t) {
		free(v);
		free(t);
		return 0;
	}
	for (const char *p = folders; p && *p;) {
		size_t len = strcspn(p, ":");
		char dir[sizeof t->c.dir];
		snprintf(dir, sizeof dir, "%.*s", (int)len, p);
		if (len && len < sizeof dir && challenge_load(&t[n].c, dir, err, sizeof err) == 0
		    && !taken(v, n, t[n].c.name)) {
			declare(&t[n], proto, &v[n]);
			n++;
		}
		p += len + (p[len] == ':');
	}
	if (!n) {
		free(v);
		free(t);
		return 0;
	}
	*out = v;
	return n;
}
