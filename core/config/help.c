#include "config.h"

#include "config/help.h"

#include "config/options.h"
#include "exitcode.h"
#include "fail.h"

#include <stdlib.h>
#include <string.h>

/* Each command's help: what it takes, its own options, and examples.
 * Another command adds an entry here and a line to general(). */
struct command_help {
	const char *name;
	void (*print)(FILE *out);
};

const char *docs_dir(void)
{
	const char *dir = getenv("GPULAB_DOCDIR");
	return dir && *dir ? dir : GPULAB_DOCDIR;
}

/* The installed page `name` a command's help cites, as its last lines:
 * a path a line, since a configured prefix may be long. */
static void help_page(FILE *out, const char *name)
{
	fprintf(out, "\npage:\n  %s/%s\n", docs_dir(), name);
}

static void general(FILE *out)
{
	fputs("usage: gpulab [OPTION]... COMMAND [ARGUMENT]...\n"
	      "\n"
	      "commands:\n"
	      "  list [PATTERN...]    plugins, exercises and their keys; one exercise in full\n"
	      "  info                 the GPU: limits, caches, peak memory bandwidth\n"
	      "  metrics              the nvprof metric names --metrics takes; what each reads\n"
	      "  run EXERCISE...      run, verify and time: plugin.exercise, a plugin,\n"
	      "                       or a glob such as 'reduce.unroll*'\n"
	      "  compare BASE NEW     two records (run --output) point by point, with a\n"
	      "                       Mann-Whitney U test's verdict: faster, slower, same\n"
	      "  report RECORD...     records as one page of charts and tables\n"
	      "  try CHALLENGE FILE   your kernel in FILE.cu, compiled at run time, checked on\n"
	      "                       edge cases, then timed beside the challenge's ladder\n"
	      "  learn [LESSON]       the lessons: the book's claims, tested on this GPU\n"
	      "  grade CHALLENGE DIR...\n"
	      "                       every .cu in DIR through try, each in its own process\n"
	      "  config [EXERCISE]    the INI files read, the plugin directories, and where\n"
	      "                       each of an exercise's values comes from\n"
	      "  new NAME             a plugin skeleton in NAME/, to build and install\n"
	      "  check FILE.so        a plugin's declarations and plans, without a GPU\n"
	      "  record upgrade FILE  a record of any schema rewritten as the journal run -o\n"
	      "                       writes (record.md, below)\n"
	      "  help [COMMAND]       this, or a command's options and examples\n"
	      "\n"
	      "  -h, --help           the command's help: gpulab run --help\n"
	      "      --config FILE    read FILE after the other configuration files; given\n"
	      "                       again, each FILE in the order given, the last winning\n"
	      "      --version        gpulab's version and plugin ABI\n"
	      "\n",
	      out);
	/* one path a line: a configured prefix may be long */
	fprintf(out,
		"configuration files, in the order read (`gpulab config` shows which were):\n"
		"  %s/gpulab.ini\n"
		"  %s/conf.d/*.ini\n"
		"  ~/.config/gpulab/gpulab.ini, then ~/.config/gpulab/conf.d/*.ini\n"
		"plugin directories, in the order searched:\n"
		"  %s\n"
		"  ~/.local/share/gpulab/plugins\n"
		"pages (record.md, learn.md, each plugin's), installed in:\n"
		"  %s\n"
		"\n"
		"See gpulab(1) for the configuration files and the exit codes.\n",
		GPULAB_SYSCONFDIR, GPULAB_SYSCONFDIR, GPULAB_PLUGINDIR, docs_dir());
}

static void list_help(FILE *out)
{
	fputs("usage: gpulab list [PATTERN...] [--format F]\n"
	      "\n"
	      "Every plugin and exercise, each key with its type and default. PATTERNs\n"
	      "are run's: plugin.exercise, a plugin, or a glob. One exercise named alone\n"
	      "is shown in full: its summary, every key with its type, default and the\n"
	      "values it takes, and the installed page that teaches it. Needs no GPU.\n"
	      "A plugin that does not load is a warning line; list fails for it only\n"
	      "where a PATTERN names it (exit 4; 3 for its INI keys), as run does.\n"
	      "\n"
	      "      --format F       table, csv, json or md (default table)\n"
	      "\n"
	      "examples:\n"
	      "  gpulab list\n"
	      "  gpulab list 'reduce.unroll*'\n"
	      "  gpulab list reduce.unroll8\n",
	      out);
}

static void info_help(FILE *out)
{
	fputs("usage: gpulab info\n"
	      "\n"
	      "Every GPU: its limits, caches, clocks and peak memory bandwidth.\n"
	      "\n"
	      "examples:\n"
	      "  gpulab info\n"
	      "  CUDA_VISIBLE_DEVICES=1 gpulab info\n",
	      out);
}

static void metrics_help(FILE *out)
{
	fputs("usage: gpulab metrics\n"
	      "\n"
	      "The book's nvprof metric names that --metrics takes, and the Nsight\n"
	      "Compute metrics each reads now.\n"
	      "\n"
	      "examples:\n"
	      "  gpulab metrics\n"
	      "  gpulab run divergence.math1 --metrics warp_execution_efficiency\n",
	      out);
}

static void run_help(FILE *out)
{
	const struct stopping stop = STOP_DEFAULTS;
	fprintf(out,
		"usage: gpulab run EXERCISE... [OPTION]...\n"
		"\n"
		"Run, verify against the CPU and time each exercise: plugin.exercise, a\n"
		"plugin (all its exercises), or a glob such as 'reduce.unroll*'. Every\n"
		"value takes a list (1M,4M) or, for counts, a range A:B[:K] (a sweep).\n"
		"\n"
		"  -n, --size N         element count: 16777216, 2^24 or 16M (exercises sized\n"
		"                       by their own keys refuse it)\n"
		"  -b, --block N        threads per block\n"
		"  -t, --type T         element type: int or float\n"
		"  -r, --reps N         exactly N timed runs (default: until the noise is under\n"
		"                       --max-noise; see below)\n"
		"  -w, --warmup N       untimed runs first (default %s)\n"
		"  -p, --param KEY=VAL  an exercise's own key (gpulab list EXERCISE)\n"
		"      --cold           flush the L2 cache before every run\n"
		"      --batch K        time K runs back to back per sample, and take the time\n"
		"                       over K (default 1; at most %d): less noise, no gaps\n"
		"      --format F       table, csv, json or md (default table)\n"
		"      --max-noise PCT  repeat each point until the relative standard deviation\n"
		"                       of its samples is at most PCT %% (default %g)\n"
		"      --min-time S     ...and its samples add up to S seconds of GPU time (%g)\n"
		"      --timeout S      ...or S seconds have passed, unconverged (default %g)\n"
		"  -o, --output FILE    also write the record to FILE, a journal appended as each\n"
		"                       point is done (record.md, below); one writer at a time\n"
		"      --resume         with -o FILE: keep FILE's measured points, run the rest\n"
		"      --samples [N]    the samples in the JSON report, at most 4096 a point (a\n"
		"                       uniform subset), or N, or with all every one; -o's too\n"
		"      --wide           the table with every column (params, min, max, runs)\n"
		"      --no-verify      skip the check against the CPU reference\n"
		"      --quiet          no device-side printing\n"
		"      --profile        run each exercise once, no warm-up, for ncu or nsys\n"
		"      --metrics LIST   hardware counters from extra, untimed runs: names from\n"
		"                       `gpulab metrics`, Nsight Compute names, or 'default'\n"
		"      --watchdog S     stop gpulab, exit %d, if one run takes over S seconds\n"
		"                       (default %d for try's kernels, else never; 0: never)\n"
		"\n"
		"examples:\n"
		"  gpulab run reduce.unroll8\n"
		"  gpulab run 'reduce.unroll*' -n 2^28 -t float\n"
		"  gpulab run reduce.best reduce.cub -n 2^16:2^30:2 -o sweep.json\n",
		generic_params[GEN_WARMUP].def, BATCH_MAX, 100 * stop.max_noise, stop.min_time_s, stop.timeout_s,
		EXIT_WATCHDOG, WATCHDOG_DEFAULT_S);
	help_page(out, "record.md");
}

static void compare_help(FILE *out)
{
	fprintf(out,
		"usage: gpulab compare BASE.json NEW.json [OPTION]...\n"
		"       gpulab compare RECORD.json --base EXERCISE --new EXERCISE\n"
		"\n"
		"Two records of gpulab run --output, point by point: the ratio of medians\n"
		"and a Mann-Whitney U test's verdict (faster, slower, same).\n"
		"\n"
		"      --fail-above PCT exit %d if a point is slower by more than PCT %%,\n"
		"                       with confidence\n"
		"      --min-change PCT a significant change under PCT %% counts as the same\n"
		"                       (default 0)\n"
		"      --base EX        the base side is exercise EX's points alone...\n"
		"      --new EX         ...and the new side EX's, matched by their parameters\n"
		"      --format F       table, csv, json or md (default table)\n"
		"\n"
		"examples:\n"
		"  gpulab compare base.json new.json --fail-above 5 --min-change 5\n"
		"  gpulab compare sweep.json --base reduce.cub --new reduce.best\n",
		EXIT_SLOWER);
}

static void report_help(FILE *out)
{
	fputs("usage: gpulab report RECORD.json... -o FILE.html|FILE.svg\n"
	      "       gpulab report RECORD.json... --nccl-tests FILE -o FILE.html|FILE.svg\n"
	      "\n"
	      "Records as one HTML page of charts and tables that fetches nothing; two\n"
	      "records also get NEW against BASE point by point; grade's records are a\n"
	      "leaderboard, and several of one challenge who improved. A record whose\n"
	      "rows note busbw (the multigpu collectives) also gets busbw against the\n"
	      "size. FILE.svg is the first chart alone.\n"
	      "\n"
	      "  -o, --output FILE    the page (.html) or the chart (.svg) to write\n"
	      "      --nccl-tests FILE  nccl-tests' output (all_reduce_perf and the like,\n"
	      "                       appended to one file): its busbw drawn beside;\n"
	      "                       the .svg is then the busbw chart\n"
	      "\n"
	      "examples:\n"
	      "  gpulab report run.json -o run.html\n"
	      "  gpulab report base.json new.json -o cmp.html\n"
	      "  gpulab report sweep.json -o sweep.svg\n"
	      "  gpulab report grade-1.json grade-2.json -o class.html\n"
	      "  gpulab report ranks.json --nccl-tests nccl-tests.txt -o busbw.html\n",
	      out);
}

static void try_help(FILE *out)
{
	fputs("usage: gpulab try CHALLENGE FILE.cu [OPTION]...\n"
	      "       gpulab try CHALLENGE --template\n"
	      "\n"
	      "Your kernel in FILE.cu, compiled at run time with NVRTC, checked on the\n"
	      "challenge's edge cases, then timed beside its ladder. Challenges: reduce,\n"
	      "transpose, sum_matrix. Takes run's options (gpulab help run).\n"
	      "\n"
	      "      --template       print a starting FILE.cu, with the kernel's contract\n"
	      "      --watchdog S     stop a run that takes over S seconds (default 10)\n"
	      "\n"
	      "examples:\n"
	      "  gpulab try reduce --template > mine.cu\n"
	      "  gpulab try reduce mine.cu -t float\n"
	      "  gpulab try transpose tile.cu -p rows=1000 -p cols=3001\n",
	      out);
}

static void learn_help(FILE *out)
{
	fputs("usage: gpulab learn [LESSON [--submit FILE.cu]]\n"
	      "\n"
	      "The lessons: each states one of the book's claims, runs the experiment that\n"
	      "tests it on this GPU, and says whether it holds; your progress is kept.\n"
	      "Alone, the map of lessons and the next one (learn.md, below).\n"
	      "\n"
	      "      --submit FILE.cu your kernel for the lesson's task, run through try\n"
	      "      --max-noise, --min-time, --timeout, --watchdog   as for run\n"
	      "\n"
	      "examples:\n"
	      "  gpulab learn\n"
	      "  gpulab learn divergence\n"
	      "  gpulab learn reduce-volatile-warp --submit mine.cu\n",
	      out);
	help_page(out, "learn.md");
}

static void grade_help(FILE *out)
{
	fputs("usage: gpulab grade CHALLENGE DIR... [OPTION]...\n"
	      "\n"
	      "Every .cu file in each DIR through try's gate and bench, each in a process\n"
	      "of its own, then ranked. Takes run's options (gpulab help run).\n"
	      "\n"
	      "  -o, --output FILE    the record of every kernel and the ranking (gpulab\n"
	      "                       report draws the leaderboard)\n"
	      "\n"
	      "examples:\n"
	      "  gpulab grade reduce submissions/ -n 2^20 -t int -o grade.json\n"
	      "  gpulab report grade.json -o board.html\n",
	      out);
}

static void config_help(FILE *out)
{
	fputs("usage: gpulab config [EXERCISE] [OPTION]...\n"
	      "\n"
	      "Every INI file in the order read (read, missing or refused, and why), and\n"
	      "the plugin directories. With an exercise, each of its keys' value and\n"
	      "where it came from: the command line, FILE:LINE, or the default. Takes\n"
	      "run's -n, -b, -t, -r, -w and -p, to show what they change.\n"
	      "\n"
	      "      --config FILE    read FILE after the other configuration files (again:\n"
	      "                       each in the order given)\n"
	      "      --variable NAME  gpulab.pc's NAME (plugindir, dropindir, nvcc,\n"
	      "                       nvccflags, ...) as pkg-config gives it, from this\n"
	      "                       gpulab's own gpulab.pc: no PKG_CONFIG_PATH needed\n"
	      "      --cflags         gpulab.pc's Cflags, the same way\n"
	      "\n"
	      "examples:\n"
	      "  gpulab config\n"
	      "  gpulab config reduce.best\n"
	      "  gpulab config reduce.best -n 2^20 --config mine.ini\n"
	      "  $(gpulab config --variable=nvcc) $(gpulab config --variable=nvccflags) \\\n"
	      "      $(gpulab config --cflags) -o mine.so mine.cu\n",
	      out);
}

static void new_help(FILE *out)
{
	fputs("usage: gpulab new NAME\n"
	      "\n"
	      "Write a plugin skeleton into the new directory NAME/: NAME.cu with one\n"
	      "exercise (plan, setup, run, verify and its keys), a Makefile taking its\n"
	      "flags from pkg-config, and NAME.ini. `make install` there installs it for\n"
	      "you alone (~/.local/share/gpulab/plugins, ~/.config/gpulab/conf.d), no\n"
	      "root needed. NAME is a-z, 0-9 and _, starting with a letter, and no\n"
	      "installed plugin's (its .so would be loaded in place of yours).\n"
	      "\n"
	      "examples:\n"
	      "  gpulab new hist && cd hist && make && make install && gpulab run hist\n"
	      "  make check      # in hist/: gpulab check hist.so, no GPU needed\n",
	      out);
}

static void check_help(FILE *out)
{
	fputs("usage: gpulab check FILE.so...\n"
	      "\n"
	      "Load each plugin, check its descriptor and every parameter table, and call\n"
	      "each exercise's plan() at its defaults, at every key's limits, and where\n"
	      "they meet (all keys at their least, at their most; the most -n with the\n"
	      "least -b). One line for each problem; exit 0 when there is none. Needs no\n"
	      "GPU: plan() may not touch one.\n"
	      "\n"
	      "examples:\n"
	      "  gpulab check hist.so\n"
	      "  gpulab check $(gpulab config --variable=plugindir)/*.so\n",
	      out);
}

static void record_help(FILE *out)
{
	fputs("usage: gpulab record upgrade FILE [-o OUT] [--samples N|all]\n"
	      "\n"
	      "A record of any schema gpulab reads (a gpulab-record/1 document, or a\n"
	      "journal) rewritten as the journal run -o writes (record.md, below), at most\n"
	      "4096 samples a point (a uniform subset): in place, atomically, with its\n"
	      "permissions, under the writers' lock; or to OUT. A journal that did not\n"
	      "finish stays one that did not finish.\n"
	      "\n"
	      "  -o, --output OUT     write OUT, and leave FILE as it is\n"
	      "      --samples N|all  keep at most N samples a point, or every one\n"
	      "\n"
	      "examples:\n"
	      "  gpulab record upgrade old.json\n"
	      "  gpulab record upgrade old.json -o new.json --samples 1024\n",
	      out);
	help_page(out, "record.md");
}

static void help_help(FILE *out)
{
	fputs("usage: gpulab help [COMMAND]\n"
	      "\n"
	      "The general help, or a command's options and examples; the same as\n"
	      "gpulab COMMAND --help or -h.\n"
	      "\n"
	      "examples:\n"
	      "  gpulab help\n"
	      "  gpulab help run\n",
	      out);
}

static void version_help(FILE *out)
{
	fputs("usage: gpulab --version\n"
	      "\n"
	      "gpulab's version and the plugin ABI version it speaks (major.minor).\n"
	      "\n"
	      "examples:\n"
	      "  gpulab --version\n",
	      out);
}

static const struct command_help commands[] = {
	{ "list", list_help },       { "info", info_help },     { "metrics", metrics_help },
	{ "run", run_help },         { "compare", compare_help }, { "report", report_help },
	{ "try", try_help },         { "learn", learn_help },   { "grade", grade_help },
	{ "config", config_help },   { "new", new_help },
	{ "check", check_help },     { "help", help_help },     { "version", version_help },
	{ "record", record_help },
};

const char *help_commands(void)
{
	return "list, info, metrics, run, compare, report, try, learn, grade, config, new, check, record";
}

int help_print(const char *command, FILE *out)
{
	if (!command) {
		general(out);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, command)) {
			commands[i].print(out);
			return 0;
		}
	return fail(EXIT_USAGE, "help: no command '%s' (%s)", command, help_commands());
}
