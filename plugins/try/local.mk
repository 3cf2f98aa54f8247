# The try plugin: a learner's kernel compiled at run time with NVRTC
# (configure builds it where NVRTC is found).  Its C parts (the contract,
# the include filter, the compiler's messages, the cache and its SHA-256,
# the bounded compile, the exercises built from challenge folders) are
# also the CPU tests' and the fuzzer's.
try_c_sources = plugins/try/contract.c plugins/try/contract.h plugins/try/log.c plugins/try/log.h \
	plugins/try/cache.c plugins/try/cache.h plugins/try/compile.c plugins/try/compile.h \
	plugins/try/filter.c plugins/try/filter.h plugins/try/sha256.c plugins/try/sha256.h \
	plugins/try/challenges.c plugins/try/challenges.h
# What of the core the plugin uses (the log escaped as the core escapes,
# challenge.ini read as the core reads it): linked from this library, not
# compiled into the plugin from the core's sources (issue 54).  PIC, as a
# plugin needs; the core's own program builds the same files into libcore.a.
noinst_LTLIBRARIES = core/libshared.la
core_libshared_la_SOURCES = core/escape.c core/escape.h core/plugins/challenge.c core/plugins/challenge.h
core_libshared_la_CPPFLAGS = $(AM_CPPFLAGS)
core_libshared_la_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
# The challenges (docs/challenge.md): a folder each, installed under
# $(pkgdatadir)/challenges; the build tree's gpulab reads them from the
# source (gpulab-uninstalled sets GPULAB_CHALLENGES).
challenges_reducedir = $(pkgdatadir)/challenges/reduce
dist_challenges_reduce_DATA = challenges/reduce/challenge.ini challenges/reduce/template.cu
challenges_transposedir = $(pkgdatadir)/challenges/transpose
dist_challenges_transpose_DATA = challenges/transpose/challenge.ini challenges/transpose/template.cu
challenges_sum_matrixdir = $(pkgdatadir)/challenges/sum_matrix
dist_challenges_sum_matrix_DATA = challenges/sum_matrix/challenge.ini challenges/sum_matrix/template.cu
challenges_prefix_sumdir = $(pkgdatadir)/challenges/prefix_sum
dist_challenges_prefix_sum_DATA = challenges/prefix_sum/challenge.ini challenges/prefix_sum/template.cu
challenges_histogramdir = $(pkgdatadir)/challenges/histogram
dist_challenges_histogram_DATA = challenges/histogram/challenge.ini challenges/histogram/template.cu
EXTRA_DIST += etc/conf.d/try.ini plugins/try/builtins.cuh
if HAVE_NVRTC
pkglib_LTLIBRARIES += plugins/try/try.la
plugins_try_try_la_SOURCES = plugins/try/try.cu $(try_c_sources)
# flags of its own, so its objects have names of their own
plugins_try_try_la_CPPFLAGS = $(AM_CPPFLAGS)
# -z nodelete: NVRTC allocates for the life of the process when it is
# loaded; unloading it with the plugin would turn that into a leak
# (LeakSanitizer sees 72704 bytes from an unloaded module) and gain nothing.
plugins_try_try_la_LDFLAGS = $(plugin_link_flags) -Wl,-z,nodelete
plugins_try_try_la_LIBADD = core/libshared.la $(INIH_LIBS) $(plugin_libs) $(NVRTC_LIBS)
# try.cu reads a challenge through the core's header (plugins/challenge.h)
plugins/try/try.lo: plugins/try/try.cu plugins/try/compile.h plugins/try/filter.h plugins/try/contract.h \
		plugins/try/challenges.h plugins/try/builtins.cuh core/plugins/challenge.h include/gpulab/lab.cuh \
		include/gpulab/plugin.h
	$(AM_V_NVCC)$(SHELL) $(top_srcdir)/build-aux/nvcc-lt $@ $(NVCC) $(NVCCFLAGS) -I$(top_srcdir)/core -c $<
dist_dropin_DATA += etc/conf.d/try.ini
endif
