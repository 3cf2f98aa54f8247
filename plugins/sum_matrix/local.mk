# The sum_matrix plugin.
pkglib_LTLIBRARIES += plugins/sum_matrix/sum_matrix.la
plugins_sum_matrix_sum_matrix_la_SOURCES = plugins/sum_matrix/sum_matrix.cu
plugins_sum_matrix_sum_matrix_la_LDFLAGS = $(plugin_link_flags)
plugins_sum_matrix_sum_matrix_la_LIBADD = $(plugin_libs)
EXTRA_DIST += plugins/sum_matrix/best.cuh
plugins/sum_matrix/sum_matrix.lo: plugins/sum_matrix/best.cuh include/gpulab/lab.cuh include/gpulab/plugin.h
dist_dropin_DATA += etc/conf.d/sum_matrix.ini
