#include "draw/choose.h"

#include "exitcode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *key_of(const struct plot_point *p, int by_variant)
{
	return by_variant ? p->variant : p->exercise;
}

size_t chart_slot(const struct plot_point *p, int by_variant, const char **names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(names[k], key_of(p, by_variant)))
			return k;
	return n;
}

size_t chart_distinct(const struct chart *c, int by_variant, const char **names)
{
	size_t n = 0;
	for (size_t i = 0; i < c->npts; i++) {
		const struct plot_point *p = &c->pl->p[c->pts[i]];
		if (chart_slot(p, by_variant, names, n) == n)
			names[n++] = key_of(p, by_variant);
	}
	return n;
}

/* A chart of the points of pl whose variant is variant (NULL: all). */
static int add_chart(const struct plot *pl, enum chart_kind kind, const char *variant, struct chart *c)
{
	*c = (struct chart){ .kind = kind, .pl = pl, .variant = variant ? variant : "" };
	if (!(c->pts = malloc((pl->n ? pl->n : 1) * sizeof *c->pts)))
		return EXIT_NOMEM;
	for (size_t i = 0; i < pl->n; i++)
		if (!variant || !strcmp(pl->p[i].variant, variant)) {
			c->pts[c->npts++] = i;
			c->has_metrics |= pl->p[i].metrics != NULL && json_len(pl->p[i].metrics) > 0;
		}
	return 0;
}

int charts_choose(const struct plot *pl, struct chart **out, size_t *n)
{
	struct chart all = { .pl = pl };
	const char **variants = malloc((pl->n ? pl->n : 1) * sizeof *variants);
	size_t nv = 0;
	int rc = 0;
	*n = 0;
	*out = NULL;
	if (!variants || !(all.pts = malloc((pl->n ? pl->n : 1) * sizeof *all.pts)))
		rc = EXIT_NOMEM;
	for (size_t i = 0; !rc && i < pl->n; i++)
		all.pts[all.npts++] = i;
	/* a sweep of several variants is a chart each; the others, one */
	if (!rc && pl->sweeps_size)
		nv = chart_distinct(&all, 1, variants);
	if (!rc && !(*out = calloc(nv ? nv : 1, sizeof **out)))
		rc = EXIT_NOMEM;
	for (size_t k = 0; !rc && k < nv; k++, ++*n)
		rc = add_chart(pl, CHART_SWEEP, variants[k], &(*out)[k]);
	if (!rc && !nv && pl->n) {
		rc = add_chart(pl, pl->has_variants ? CHART_GROUPED : CHART_BARS, NULL, &(*out)[0]);
		*n = 1;
	}
	free(all.pts);
	free(variants);
	return rc;
}

void charts_free(struct chart *c, size_t n)
{
	for (size_t i = 0; c && i < n; i++)
		free(c[i].pts);
	free(c);
}

void chart_title(const struct chart *c, char *buf, size_t len)
{
	const char *what = c->kind == CHART_SWEEP     ? "GB/s against the size n"
			   : c->kind == CHART_GROUPED ? "GB/s by exercise and parameters"
			   : c->kind == CHART_BOARD   ? "GB/s by kernel, fastest first"
						      : "GB/s by exercise";
	snprintf(buf, len, "%s%s%s", what, c->variant[0] ? ", " : "", c->variant);
}
