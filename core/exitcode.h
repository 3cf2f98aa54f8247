/* The exit codes of gpulab: each kind of failure has its own, so scripts
 * and tests can tell them apart.  The man page lists them. */
#ifndef GPULAB_EXITCODE_H
#define GPULAB_EXITCODE_H

#include <gpulab/plugin.h>

enum exitcode {
	EXIT_OK = 0,
	EXIT_WRONG = 1,     /* an exercise computed a wrong result */
	EXIT_USAGE = 2,     /* unknown option or key, malformed value */
	EXIT_CONFIG = 3,    /* an INI file cannot be read or parsed */
	EXIT_PLUGIN = 4,    /* a plugin cannot be loaded or has the wrong ABI; or
			     * its exercise told a choice it does not declare */
	EXIT_NOMATCH = 5,   /* no exercise matches a name */
	EXIT_NODEVICE = 6,  /* no CUDA device or driver */
	EXIT_PARAM = 7,     /* a parameter the exercise cannot use, or too large */
	EXIT_CUDA = 8,      /* a CUDA call failed during a run */
	EXIT_METRICS = 9,   /* --metrics cannot be read: no CUPTI, no permission, or a metric this GPU lacks */
	EXIT_NOMEM = 10,    /* host memory ran out */
	EXIT_SLOWER = 11,   /* compare --fail-above: a point is slower by more than allowed, with confidence */
	EXIT_WATCHDOG = 12, /* a run did not end within --watchdog and was stopped */
	EXIT_RANKS = 13,    /* the ranks of a launched job (mpirun, srun) cannot run together:
			     * one failed to join or to run a point, they were started
			     * differently, or a machine has more ranks than GPUs */
	EXIT_AT_ONCE = 14,  /* a second signal ended gpulab at once: a record of -o lacks its
			     * closing line; a graceful stop (one signal) is 128 + it */
	EXIT_CHALLENGE = 15 /* a challenge folder is wrong: its challenge.ini (a key, a value,
			     * a generator or reference that does not exist, a size out of
			     * range) or its template.cu (does not compile); nothing was graded */
};

/* The one place a plugin's status becomes gpulab's exit code. */
static inline int exit_for_status(int status)
{
	switch (status) {
	case GPULAB_OK: return EXIT_OK;
	case GPULAB_WRONG: return EXIT_WRONG;
	case GPULAB_EPARAM: return EXIT_PARAM;
	case GPULAB_ENOMEM: return EXIT_NOMEM;
	case GPULAB_EINPUT: return EXIT_USAGE;
	default: return EXIT_CUDA; /* GPULAB_ECUDA, and any code a plugin invents */
	}
}

#endif
