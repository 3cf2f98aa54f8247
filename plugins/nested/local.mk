# The nested plugin: dynamic parallelism needs relocatable device code and
# a device-link step, with the device runtime (libcudadevrt) linked into
# this plugin's own .so: device code cannot link across shared objects.
pkglib_LTLIBRARIES += plugins/nested/nested.la
plugins_nested_nested_la_SOURCES = plugins/nested/nested.cu
plugins_nested_nested_la_LDFLAGS = $(plugin_link_flags)
plugins_nested_nested_la_LIBADD = plugins/nested/nested_dlink.lo $(plugin_libs) -lcudadevrt
EXTRA_DIST += plugins/nested/kernels.cuh
plugins/nested/nested.lo: plugins/nested/nested.cu plugins/nested/kernels.cuh \
	include/gpulab/lab.cuh include/gpulab/plugin.h
	$(AM_V_NVCC)$(SHELL) $(top_srcdir)/build-aux/nvcc-lt $@ $(NVCC) $(NVCCFLAGS) -rdc=true -c $<
plugins/nested/nested_dlink.lo: plugins/nested/nested.lo
	$(AM_V_NVCC)$(SHELL) $(top_srcdir)/build-aux/nvcc-lt $@ $(NVCC) $(NVCC_ARCHFLAGS) \
		-dlink plugins/nested/.libs/nested.o -L$(CUDA_LIBDIR) -lcudadevrt
CLEANFILES += plugins/nested/nested_dlink.lo plugins/nested/.libs/nested_dlink.o
dist_dropin_DATA += etc/conf.d/nested.ini
