#include "command_names.h"
#include "run/metrics.h"

#include "exitcode.h"
#include "config/options.h"
#include "wrap.h"

#include <math.h>
#include <string.h>

/* The chapters' nvprof metrics and what Nsight Compute measures instead
 * (its "nvprof transition" table).  nvprof's transactions are 32-byte
 * sectors for global memory and wavefronts for shared memory. */
static const struct metric_alias aliases[] = {
	{ "achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", NULL,
	  "active warps as a share of the SM's maximum (%)" },
	{ "sm_efficiency", "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed", NULL,
	  "cycles with at least one warp resident (%)" },
	{ "eligible_warps_per_cycle", "smsp__warps_eligible.sum.per_cycle_active", NULL,
	  "warps ready to issue, per active cycle" },
	{ "warp_execution_efficiency", "smsp__thread_inst_executed_per_inst_executed.pct", NULL,
	  "active threads per executed instruction, as a share of 32 (%)" },
	{ "branch_efficiency", "smsp__sass_average_branch_targets_threads_uniform.pct", NULL,
	  "branches whose threads all went the same way (%)" },
	{ "inst_per_warp", "smsp__average_inst_executed_per_warp.ratio", NULL,
	  "instructions executed per warp" },
	{ "gld_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NULL,
	  "global load sectors (32 B)" },
	{ "gst_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", NULL,
	  "global store sectors (32 B)" },
	{ "gld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NULL,
	  "global load requests (one per warp instruction)" },
	{ "gst_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", NULL,
	  "global store requests" },
	{ "gld_transactions_per_request", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "sectors per global load request (4 is ideal for 4-byte words)" },
	{ "gst_transactions_per_request", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "sectors per global store request" },
	{ "gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", NULL,
	  "bytes a load asked for over bytes its sectors moved (%)" },
	{ "gst_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", NULL,
	  "bytes a store wrote over bytes its sectors moved (%)" },
	{ "gld_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second", NULL,
	  "global load bytes per second through L1" },
	{ "gst_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second", NULL,
	  "global store bytes per second through L1" },
	{ "dram_read_throughput", "dram__bytes_read.sum.per_second", NULL, "device memory bytes read per second" },
	{ "dram_write_throughput", "dram__bytes_write.sum.per_second", NULL, "device memory bytes written per second" },
	{ "shared_load_transactions", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL,
	  "shared memory load wavefronts" },
	{ "shared_store_transactions", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", NULL,
	  "shared memory store wavefronts" },
	{ "shared_load_requests", "smsp__inst_executed_op_shared_ld.sum", NULL, "shared memory load instructions (warp)" },
	{ "shared_store_requests", "smsp__inst_executed_op_shared_st.sum", NULL, "shared memory store instructions (warp)" },
	{ "shared_load_transactions_per_request", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	  "smsp__inst_executed_op_shared_ld.sum", "wavefronts per shared load (1 is conflict-free for 4-byte words)" },
	{ "shared_store_transactions_per_request", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	  "smsp__inst_executed_op_shared_st.sum", "wavefronts per shared store" },
	{ "shared_efficiency", "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", NULL,
	  "bytes asked for over bytes the wavefronts moved (%)" },
	{ "shared_ld_bank_conflict", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL,
	  "extra wavefronts from bank conflicts, loads" },
	{ "shared_st_bank_conflict", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", NULL,
	  "extra wavefronts from bank conflicts, stores" },
};

static const struct metric_alias *find_alias(const char *name)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (!strcmp(aliases[i].name, name))
			return &aliases[i];
	return NULL;
}

/* Index of a raw metric, added if new. */
static int raw_index(struct metric_set *s, const char *metric)
{
	for (size_t i = 0; i < s->nraw; i++)
		if (!strcmp(s->raw[i], metric))
			return (int)i;
	snprintf(s->raw[s->nraw], MAX_METRIC_NAME, "%s", metric);
	s->raw_ptrs[s->nraw] = s->raw[s->nraw];
	return (int)s->nraw++;
}

/* Nsight Compute names are unit__counter[.rollup[.submetric]]. */
static int looks_raw(const char *name)
{
	const char *u = strstr(name, "__");
	if (!u || u == name || !u[2])
		return 0;
	for (const char *c = name; *c; c++)
		if (!(*c == '_' || *c == '.' || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
			return 0;
	return 1;
}

static int add(struct metric_set *s, const char *name, char *err, size_t len)
{
	const struct metric_alias *a = find_alias(name);
	for (size_t i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].label, name))
			return 0; /* asked twice */
	if (!a && !looks_raw(name)) {
		snprintf(err, len, "%s: '%s' is neither an alias (`gpulab " CMD_METRICS "` lists them) "
			 "nor an Nsight Compute metric name (unit__counter.rollup)", options_long(OPT_METRICS), name);
		return EXIT_USAGE;
	}
	if (strlen(name) >= MAX_METRIC_NAME || s->ncols == MAX_METRIC_COLS) {
		snprintf(err, len, "%s: at most %d metrics of up to %d characters", options_long(OPT_METRICS),
			 MAX_METRIC_COLS, MAX_METRIC_NAME - 1);
		return EXIT_USAGE;
	}
	struct metric_col *c = &s->cols[s->ncols++];
	snprintf(c->label, sizeof c->label, "%s", name);
	c->num = raw_index(s, a ? a->metric : name);
	c->den = a && a->per ? raw_index(s, a->per) : -1;
	return 0;
}

static int add_list(struct metric_set *s, const char *list, const char *defaults, int depth, char *err, size_t len)
{
	char buf[4096], *save = NULL;
	int rc;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (strcmp(t, "default"))
			rc = add(s, t, err, len);
		else if (depth == 0 && defaults && *defaults)
			rc = add_list(s, defaults, NULL, 1, err, len);
		else {
			snprintf(err, len, "%s default: %s", options_long(OPT_METRICS), depth
				 ? "a default list cannot name 'default'" : "this exercise declares no default metrics; name them");
			rc = EXIT_USAGE;
		}
		if (rc)
			return rc;
	}
	return 0;
}

int metrics_resolve(struct metric_set *s, const char *list, const char *defaults, char *err, size_t len)
{
	memset(s, 0, sizeof *s);
	int rc = add_list(s, list, defaults, 0, err, len);
	if (rc == 0 && s->ncols == 0) {
		snprintf(err, len, "%s: an empty list", options_long(OPT_METRICS));
		rc = EXIT_USAGE;
	}
	return rc;
}

double metrics_value(const struct metric_set *s, const double *raw, size_t i)
{
	const struct metric_col *c = &s->cols[i];
	if (c->den < 0)
		return raw[c->num];
	return raw[c->den] != 0 ? raw[c->num] / raw[c->den] : NAN;
}

const char *metrics_source(const struct metric_set *s, size_t i, char *buf, size_t len)
{
	const struct metric_col *c = &s->cols[i];
	if (c->den < 0)
		snprintf(buf, len, "%s", s->raw[c->num]);
	else
		snprintf(buf, len, "%s / %s", s->raw[c->num], s->raw[c->den]);
	return buf;
}

/* `gpulab metrics` fits 100 columns (WRAP_WIDTH), as all gpulab prints. */
/* what, from column 39 to WRAP_WIDTH, its later lines from 39 too. */
static void metrics_wrapped(FILE *out, const char *what)
{
	int col = 39;
	wrap_words(out, what, &col, &(struct wrap){ .width = WRAP_WIDTH, .indent = 39 });
	fputc('\n', out);
}

const struct metric_alias *metrics_aliases(size_t *n)
{
	*n = sizeof aliases / sizeof aliases[0];
	return aliases;
}

void metrics_print_aliases(FILE *out)
{
	fprintf(out, "The chapters' nvprof metrics, as %s takes them, and the Nsight Compute\n"
		     "metrics gpulab collects instead.  Any Nsight Compute metric name works too.\n\n",
		options_long(OPT_METRICS));
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		const struct metric_alias *a = &aliases[i];
		fprintf(out, "%-38s ", a->name);
		metrics_wrapped(out, a->what);
		/* a ratio whose two metrics do not fit 100 columns takes two lines */
		int one_line = !a->per || 6 + strlen(a->metric) + 3 + strlen(a->per) <= WRAP_WIDTH;
		fprintf(out, "    = %s%s%s\n", a->metric, a->per ? (one_line ? " / " : "\n      / ") : "",
			a->per ? a->per : "");
	}
}
