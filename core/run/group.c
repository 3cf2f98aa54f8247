#include "run/group.h"

#include "exitcode.h"
#include "fail.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

int group_join(const struct registry *r, const struct gpulab_group **g)
{
	*g = NULL;
	for (size_t i = 0; i < r->n && !*g; i++) {
		const struct gpulab_plugin *d = r->v[i].desc;
		int failed = 0;
		if (!r->v[i].handle || !d || !d->join)
			continue;
		*g = d->join(&failed);
		if (failed)
			return EXIT_RANKS; /* the plugin said why */
	}
	return 0;
}

int group_speaks(const struct gpulab_group *g)
{
	return !g || g->rank == 0;
}

int group_max(const struct gpulab_group *g, double *v, size_t n)
{
	return g && g->size > 1 ? g->max(v, n) : 0;
}

int group_worst(const struct gpulab_group *g, int rc)
{
	double v = rc;
	if (group_max(g, &v, 1))
		return EXIT_RANKS;
	return (int)v;
}

/* A short, stable digest of text: what the ranks compare, so that a long
 * command line costs one fixed-size broadcast. */
static unsigned long long digest(const char *text)
{
	unsigned long long h = 1469598103934665603ull; /* FNV-1a */
	for (; *text; text++)
		h = (h ^ (unsigned char)*text) * 1099511628211ull;
	return h;
}

int group_alike(const struct gpulab_group *g, const char *what)
{
	if (!g || g->size < 2)
		return 0;
	unsigned long long mine = digest(what), first = mine;
	if (g->bcast(&first, sizeof first))
		return EXIT_RANKS;
	int differs = first != mine;
	if (differs)
		fail(0, "rank %u: started with other arguments or another gpulab than rank 0 (%s)", g->rank, what);
	if (group_worst(g, differs))
		return differs ? EXIT_RANKS : fail(EXIT_RANKS, "rank %u: the ranks were not started alike; "
							    "every rank stops (the differing rank's line says how)", g->rank);
	return 0;
}

int group_seed_base(const struct gpulab_group *g, uint64_t *base)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	*base = ((uint64_t)ts.tv_sec << 32 ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 20) | 1; /* never 0: 0 means none */
	return g && g->size > 1 && g->bcast(base, sizeof *base) ? EXIT_RANKS : 0;
}

int group_places(const struct gpulab_group *g, const struct rank_place *mine, struct rank_place *places)
{
	if (!g || g->size < 2) {
		places[0] = *mine;
		return 0;
	}
	return g->gather(mine, places, sizeof *mine) ? EXIT_RANKS : 0;
}

void group_leave(const struct gpulab_group *g)
{
	if (g && g->leave)
		g->leave();
}
