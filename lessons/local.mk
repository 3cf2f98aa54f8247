# The lessons of `gpulab learn` (docs/learn.md), one INI file each,
# installed where the command reads them ($(pkgdatadir)/lessons).
lessonsdir = $(pkgdatadir)/lessons
dist_lessons_DATA = lessons/block-size-floor.ini lessons/complete-unroll-warps8.ini \
	lessons/divergence-debug.ini lessons/divergence-efficiency-math2.ini lessons/divergence-efficiency.ini \
	lessons/divergence-inst.ini lessons/divergence.ini lessons/effective-bandwidth.ini \
	lessons/float-int-complete.ini lessons/float-int-interleaved.ini lessons/latency-hiding.ini \
	lessons/load-throughput-not-speed.ini lessons/nested-fewer-launches.ini lessons/nested-hello-depth.ini \
	lessons/nested-hello-grid.ini lessons/nested-hello.ini lessons/nested-nosync.ini \
	lessons/nested-visibility-finish.ini lessons/nested-visibility-launch.ini lessons/occupancy-not-speed.ini \
	lessons/occupancy-premise.ini lessons/reduce-complete-unroll.ini lessons/reduce-interleaved-inst.ini \
	lessons/reduce-interleaved-less-loads.ini lessons/reduce-interleaved-less.ini \
	lessons/reduce-interleaved-loads.ini lessons/reduce-interleaved-stores.ini lessons/reduce-interleaved.ini \
	lessons/reduce-neighbored-inst.ini lessons/reduce-neighbored-less-throughput.ini \
	lessons/reduce-neighbored-less.ini lessons/reduce-remap-efficiency.ini lessons/reduce-remap-loads.ini \
	lessons/reduce-unroll.ini lessons/reduce-volatile-warp-loads.ini lessons/reduce-volatile-warp.ini \
	lessons/rung-cluster.ini lessons/rung-persistent.ini lessons/rung-wide.ini lessons/scalability.ini \
	lessons/smem-dyn.ini lessons/smem-gmem-loads.ini lessons/smem-gmem-stores.ini lessons/smem-gmem.ini \
	lessons/smem-pad-ideal.ini lessons/smem-pad.ini lessons/smem-unroll4-dram.ini lessons/smem-unroll4-loads.ini \
	lessons/smem-unroll4-stores.ini lessons/smem-unroll4.ini lessons/sum-matrix-blocks.ini \
	lessons/sum-matrix-occupancy.ini lessons/sum-matrix-store-efficiency.ini lessons/sum-matrix-stores.ini \
	lessons/sum-matrix-transactions.ini lessons/syncthreads-cost.ini lessons/transpose-memcpy.ini \
	lessons/transpose-tma.ini lessons/unroll-dram.ini lessons/unroll-few-blocks-sm.ini \
	lessons/unroll-few-blocks.ini lessons/unroll-loads.ini lessons/unroll-stores.ini \
	lessons/unroll16-not-much.ini lessons/unroll16.ini lessons/unroll8-loop-loads.ini \
	lessons/unroll8-loop-stores.ini lessons/unroll8-loop.ini lessons/volatile-l1.ini lessons/warp-partial.ini
EXTRA_DIST += lessons/local.mk docs/learn.md examples/learn/unroll8_shfl.cu
