# The transpose plugin.
pkglib_LTLIBRARIES += plugins/transpose/transpose.la
plugins_transpose_transpose_la_SOURCES = plugins/transpose/transpose.cu
plugins_transpose_transpose_la_LDFLAGS = $(plugin_link_flags)
plugins_transpose_transpose_la_LIBADD = $(plugin_libs) $(CUBLAS_LIBS)
if HAVE_CUBLAS
# -z nodelete: cuBLAS, like NVRTC (plugins/try/local.mk), allocates for the
# life of the process when it is loaded; unloading it with the plugin
# turns that into a leak (LeakSanitizer: 72704 bytes each from libcublas
# and libcublasLt, unloaded, in every gpulab run of the sanitized build).
plugins_transpose_transpose_la_LDFLAGS += -Wl,-z,nodelete
endif
EXTRA_DIST += plugins/transpose/aligned.cuh plugins/transpose/kernels.cuh plugins/transpose/staged.cuh plugins/transpose/tma.cuh bench/transpose.sh bench/transpose-tma.sh bench/transpose-shapes.sh bench/shapes_table.py bench/metrics_table.py
plugins/transpose/transpose.lo: plugins/transpose/aligned.cuh plugins/transpose/kernels.cuh plugins/transpose/staged.cuh plugins/transpose/tma.cuh include/gpulab/lab.cuh include/gpulab/plugin.h
dist_dropin_DATA += etc/conf.d/transpose.ini
