/*
 * NCCL's communicators, kept from one point of a run to the next.  Making
 * one is most of a small point's time: a rank's communicator is a
 * non-blocking one and a blocking child split from it (ranks.cuh), each
 * a round of NCCL's bootstrap and topology search, a second or more
 * between two processes; ncclCommInitAll in one process costs about as
 * much.  A sweep of 30 points made 60 of them (issue 52).  So a point
 * borrows the kept ones and gives them back at its teardown; one that saw
 * NCCL fail drops them, and the next point makes new ones.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_COMMS_CUH
#define GPULAB_MULTIGPU_COMMS_CUH

#include "gpus.cuh"

#include <nccl.h>

#include <algorithm>

namespace {

struct kept_comms {
	unsigned g = 0;                         /* in one process: the GPUs they span, devices[0..g) */
	int devices[gpus::max_gpus] = {};
	ncclComm_t comms[gpus::max_gpus] = {};  /* one a GPU; as a rank, comms[0] alone */
	ncclComm_t parent = nullptr;            /* as a rank: the non-blocking one comms[0] was split from */

	/* No NCCL error seen on c since it was made (a lost peer, a failed
	 * collective): asked without waiting. */
	static bool fine(ncclComm_t c)
	{
		ncclResult_t state = ncclSuccess;
		return ncclCommGetAsyncError(c, &state) == ncclSuccess && state == ncclSuccess;
	}

	bool healthy() const
	{
		if (!comms[0])
			return false;
		for (ncclComm_t c : comms)
			if (c && !fine(c))
				return false;
		return !parent || fine(parent);
	}

	/* Kept for this process's n GPUs `devs`, in order? */
	bool spans(unsigned n, const int *devs) const { return g == n && std::equal(devs, devs + n, devices); }

	/* Aborted, which waits for no peer: every point that used them has
	 * ended, or has given up on a run that a lost peer holds, where a
	 * finalize would hang. */
	void drop()
	{
		for (ncclComm_t &c : comms)
			if (c)
				ncclCommAbort(c), c = nullptr;
		if (parent)
			ncclCommAbort(parent), parent = nullptr;
		g = 0;
	}

	/* A point's teardown: kept while healthy, else dropped. */
	void given_back()
	{
		if (!healthy())
			drop();
	}

	~kept_comms() { drop(); } /* at the plugin's unload, after the last point */
};

/* This process's one set. */
kept_comms &kept()
{
	static kept_comms k;
	return k;
}

} // namespace

#endif
