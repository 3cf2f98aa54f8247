# The reduce plugin.
pkglib_LTLIBRARIES += plugins/reduce/reduce.la
plugins_reduce_reduce_la_SOURCES = plugins/reduce/reduce.cu
plugins_reduce_reduce_la_LDFLAGS = $(plugin_link_flags)
plugins_reduce_reduce_la_LIBADD = $(plugin_libs)
EXTRA_DIST += plugins/reduce/book.cuh plugins/reduce/best.cuh plugins/reduce/rungs.cuh bench/reduce.sh bench/rungs.sh bench/common.sh bench/table.py bench/compare_table.py
plugins/reduce/reduce.lo: plugins/reduce/book.cuh plugins/reduce/best.cuh plugins/reduce/rungs.cuh \
	include/gpulab/lab.cuh include/gpulab/plugin.h
dist_dropin_DATA += etc/conf.d/reduce.ini
