/*
 * A sweep resolved once: for one exercise, every key it takes (the
 * generic ones first, then its own), where its value comes from (values
 * code handed over in the command line's place, the command line, then
 * the INI files' [exercise], [plugin] and [defaults] sections, then the
 * declared default), and every value of its axis parsed and checked,
 * typed.  What came typed is only narrowed here by the exercise's
 * declaration (its largest n, its types): a generic key's from the
 * command line (options.c typed it), and values handed over typed
 * (options_hand: --profile's, check's plans', try's gate's).  Text is
 * parsed here, once: -p's (only the exercise's declaration says its
 * type), the INI files', the defaults.  run/job.c plans a point from
 * these values: nothing is parsed twice.  Point k takes value k % n0 of the first key's
 * axis, then (k / n0) % n1 of the second's, and so on: n varies fastest,
 * so each run of rows reads as a curve.
 */
#ifndef GPULAB_SWEEP_H
#define GPULAB_SWEEP_H

#include "config/options.h"
#include "config/params.h"
#include "config/settings.h"

#include <gpulab/plugin.h>

/* One value of an axis: as given, and typed; or why it is refused (at
 * each point that takes it: the sweep's other points still run). */
struct sweep_value {
	char text[128];
	struct param_value value;   /* a PATH's points into the axis's text */
	char *why;                  /* NULL: taken */
};

struct sweep_key {
	struct gpulab_param decl;   /* a generic key with the exercise's default */
	int generic;                /* enum generic, or -1 for the exercise's own */
	char def[32];               /* decl.def's text for n and block */
	const char *axis;           /* its value, or the list or range of them, as given */
	char where[256];            /* where it came from: "-n 2^20", "FILE:LINE: key = v", "the default ..." */
	int defaulted;              /* from the declared default, not a user */
	size_t nvalues;
	struct sweep_value *values;
};

struct sweep {
	struct sweep_key *keys;
	size_t nkeys;
	size_t points;              /* the product of the axes' lengths (so far, where one is broken) */
	int refused;                /* 0, or the exit code that refuses every point (a malformed
				     * axis, too many points, a -n it does not take) ... */
	char why[512];              /* ... and why */
};

/* Resolve exercise e of plugin `plugin` against the command line o and
 * the configuration c.  0, or the exit code that refuses every point (as
 * s->refused: its one point says why, as the exercise's row). */
int sweep_resolve(struct sweep *s, const char *plugin, const struct gpulab_exercise *e, const struct options *o,
		  const struct config *c);

/* How many points the sweep plans: 1 where it is refused (that point says why). */
size_t sweep_points(const struct sweep *s);

void sweep_free(struct sweep *s);

#endif
