/*
 * Every exercise's parameters: the -p keys it takes, and where they land.
 * Part of the multigpu plugin, one translation unit: multigpu.cu includes
 * it, and it includes the parts it uses.
 */
#ifndef GPULAB_MULTIGPU_PARAMS_CUH
#define GPULAB_MULTIGPU_PARAMS_CUH

#include "gpus.cuh"
#include "ring.cuh"

#include <gpulab/lab.cuh>

namespace {

struct copy_opts {
	unsigned dir;     /* 0: uni, 1: bi */
	uint64_t seed;
};

struct peer_opts {
	uint64_t seed;
};

struct multi_opts {
	unsigned gpus;    /* 0: every visible GPU (up to 8); else the first N */
	uint64_t seed;
};

struct sendrecv_opts {
	multi_opts m;     /* first, so that the collectives' code reads it as theirs */
	uint64_t chunk;   /* bytes */
};

struct ring_opts {
	unsigned gpus;
	uint64_t chunk;   /* bytes */
	uint64_t depth;   /* streams per GPU */
	unsigned launch;  /* 0: auto (graph in one process, streams as ranks), 1: graph, 2: streams */
	uint64_t seed;
};

#define GPUS_PARAM(Opts, field)                                                                              \
	gpulab_param                                                                                         \
	{                                                                                                    \
		.key = "gpus", .type = GPULAB_PARAM_ENUM, .offset = offsetof(Opts, field), .def = "all",     \
		.help = "GPUs: all those visible (up to 8), or the first N", .choices = "all|1|2|3|4|5|6|7|8" \
	}

const gpulab_param copy_params[] = {
	{ .key = "dir", .type = GPULAB_PARAM_ENUM, .offset = offsetof(copy_opts, dir), .def = "uni",
	  .help = "uni: GPU 0 to GPU 1; bi: both ways at once (GB/s stays per direction)", .choices = "uni|bi" },
	LAB_SEED(copy_opts, seed),
	{}
};

const gpulab_param peer_params[] = { LAB_SEED(peer_opts, seed), {} };

const gpulab_param multi_params[] = { GPUS_PARAM(multi_opts, gpus), LAB_SEED(multi_opts, seed), {} };

const gpulab_param sendrecv_params[] = {
	GPUS_PARAM(sendrecv_opts, m.gpus),
	{ .key = "chunk", .type = GPULAB_PARAM_COUNT, .offset = offsetof(sendrecv_opts, chunk), .def = "1G",
	  .help = "most bytes one send of a ring step moves: smaller, a slice's add overlaps the next one's send, but "
		  "NCCL's sends lose speed as they shrink (docs/multigpu.md)", .min = 1024, .max = 1ll << 40 },
	LAB_SEED(sendrecv_opts, m.seed),
	{}
};

const gpulab_param ring_params[] = {
	GPUS_PARAM(ring_opts, gpus),
	{ .key = "chunk", .type = GPULAB_PARAM_COUNT, .offset = offsetof(ring_opts, chunk), .def = "32M",
	  .help = "most bytes one kernel of a ring step moves: the pipeline's grain", .min = 4096, .max = 1ll << 30 },
	{ .key = "depth", .type = GPULAB_PARAM_COUNT, .offset = offsetof(ring_opts, depth), .def = "2",
	  .help = "streams per GPU: chunks in flight at once", .min = 1, .max = ring::max_depth },
	{ .key = "launch", .type = GPULAB_PARAM_ENUM, .offset = offsetof(ring_opts, launch), .def = "auto",
	  .help = "graph: the schedule captured once as a CUDA graph; streams: issued anew every run; auto: graph in "
		  "one process, streams as ranks (they meet between steps)", .choices = "auto|graph|streams" },
	LAB_SEED(ring_opts, seed),
	{}
};

} // namespace

#endif
