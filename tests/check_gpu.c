/*
 * Every exercise of every plugin in the build tree runs on the GPU and
 * verifies, for each element type it takes, at sizes that are not powers
 * of two (tails), tiny and large.  Without a GPU this exits 77 (skipped),
 * unless GPULAB_REQUIRE_GPU=1, when it fails: a GPU machine must not skip
 * silently.
 *
 * The host-only fake plugins are the CPU suite's (check_cli).
 *
 * The parent never calls CUDA (Check forks per test, and a CUDA context in
 * a parent is unusable in its children); every run is a gpulab process.
 */
#include "exitcode.h"
#include "gpu_sweep.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXERCISES 128

#ifndef GPU_PART
#define GPU_PART "verify"
#endif

static struct exercise {
	char name[128];
	int sized;  /* takes -n (its declared default n is not 0) */
} exercises[MAX_EXERCISES];
static int nexercises;

static const char *wrapper;
static char env_xdg[4200];
static struct cmd_result o;

/* gpulab ARGS... on the build tree's plugins (the wrapper's configuration) */
static void gpulab(char *const *args)
{
	char *argv[40] = { (char *)wrapper };
	char *env[] = { env_xdg, "GPULAB_CONFIG=", NULL };
	int n = 1;
		for (; args[n - 1] && n < 39; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	run_cmd(&o, argv, env);
}

/* The next CSV field of a line (RFC 4180 quoting), into buf. */
static char *csv_field(char *p, char *buf, size_t len)
{
	size_t n = 0;
	int quoted = *p == '"';
	for (p += quoted; *p && (quoted || *p != ','); p++) {
		if (quoted && *p == '"') {
			if (p[1] != '"') {
				quoted = 0;
				continue;
			}
			p++;
		}
		if (n + 1 < len)
			buf[n++] = *p;
	}
	buf[n] = 0;
	return *p == ',' ? p + 1 : p;
}

/* `gpulab list --format csv`: plugin,exercise,types,n,... */
static int discover(void)
{
	char *args[] = { "list", "--format", "csv", NULL };
	gpulab(args);
	if (o.status != 0) {
		fprintf(stderr, "gpulab list failed (%d): %s\n", o.status, o.err);
		return -1;
	}
	char *save, *line = strtok_r(o.out, "\n", &save); /* header */
	while ((line = strtok_r(NULL, "\n", &save)) && nexercises < MAX_EXERCISES) {
		char plugin[64], ex[64], types[16], n[32];
		char *p = csv_field(csv_field(csv_field(line, plugin, sizeof plugin), ex, sizeof ex), types, sizeof types);
		csv_field(p, n, sizeof n);
		if (!strcmp(plugin, "try"))
			continue; /* a learner's kernel each: the try_* tests give them theirs */
		struct exercise *e = &exercises[nexercises++];
		snprintf(e->name, sizeof e->name, "%s.%s", plugin, ex);
		e->sized = strcmp(n, "0") != 0;
	}
	return nexercises;
}

/* An exercise that needs thread-block clusters (reduce.cluster,
 * reduce.one_pass), on a GPU before Hopper, says so and runs nothing. */
#define NO_CLUSTERS "this GPU has no thread-block clusters (Hopper and later do)"
static int no_clusters(void)
{
	return o.status == EXIT_PARAM && (strstr(o.err, NO_CLUSTERS) || strstr(o.out, NO_CLUSTERS));
}

/* Skips every sweep may hold: an exercise that takes no size where the
 * sweep gives one, an element type it does not take, a GPU that lacks
 * what it needs (thread-block clusters before Hopper, the copy engine,
 * more GPUs), or one that runs only as ranks.  Each is one line saying
 * so, and nothing else may be skipped. */
static int common_skip(const char *m)
{
	return strstr(m, "takes no -n") || strstr(m, "element type") || (strstr(m, " GPUs, and ") && strstr(m, " visible"))
	       || strstr(m, NO_CLUSTERS) || strstr(m, "sm_90 or later");
}

static int skip_common(const char *m, const char *row)
{
	(void)row;
	return common_skip(m) != 0;
}

/* The largest size may be refused (nested's tail-launch chain has a
 * ceiling), where the message names it. */
static int skip_largest(const char *m, const char *row)
{
	return common_skip(m) || (strstr(row, "\"n\": 16777223,") && strstr(m, "16777223"));
}

/* A block size may be refused, saying so. */
static int skip_block(const char *m, const char *row)
{
	(void)row;
	return common_skip(m) || strstr(m, "block");
}

static struct sweep_check sc;

/* gpulab ARGS... as one verified sweep: nothing bad, and `points`
 * points where that is given (0: any).  0 where nothing could run on
 * this machine (every point refused for a reason common_skip allows:
 * one GPU for the multi-GPU plugin, say), and the run said so in one
 * line. */
static int verify_sweep(char *const *args, skip_allowed ok, int points)
{
	char *env[] = { env_xdg, "GPULAB_CONFIG=", NULL };
	sweep_check_run(wrapper, env, args, ok, &sc);
	if (sc.points == 0 && sc.status == EXIT_PARAM && count_lines(sc.err) == 1 && common_skip(sc.err))
		return 0;
	ck_assert_msg(sc.bad == 0 && sc.points > 0 && sc.status == 0, SWEEP_WHY(&sc));
	ck_assert_msg(!points || sc.points == points, "%d points, not %d: " SWEEP_FMT, sc.points, points, SWEEP_ARGS(&sc));
	return 1;
}

/* The plugins of this build's exercises, each once, in order. */
static const char *plugins[32];
static int nplugins;

static void list_plugins(void)
{
	for (int i = 0; i < nexercises; i++) {
		char p[64];
		snprintf(p, sizeof p, "%.*s", (int)strcspn(exercises[i].name, "."), exercises[i].name);
		if (nplugins == 0 || strcmp(plugins[nplugins - 1], p))
			plugins[nplugins++] = strdup(p);
	}
}

static int sized_in(const char *plugin, int *all)
{
	int sized = 0;
	size_t len = strlen(plugin);
	*all = 0;
	for (int i = 0; i < nexercises; i++)
		if (!strncmp(exercises[i].name, plugin, len) && exercises[i].name[len] == '.')
			(*all)++, sized += exercises[i].sized;
	return sized;
}

/* Sizes where bugs live, every exercise of a plugin in one process: one
 * element, odd primes, a tail past a power of two, in both types; then
 * the smallest and largest block most kernels take, on an odd n.  An
 * exercise whose shape comes from its own keys is one skipped point (it
 * takes no -n); the random shapes and the keyed cases below size it. */
START_TEST(plugin_sizes_verify)
{
	int all, sized = sized_in(plugins[_i], &all);
	char glob[80];
	if (!sized)
		return;
	snprintf(glob, sizeof glob, "%s.*", plugins[_i]);
	char *sizes[] = { "run", glob, "-n", "1,1000,1000003,16777223", "-t", "int,float", NULL };
	char *blocks[] = { "run", glob, "-n", "1000003", "-b", "64,1024", "-t", "int,float", NULL };
	if (verify_sweep(sizes, skip_largest, sized * 8 + (all - sized)))
		verify_sweep(blocks, skip_block, 0);
}
END_TEST

/* A sized exercise given a size takes it; one sized by its own keys
 * refuses -n, named alone, in one line. */
START_TEST(unsized_refuse_n)
{
	for (int i = 0; i < nexercises; i++) {
		if (exercises[i].sized)
			continue;
		char *args[] = { "run", exercises[i].name, "-n", "1000", NULL };
		gpulab(args);
		ck_assert_msg(o.status == EXIT_USAGE && count_lines(o.err) == 1 && strstr(o.err, "takes a size"),
			      "%s -n 1000: exit %d: %s", exercises[i].name, o.status, o.err);
	}
}
END_TEST

/* The keys past a shape, each swept in one process over both types at
 * odd shapes (the random test, check_gpu_random, draws the shapes
 * themselves): sum_matrix's odd block; the pitched layout with more
 * than the lines that round a row up, and the walks a grid may take;
 * the copy engine's lines and column groups; peeled's sides and units;
 * the staged kernels' blocks an SM; nested's launch shapes and depths,
 * and its recursions at an odd block and at the no-sync chain's
 * ceiling. */
static const struct shaped {
	const char *args[14];
} shaped[] = {
	{ { "sum_matrix.*", "-p", "nx=3,1000", "-p", "ny=2049", "-p", "block=5x7" } },
	{ { "transpose.pitched", "-p", "rows=1000", "-p", "cols=3001", "-p", "lines=1,3", "-p", "order=down,across" } },
	{ { "transpose.tma*", "-p", "rows=1003,4099", "-p", "cols=2053,3001", "-p", "lines=3" } },
	{ { "transpose.tma", "-p", "rows=4099", "-p", "cols=2053", "-p", "group=1,3,5" } },
	{ { "transpose.peeled", "-p", "rows=31,2053,4099", "-p", "cols=2053,4097,4101", "-p", "align=lines,loads", "-p",
	    "order=down,across" } },
	{ { "transpose.smem_staged", "transpose.smem_async", "-p", "rows=33,1000", "-p", "cols=31,3001", "-p", "per_sm=1,2" } },
	{ { "nested.hello", "-p", "blocks=2,3", "-p", "threads=1,5" } },
	{ { "nested.hello_grid", "-p", "blocks=6", "-p", "threads=33" } },
	{ { "nested.hello_depth", "-p", "depth=1,6" } },
	{ { "nested.recursive_reduce*", "-b", "2", "-n", "1000003" } },
	{ { "nested.recursive_reduce_nosync", "-n", "4194304" } }, /* at its launch ceiling */
};

START_TEST(shaped_verifies)
{
	char *args[24] = { "run" };
	int n = 1;
	for (int k = 0; k < 14 && shaped[_i].args[k]; k++)
		args[n++] = (char *)shaped[_i].args[k];
	args[n++] = "-t", args[n++] = "int,float";
	args[n] = NULL;
	if (verify_sweep(args, skip_common, 0))
		ck_assert_msg(sc.verified > 0, SWEEP_WHY(&sc));
}
END_TEST

/* NCCL's collectives and the send/recv ring in one process, on every GPU
 * it sees (one is enough): verified at sizes with tails, for both types,
 * and batched (their runs repeat); the ring also in small slices.  As
 * ranks under mpirun: tests/ranks.sh. */
START_TEST(collectives_verify)
{
	char *args[] = { "run", "multigpu.allreduce_nccl", "multigpu.ring_sendrecv", "multigpu.allgather",
			 "multigpu.reduce_scatter", "multigpu.broadcast", "-n", "1,3,1000003", "-t", "int,float", "-r", "2",
			 "-w", "1", "--batch", "3", "--quiet", "--format", "json", NULL };
	gpulab(args);
	if (o.status == EXIT_NOMATCH)
		return; /* no NCCL in this build */
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d\n%s%s", o.status, o.out, o.err);
	ck_assert_int_eq(occurrences(o.out, "\"exercise\": "), 30);
	ck_assert_int_eq(occurrences(o.out, "\"verified\": true"), 30);
	ck_assert_int_eq(occurrences(o.out, "\"batch\": 3, \"host_ms\""), 30); /* each row's, not the record's */
	/* the ring in slices of 256 and 16384 elements: thousands of rounds, each slice's tail */
	char *sliced[] = { "run", "multigpu.ring_sendrecv", "-p", "chunk=1K,64K", "-n", "1,3,1000003", "-t", "int,float",
			   "-r", "2", "-w", "1", "--batch", "3", "--quiet", "--format", "json", NULL };
	gpulab(sliced);
	ck_assert_msg(o.status == 0 && occurrences(o.out, "\"verified\": true") == 12, "exit %d\n%s%s", o.status, o.out,
		      o.err);
}
END_TEST

/* Past 2^31 elements, best and cub index with 64 bits and still verify
 * (8 GiB of ints); the book's kernels, which index with int, refuse in
 * one line before anything runs. */
START_TEST(counts_past_int)
{
	char *big[] = { "run", "reduce.best", "reduce.cub", "-t", "int", "-n", "2147483653", "-r", "1", "-w", "0",
			"--quiet", "--format", "json", NULL };
	char *book[] = { "run", "reduce.interleaved", "-n", "2147483648", "-r", "1", NULL };
	gpulab(big);
	if (o.status == EXIT_NOMATCH)
		return;
	ck_assert_msg(o.status == 0 && occurrences(o.out, "\"verified\": true") == 2
		      && occurrences(o.out, "\"elements\": 2147483653") == 2, "exit %d\n%s%s", o.status, o.out, o.err);
	gpulab(book);
	ck_assert_msg(o.status == EXIT_PARAM && count_lines(o.err) == 1 && strstr(o.err, "2147483647"), "exit %d: %s",
		      o.status, o.err);
}
END_TEST

/* The copy engine's exercises keep their matrices pitched, so they take
 * the shapes a dense tensor map cannot describe (a row that does not
 * start on 16 bytes), and sides past 65535 tiles' worth of a grid's y
 * (65537 x 1 once left most of its output unwritten): every point
 * verifies, in both types; a persistent grid larger than an SM holds is
 * refused. */
START_TEST(tma_takes_any_shape)
{
	char *small[] = { "run", "transpose.tma*", "-p", "rows=1,33,1000", "-p", "cols=1,31,3001,4097", "-t", "int,float", NULL };
	char *tall[] = { "run", "transpose.tma*", "-p", "rows=65537,70001", "-p", "cols=1,4,31", "-t", "int,float", NULL };
	char *wide[] = { "run", "transpose.tma*", "-p", "rows=1,4,31", "-p", "cols=65537,70001", "-t", "int,float", NULL };
	if (!verify_sweep(small, skip_common, 3 * 12 * 2))
		return; /* a GPU older than Hopper */
	verify_sweep(tall, skip_common, 3 * 6 * 2);
	verify_sweep(wide, skip_common, 3 * 6 * 2);
	/* refused at setup, where the device is known: the report says why */
	char *crowd[] = { "run", "transpose.smem_async", "-p", "rows=256", "-p", "cols=256", "-p", "per_sm=32", "--format",
			  "json", NULL };
	gpulab(crowd);
	ck_assert_msg(o.status == EXIT_PARAM && (strstr(o.out, "per_sm=32: at most ") || strstr(o.err, "per_sm=32: at most ")),
		      "exit %d\n%s%s", o.status, o.out, o.err);
}
END_TEST

/* --cold and the record of a real run: every parameter, and a row that
 * runs again as it ran. */
START_TEST(options_on_gpu)
{
	char *cold[] = { "run", "reduce.best", "--cold", "-r", "3", "-n", "1000003", "--format", "json", NULL };
	char *pad[] = { "run", "transpose.smem_pad", "-p", "rows=1000", "-p", "cols=3001", "--format", "json", NULL };
	char *info[] = { "info", NULL };
	gpulab(cold);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert(json_valid(o.out) && strstr(o.out, "\"cold\": true") && strstr(o.out, "\"reps\": 3"));
	ck_assert_msg(strstr(o.out, "\"rerun\": \"gpulab run reduce.best -n 1000003 -b 512 -t int -r 3 -w 3 -p seed="), "%s", o.out);
	gpulab(pad);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "%s", o.err);
	/* without -r it ran until quiet or until its noise settled (a 10 us
	 * kernel's launch jitter is several percent), and on a real GPU the
	 * clocks are known */
	ck_assert_msg((strstr(o.out, "\"stopped_by\": \"noise\"") || strstr(o.out, "\"stopped_by\": \"stable\""))
		      && strstr(o.out, "\"clocks\": {\"samples\": "), "%s", o.out);
	ck_assert_msg(strstr(o.out, "\"params\": {\"type\": \"int\", \"warmup\": 3, \"rows\": 1000, \"cols\": 3001, "
				    "\"seed\": ") && strstr(o.out, "\"elements\": 3001000"), "%s", o.out);
	gpulab(info);
	ck_assert_int_eq(o.status, 0);
	ck_assert(strstr(o.out, "compute capability") && strstr(o.out, "peak memory bandwidth"));
	ck_assert_msg(strstr(o.out, "GPU 0 ") && strstr(o.out, "peer access") && strstr(o.out, "PCI bus"), "%s", o.out);
}
END_TEST

/* reduce.best's finishes, each verified in both types: auto (the packed
 * word for ints; for floats one cluster while the grid fits one, as at
 * 65536 and 100003, else block 0 gathering the epoch-tagged sums),
 * block 0 gathering, one cluster (2 to 16 blocks, the sums
 * meeting in rank 0's shared memory) and the last block's ticket, at
 * sizes with tails and at the edges of one block's single round (16384
 * at 512 threads); auto with 64- and 128-thread blocks, whose full grid
 * is more than block 0 has threads; packed at its edges; block 0 also
 * gathers from a grid larger than the GPU holds at once, whose blocks
 * wait for one another's places; a cluster larger than the GPU's is
 * refused in one line, and in a sweep that point alone is skipped. */
START_TEST(best_finishes_verify)
{
	char *sizes[] = { "run", "reduce.best", "-n", "1,3,4096,16384,16387,65536,262144,100003,4099", "-t", "int,float", "-b",
			  "512", "-p", "finish=auto,first_block,cluster,last_block", NULL };
	char *grids[] = { "run", "reduce.best", "-n", "100003", "-t", "int,float", "-b", "128,1024", "-p", "blocks=2,3,7,16",
			  "-p", "finish=auto,first_block,cluster,last_block", NULL };
	verify_sweep(sizes, skip_common, 9 * 2 * 4);
	verify_sweep(grids, skip_common, 2 * 2 * 4 * 4);
	ck_assert_msg(strstr(sc.journal, "\"blocks\": 16, \"finish\": \"last_block\""), "%.2000s", sc.journal);
	/* auto with small blocks and a full grid: more blocks than block 0 has threads, so floats take the ticket */
	char *small[] = { "run", "reduce.best", "-n", "4194307", "-t", "int,float", "-b", "64,128", "-p", "finish=auto", NULL };
	char *wide[] = { "run", "reduce.best", "-n", "1000003", "-t", "int,float", "-b", "1024", "-p", "blocks=1000", "-p",
			 "finish=first_block,last_block", NULL };
	verify_sweep(small, skip_common, 4);
	verify_sweep(wide, skip_common, 4);
	ck_assert(strstr(sc.journal, "\"blocks\": 1000, \"finish\": \"first_block\""));
	/* packed (auto's for ints, above): tiny inputs in two blocks, tails,
	 * grids past the GPU's, and the most blocks its word counts, on an
	 * input whose sum carries out of 32 bits (2^26 ints of up to 255) */
	char *packed[] = { "run", "reduce.best", "-n", "1,3,4099,16387,65536,262144,100003,1048579", "-t", "int", "-b", "64,512",
			   "-p", "finish=packed", NULL };
	char *packed_grids[] = { "run", "reduce.best", "-n", "100003", "-t", "int", "-b", "128,1024", "-p",
				 "blocks=2,3,7,1000,5000", "-p", "finish=packed", NULL };
	char *packed_most[] = { "run", "reduce.best", "-n", "67108867", "-t", "int", "-b", "64", "-p", "blocks=65535", "-p",
				"finish=packed", NULL };
	verify_sweep(packed, skip_common, 16);
	verify_sweep(packed_grids, skip_common, 10);
	verify_sweep(packed_most, skip_common, 1);
	ck_assert(strstr(sc.journal, "\"blocks\": 65535, \"finish\": \"packed\""));
	char *too_big[] = { "run", "reduce.best", "-n", "100003", "-p", "blocks=17", "-p", "finish=cluster", NULL };
	gpulab(too_big);
	ck_assert_msg(o.status == EXIT_PARAM && strstr(o.out, "17 blocks of 512 threads, and a cluster holds at most 16 here"),
		      "exit %d: %s%s", o.status, o.out, o.err);
	char *sweep[] = { "run", "reduce.best", "-n", "100003", "-t", "float", "-p", "blocks=16,17", "-p", "finish=cluster",
			  "--format", "json", NULL };
	gpulab(sweep);
	ck_assert_msg(o.status == 0 && occurrences(o.out, "\"verified\": true") == 1
		      && strstr(o.out, "\"status\": \"skipped\", \"message\": \"-p finish=cluster: 17 blocks of 512 threads"),
		      "exit %d: %s%s", o.status, o.out, o.err);
	/* what auto chose is in the record: one block (nothing meets), ints
	 * in the packed word, floats in a cluster where the GPU's holds 16
	 * blocks (Hopper's), else gathered by block 0 */
	char *chose[] = { "run", "reduce.best", "-n", "4096,131072", "-t", "int,float", "-r", "3", "--format", "json", NULL };
	gpulab(chose);
	ck_assert_msg(o.status == 0 && occurrences(o.out, "\"chosen\": {\"blocks\": 1}") == 2
		      && strstr(o.out, "\"chosen\": {\"blocks\": 16, \"finish\": \"packed\"}")
		      && (strstr(o.out, "\"chosen\": {\"blocks\": 16, \"finish\": \"cluster\"}")
			  || strstr(o.out, "\"chosen\": {\"blocks\": 16, \"finish\": \"first_block\"}")),
		      "exit %d: %s%s", o.status, o.out, o.err);
}
END_TEST

/* The rungs past the book, each at the sizes where its bugs live, both
 * types, blocks of 64 and 512: an input below one vector (1, 3), tails
 * of 1 to 3 past a vector, an input one block covers in one round
 * (16384 at 512) and one just past it, grids of one round and of
 * several (1048579: 65 blocks of 512 a round, in clusters of 8), and
 * ints whose sum wraps past 32 bits (2^26 + 3 ints, more rounds than
 * the GPU holds blocks).  The grid rungs note their blocks and the sums
 * left for the host.  Before Hopper, cluster and one_pass refuse in
 * one line naming why, at every point. */
START_TEST(rungs_verify)
{
	char *args[] = { "run", "reduce.wide", "reduce.persistent", "reduce.cluster", "reduce.one_pass", "-n",
			 "1,3,4099,16384,16387,1048579", "-t", "int,float", "-b", "64,512", NULL };
	verify_sweep(args, skip_common, 4 * 6 * 2 * 2);
	/* 65 blocks of 512 a round at 1048579; the cluster rungs round them
	 * up to 9 clusters of 8 (a GPU holds that many at once), of which the
	 * host adds 9 sums or none: each at its two points (int, float) */
	if (sc.skipped == 0) {
		const char *notes[] = { "\"blocks\": 65, \"host_sums\": 65}", "\"blocks\": 72, \"host_sums\": 9, \"cluster\": 8}",
					"\"blocks\": 72, \"host_sums\": 0, \"cluster\": 8}" };
		for (int k = 0; k < 3; k++)
			ck_assert_msg(occurrences(sc.journal, notes[k]) == 2, "%d of %s", occurrences(sc.journal, notes[k]), notes[k]);
	}
	char *wraps[] = { "run", "reduce.wide", "reduce.persistent", "reduce.cluster", "reduce.one_pass", "-n", "67108867",
			  "-t", "int", NULL };
	verify_sweep(wraps, skip_common, 4);
}
END_TEST

/* At a full grid, whole clusters fill every slot that persistent's
 * blocks fill: the cluster rungs take the largest cluster that does
 * (8, 4 or 2), rather than fewer blocks (docs/hopper.md, rung 3). */
START_TEST(rung_clusters_fill_the_grid)
{
	char *args[] = { "run", "reduce.persistent", "reduce.cluster", "reduce.one_pass", "-n", "2^26", "-t", "int",
			 "-r", "1", "-w", "0", "--format", "csv", NULL };
	gpulab(args);
	if (strstr(o.out, NO_CLUSTERS) || strstr(o.err, NO_CLUSTERS))
		return;
	ck_assert_msg(o.status == 0 && occurrences(o.out, ",\"ok\",") == 3, "exit %d: %s%s", o.status, o.out, o.err);
	const char *p = strstr(o.out, "\"blocks=");
	unsigned first = 0, b = 0;
	ck_assert_msg(p && sscanf(p + 8, "%u", &first) == 1 && first > 0, "%s", o.out);
	for (int k = 0; k < 2; k++) {
		p = strstr(p + 1, "\"blocks=");
		ck_assert_msg(p && sscanf(p + 8, "%u", &b) == 1 && b == first, "%u blocks, persistent %u: %s", b, first, o.out);
	}
}
END_TEST

/* The rungs that meet in one launch, 20 launches back to back a sample
 * (--batch 20): one_pass's ticket must be back at 0 after each launch,
 * or a later repetition, its output poisoned before it, writes no sum
 * and fails verification; cluster's sums are copied back after each.
 * Then the block sizes the rungs refuse, at plan, on any GPU: one line
 * naming the exercise and the rule, exit 7. */
START_TEST(rungs_batch_and_refusals)
{
	const char *rungs[] = { "reduce.one_pass", "reduce.cluster" };
	for (int r = 0; r < 2; r++) {
		char *args[] = { "run", (char *)rungs[r], "-n", "1048579", "-t", "int,float", "-r", "3", "-w", "1",
				 "--batch", "20", "--format", "json", NULL };
		gpulab(args);
		if (no_clusters())
			continue;
		ck_assert_msg(o.status == 0 && occurrences(o.out, "\"verified\": true") == 2
			      && occurrences(o.out, ", \"batch\": 20,") == 2, "%s --batch 20: exit %d: %s%s", rungs[r],
			      o.status, o.out, o.err);
	}
	const char *refused[] = { "reduce.wide", "reduce.persistent", "reduce.cluster", "reduce.one_pass" };
	const char *blocks[] = { "96", "32" }; /* not a power of two; below 64 (past 1024 the core refuses -b) */
	for (int r = 0; r < 4; r++)
		for (int b = 0; b < 2; b++) {
			char *args[] = { "run", (char *)refused[r], "-b", (char *)blocks[b], "-n", "1048579", "-r", "1", NULL };
			char want[200];
			snprintf(want, sizeof want, "gpulab: %s: block size %s: this kernel takes a power of two from 64 to 1024\n",
				 refused[r], blocks[b]);
			gpulab(args);
			ck_assert_msg(o.status == EXIT_PARAM && !strcmp(o.err, want) && !o.out[0], "%s -b %s: exit %d: %s%s",
				      refused[r], blocks[b], o.status, o.out, o.err);
		}
}
END_TEST

/* In row `exercise` of a JSON report, what follows the first `text`;
 * NULL if the row lacks it. */
static const char *in_row(const char *exercise, const char *text)
{
	char row[160];
	snprintf(row, sizeof row, "\"exercise\": \"%s\"", exercise);
	const char *p = strstr(o.out, row), *end = p ? strstr(p + 1, "\"exercise\": ") : NULL;
	if (!p || !(p = strstr(p, text)) || (end && p > end))
		return NULL;
	return p + strlen(text);
}

/* A JSON number at p; NaN for null. */
static double json_number_at(const char *p)
{
	return strncmp(p, "null", 4) ? strtod(p, NULL) : NAN;
}

/* Row `exercise`'s number `key` (median_ms, say) in a JSON report; NaN if none. */
static double row_number(const char *exercise, const char *key)
{
	char k[80];
	snprintf(k, sizeof k, "\"%s\": ", key);
	const char *p = in_row(exercise, k);
	return p ? json_number_at(p) : NAN;
}

/* The test plugin of timing (tests/plugins/waits.c), as a configuration
 * file in dir: its path. */
static char *waits_config(const char *dir)
{
	char ini[4400];
	snprintf(ini, sizeof ini, "[plugin waits]\nfile = %s/waits.so\n", getenv("GPULAB_TEST_PLUGINS"));
	return (char *)write_file(dir, "waits.ini", ini);
}

/* --batch K on the GPU: K held runs per sample, still verified; the
 * sample is one run's time (a 2^20-int best takes microseconds alone, and
 * no less than a fifth of that back to back, so the batch's time was
 * divided by K, once); in-place kernels are skipped, with the reason; a
 * run that waits for the GPU goes unheld and still finishes. */
START_TEST(batches_time_one_run)
{
	char *one[] = { "run", "reduce.best", "-n", "2^20", "-r", "30", "--format", "json", NULL };
	gpulab(one);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	double single = row_number("reduce.best", "median_ms");
	char *batch[] = { "run", "reduce.best", "reduce.neigh*", "-n", "2^20", "-r", "30", "--batch", "50", "--format",
			  "json", NULL };
	gpulab(batch);
	ck_assert_msg(o.status == 0 && json_valid(o.out), "exit %d: %s%s", o.status, o.out, o.err);
	double each = row_number("reduce.best", "median_ms");
	ck_assert_msg(each > single / 5 && each < single * 1.1, "one run %g ms, in batches of 50 %g ms: %s", single, each,
		      o.out);
	ck_assert_msg(strstr(o.out, "\"batch\": 50,") && strstr(o.out, "\"timing\": \"held\"")
		      && strstr(o.out, "\"verified\": true") && strstr(o.out, " --batch 50\""), "%s", o.out);
	/* the book's in-place kernels run unbatched, verified, and say so */
	const char *at = strstr(o.out, "{\"exercise\": \"reduce.neighbored\"");
	char row[4096] = "";
	if (at)
		snprintf(row, sizeof row, "%.*s", (int)strcspn(at, "\n"), at); /* a row is a line */
	ck_assert_msg(strstr(row, "\"batch\": 1, ") && strstr(row, "\"verified\": true") && !strstr(row, "--batch"), "%s", o.out);
	char *table[] = { "run", "reduce.best", "reduce.neigh*", "-n", "2^20", "-r", "10", "--batch", "20", NULL };
	gpulab(table);
	ck_assert_msg(o.status == 0 && strstr(o.out, " UNBATCHED\n") && strstr(o.out, "\nUNBATCHED: timed run by run, "
		      "not in batches of 20"), "%s", o.out);
	char *dir = temp_dir();
	char *waits[] = { "--config", waits_config(dir), "run", "waits.async", "waits.sync",
			  "-r", "5", "--batch", "20", "--format", "json", NULL };
	run_cmd_alarm(20);
	gpulab(waits);
	ck_assert_msg(o.status == 0 && json_valid(o.out) && strstr(o.out, "\"timing\": \"held\"")
		      && strstr(o.out, "\"timing\": \"unheld\"") && !strstr(o.out, "\"verified\": false"), "exit %d: %s%s",
		      o.status, o.out, o.err);
	free(dir);
}
END_TEST

/* Row `exercise`'s value of metric `label` in a JSON report; NaN if none. */
static double metric_value(const char *exercise, const char *label)
{
	char key[160];
	snprintf(key, sizeof key, "\"%s\": {\"metric\": ", label);
	const char *p = in_row(exercise, key);
	if (!p || !(p = strstr(p, "\"value\": ")))
		return NAN;
	return json_number_at(p + 9);
}

static void run_metrics(char **args)
{
	gpulab(args);
	ck_assert_msg(o.status == 0 && json_valid(o.out) && !strstr(o.out, "\"verified\": false"), "exit %d\n%s%s",
		      o.status, o.out, o.err);
}

/* --metrics: counts a kernel fixes exactly, and the chapters' contrasts. */
START_TEST(metrics_count_what_kernels_do)
{
	/* 1024x1024 ints, rows of 32 threads: each warp reads 128 B (4
	 * sectors) from A and from B and writes 4 sectors of C */
	char *sum[] = { "run", "sum_matrix.block32x32", "-p", "nx=1024", "-p", "ny=1024", "-r", "1", "-w", "0",
			"--format", "json", "--metrics", "gld_transactions,gst_transactions,gld_transactions_per_request", NULL };
	char *div[] = { "run", "divergence.math1", "divergence.math2", "-n", "65536", "-r", "1", "-w", "0",
			"--format", "json", "--metrics", "warp_execution_efficiency", NULL };
	char *tr[] = { "run", "transpose.smem", "transpose.smem_pad", "-p", "rows=1024", "-p", "cols=1024", "-r", "1",
		       "-w", "0", "--format", "json", "--metrics", "shared_load_transactions_per_request,shared_ld_bank_conflict", NULL };
	run_metrics(sum);
	ck_assert_double_eq(metric_value("sum_matrix.block32x32", "gld_transactions"), 262144);
	ck_assert_double_eq(metric_value("sum_matrix.block32x32", "gst_transactions"), 131072);
	ck_assert_double_eq(metric_value("sum_matrix.block32x32", "gld_transactions_per_request"), 4);
	run_metrics(div);
	double m1 = metric_value("divergence.math1", "warp_execution_efficiency");
	double m2 = metric_value("divergence.math2", "warp_execution_efficiency");
	ck_assert_msg(m1 > 45 && m1 < 55 && m2 > 95, "warp execution efficiency %g (math1), %g (math2)\n%s", m1, m2, o.out);
	run_metrics(tr);
	double t1 = metric_value("transpose.smem", "shared_load_transactions_per_request");
	double t2 = metric_value("transpose.smem_pad", "shared_load_transactions_per_request");
	ck_assert_msg(t1 > 16 && t2 < 1.5, "shared wavefronts per load %g (smem), %g (smem_pad)\n%s", t1, t2, o.out);
	/* Hopper counts a few conflicts even in the padded tile (1% on an H100) */
	double c1 = metric_value("transpose.smem", "shared_ld_bank_conflict");
	double c2 = metric_value("transpose.smem_pad", "shared_ld_bank_conflict");
	ck_assert_msg(c2 * 20 < c1, "bank conflicts %g (smem), %g (smem_pad)", c1, c2);
}
END_TEST

/* Every plugin's default set is readable here, and replays of in-place
 * kernels still verify; a metric the GPU lacks is named before any run. */
START_TEST(metrics_defaults_and_errors)
{
	char *sized[] = { "run", "divergence.math1", "reduce.neighbored", "nested.recursive_reduce", "-n", "100003",
			  "-r", "1", "-w", "0", "--quiet", "--format", "json", "--metrics", "default", NULL };
	char *shaped[] = { "run", "sum_matrix.block16x16", "transpose.smem", "-p", "nx=300", "-p", "ny=200", "-p", "rows=300",
			   "-p", "cols=200", "-r", "1", "-w", "0", "--quiet", "--format", "json", "--metrics", "default", NULL };
	char *bad[] = { "run", "reduce.unroll8", "--metrics", "gld_transactions,sm__no_such_counter.sum", NULL };
	run_metrics(sized);
	ck_assert_msg(!strstr(o.out, "\"value\": null}"), "a default metric without a value:\n%s", o.out);
	run_metrics(shaped);
	ck_assert_msg(!strstr(o.out, "\"value\": null}"), "a default metric without a value:\n%s", o.out);
	gpulab(bad);
	ck_assert_int_eq(o.status, EXIT_METRICS);
	ck_assert_msg(strstr(o.err, "reduce.unroll8: --metrics: this GPU") && strstr(o.err, "'sm__no_such_counter.sum'")
		      && count_lines(o.err) == 1 && !o.out[0], "%s", o.err);
}
END_TEST

/* --- gpulab try (issue 17): fixtures in tests/try, templates in plugins/try */

/* The core holds a run's stream while the run is enqueued (core/run/hold.h);
 * a run that waits for the GPU itself must not hang on it, but be timed
 * unheld, say so, and still verify (tests/plugins/waits.c). */
START_TEST(timing_holds_streams)
{
	char *dir = temp_dir();
	char *args[] = { "--config", waits_config(dir), "run", "waits.async", "waits.sync",
			 "-r", "20", "--format", "json", NULL };
	run_cmd_alarm(20); /* a stream held for ever would hang here */
	gpulab(args);
	run_cmd_alarm(0);
	ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
	const char *async = strstr(o.out, "\"waits.async\""), *sync = strstr(o.out, "\"waits.sync\"");
	ck_assert_msg(async && sync && async < sync, "%s", o.out);
	const char *a = strstr(async, "\"timing\": "), *b = strstr(sync, "\"timing\": ");
	ck_assert_msg(a && a < sync && !strncmp(a, "\"timing\": \"held\"", strlen("\"timing\": \"held\"")), "%s", o.out);
	ck_assert_msg(b && !strncmp(b, "\"timing\": \"unheld\"", strlen("\"timing\": \"unheld\"")), "%s", o.out);
	ck_assert_int_eq(occurrences(o.out, "\"verified\": true"), 2);
	ck_assert_int_eq(occurrences(o.out, "\"runs\": 20"), 2);
	/* a plugin's first kernel is loaded lazily at its first launch, which
	 * waits for the device to be idle: the first warm-up goes unheld, and
	 * without one the first timed run is taken again, not given up */
	char *lazy[] = { "run", "reduce.neighbored", "divergence.math1", "-n", "2^20", "-r", "5", "-w", "0", "--format", "json",
			 NULL };
	gpulab(lazy);
	ck_assert_msg(o.status == 0 && occurrences(o.out, "\"timing\": \"held\"") == 2, "exit %d: %s%s", o.status, o.out, o.err);
	char *table[] = { "--config", waits_config(dir), "run", "waits.sync", "-r", "5", NULL };
	gpulab(table);
	ck_assert_msg(o.status == 0 && strstr(o.out, "ok UNHELD") && strstr(o.out, "UNHELD: its stream was not held"), "%s", o.out);
	/* --profile holds nothing: under a profiler, which runs kernels one at
	 * a time, a hold would only wait out its timeout on every run, 250 ms
	 * a time: 1.5 s over these six, whose first runs (no warm-up) load
	 * their modules lazily and give the hold up once */
	char *profile[] = { "run", "reduce.best", "reduce.cub", "reduce.shfl", "reduce.smem", "reduce.unroll8",
			    "reduce.interleaved", "-n", "2^20", "--profile", "--format", "json", NULL };
	gpulab(profile);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"timing\": \"unheld\"") && !strstr(o.out, "\"timing\": \"held\""),
		      "%s%s", o.out, o.err);
}
END_TEST

static char env_cache[4200];

/* gpulab try ARGS... with its own kernel cache. */
static void gpulab_try(char *const *args)
{
	char *argv[40] = { (char *)wrapper };
	char *env[] = { env_xdg, "GPULAB_CONFIG=", env_cache, NULL };
	int n = 1;
	for (; args[n - 1] && n < 39; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	run_cmd(&o, argv, env);
}

static const char *src_path(const char *name)
{
	static char paths[4][4200];
	static int next;
	char *p = paths[next++ % 4];
	snprintf(p, 4200, "%s/%s", getenv("srcdir") ? getenv("srcdir") : "..", name);
	return p;
}

/* The last line of stderr. */
static const char *last_line(void)
{
	const char *last = o.err;
	for (const char *p = o.err; *p; p++)
		if (*p == '\n' && p[1])
			last = p + 1;
	return last;
}

static int have_try(void)
{
	char *args[] = { "try", "reduce", "--template", NULL };
	gpulab(args);
	return o.status == 0 && strstr(o.out, "gpulab: block=");
}

/* Is every row of the report verified, but for rows of the exercises
 * whose names start with `skippable` that were skipped?  The copy
 * engine's (transpose.tma*) refuse a GPU older than Hopper; any other
 * row that did not verify is a failure. */
static int verified_or_skipped(const char *out, const char *skippable)
{
	char head[160];
	snprintf(head, sizeof head, "{\"exercise\": \"%s", skippable);
	for (const char *row = strstr(out, "{\"exercise\": "); row;) {
		const char *next = strstr(row + 1, "{\"exercise\": ");
		const char *ok = strstr(row, "\"verified\": true"), *skip = strstr(row, "\"status\": \"skipped\"");
		int verified = ok && (!next || ok < next), skipped = skip && (!next || skip < next);
		if (!verified && !(skipped && !strncmp(row, head, strlen(head))))
			return 0;
		row = next;
	}
	return 1;
}

/* The template and the learner's climb pass the gate, and each gets a row
 * in the reduce table, compared with its baseline and reference. */
START_TEST(try_kernels_are_ranked)
{
	/* the template, the learner's climb, and the atomicAdd idiom under
	 * finish=device (partials[0] zeroed for it) */
	const char *files[] = { "challenges/reduce/template.cu", "tests/try/reduce_shfl.cu", "tests/try/reduce_atomic.cu" };
	if (!have_try())
		return; /* no NVRTC in this build */
	for (int i = 0; i < 3; i++) {
		char *args[] = { "try", "reduce", (char *)src_path(files[i]), "-t", "float", "-r", "3", "--format", "json", NULL };
		gpulab_try(args);
		ck_assert_msg(o.status == 0 && json_valid(o.out), "%s: exit %d\n%s%s", files[i], o.status, o.out, o.err);
		const char *row = strstr(o.out, "\"exercise\": \"try.reduce\"");
		ck_assert_msg(row && strstr(o.out, "\"exercise\": \"reduce.cub\"") && strstr(o.out, "\"exercise\": \"reduce.best\""),
			      "%s", o.out);
		ck_assert_msg(strstr(row, "\"verified\": true") && !strstr(row, "\"speedup\": null")
			      && !strstr(row, "\"ref_share\": null"), "%s: the row is not verified and compared: %s", files[i], row);
	}
	/* the other challenges' templates pass theirs, at odd shapes */
	char *tr[] = { "try", "transpose", (char *)src_path("challenges/transpose/template.cu"), "-p", "rows=1000", "-p",
		       "cols=3001", "-t", "int,float", "-r", "2", "--format", "json", NULL };
	char *sm[] = { "try", "sum_matrix", (char *)src_path("challenges/sum_matrix/template.cu"), "-p", "nx=1000", "-p",
		       "ny=777", "-r", "2", "--format", "json", NULL };
	gpulab_try(tr);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"exercise\": \"try.transpose\"") && verified_or_skipped(o.out, "transpose.tma"),
		      "exit %d\n%s%s", o.status, o.out, o.err);
	gpulab_try(sm);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"exercise\": \"try.sum_matrix\"") && !strstr(o.out, "\"verified\": false"),
		      "exit %d\n%s%s", o.status, o.out, o.err);
}
END_TEST

/* The text of file `path` with its first `from` made `to`. */
static const char *replaced(const char *path, const char *from, const char *to)
{
	static char text[65536], out[65536];
	read_text(path, text, sizeof text);
	const char *at = strstr(text, from);
	ck_assert_msg(at != NULL, "%s: no %s", path, from);
	snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* The challenges written as folders alone (issue 55): prefix_sum's
 * one-launch chained scan and histogram's shared-memory counts pass
 * their gates (histogram's with all elements in one bin); a scan that
 * does not chain its blocks, and a histogram that writes past its bins,
 * are stopped with their lines; grade ranks at the benchmark sizes (the
 * geometric mean) or, with --test, runs the gate alone. */
START_TEST(try_new_challenges)
{
	char *dir = temp_dir(), *out = temp_dir(), text[65536], rec[4200];
	if (!have_try())
		return;
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "histogram" : "prefix_sum";
		char path[200];
		snprintf(path, sizeof path, "challenges/%s/template.cu", name);
		char *args[] = { "try", (char *)name, (char *)src_path(path), "-r", "3", "--format", "json", NULL };
		gpulab_try(args);
		ck_assert_msg(o.status == 0 && json_valid(o.out) && strstr(o.out, "\"verified\": true")
			      && !strstr(o.out, "\"verified\": false"), "%s: exit %d\n%s%s", name, o.status, o.out, o.err);
	}
	/* each tile alone: wrong from the second */
	const char *unchained = write_file(dir, "unchained.cu", replaced(src_path("challenges/prefix_sum/template.cu"),
									   "out[i] = data[t] + carry;", "out[i] = data[t];"));
	char *pa[] = { "try", "prefix_sum", (char *)unchained, NULL };
	gpulab_try(pa);
	ck_assert_msg(o.status == EXIT_WRONG && strstr(last_line(), "fails the gate at n=257 int: out[256]: expected "),
		      "%d %s", o.status, o.err);
	const char *past = write_file(out, "past.cu", replaced(src_path("challenges/histogram/template.cu"), "\tif (i < n)\n",
							       "\tif (i == 0)\n\t\tbins[256] = 0;\n\tif (i < n)\n"));
	char *ha[] = { "try", "histogram", (char *)past, NULL };
	gpulab_try(ha);
	ck_assert_msg(o.status == EXIT_WRONG && strstr(last_line(), "bins: wrote outside it, at element 256 of 256"), "%d %s",
		      o.status, o.err);
	/* grade: the template ranked at the three benchmark sizes; the unchained scan fails */
	write_file(dir, "template.cu", read_text(src_path("challenges/prefix_sum/template.cu"), text, sizeof text));
	snprintf(rec, sizeof rec, "%s/grade.json", out);
	char *ga[] = { "grade", "prefix_sum", dir, "-o", rec, NULL };
	gpulab_try(ga);
	ck_assert_msg(o.status == 0 && strstr(o.out, "2 kernels, 1 measured, 1 failed") && strstr(o.out, "   1  template.cu"),
		      "%d\n%s%s", o.status, o.out, o.err);
	ck_assert_msg(occurrences(read_text(rec, text, sizeof text), "\"exercise\": \"try.prefix_sum\"") >= 3
		      && strstr(text, "\"mode\": \"ranked\""), "%.3000s", text);
	char *gt[] = { "grade", "--test", "prefix_sum", dir, "--format", "json", NULL };
	gpulab_try(gt);
	ck_assert_msg(o.status == 0 && strstr(o.out, "\"mode\": \"test\"") && occurrences(o.out, "\"passed\": true") == 1,
		      "%d\n%s%s", o.status, o.out, o.err);
	free(dir), free(out);
}
END_TEST

/* Each broken kernel: its exit code and its one line. */
static const struct broken {
	const char *file;
	const char *watchdog;
	int status;
	const char *words;
} broken[] = {
	/* drops the n % 4 tail past 4096: passes 1, 31 and 33, fails at 1000003 */
	{ "tests/try/reduce_tail.cu", NULL, EXIT_WRONG,
	  "reduce_tail.cu fails the gate at n=1000003 int: sum of 1000003 ints: expected " },
	{ "tests/try/syntax.cu", NULL, EXIT_USAGE, "syntax.cu does not compile for sm_" },
	{ "tests/try/oob.cu", NULL, EXIT_CUDA, "oob.cu at n=1 int: " },
	/* atomicAdd into partials[0] without finish=device: off by the poison,
	 * and the gate names the likely cause */
	{ "tests/try/atomic_host.cu", NULL, EXIT_WRONG,
	  "atomic_host.cu fails the gate at n=1 int: sum of 1 ints: expected " },
	{ "tests/try/atomic_host.cu", NULL, EXIT_WRONG,
	  "reproduces); off by exactly -1, the poison past in[n - 1] and in partials until written: a kernel that adds "
	  "into partials[0] (atomicAdd) declares finish=device, which zeroes partials[0] first" },
	{ "tests/try/write_past.cu", NULL, EXIT_WRONG,
	  "write_past.cu fails the gate at n=1 int: partials: wrote outside it, at element 1 of 1 (past the end)" },
	{ "tests/try/forever.cu", "2", EXIT_WATCHDOG,
	  "gpulab: try.reduce (n=1 int): still running after 2 s, stopped by the watchdog (--watchdog)" },
};

START_TEST(try_broken_kernels_are_stopped)
{
	const struct broken *b = &broken[_i];
	if (!have_try())
		return;
	char *args[] = { "try", "reduce", (char *)src_path(b->file), "--watchdog", (char *)(b->watchdog ? b->watchdog : "10"),
			 NULL };
	run_cmd_alarm(120);
	gpulab_try(args);
	run_cmd_alarm(0);
	ck_assert_msg(o.status == b->status, "%s: exit %d, wanted %d\n%s%s", b->file, o.status, b->status, o.out, o.err);
	ck_assert_msg(strstr(last_line(), b->words) && !strncmp(last_line(), "gpulab: ", 8), "%s: %s", b->file, o.err);
	ck_assert_msg(!o.out[0], "%s: something was timed: %s", b->file, o.out);
	if (b->status != EXIT_USAGE) /* the compiler's log comes first there */
		ck_assert_msg(count_lines(o.err) == 1, "%s: not one line: %s", b->file, o.err);
	if (b->status == EXIT_CUDA)
		ck_assert_msg(strstr(o.err, "illegal"), "%s", o.err);
	if (b->status == EXIT_WATCHDOG) /* startup and compile, 2 s, and the context's end */
		ck_assert_msg(o.seconds >= 2 && o.seconds < 30, "stopped after %g s", o.seconds);
}
END_TEST

/* The first run compiles and stores the kernel, the second reads it. */
START_TEST(try_cache_is_hit)
{
	if (!have_try())
		return;
	char *args[] = { "run", "try.reduce", "-p", (char *)NULL, "-n", "1000", "-r", "1", "-w", "0", "--format", "json", NULL };
	char kernel[4300];
	snprintf(kernel, sizeof kernel, "kernel=%s", src_path("challenges/reduce/template.cu"));
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", temp_dir()); /* empty: the other tests filled theirs */
	args[3] = kernel;
	for (int i = 0; i < 2; i++) {
		gpulab_try(args);
		ck_assert_msg(o.status == 0, "exit %d: %s", o.status, o.err);
		ck_assert_msg(strstr(o.out, i ? "\"cached\": 1" : "\"cached\": 0"), "run %d: %s", i + 1, o.out);
	}
}
END_TEST

/* --- nothing measured is lost (issue 28) --------------------------------------- */

static char *big_text(const char *path)
{
	static char *buf;
	if (!buf)
		buf = malloc(64u << 20);
	return read_text(path, buf, 64u << 20);
}

/* A journal (docs/record.md): every line one JSON value, ending in its
 * newline; with its closing line last where the run finished. */
static int journal_valid(const char *text, int finished)
{
	static char line[1 << 20];
	const char *last = text;
	for (const char *at = text, *nl; *at; at = nl + 1) {
		if (!(nl = strchr(at, '\n')) || (size_t)(nl - at) >= sizeof line)
			return 0;
		snprintf(line, sizeof line, "%.*s", (int)(nl - at), at);
		if (!json_valid(line))
			return 0;
		last = at;
	}
	return !finished || !strncmp(last, "{\"end\": ", 8);
}

/* A learner's kernel that traps at 2^20, in the middle of a sweep run by
 * try: the peers' rows and the sizes before it are measured, 2^20 is an
 * ERROR with the CUDA error, 2^21 and 2^22 are not run because the
 * context was lost, the record is written, and gpulab exits 8.  It traps
 * from the third launch of its module on (trap.cu), so the gate's two
 * launches a point pass, and the timed run's third warm-up traps. */
START_TEST(try_trap_mid_sweep)
{
	if (!have_try())
		return;
	char *dir = temp_dir(), rec[4200];
	snprintf(rec, sizeof rec, "%s/trap.json", dir);
	char *args[] = { "try", "reduce", (char *)src_path("tests/try/trap.cu"), "-n", "2^18:2^22", "-t", "int", "-r", "3",
			 "-o", rec, NULL };
	run_cmd_alarm(300);
	gpulab_try(args);
	run_cmd_alarm(0);
	ck_assert_msg(o.status == EXIT_CUDA, "exit %d\n%s%s", o.status, o.out, o.err);
	ck_assert_msg(strstr(last_line(), "gpulab: the CUDA context was lost at try.reduce n=1048576 int: ")
		      && count_lines(o.err) == 1, "%s", o.err);
	const char *text = big_text(rec), *row = strstr(text, "\"exercise\": \"try.reduce\"");
	ck_assert(journal_valid(text, 1) && row);
	ck_assert_msg(strstr(text, "\"interrupted\": true, \"interruption\": \"the CUDA context was lost at try.reduce n=1048576 int\""),
		      "%.3000s", text);
	/* try.reduce's five rows in order: ok, ok, ERROR, not run, not run */
	static const char *const want[] = { "\"status\": \"ok\"", "\"status\": \"ok\"", "\"status\": \"ERROR\"",
					    "\"status\": \"not run\"", "\"status\": \"not run\"" };
	for (int i = 0; i < 5; i++) {
		ck_assert_msg(row && strstr(row, want[i]) && (!strchr(row, '\n') || strstr(row, want[i]) < strchr(row, '\n')),
			      "try.reduce row %d: %.600s", i, row);
		if (i == 2) /* a trap is cudaErrorLaunchFailure; some drivers may call it an illegal instruction */
			ck_assert_msg(strstr(row, "unspecified launch failure") || strstr(row, "illegal instruction"), "%.600s", row);
		if (i >= 3)
			ck_assert(strstr(row, "\"message\": \"the CUDA context was lost at try.reduce n=1048576 int\""));
		row = strstr(row + 1, "\"exercise\": \"try.reduce\"");
	}
	ck_assert_int_eq(occurrences(text, "\"status\": \"not run\""), 2);
	ck_assert_int_eq(occurrences(text, "\"status\": \"ERROR\""), 1);
	ck_assert_int_eq(count_temporaries(dir), 0);
}
END_TEST

/* --- gpulab learn and grade (issue 40) ------------------------------------------ */

/* grade over the try fixtures: the two right kernels ranked by speed,
 * the wrong one, the one that traps in its timed runs, and the one that
 * never ends each failed with its line; the record has the two. */
START_TEST(grade_ranks_fixtures)
{
	static const char *const fixtures[][2] = { { "tests/try/reduce_shfl.cu", "shfl.cu" },
						   { "challenges/reduce/template.cu", "template.cu" },
						   { "tests/try/reduce_tail.cu", "tail.cu" },
						   { "tests/try/trap.cu", "trap.cu" },
						   { "tests/try/forever.cu", "forever.cu" } };
	char *dir = temp_dir(), *out = temp_dir(), text[65536], rec[4200];
	if (!have_try())
		return;
	for (size_t i = 0; i < 5; i++)
		write_file(dir, fixtures[i][1], read_text(src_path(fixtures[i][0]), text, sizeof text));
	snprintf(rec, sizeof rec, "%s/grade.json", out);
	char *args[] = { "grade", "reduce", dir, "-n", "2^20", "-t", "int", "--watchdog", "2", "-o", rec, NULL };
	gpulab_try(args);
	ck_assert_msg(o.status == 0 && strstr(o.out, "5 kernels, 2 measured, 3 failed"), "%d\n%s%s", o.status, o.out, o.err);
	const char *a = strstr(o.out, "   1  shfl.cu"), *b = strstr(o.out, "   2  template.cu");
	ck_assert_msg(a && b && a < b, "%s", o.out);
	ck_assert_msg(strstr(o.out, "tail.cu                              wrong result")
		      && strstr(o.out, "trap.cu                              faulted or trapped")
		      && strstr(o.out, "forever.cu                           hung: stopped"), "%s", o.out);
	/* the record is one report reads: the leaderboard names both */
	char page[4300], *report[] = { "report", rec, "-o", page, NULL };
	static char html[1 << 22];
	snprintf(page, sizeof page, "%s/board.html", out);
	gpulab(report);
	ck_assert_msg(o.status == 0 && strstr(read_text(page, html, sizeof html), "shfl.cu")
		      && strstr(html, "template.cu"), "%d %s", o.status, o.err);
	/* as grade ranked them, each failure with its word, the library and best as lines (issue 48) */
	char want[4400];
	snprintf(want, sizeof want, "<tr data-kernel=\"%s/shfl.cu\" data-rank=\"1\">", dir);
	ck_assert_msg(strstr(html, want), "no %s", want);
	snprintf(want, sizeof want, "<tr data-kernel=\"%s/template.cu\" data-rank=\"2\">", dir);
	ck_assert_msg(strstr(html, want), "no %s", want);
	ck_assert(strstr(html, "data-failure=\"wrong result\"") && strstr(html, "data-failure=\"faulted or trapped\"")
		  && strstr(html, "data-failure=\"hung: stopped\""));
	ck_assert(strstr(html, ">reduce.cub ") && strstr(html, ">reduce.best ") && strstr(html, " grade reduce "));
	ck_assert(!strstr(html, ".gpulab-grade-") && !strstr(html, "gpulab try"));
	free(dir), free(out);
}
END_TEST

/* The tests of one part: "verify" (every exercise at the sizes and
 * blocks where bugs live), "shapes" (the keys past a size, the rungs'
 * and best's finishes, the copy engine's shapes, the collectives),
 * "timed" (timing, counters, and grade's ranking by speed: alone on the
 * GPU) or "try" (learners' kernels through the gate, their failures and
 * the cache, and the counts past 2^31).  Signals and --resume on the GPU, and every lesson's
 * verdict, are bench/gpu-check.sh's steps (interrupt, learn), not
 * repeated here. */
static void add_part(TCase *t, const char *part)
{
	int alone = !strcmp(part, "timed");
	tcase_add_checked_fixture(t, alone ? gpu_alone : gpu_shared, gpu_times);
	if (!strcmp(part, "verify")) {
		tcase_add_loop_test(t, plugin_sizes_verify, 0, nplugins);
		tcase_add_test(t, unsized_refuse_n);
	} else if (!strcmp(part, "shapes")) {
		tcase_add_loop_test(t, shaped_verifies, 0, sizeof shaped / sizeof shaped[0]);
		tcase_add_test(t, collectives_verify);
		tcase_add_test(t, tma_takes_any_shape);
		tcase_add_test(t, best_finishes_verify);
		tcase_add_test(t, rungs_verify);
		tcase_add_test(t, rung_clusters_fill_the_grid);
		tcase_add_test(t, rungs_batch_and_refusals);
	} else if (alone) {
		tcase_add_test(t, options_on_gpu);
		tcase_add_test(t, timing_holds_streams);
		tcase_add_test(t, batches_time_one_run);
		tcase_add_test(t, metrics_count_what_kernels_do);
		tcase_add_test(t, metrics_defaults_and_errors);
		tcase_add_test(t, grade_ranks_fixtures);
	} else { /* try, and the largest counts (22 s on an H200) to even out the parts */
		tcase_add_test(t, counts_past_int);
		tcase_add_test(t, try_kernels_are_ranked);
		tcase_add_test(t, try_new_challenges);
		tcase_add_loop_test(t, try_broken_kernels_are_stopped, 0, sizeof broken / sizeof broken[0]);
		tcase_add_test(t, try_cache_is_hit);
		tcase_add_test(t, try_trap_mid_sweep);
	}
}

int main(void)
{
	/* A failed check's message quotes gpulab's output, which can pass
	 * Check's default 4 KiB; past it Check exits 2 and says nothing of
	 * the failure.  Room for a whole record's worth. */
	check_set_max_msg_size(1 << 20);
	wrapper = getenv("GPULAB_WRAPPER");
	if (!wrapper) {
		fprintf(stderr, "GPULAB_WRAPPER must be set (make check sets it)\n");
		return 99;
	}
	char *xdg = temp_dir();
	snprintf(env_xdg, sizeof env_xdg, "XDG_CONFIG_HOME=%s", xdg);
	free(xdg);
	char *cache = temp_dir();
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", cache);

	char *info[] = { "info", NULL };
	gpulab(info);
	if (o.status == EXIT_NODEVICE) {
		const char *req = getenv("GPULAB_REQUIRE_GPU");
		if (req && !strcmp(req, "1")) {
			fprintf(stderr, "GPULAB_REQUIRE_GPU=1, but: %s", o.err);
			return 1;
		}
		printf("SKIP: no GPU (%s)", o.err);
		return 77;
	}
	if (discover() <= 0)
		return 1;
	list_plugins();
	printf("%d exercises on this GPU:\n%s", nexercises, o.out);

	Suite *s = suite_create("gpu");
	TCase *t = tcase_create(GPU_PART);
	tcase_set_timeout(t, 900);
	add_part(t, GPU_PART);
	suite_add_tcase(s, t);
	return run_gpu_suite(s, "check_gpu (" GPU_PART ")");
}
