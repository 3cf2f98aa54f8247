# The divergence plugin.  book_debug.cu alone is built with -G, as the book
# ran its kernels; the rest is optimised.
pkglib_LTLIBRARIES += plugins/divergence/divergence.la
plugins_divergence_divergence_la_SOURCES = plugins/divergence/divergence.cu \
	plugins/divergence/book_debug.cu
plugins_divergence_divergence_la_LDFLAGS = $(plugin_link_flags)
plugins_divergence_divergence_la_LIBADD = $(plugin_libs)
EXTRA_DIST += plugins/divergence/work.cuh plugins/divergence/kernels.cuh plugins/divergence/debug.h
plugins/divergence/book_debug.lo: plugins/divergence/book_debug.cu plugins/divergence/debug.h
	$(AM_V_NVCC)$(SHELL) $(top_srcdir)/build-aux/nvcc-lt $@ $(NVCC) $(NVCCFLAGS) -G -c $<
plugins/divergence/divergence.lo: plugins/divergence/work.cuh plugins/divergence/kernels.cuh \
	plugins/divergence/debug.h include/gpulab/lab.cuh include/gpulab/plugin.h
dist_dropin_DATA += etc/conf.d/divergence.ini
