# libFuzzer targets, built by FUZZ_CC (clang) apart from the rest of the
# build: configure --enable-fuzz, then `make fuzz` builds each and runs it
# for FUZZ_SECONDS on fuzz/corpus/NAME.  A crash, a sanitizer report, a
# leak or an input taking over a second (-timeout=1) fails it; what it
# found is left in fuzz/work/NAME-crash-* and the like.
FUZZ_NAMES = ini size options params json contract record compare resume lesson journal nccltests source board challenge
FUZZ_SECONDS = 60
FUZZ_FLAGS = -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Werror=incompatible-pointer-types \
	-fno-omit-frame-pointer -D_GNU_SOURCE -I$(top_srcdir)/include -I$(top_srcdir)/core
fuzz_ini_sources = fuzz/fuzz_ini.c core/config/settings.c core/config/ini_text.c core/config/params.c core/config/size.c \
	core/config/trust.c core/config/options.c core/config/opterr.c
fuzz_size_sources = fuzz/fuzz_size.c core/config/size.c
fuzz_options_sources = fuzz/fuzz_options.c core/config/options.c core/config/opterr.c core/config/params.c \
	core/config/size.c core/escape.c core/config/sweep.c core/config/settings.c core/config/ini_text.c core/config/trust.c
fuzz_params_sources = fuzz/fuzz_params.c core/config/params.c core/config/size.c
fuzz_json_sources = fuzz/fuzz_json.c core/records/json.c
fuzz_contract_sources = fuzz/fuzz_contract.c plugins/try/contract.c plugins/try/log.c core/escape.c
fuzz_source_sources = fuzz/fuzz_source.c plugins/try/filter.c plugins/try/log.c core/escape.c
fuzz_challenge_sources = fuzz/fuzz_challenge.c core/plugins/challenge.c
# compare's writers are emit/'s, one file per format with the run's and
# list's, so a target that prints a comparison links them all.
fuzz_writer_sources = core/emit/writer.c core/emit/table.c core/emit/csv.c core/emit/json.c core/emit/markdown.c \
	core/emit/list.c core/emit/row.c core/emit/counters.c core/run/job.c core/run/metrics.c core/run/clocks.c \
	core/config/options.c core/config/params.c core/config/size.c core/config/opterr.c \
	core/emit/facts.c core/emit/ranking.c core/emit/standings.c core/emit/configured.c core/wrap.c core/docs.c
fuzz_record_sources = fuzz/fuzz_record.c core/records/json.c core/records/record.c core/draw/plot.c \
	core/records/board_read.c core/records/ondisk.c core/records/validate.c core/fail.c \
	core/draw/choose.c core/draw/svg.c core/draw/chart.c core/draw/html.c core/draw/summary.c core/draw/numbers.c core/draw/tables.c core/draw/board.c core/draw/boards.c \
	core/draw/busbw.c core/records/nccltests.c core/escape.c \
	core/io/outfile.c core/emit/field.c core/compare/compare.c core/interrupt.c \
	core/stats.c $(fuzz_writer_sources)
fuzz_compare_sources = fuzz/fuzz_compare.c core/compare/compare.c core/records/record.c \
	core/records/json.c core/emit/field.c core/escape.c core/stats.c core/records/ondisk.c core/records/validate.c core/fail.c \
	$(fuzz_writer_sources)
fuzz_resume_sources = fuzz/fuzz_resume.c core/records/resume.c core/records/record.c core/records/json.c \
	core/emit/field.c core/escape.c core/stats.c core/records/ondisk.c core/records/validate.c core/fail.c \
	core/config/params.c core/config/size.c core/config/options.c core/config/opterr.c
fuzz_lesson_sources = fuzz/fuzz_lesson.c core/learn/lesson.c core/config/ini_text.c core/config/params.c core/config/size.c core/escape.c \
	core/learn/progress.c core/learn/verdict.c core/records/json.c core/io/outfile.c core/interrupt.c \
	core/stats.c
EXTRA_DIST += $(fuzz_lesson_sources)
fuzz_journal_sources = fuzz/fuzz_journal.c core/records/ondisk.c core/records/record.c core/records/json.c \
	core/records/validate.c core/emit/field.c core/escape.c core/stats.c core/fail.c \
	core/config/options.c core/config/opterr.c core/config/params.c core/config/size.c
fuzz_nccltests_sources = fuzz/fuzz_nccltests.c core/records/nccltests.c core/records/json.c core/escape.c
fuzz_board_sources = fuzz/fuzz_board.c core/records/board_read.c core/records/ondisk.c core/records/record.c \
	core/records/json.c core/records/validate.c core/emit/standings.c core/emit/field.c core/draw/boards.c \
	core/escape.c core/stats.c core/fail.c \
	core/config/options.c core/config/opterr.c core/config/params.c core/config/size.c
EXTRA_DIST += fuzz/local.mk $(fuzz_ini_sources) $(fuzz_size_sources) $(fuzz_options_sources) \
	$(fuzz_params_sources) $(fuzz_json_sources) $(fuzz_contract_sources) $(fuzz_record_sources) \
	$(fuzz_compare_sources) $(fuzz_resume_sources) $(fuzz_journal_sources) $(fuzz_nccltests_sources) \
	$(fuzz_source_sources) $(fuzz_board_sources) $(fuzz_challenge_sources) \
	fuzz/escaped.h fuzz/json.dict fuzz/corpus

if ENABLE_FUZZ
fuzz/fuzz_ini: $(fuzz_ini_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) $(INIH_CFLAGS) -o $@ $(fuzz_ini_sources:%=$(srcdir)/%) $(INIH_LIBS)
fuzz/fuzz_size: $(fuzz_size_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(fuzz_size_sources:%=$(srcdir)/%)
fuzz/fuzz_options: $(fuzz_options_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) $(INIH_CFLAGS) -o $@ $(fuzz_options_sources:%=$(srcdir)/%) $(INIH_LIBS)

fuzz/fuzz_params: $(fuzz_params_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(fuzz_params_sources:%=$(srcdir)/%)
fuzz/fuzz_json: $(fuzz_json_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(fuzz_json_sources:%=$(srcdir)/%) -lm
fuzz/fuzz_contract: $(fuzz_contract_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(fuzz_contract_sources:%=$(srcdir)/%)
fuzz/fuzz_source: $(fuzz_source_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(fuzz_source_sources:%=$(srcdir)/%)

fuzz/fuzz_record: $(fuzz_record_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_builddir) -DGPULAB_DOCDIR='"$(docdir)"' $(INIH_CFLAGS) -o $@ $(fuzz_record_sources:%=$(srcdir)/%) -lm
fuzz/fuzz_compare: $(fuzz_compare_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_builddir) -DGPULAB_DOCDIR='"$(docdir)"' $(INIH_CFLAGS) -o $@ $(fuzz_compare_sources:%=$(srcdir)/%) -lm

fuzz/fuzz_lesson: $(fuzz_lesson_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_builddir) $(INIH_CFLAGS) -o $@ $(fuzz_lesson_sources:%=$(srcdir)/%) $(INIH_LIBS) -lm
fuzz/fuzz_resume: $(fuzz_resume_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_builddir) $(INIH_CFLAGS) -o $@ $(fuzz_resume_sources:%=$(srcdir)/%) -lm

fuzz/fuzz_journal: $(fuzz_journal_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_builddir) $(INIH_CFLAGS) -o $@ $(fuzz_journal_sources:%=$(srcdir)/%) -lm

fuzz/fuzz_nccltests: $(fuzz_nccltests_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(fuzz_nccltests_sources:%=$(srcdir)/%) -lm
fuzz/fuzz_board: $(fuzz_board_sources:%=$(srcdir)/%)
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_builddir) -o $@ $(fuzz_board_sources:%=$(srcdir)/%) -lm
fuzz/fuzz_challenge: $(fuzz_challenge_sources:%=$(srcdir)/%) $(srcdir)/core/plugins/challenge.h
	@$(MKDIR_P) fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) $(INIH_CFLAGS) -o $@ $(fuzz_challenge_sources:%=$(srcdir)/%) $(INIH_LIBS) -lm

# One rule a target, so that `make -j fuzz` runs them side by side: each
# still gets its FUZZ_SECONDS, and CI's twelve minutes of them in a row
# become twelve divided by its CPUs.
fuzz: $(FUZZ_NAMES:%=fuzz-run-%)
fuzz-run-%: fuzz/fuzz_%
	@$(MKDIR_P) fuzz/work/$*
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@./fuzz/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -timeout=1 -print_final_stats=1 \
		-artifact_prefix=fuzz/work/$*- fuzz/work/$* $(srcdir)/fuzz/corpus/$* \
		> fuzz/work/$*.log 2>&1 || { tail -n 60 fuzz/work/$*.log; echo "fuzz: $* failed"; exit 1; }
	@grep -E '^stat::number_of_executed_units|^Done' fuzz/work/$*.log | sed 's/^/fuzz: $*: /'
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzz (and clang, or FUZZ_CC) first" >&2; exit 1
endif
.PHONY: fuzz clean-fuzz
CLEANFILES += $(FUZZ_NAMES:%=fuzz/fuzz_%)
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz/work
