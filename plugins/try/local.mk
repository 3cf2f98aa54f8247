# The try plugin: a learner's kernel compiled at run time with NVRTC
# (configure builds it where NVRTC is found).  Its C parts (the contract,
# the include filter, the compiler's messages, the cache and its SHA-256,
# the bounded compile) are also the CPU tests' and the fuzzer's.
try_c_sources = plugins/try/contract.c plugins/try/contract.h plugins/try/log.c plugins/try/log.h \
	plugins/try/cache.c plugins/try/cache.h plugins/try/compile.c plugins/try/compile.h \
	plugins/try/filter.c plugins/try/filter.h plugins/try/sha256.c plugins/try/sha256.h
# The log is escaped as the core escapes: the same source, built into the
# plugin (which exports only its entry, so the two copies never meet).
try_plugin_sources = $(try_c_sources) core/escape.c core/escape.h
try_templates = plugins/try/templates/reduce.cu plugins/try/templates/transpose.cu \
	plugins/try/templates/sum_matrix.cu
EXTRA_DIST += $(try_templates) etc/conf.d/try.ini
if HAVE_NVRTC
pkglib_LTLIBRARIES += plugins/try/try.la
plugins_try_try_la_SOURCES = plugins/try/try.cu $(try_plugin_sources)
# flags of its own, so its objects have names of their own (escape.c is the core's too)
plugins_try_try_la_CPPFLAGS = $(AM_CPPFLAGS)
# -z nodelete: NVRTC allocates for the life of the process when it is
# loaded; unloading it with the plugin would turn that into a leak
# (LeakSanitizer sees 72704 bytes from an unloaded module) and gain nothing.
plugins_try_try_la_LDFLAGS = $(plugin_link_flags) -Wl,-z,nodelete
plugins_try_try_la_LIBADD = $(plugin_libs) $(NVRTC_LIBS)
plugins/try/try.lo: plugins/try/compile.h plugins/try/filter.h plugins/try/contract.h include/gpulab/lab.cuh include/gpulab/plugin.h
dist_dropin_DATA += etc/conf.d/try.ini
trytemplatesdir = $(pkgdatadir)/try
trytemplates_DATA = $(try_templates)
endif
