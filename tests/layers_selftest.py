#!/usr/bin/env python3
"""tests/layers.py on small core/ trees built here: it passes a clean one
and fails each broken one with exactly the problems it has.  A case the
checker once missed gets a tree here, so that it cannot be missed again."""

import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.py")

# A clean tree: every layer's way of defining and calling, all downward.
CLEAN = {
    "core/exitcode.h": "#define EXIT_BAD 3\n"
                       "static inline int exit_code_for(int s) { return s ? EXIT_BAD : 0; }\n",
    "core/fail.h": "int fail_with(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));\n",
    "core/fail.c": '#include "fail.h"\n'
                   "int fail_with(int code, const char *fmt, ...)\n{\n\treturn code; /* bench_time() */\n}\n",
    "core/config/settings.h": "struct settings { int n; };\n"
                              "typedef int (*settings_hook)(int);\n"
                              "typedef struct { int a; } settings_pair;\n"
                              "int settings_load(struct settings *s);\n"
                              "#define SETTINGS_FAIL(c) fail_with((c), \"settings\")\n",
    "core/config/settings.c": '#include "settings.h"\n#include "../fail.h"\n#include "exitcode.h"\n'
                              "__attribute__((format(printf, 1, 2)))\n"
                              "static int\nsettings_parse(const char *s, ...)\n{\n"
                              '\treturn fail_with(1, "bench_time(%s", s);\n}\n\n'
                              "int settings_load(struct settings *s)\n{\n\tint i;\n"
                              "#define EACH(i) for (i = 0; i < 3; i++)\n"
                              '\tEACH(i) {\n\t\tsettings_parse("");\n\t}\n'
                              "\tif (s) {\n\t\treturn SETTINGS_FAIL(2);\n\t}\n"
                              "\treturn exit_code_for(0);\n}\n",
    "core/run/bench.h": '#include "config/settings.h"\n'
                        "int bench_time(void);\n"
                        "static inline int bench_twice(void) { return settings_load(0) * 2; }\n",
    "core/run/bench.c": '#include "run/bench.h"\n#include <run/profile.h>\n'
                        "int bench_time(void)\n{\n\treturn settings_load(0) + profile_count();\n}\n",
    "core/run/profile.h": "int profile_count(void);\n",
    "core/run/profile.cu": '#include "exitcode.h"\n#include "run/profile.h"\n'
                           "namespace {\n"
                           "struct counter {\n\tint n;\n\tcounter() : n(0) {}\n\t~counter() {}\n"
                           "\tint counter_step(int k) const\n\t{\n\t\treturn n + k;\n\t}\n};\n"
                           "int counted(counter &c) { return c.counter_step(1); }\n"
                           "} // namespace\n"
                           'extern "C" int profile_count(void)\n{\n\tcounter c;\n\treturn counted(c);\n}\n',
    "core/cli/main.c": '#include "run/bench.h"\n#include "../run/profile.h"\n'
                       "int main(void)\n{\n\treturn bench_time() + bench_twice() + profile_count();\n}\n",
    # a plugin: the ABI, the standard and CUDA, NCCL, configure's config.h, its own folder
    "plugins/demo/demo.cu": '#include "config.h"\n#include "kernels.cuh"\n#include "sub/part.h"\n'
                            "#include <gpulab/plugin.h>\n#include <gpulab/lab.cuh>\n#include <vector>\n"
                            "#include <cuda_runtime.h>\n#include <nccl.h>\n#include <cub/cub.cuh>\n",
    "plugins/demo/kernels.cuh": "#include <cstdint>\n",
    "plugins/demo/sub/part.h": '#include "../kernels.cuh"\n',
    "plugins/other/other.cu": "#include <gpulab/plugin.h>\n",
    "plugins/other/shared.cuh": "",
}

# Each broken tree: what it adds to (or changes in) the clean one, and
# exactly the problems the checker must print.
CASES = {
    "a C++ method named like a C function": (
        {"core/run/profile.cu": CLEAN["core/run/profile.cu"].replace("counter_step", "add"),
         "core/run/metrics.c": "static int add(int a, int b)\n{\n\treturn a + b;\n}\n"},
        ["add is defined as a function 2 times, in core/run/metrics.c and core/run/profile.cu"]),
    "a C++ method named like a type": (
        {"core/run/profile.cu": CLEAN["core/run/profile.cu"].replace("counter_step", "settings")},
        ["settings is a function in core/run/profile.cu and a type in core/config/settings.h"]),
    "two methods of one name in one file": (
        {"core/run/profile.cu": CLEAN["core/run/profile.cu"].replace(
            "int counted(counter &c)", "struct other { int counter_step(int k) { return k; } };\nint counted(counter &c)")},
        ["counter_step is defined as a function 2 times, in core/run/profile.cu and core/run/profile.cu"]),
    "a GNU-style definition named twice": (
        {"core/config/size.c": "static int\nsettings_parse(void)\n{\n\treturn 0;\n}\n"},
        ["settings_parse is defined as a function 2 times, in core/config/settings.c and core/config/size.c"]),
    "a static inline function in two headers": (
        {"core/config/size.h": "static inline int exit_code_for(int s)\n{\n\treturn s;\n}\n"},
        ["exit_code_for is defined as a function 2 times, in core/config/size.h and core/exitcode.h"]),
    "a header's inline function calling upward": (
        {"core/config/size.h": "static inline int size_now(void) { return bench_time(); }\n"},
        ["core/config/size.h calls bench_time in core/run/bench.c, a layer above it"]),
    "a header's macro calling upward": (
        {"core/config/size.h": "#define SIZE_NOW() \\\n\t(bench_time() + 1)\n"},
        ["core/config/size.h calls bench_time in core/run/bench.c, a layer above it"]),
    "a typedef named like a function": (
        {"core/config/size.h": "typedef unsigned long bench_time;\n"},
        ["bench_time is a function in core/run/bench.c and a type in core/config/size.h"]),
    "a function-pointer typedef named like a function": (
        {"core/config/size.h": "typedef int (*bench_time)(void);\n"},
        ["bench_time is a function in core/run/bench.c and a type in core/config/size.h"]),
    "an extern \"C\" definition named twice": (
        {"core/config/size.cu": 'extern "C" int bench_time(void)\n{\n\treturn 0;\n}\n'},
        ["bench_time is defined as a function 2 times, in core/config/size.cu and core/run/bench.c"]),
    "two files calling each other": (
        {"core/run/a.c": "int a_f(void) { return b_f(); }\n",
         "core/run/b.c": "int b_f(void) { return 0; }\nint b_g(void) { return a_f(); }\n"},
        ["2 files call each other in a circle: core/run/a.c -> core/run/b.c (b_f); core/run/b.c -> core/run/a.c (a_f)"]),
    "a circle of three files in one layer": (
        {"core/run/a.c": "int a_f(void) { return b_f(); }\n",
         "core/run/b.c": "int b_f(void) { return c_f(); }\n",
         "core/run/c.c": "int c_f(void) { return a_f(); }\n"},
        ["3 files call each other in a circle: core/run/a.c -> core/run/b.c (b_f); "
         "core/run/b.c -> core/run/c.c (c_f); core/run/c.c -> core/run/a.c (a_f)"]),
    "a circle through a header's inline function": (
        {"core/run/a.h": "static inline int a_in(void) { return c_f(); }\n",
         "core/run/c.c": '#include "a.h"\nint c_f(void) { return 0; }\nint c_g(void) { return a_in(); }\n'},
        ["2 files call each other in a circle: core/run/a.h -> core/run/c.c (c_f); core/run/c.c -> core/run/a.h (a_in)"]),
    "a relative include upward": (
        {"core/emit/result.h": "int result_row(void);\n",
         "core/run/bench.c": '#include "../emit/result.h"\n' + CLEAN["core/run/bench.c"]},
        ["core/run/bench.c includes core/emit/result.h, a layer above it"]),
    "an include found beside the file before under core/": (
        {"core/cli/bench.h": "int cli_bench(void);\n",
         "core/bench.h": "int ground_bench(void);\n",
         "core/cli/list.c": '#include "bench.h"\n',
         "core/config/size.c": '#include "bench.h"\n#include "../cli/bench.h"\n'},
        ["core/config/size.c includes core/cli/bench.h, a layer above it"]),
    "a plugin including a core/ header by its path": (
        {"plugins/demo/demo.cu": '#include "../../core/run/bench.h"\n'},
        ["plugins/demo/demo.cu includes core/run/bench.h, a file of core/: "
         "a plugin sees the core through <gpulab/...> alone"]),
    "a plugin including a core/ header through core's -I": (
        {"plugins/demo/kernels.cuh": '#include "run/profile.h"\n#include <fail.h>\n'},
        ["plugins/demo/kernels.cuh includes core/run/profile.h, a file of core/: "
         "a plugin sees the core through <gpulab/...> alone",
         "plugins/demo/kernels.cuh includes core/fail.h, a file of core/: "
         "a plugin sees the core through <gpulab/...> alone"]),
    "a plugin including another plugin's file": (
        {"plugins/demo/kernels.cuh": '#include "../other/shared.cuh"\n#include <plugins/other/shared.cuh>\n'},
        ["plugins/demo/kernels.cuh includes plugins/other/shared.cuh, another plugin's file: "
         "share it through include/gpulab/",
         "plugins/demo/kernels.cuh includes plugins/other/shared.cuh, another plugin's file: "
         "share it through include/gpulab/"]),
    "a plugin's quoted include found nowhere": (
        {"plugins/other/other.cu": '#include "missing.h"\n'},
        ["plugins/other/other.cu includes missing.h, found nowhere in its folder"]),
    "a journal written from emit/ (the record has one owner, records/)": (
        {"core/io/journal.h": "int journal_append(const char *text);\n",
         "core/io/journal.c": '#include "io/journal.h"\nint journal_append(const char *text)\n{\n\treturn !text;\n}\n',
         "core/records/output.c": '#include "io/journal.h"\nint output_point(void)\n{\n\treturn journal_append("");\n}\n',
         "core/emit/lines.c": '#include "io/journal.h"\nint lines_point(void)\n{\n\treturn journal_append("");\n}\n'},
        ["core/emit/lines.c includes core/io/journal.h, which only records/ may use: the record has one owner",
         "core/emit/lines.c calls journal_append in core/io/journal.c, which only records/ may use: "
         "the record has one owner"]),
    "emit/ using io/ at all": (
        {"core/io/outfile.h": "int outfile_open(const char *path);\n",
         "core/draw/page.c": '#include "io/outfile.h"\n',
         "core/emit/table.c": '#include "io/outfile.h"\n'},
        ["core/emit/table.c includes core/io/outfile.h, and emit/ may not use io/: "
         "it formats, and writes no file of its own"]),
    "a file written outside io/": (
        {"core/io/outfile.c": "int outfile_put(const char *p)\n{\n\tFILE *f = fopen(p, \"w\");\n"
                              "\treturn rename(p, \"q\") + !f;\n}\n",
         "core/draw/page.c": "/* not fopen(p, \"w\") in a comment, nor rename(a, b) */\n"
                             "int page_save(const char *p)\n{\n\tFILE *f = fopen(p, \"wb\"), *r = fopen(p, \"r\");\n"
                             "\tint fd = open(p, O_WRONLY | O_CREAT, 0644), null = open(\"/dev/null\", O_WRONLY);\n"
                             "\tint in = open(p, O_RDONLY);\n"
                             "\treturn rename(p, \"x\") + fd + null + in + !f + !r;\n}\n",
         "core/learn/grade.c": "int grade_child(struct grade *g)\n{\n"
                               "\treturn open(g->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);\n}\n"},
        ["core/draw/page.c writes a file outside io/: rename(p...); write it through io/outfile.h",
         "core/draw/page.c writes a file outside io/: fopen(p...); write it through io/outfile.h",
         "core/draw/page.c writes a file outside io/: open(p...); write it through io/outfile.h"]),
    "files in a folder of no layer": (
        {"core/misc/a.c": "int misc_a(void) { return 0; }\n", "core/misc/b.h": "int misc_b(void);\n"},
        ["core/misc/a.c is in a folder of no layer; add it to LAYERS here and to docs/hacking.md",
         "core/misc/b.h is in a folder of no layer; add it to LAYERS here and to docs/hacking.md"]),
}


def check(tree):
    """layers.py's exit status and the problems it printed, on tree."""
    with tempfile.TemporaryDirectory() as root:
        for path, text in tree.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        run = subprocess.run([sys.executable, CHECKER], env=dict(os.environ, srcdir=root),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    lines = run.stdout.splitlines()
    return run.returncode, [l[len("layers.py: "):] for l in lines[:-1]], lines[-1]


def main():
    failed = 0
    rc, problems, summary = check(CLEAN)
    want = "layers.py: 10 files, 10 functions, 9 calls between files, 0 problems"
    if (rc, problems, summary) != (0, [], want):
        print("FAIL clean tree: rc %d, %r, %r (wanted %r)" % (rc, problems, summary, want))
        failed += 1
    for name, (changes, want) in CASES.items():
        rc, problems, _ = check(dict(CLEAN, **changes))
        if (rc, problems) != (1, want):
            print("FAIL %s: rc %d, problems %r\n  wanted rc 1, %r" % (name, rc, problems, want))
            failed += 1
    print("layers_selftest.py: %d trees, %d failed" % (len(CASES) + 1, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
