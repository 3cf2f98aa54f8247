# The lessons of `gpulab learn` (docs/learn.md), one INI file each,
# installed where the command reads them ($(pkgdatadir)/lessons).
lessonsdir = $(pkgdatadir)/lessons
dist_lessons_DATA = lessons/divergence.ini lessons/divergence-debug.ini lessons/reduce-neighbored-less.ini \
	lessons/reduce-interleaved.ini lessons/reduce-unroll.ini lessons/reduce-volatile-warp.ini \
	lessons/reduce-complete-unroll.ini lessons/sum-matrix-blocks.ini lessons/sum-matrix-occupancy.ini \
	lessons/nested-nosync.ini lessons/smem-gmem.ini lessons/smem-pad.ini lessons/transpose-memcpy.ini \
	lessons/rung-wide.ini lessons/rung-persistent.ini lessons/rung-cluster.ini lessons/transpose-tma.ini
EXTRA_DIST += lessons/local.mk docs/learn.md examples/learn/unroll8_shfl.cu
