/* profile.h in a build configured --without-cupti: --metrics says so. */
#include "run/profile.h"

#include "config/options.h"
#include "exitcode.h"

#include <stdio.h>

static int no_cupti(char *err, size_t len)
{
	snprintf(err, len, "%s: this gpulab was built without CUPTI (configure --without-cupti); "
		 "rebuild it with the CUDA toolkit's CUPTI to read counters", options_long(OPT_METRICS));
	return EXIT_METRICS;
}

int profiler_built(char *err, size_t len)
{
	return no_cupti(err, len);
}

int profiler_open(struct profiler **out, char *err, size_t len)
{
	*out = NULL;
	return no_cupti(err, len);
}

int profiler_check(struct profiler *p, const char *const *metrics, size_t n, char *err, size_t len)
{
	(void)p, (void)metrics, (void)n;
	return no_cupti(err, len);
}

int profiler_collect(struct profiler *p, const char *const *metrics, size_t n, const struct profile_target *t,
		     double *values, unsigned *passes, char *err, size_t len)
{
	(void)p, (void)metrics, (void)n, (void)t, (void)values, (void)passes;
	return no_cupti(err, len);
}

void profiler_close(struct profiler *p)
{
	(void)p;
}
