/*
 * The mpi plugin: gpulab as ranks of a job that mpirun or srun started,
 * one process per GPU, on one machine or several.  It has no exercises:
 * it is the launcher the core asks for (plugin.h's `join`), and the only
 * part of gpulab that links MPI.  MPI starts the ranks and carries a few
 * numbers between them (the slowest rank's time of each sample, rank 0's
 * NCCL id); the data of a collective goes over NCCL.
 *
 * Every wait is bounded.  The collectives here are MPI's non-blocking
 * ones, tested until done or until GPULAB_RANK_TIMEOUT seconds (default
 * 300: longer than any one sample, whose timeout is 10 s, or one setup)
 * have passed; then this rank says so in one line and ends the job with
 * MPI_Abort, which the launcher carries to every rank.  A rank that dies
 * is noticed by the launcher itself, which ends the others.
 */
#include "config.h"

#include <gpulab/plugin.h>

#include <mpi.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MPI_TIMEOUT_DEFAULT_S 300.0
#define EXIT_RANKS_CODE 13 /* core/exitcode.h's EXIT_RANKS: the launcher passes it on */

static struct gpulab_group ranks;
static double timeout_s = MPI_TIMEOUT_DEFAULT_S;

/* Was this process started by a launcher?  Each names its ranks in the
 * environment: Open MPI's mpirun, PMIx (srun --mpi=pmix, and Open MPI 5),
 * and PMI-1/2 (MPICH's hydra, srun --mpi=pmi2). */
static int launched(void)
{
	static const char *const names[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (getenv(names[i]))
			return 1;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A request, waited for at most timeout_s; past that the job ends.  It
 * spins through its first millisecond, then naps: the ranks leave the
 * wait after each sample within microseconds of each other and start the
 * next together, where a nap (20 us asked, often 70 given) would start
 * each late by its own amount, and a batch of short collectives would
 * wait that long for the last rank. */
static int bounded(MPI_Request *req, const char *what)
{
	double start = now_s(), until = start + timeout_s;
	int done = 0;
	struct timespec nap = { 0, 20000 }; /* a long wait costs no CPU worth counting */
	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
		double now = now_s();
		if (now - start < 1e-3) {
			sched_yield(); /* where ranks share cores, mpirun (its output) gets its turn */
			continue;
		}
		if (now > until) {
			fprintf(stderr, "gpulab: rank %u: no answer from the other ranks to %s in %g s (GPULAB_RANK_TIMEOUT); "
					"ending the job\n", ranks.rank, what, timeout_s);
			MPI_Abort(MPI_COMM_WORLD, EXIT_RANKS_CODE);
		}
		nanosleep(&nap, NULL);
	}
	if (done)
		return 0;
	fprintf(stderr, "gpulab: rank %u: MPI failed during %s\n", ranks.rank, what);
	return -1;
}

static int mpi_bcast(void *buf, size_t len)
{
	MPI_Request req;
	if (len > (size_t)INT32_MAX || MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -1;
	return bounded(&req, "a broadcast");
}

static int mpi_max(double *v, size_t n)
{
	MPI_Request req;
	if (n > (size_t)INT32_MAX || MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -1;
	return bounded(&req, "a sample's time");
}

static int mpi_gather(const void *mine, void *all, size_t len)
{
	MPI_Request req;
	if (len > (size_t)INT32_MAX
	    || MPI_Iallgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -1;
	return bounded(&req, "the ranks' places");
}

/* The run is over.  Each rank first naps 50 ms, so that the launcher
 * forwards what the ranks said on stderr before they exit: Open MPI's
 * mpirun, seeing every rank exit at once, could end the job with a
 * rank's last line still unread.  (The "one time in five on two shared
 * cores" this nap was first meant for, the line that says why every
 * rank stops, turned out to be that line spliced with another rank's,
 * mpirun forwarding bytes and not lines; fail() now writes each line
 * whole.  The nap stays for a rank's last words before it leaves.) */
static void mpi_leave(void)
{
	int done = 0;
	struct timespec nap = { 0, 50000000 };
	if (MPI_Finalized(&done) == MPI_SUCCESS && !done) {
		nanosleep(&nap, NULL);
		MPI_Finalize();
	}
}

/* The ranks of this machine: those that share memory with this one,
 * whatever the launcher (MPI 3's split by type). */
static int local_ranks(void)
{
	MPI_Comm local;
	int r, n;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, (int)ranks.rank, MPI_INFO_NULL, &local) != MPI_SUCCESS)
		return -1;
	int rc = MPI_Comm_rank(local, &r) != MPI_SUCCESS || MPI_Comm_size(local, &n) != MPI_SUCCESS;
	MPI_Comm_free(&local);
	ranks.local_rank = (unsigned)r, ranks.local_size = (unsigned)n;
	return rc ? -1 : 0;
}

static const struct gpulab_group *mpi_join(int *failed)
{
	int r, n, ready = 0;
	const char *t = getenv("GPULAB_RANK_TIMEOUT");
	*failed = 0;
	if (!launched())
		return NULL;
	if (t && *t && (timeout_s = strtod(t, NULL)) <= 0)
		timeout_s = MPI_TIMEOUT_DEFAULT_S;
	if ((MPI_Initialized(&ready) != MPI_SUCCESS || (!ready && MPI_Init(NULL, NULL) != MPI_SUCCESS))
	    || MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) != MPI_SUCCESS
	    || MPI_Comm_rank(MPI_COMM_WORLD, &r) != MPI_SUCCESS || MPI_Comm_size(MPI_COMM_WORLD, &n) != MPI_SUCCESS) {
		fprintf(stderr, "gpulab: started by a launcher, but MPI could not start\n");
		*failed = 1;
		return NULL;
	}
	ranks = (struct gpulab_group){ .rank = (unsigned)r, .size = (unsigned)n, .bcast = mpi_bcast, .max = mpi_max,
				       .gather = mpi_gather, .leave = mpi_leave };
	if (local_ranks()) {
		fprintf(stderr, "gpulab: rank %d: MPI could not tell the ranks of this machine\n", r);
		*failed = 1;
		return NULL;
	}
	return &ranks;
}

static const struct gpulab_plugin mpi_plugin = {
	GPULAB_PLUGIN_HEAD,
	.name = "mpi",
	.summary = "the launcher: under mpirun or srun, gpulab runs as ranks, one GPU each (no exercises of its own)",
	.join = mpi_join,
};

GPULAB_EXPORT GPULAB_PLUGIN_ENTRY
{
	return &mpi_plugin;
}
