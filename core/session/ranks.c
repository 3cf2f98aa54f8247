/*
 * A session under a launcher (session/ranks.h): the ranks joined and
 * checked alike, every rank's place for rank 0's record, and what a rank
 * says of its own failures.
 */
#include "config.h"

#include "session/ranks.h"

#include "exitcode.h"
#include "fail.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* A rank's GPU is the one its local rank names: a machine with more
 * ranks than GPUs lacks it. */
int rank_device_missing(const struct gpulab_group *g, const struct device_info *d, int rc, const char *err)
{
	char host[64] = "";
	gethostname(host, sizeof host - 1);
	if (d->count > 0 && (int)g->local_rank >= d->count)
		return fail(EXIT_RANKS, "rank %u: local rank %u of %u on %s, which has %d GPU%s: one rank a GPU, so start "
				      "at most %d ranks a machine", g->rank, g->local_rank, g->local_size, host, d->count,
			    d->count == 1 ? "" : "s", d->count);
	return fail(rc, "rank %u: %s", g->rank, err);
}

/* A rank but rank 0 prints no table: its own failures go to stderr. */
void say_rank_failed(const struct gpulab_group *g, const struct job *j)
{
	char name[256], point[512];
	fail(0, "rank %u: %s (%s): %s", g->rank, job_name(j, name, sizeof name), job_case(j, point, sizeof point),
	     j->res.message);
}

/* Under a launcher: every rank's machine and GPU, for rank 0's record. */
int rank_places(const struct gpulab_group *g, const struct device_info *d, int gpu, struct rank_place **places)
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

/* Under a launcher (a launcher plugin's join): the ranks checked to be
 * started alike, and all but rank 0 silenced but for errors, with no
 * record of their own: *mine is the options they run with. */
int join_ranks(const struct options *o, const struct registry *r, const struct gpulab_group **g,
	       struct options *mine)
{
	char what[sizeof o->command_line + 128];
	int rc = group_join(r, g);
	if (rc || !*g)
		return rc;
	if (o->resume || o->metrics)
		return group_worst(*g, fail(EXIT_USAGE, "%s: not under a launcher yet; run it without mpirun or srun",
					    options_long(o->resume ? OPT_RESUME : OPT_METRICS)));
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
