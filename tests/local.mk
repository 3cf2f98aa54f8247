# The test suite (Check).  check_core and check_cli need no GPU; check_gpu
# skips (77) without one, and fails instead under GPULAB_REQUIRE_GPU=1.

# Host-only plugins for the core's tests, and broken ones it must refuse.
fake_link_flags = -module -avoid-version -shared -rpath /nowhere
check_LTLIBRARIES += tests/plugins/fake.la tests/plugins/badabi.la \
	tests/plugins/nocb.la tests/plugins/noentry.la tests/plugins/oldminor.la tests/plugins/newminor.la \
	tests/plugins/faketry.la tests/plugins/waits.la tests/plugins/gridbug.la tests/plugins/fakeref.la
tests_plugins_fake_la_SOURCES = tests/plugins/fake.c
tests_plugins_fake_la_LDFLAGS = $(fake_link_flags)
tests_plugins_badabi_la_SOURCES = tests/plugins/fake.c
tests_plugins_badabi_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"badabi"' -DFAKE_ABI=99
tests_plugins_badabi_la_LDFLAGS = $(fake_link_flags)
tests_plugins_nocb_la_SOURCES = tests/plugins/fake.c
tests_plugins_nocb_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"nocb"' -DFAKE_NO_VERIFY
tests_plugins_nocb_la_LDFLAGS = $(fake_link_flags)
tests_plugins_noentry_la_SOURCES = tests/plugins/fake.c
tests_plugins_noentry_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"noentry"' -DFAKE_NO_ENTRY
tests_plugins_noentry_la_LDFLAGS = $(fake_link_flags)
tests_plugins_oldminor_la_SOURCES = tests/plugins/fake.c
tests_plugins_oldminor_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"oldminor"' -DFAKE_OLD_MINOR -DFAKE_MINOR=4
tests_plugins_oldminor_la_LDFLAGS = $(fake_link_flags)
tests_plugins_newminor_la_SOURCES = tests/plugins/fake.c
tests_plugins_newminor_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"newminor"' -DFAKE_MINOR=99
tests_plugins_newminor_la_LDFLAGS = $(fake_link_flags)
# fake with a reference (sleepy), for grade's "of ref" column
tests_plugins_fakeref_la_SOURCES = tests/plugins/fake.c
tests_plugins_fakeref_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_REFERENCE='"sleepy"'
tests_plugins_fakeref_la_LDFLAGS = $(fake_link_flags)
# the skeleton's old unsigned grid, in plan: gpulab check's corners find it
tests_plugins_gridbug_la_SOURCES = tests/plugins/fake.c
tests_plugins_gridbug_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"gridbug"' -DFAKE_GRID
tests_plugins_gridbug_la_LDFLAGS = $(fake_link_flags)
# GPU exercises for check_gpu's timing test (core/run/hold.h)
tests_plugins_waits_la_SOURCES = tests/plugins/waits.c
tests_plugins_waits_la_LDFLAGS = $(fake_link_flags)
tests_plugins_waits_la_LIBADD = $(CUDA_LIBS)
tests_plugins_faketry_la_SOURCES = tests/plugins/fake.c
tests_plugins_faketry_la_CPPFLAGS = $(AM_CPPFLAGS) -DFAKE_NAME='"try"' -DFAKE_TRY
tests_plugins_faketry_la_CFLAGS = $(AM_CFLAGS) -Wno-unused-function -Wno-unused-const-variable
tests_plugins_faketry_la_LDFLAGS = $(fake_link_flags)

TEST_UTIL = tests/testutil.c tests/testutil.h
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)

check_PROGRAMS += tests/check_core tests/check_param tests/check_cli tests/check_gpu tests/check_gpu_timed \
	tests/check_gpu_try tests/check_gpu_shapes tests/check_gpu_random tests/check_json tests/check_stats
tests_check_core_SOURCES = tests/check_core.c tests/schema.c tests/schema.h $(TEST_UTIL)
tests_check_core_CFLAGS = $(TEST_CFLAGS)
tests_check_core_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
tests_check_param_SOURCES = tests/check_param.c $(TEST_UTIL)
tests_check_param_CFLAGS = $(TEST_CFLAGS)
tests_check_param_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
tests_check_cli_SOURCES = tests/check_cli.c $(TEST_UTIL)
tests_check_cli_CFLAGS = $(TEST_CFLAGS)
tests_check_cli_LDADD = $(CHECK_LIBS)
GPU_TEST_UTIL = tests/gpu_sweep.c tests/gpu_sweep.h $(TEST_UTIL)
tests_check_gpu_SOURCES = tests/check_gpu.c $(GPU_TEST_UTIL)
tests_check_gpu_CFLAGS = $(TEST_CFLAGS)
tests_check_gpu_LDADD = $(CHECK_LIBS)
# check_gpu.c in four parts that make -j runs side by side (see its gpu_lock)
tests_check_gpu_timed_SOURCES = tests/check_gpu.c $(GPU_TEST_UTIL)
tests_check_gpu_timed_CPPFLAGS = $(AM_CPPFLAGS) -DGPU_PART='"timed"'
tests_check_gpu_timed_CFLAGS = $(TEST_CFLAGS)
tests_check_gpu_timed_LDADD = $(CHECK_LIBS)
tests_check_gpu_try_SOURCES = tests/check_gpu.c $(GPU_TEST_UTIL)
tests_check_gpu_try_CPPFLAGS = $(AM_CPPFLAGS) -DGPU_PART='"try"'
tests_check_gpu_try_CFLAGS = $(TEST_CFLAGS)
tests_check_gpu_try_LDADD = $(CHECK_LIBS)
tests_check_gpu_shapes_SOURCES = tests/check_gpu.c $(GPU_TEST_UTIL)
tests_check_gpu_shapes_CPPFLAGS = $(AM_CPPFLAGS) -DGPU_PART='"shapes"'
tests_check_gpu_shapes_CFLAGS = $(TEST_CFLAGS)
tests_check_gpu_shapes_LDADD = $(CHECK_LIBS)
# shapes and sizes drawn at random, verified (check_gpu_random.c)
tests_check_gpu_random_SOURCES = tests/check_gpu_random.c $(GPU_TEST_UTIL)
tests_check_gpu_random_CFLAGS = $(TEST_CFLAGS)
tests_check_gpu_random_LDADD = $(CHECK_LIBS)
# The leaf modules' tests link only what they test: no plugin, no CUDA.
tests_check_json_SOURCES = tests/check_json.c $(TEST_UTIL)
tests_check_json_CFLAGS = $(TEST_CFLAGS)
tests_check_json_LDADD = core/libcore.a $(CHECK_LIBS) -lm
tests_check_stats_SOURCES = tests/check_stats.c $(TEST_UTIL)
tests_check_stats_CFLAGS = $(TEST_CFLAGS)
tests_check_stats_LDADD = core/libcore.a $(CHECK_LIBS) -lm

TESTS = tests/check_core tests/check_param tests/check_cli tests/check_gpu tests/check_gpu_timed tests/check_gpu_try \
	tests/check_gpu_shapes tests/check_gpu_random tests/check_json tests/check_stats
# Tests never read the user's or the system's configuration.
AM_TESTS_ENVIRONMENT = \
	XDG_CONFIG_HOME=$(abs_top_builddir)/tests; GPULAB_CONFIG=; \
	GPULAB_BIN=$(abs_top_builddir)/core/gpulab; \
	GPULAB_WRAPPER=$(abs_top_builddir)/gpulab; \
	GPULAB_TEST_PLUGINS=$(abs_top_builddir)/tests/plugins/.libs; \
	export XDG_CONFIG_HOME GPULAB_CONFIG GPULAB_BIN GPULAB_WRAPPER GPULAB_TEST_PLUGINS;

# Nothing measured is lost (issue 28): signals, kill -9, --resume and a
# lost device, on the fake plugin's sleepy exercises; no GPU needed.
# The multigpu plugin's send/recv ring, its schedule replayed on the host
# for 1 to 8 ranks (C++: the plugin's header; no CUDA, no NCCL).
check_PROGRAMS += tests/check_sendrecv
tests_check_sendrecv_SOURCES = tests/check_sendrecv.cc
tests_check_sendrecv_CXXFLAGS = -std=c++17 -Wall -Wextra $(SAN_FLAGS) $(CHECK_CFLAGS)
tests_check_sendrecv_LDADD = $(CHECK_LIBS)
TESTS += tests/check_sendrecv

# <gpulab/lab.cuh>'s host arithmetic (lab::grid), by the host's C++
# compiler: the header has no device code of its own.
check_PROGRAMS += tests/check_lab
tests_check_lab_SOURCES = tests/check_lab.cc $(TEST_UTIL)
tests_check_lab_CFLAGS = $(TEST_CFLAGS)
tests_check_lab_CPPFLAGS = $(AM_CPPFLAGS)
tests_check_lab_CXXFLAGS = -std=c++20 -Wall -Wextra $(SAN_FLAGS) $(CHECK_CFLAGS)
tests_check_lab_LDADD = $(CHECK_LIBS)
TESTS += tests/check_lab

check_PROGRAMS += tests/check_keep
tests_check_keep_SOURCES = tests/check_keep.c tests/schema.c tests/schema.h $(TEST_UTIL)
tests_check_keep_CFLAGS = $(TEST_CFLAGS)
tests_check_keep_LDADD = core/libcore.a $(CHECK_LIBS) -lm
TESTS += tests/check_keep

# Hostile input (issue 12): unit tests and the command, no GPU needed.
check_PROGRAMS += tests/check_hostile
tests_check_hostile_SOURCES = tests/check_hostile.c $(TEST_UTIL)
tests_check_hostile_CFLAGS = $(TEST_CFLAGS)
tests_check_hostile_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_hostile
# Challenges as folders (issue 55): challenge.ini read and refused, where
# challenges are found, list, and a wrong folder refused; no GPU needed.
check_PROGRAMS += tests/check_challenge
tests_check_challenge_SOURCES = tests/check_challenge.c $(TEST_UTIL)
tests_check_challenge_CFLAGS = $(TEST_CFLAGS)
tests_check_challenge_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_challenge
# For the sanitizer build.  CUDA's driver maps memory where ASan's shadow
# gap is, so with a GPU every CUDA call fails "out of memory" unless the
# gap is left unprotected (google/sanitizers#629); tests/lsan.supp says
# what it suppresses and why.  Without sanitizers these are ignored.
EXTRA_DIST += tests/lsan.supp
AM_TESTS_ENVIRONMENT += \
	ASAN_OPTIONS=protect_shadow_gap=0; \
	LSAN_OPTIONS=suppressions=$(abs_top_srcdir)/tests/lsan.supp; \
	UBSAN_OPTIONS=print_stacktrace=1; \
	export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS;

# gpulab try (issue 17) without a GPU: the try plugin's C parts, NVRTC,
# and the command's refusals; where NVRTC was found.
EXTRA_DIST += tests/try/syntax.cu tests/try/badsig.cu tests/try/reduce_tail.cu tests/try/reduce_shfl.cu \
	tests/try/oob.cu tests/try/write_past.cu tests/try/forever.cu tests/try/trap.cu \
	tests/try/reduce_atomic.cu tests/try/atomic_host.cu
if HAVE_NVRTC
check_PROGRAMS += tests/check_try
tests_check_try_SOURCES = tests/check_try.c $(TEST_UTIL) plugins/try/contract.c plugins/try/log.c \
	plugins/try/cache.c plugins/try/compile.c plugins/try/filter.c plugins/try/sha256.c
tests_check_try_CFLAGS = $(TEST_CFLAGS)
tests_check_try_LDADD = $(CORE_LIBS) $(NVRTC_LIBS) $(CHECK_LIBS)
TESTS += tests/check_try
endif
# gpulab learn and grade (issue 40): lessons, verdicts, progress, and the
# commands on the fake plugins; no GPU needed.
check_PROGRAMS += tests/check_learn
tests_check_learn_SOURCES = tests/check_learn.c $(TEST_UTIL)
tests_check_learn_CFLAGS = $(TEST_CFLAGS)
tests_check_learn_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_learn
# gpulab report (issue 14), from the sample records in tests/records
# (written by tests/records/make-samples.py); no GPU needed.
check_PROGRAMS += tests/check_report
tests_check_report_SOURCES = tests/check_report.c tests/schema.c tests/schema.h $(TEST_UTIL)
tests_check_report_CFLAGS = $(TEST_CFLAGS)
tests_check_report_LDADD = core/libcore.a $(CHECK_LIBS) -lm
TESTS += tests/check_report
# gpulab board (issue 55): a class's grade records (tests/records/board) as
# one board per GPU model; no GPU needed.
check_PROGRAMS += tests/check_board
tests_check_board_SOURCES = tests/check_board.c $(TEST_UTIL)
tests_check_board_CFLAGS = $(TEST_CFLAGS)
tests_check_board_LDADD = core/libcore.a $(CHECK_LIBS) -lm
TESTS += tests/check_board
EXTRA_DIST += tests/records bench/gpulab_record.py
# check_report draws busbw from a committed ranked record beside nccl-tests' figures
EXTRA_DIST += docs/records/bench-ranks-1.json docs/records/bench-ranks-nccl-tests.txt
# The same in headless Chromium: DOM, requests and a screenshot; skips
# without chromium (which .ci/run installs for its later runs).
TESTS += tests/browser.sh
EXTRA_DIST += tests/browser.sh tests/browser_check.py
# browser.sh's counters page: Nsight Compute's long names (issue 52)
EXTRA_DIST += docs/records/bench-transpose-12.json
# core/'s layers, one name per function, no files calling each other in a
# circle (docs/hacking.md): read from the source, so it needs no build.
# tests/layers_selftest.py shows it failing on each case it must catch.
TESTS += tests/layers.py tests/layers_selftest.py
EXTRA_DIST += tests/layers.py tests/layers_selftest.py
# docs/ holds pages, docs/records/ the records they cite, and every link
# of a page leads to a file (issue 52); in the source tree, not a tarball.
TESTS += tests/docs_links.py
EXTRA_DIST += tests/docs_links.py
# Each option and command spelled once in core/, in its row; messages and
# built command lines take the spelling from it (issue 54); no build.
TESTS += tests/spellings.py
EXTRA_DIST += tests/spellings.py
# The exercise author's commands (issue 38): help, list PATTERN, config,
# new, check, and their widths; no GPU.
TESTS += tests/author.sh
EXTRA_DIST += tests/author.sh
# The plugin Makefiles (examples/axpy's, gpulab new's) where pkg-config
# finds no gpulab.pc: one line, exit 2, nothing built (issue 52).
TESTS += tests/makefiles.sh
EXTRA_DIST += tests/makefiles.sh
# make install DESTDIR=... of this build: the pages the lessons and the
# man page cite, and the directories the man page names (issue 46).
TESTS += tests/install.sh
EXTRA_DIST += tests/install.sh
AM_TESTS_ENVIRONMENT += MAKE='$(MAKE)' INSTALL_DOCDIR='$(docdir)' INSTALL_PKGDATADIR='$(pkgdatadir)' \
	INSTALL_MANDIR='$(mandir)' INSTALL_PREFIX='$(prefix)'; \
	export MAKE INSTALL_DOCDIR INSTALL_PKGDATADIR INSTALL_MANDIR INSTALL_PREFIX;
# README's quick start and test command in a fresh clone, failing on any
# warning: slow, so run by hand (tests/quickstart.sh), not by make check.
EXTRA_DIST += tests/quickstart.sh
AM_TESTS_ENVIRONMENT += GPULAB_SKELETON=$(abs_top_srcdir)/skeleton; export GPULAB_SKELETON;
# The bash completion in bash, against this build's gpulab.
TESTS += tests/completion.sh
# Every command refuses what its row does not declare (tests/rows.sh).
TESTS += tests/rows.sh
EXTRA_DIST += tests/rows.sh
EXTRA_DIST += tests/completion.sh
# The gaming suites (issue 55): each kernel of tests/challenges/NAME/
# compiles, with nvcc and, where this gpulab has the challenge, with
# gpulab try's NVRTC (no device visible); skips (77) without nvcc.  The
# suites, and the scripts that grade them on a GPU, are in the tarball
# for bench/gpu-check.sh.
TESTS += tests/challenges/compile.sh
# (each file named: a directory would also bring the build tree's test logs)
EXTRA_DIST += tests/challenges/README.md tests/challenges/compile.sh tests/challenges/reduce/args \
	tests/challenges/reduce/expect.tsv tests/challenges/reduce/gate_sizes.cu tests/challenges/reduce/hang.cu \
	tests/challenges/reduce/race.cu tests/challenges/reduce/read_past.cu tests/challenges/reduce/right.cu \
	tests/challenges/reduce/stateful.cu tests/challenges/reduce/trap.cu tests/challenges/reduce/write_past.cu \
	tests/challenges/transpose/args tests/challenges/transpose/expect.tsv \
	tests/challenges/transpose/gate_sizes.cu tests/challenges/transpose/hang.cu \
	tests/challenges/transpose/race.cu tests/challenges/transpose/read_past.cu \
	tests/challenges/transpose/right.cu tests/challenges/transpose/stateful.cu tests/challenges/transpose/trap.cu \
	tests/challenges/transpose/write_past.cu tests/challenges/sum_matrix/args \
	tests/challenges/sum_matrix/expect.tsv tests/challenges/sum_matrix/gate_sizes.cu \
	tests/challenges/sum_matrix/hang.cu tests/challenges/sum_matrix/race.cu \
	tests/challenges/sum_matrix/read_past.cu tests/challenges/sum_matrix/right.cu \
	tests/challenges/sum_matrix/stateful.cu tests/challenges/sum_matrix/trap.cu \
	tests/challenges/sum_matrix/write_past.cu tests/challenges/prefix_sum/args \
	tests/challenges/prefix_sum/expect.tsv tests/challenges/prefix_sum/gate_sizes.cu \
	tests/challenges/prefix_sum/hang.cu tests/challenges/prefix_sum/race.cu \
	tests/challenges/prefix_sum/read_past.cu tests/challenges/prefix_sum/right.cu \
	tests/challenges/prefix_sum/slow.cu tests/challenges/prefix_sum/stateful.cu \
	tests/challenges/prefix_sum/trap.cu tests/challenges/prefix_sum/write_past.cu \
	tests/challenges/prefix_sum/wrong.cu tests/challenges/histogram/args tests/challenges/histogram/expect.tsv \
	tests/challenges/histogram/gate_sizes.cu tests/challenges/histogram/hang.cu \
	tests/challenges/histogram/race.cu tests/challenges/histogram/read_past.cu \
	tests/challenges/histogram/right.cu tests/challenges/histogram/slow.cu tests/challenges/histogram/stateful.cu \
	tests/challenges/histogram/trap.cu tests/challenges/histogram/write_past.cu \
	tests/challenges/histogram/wrong.cu
EXTRA_DIST += bench/grade-suites.sh bench/grade_suites.py bench/grade-class.sh
AM_TESTS_ENVIRONMENT += NVCC='$(NVCC)'; export NVCC;
# bench/grade_suites.py's checking, on a hand-written grade record.
TESTS += tests/grade_suites.sh
EXTRA_DIST += tests/grade_suites.sh
# bench/learn-table.sh (issue 49): its table and raw results from three
# lessons on the fake plugin.
TESTS += tests/learn_table.sh
EXTRA_DIST += tests/learn_table.sh bench/learn-table.sh bench/learn_table.py
# gpulab as ranks under mpirun (issue 30): the fake plugin's collective over
# the mpi plugin, two ranks on the CPU; where the mpi plugin is not built,
# MPI_PLUGIN_DIR is empty and the test skips, saying it needs MPI.
EXTRA_DIST += tests/ranks.sh
TESTS += tests/ranks.sh
if HAVE_MPI
AM_TESTS_ENVIRONMENT += MPI_PLUGIN_DIR=$(abs_top_builddir)/plugins/mpi/.libs; export MPI_PLUGIN_DIR;
else
AM_TESTS_ENVIRONMENT += MPI_PLUGIN_DIR=; export MPI_PLUGIN_DIR;
endif
# gpulab's output byte for byte (tests/golden.expected): the fake plugin's
# runs, timed by a clock that ticks by the call (tests/fakeclock.c, built
# without sanitizers: it is preloaded, ahead of their runtime).
check_LTLIBRARIES += tests/fakeclock.la
tests_fakeclock_la_SOURCES = tests/fakeclock.c
tests_fakeclock_la_CFLAGS = -std=c11 -O2
tests_fakeclock_la_LDFLAGS = $(fake_link_flags)
TESTS += tests/golden.sh
EXTRA_DIST += tests/golden.sh tests/golden.expected
AM_TESTS_ENVIRONMENT += FAKECLOCK=$(abs_top_builddir)/tests/.libs/fakeclock.so; export FAKECLOCK;
# check_gpu*'s lock (check_gpu.c: gpu_lock)
CLEANFILES += gpu-tests.lock
