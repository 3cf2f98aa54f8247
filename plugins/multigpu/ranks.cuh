/*
 * NCCL across processes: under a launcher each process is one rank; the
 * bounded waits, the ranks agreeing before each set-up step, and their
 * communicator.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_RANKS_CUH
#define GPULAB_MULTIGPU_RANKS_CUH

#include "comms.cuh"
#include "gpus.cuh"

#include <gpulab/lab.cuh>

#include <nccl.h>

#include <ctime>
#include <sched.h>
#include <unistd.h>

namespace {

#define NCCL_TRY(ctx, call)                                                                 \
	do {                                                                                \
		ncclResult_t nccl_e_ = (call);                                              \
		if (nccl_e_ != ncclSuccess && nccl_e_ != ncclInProgress) {                  \
			(ctx)->error((ctx), "%s: %s", #call, ncclGetErrorString(nccl_e_)); \
			return GPULAB_ECUDA;                                                \
		}                                                                           \
	} while (0)

/* Under a launcher (ctx->group) this process is one rank with one GPU,
 * and a collective spans every rank; alone, it spans this process's GPUs.
 * The width of the collective, and the rank of this process's GPU r: */
unsigned width(const gpulab_ctx *ctx, unsigned g) { return ctx->group ? ctx->group->size : g; }
unsigned rank_of(const gpulab_ctx *ctx, unsigned r) { return ctx->group ? ctx->group->rank : r; }

/* How long a rank waits for NCCL (its communicator's set-up) before it
 * aborts the communicator: no rank hangs on a peer that is gone.
 * NCCL_TIMEOUT_S is gpulab's own bound. */
const double NCCL_TIMEOUT_S = 120;

double seconds_now()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A non-blocking communicator's last call, waited for: success, or its
 * error, or the bound passed (the communicator is then aborted).  NCCL
 * does that call on a thread of its own, which is done in microseconds
 * when the peers are there: spin (yielding) through the first
 * millisecond, as a sleep would cost a timer tick each time, then sleep. */
int nccl_wait(gpulab_ctx *ctx, ncclComm_t *comm, const char *what)
{
	ncclResult_t state = ncclInProgress;
	for (double t0 = seconds_now(), waited = 0; comm && *comm; waited = seconds_now() - t0) {
		if (ncclCommGetAsyncError(*comm, &state) != ncclSuccess || state != ncclInProgress)
			break;
		if (waited > NCCL_TIMEOUT_S) {
			ncclCommAbort(*comm);
			*comm = nullptr;
			ctx->error(ctx, "%s: no answer from the other ranks in %g s; communicator aborted", what, NCCL_TIMEOUT_S);
			return GPULAB_ECUDA;
		}
		if (waited < 1e-3)
			sched_yield();
		else
			usleep(100);
	}
	if (state != ncclSuccess) {
		ctx->error(ctx, "%s: %s", what, ncclGetErrorString(state));
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

/* A non-blocking call's result: its error said, or its end waited for. */
int nccl_started(gpulab_ctx *ctx, ncclResult_t e, ncclComm_t *comm, const char *what)
{
	if (e == ncclSuccess || e == ncclInProgress)
		return nccl_wait(ctx, comm, what);
	ctx->error(ctx, "%s: %s", what, ncclGetErrorString(e));
	return GPULAB_ECUDA;
}

/* Under a launcher, every rank's step so far (rc), agreed: a rank goes on
 * only if all can, as a rank that stopped would leave the others waiting
 * in NCCL for it.  Every rank makes this call, whatever its rc. */
int all_ranks_ready(gpulab_ctx *ctx, int rc, const char *step)
{
	double bad = rc != GPULAB_OK;
	if (ctx->group->max(&bad, 1) != 0) {
		ctx->error(ctx, "the ranks lost each other before %s", step);
		return GPULAB_ECUDA;
	}
	if (rc == GPULAB_OK && bad) {
		ctx->error(ctx, "another rank failed before %s (its own line says why)", step);
		return GPULAB_ECUDA;
	}
	return rc;
}

/* One communicator across the ranks, this rank's in comms[0] of the kept
 * set (comms.cuh).  Rank 0's NCCL id goes to every rank through the
 * launcher's group (MPI); each joins a non-blocking communicator, so that
 * a rank that never comes costs a bounded wait, not a hang.  The runs
 * then go through a blocking child of it (ncclCommSplit, itself bounded
 * as its parent is non-blocking): a non-blocking communicator starts a
 * thread for every call, tens of microseconds each, where nccl-tests'
 * blocking one enqueues in a few.  The rank's steps before (rc) are
 * agreed first, and whether every rank still has a healthy kept set: all
 * use theirs, or all make new ones, so that no rank enters NCCL alone. */
int join_ranks(gpulab_ctx *ctx, int rc)
{
	const gpulab_group *grp = ctx->group;
	kept_comms &k = kept();
	double v[2] = { (double)(rc != GPULAB_OK), (double)!k.healthy() };
	if (grp->max(v, 2) != 0) {
		ctx->error(ctx, "the ranks lost each other before NCCL's set-up");
		return GPULAB_ECUDA;
	}
	if (rc == GPULAB_OK && v[0]) {
		ctx->error(ctx, "another rank failed before NCCL's set-up (its own line says why)");
		return GPULAB_ECUDA;
	}
	if (rc != GPULAB_OK || !v[1])
		return rc;
	k.drop();
	ncclUniqueId id = {};
	if (grp->rank == 0 && ncclGetUniqueId(&id) != ncclSuccess) {
		ctx->error(ctx, "ncclGetUniqueId failed");
		rc = GPULAB_ECUDA;
	}
	if ((rc = all_ranks_ready(ctx, rc, "sharing NCCL's id")) != GPULAB_OK)
		return rc;
	if (grp->bcast(&id, sizeof id) != 0) {
		ctx->error(ctx, "the ranks could not share NCCL's id");
		return GPULAB_ECUDA;
	}
	ncclConfig_t setup = NCCL_CONFIG_INITIALIZER, runs = NCCL_CONFIG_INITIALIZER;
	setup.blocking = 0;
	runs.blocking = 1;
	gpus::device_kept keep;
	LAB_TRY(ctx, cudaSetDevice(ctx->devices[0]));
	rc = nccl_started(ctx, ncclCommInitRankConfig(&k.parent, (int)grp->size, id, (int)grp->rank, &setup), &k.parent,
			  "ncclCommInitRankConfig");
	if ((rc = all_ranks_ready(ctx, rc, "splitting NCCL's communicator")) != GPULAB_OK)
		return rc;
	rc = nccl_started(ctx, ncclCommSplit(k.parent, 0, (int)grp->rank, &k.comms[0], &runs), &k.parent, "ncclCommSplit");
	return all_ranks_ready(ctx, rc, "the runs");
}

/* A rank's communicator, asked without waiting whether NCCL's own
 * threads saw a peer fail (a lost connection, a remote error). */
int peers_fine(gpulab_ctx *ctx, ncclComm_t comm)
{
	ncclResult_t state = ncclSuccess;
	if (ncclCommGetAsyncError(comm, &state) != ncclSuccess || (state != ncclSuccess && state != ncclInProgress)) {
		ctx->error(ctx, "NCCL: %s", ncclGetErrorString(state));
		return GPULAB_ECUDA;
	}
	return GPULAB_OK;
}

} // namespace

#endif
