# The multigpu plugin: the reduction across GPUs, hand-made and NCCL's.
# Built where configure found NCCL (HAVE_NCCL); it alone links -lnccl.
# Its sources are distributed either way.
# One translation unit, its parts by job: params and plan (shared), p2p
# (the links, the sums over GPUs), allreduce_ring (by hand), comms (NCCL's
# communicators kept from point to point), ranks (NCCL across processes), ipc (ranks sharing memory), collectives (NCCL's),
# sendrecv_ring (by hand over NCCL).
multigpu_headers = plugins/multigpu/gpus.cuh plugins/multigpu/ring.cuh plugins/multigpu/sendrecv.h \
	plugins/multigpu/params.cuh plugins/multigpu/plan.cuh plugins/multigpu/p2p.cuh \
	plugins/multigpu/allreduce_ring.cuh plugins/multigpu/comms.cuh plugins/multigpu/ranks.cuh plugins/multigpu/collectives.cuh \
	plugins/multigpu/sendrecv_ring.cuh plugins/multigpu/ipc.cuh
EXTRA_DIST += plugins/multigpu/multigpu.cu $(multigpu_headers) etc/conf.d/multigpu.ini \
	docs/multigpu.md bench/multigpu.sh bench/busbw.py bench/ranks.sh bench/ranks_table.py bench/ranks-sweep.sh bench/wall_split.py \
	bench/multigpu-4gpu.sh bench/multigpu4_table.py bench/kill-rank.sh
if HAVE_NCCL
pkglib_LTLIBRARIES += plugins/multigpu/multigpu.la
plugins_multigpu_multigpu_la_SOURCES = plugins/multigpu/multigpu.cu
plugins_multigpu_multigpu_la_LDFLAGS = $(plugin_link_flags)
plugins_multigpu_multigpu_la_LIBADD = $(plugin_libs) $(NCCL_LIBS)
# The .cu.lo rule, with NCCL's include directory (empty where the compiler
# finds nccl.h by itself); the reduce plugin's `best` kernel is included.
plugins/multigpu/multigpu.lo: plugins/multigpu/multigpu.cu $(multigpu_headers) \
	plugins/reduce/best.cuh plugins/reduce/book.cuh include/gpulab/lab.cuh include/gpulab/plugin.h
	$(AM_V_NVCC)$(SHELL) $(top_srcdir)/build-aux/nvcc-lt $@ $(NVCC) $(NVCCFLAGS) $(NCCL_CPPFLAGS) -c $<
dist_dropin_DATA += etc/conf.d/multigpu.ini
endif
