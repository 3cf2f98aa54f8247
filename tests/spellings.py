#!/usr/bin/env python3
"""Each option and each command is spelled once in core/: in its row
(docs/hacking.md, "Commands and options: one row each").

An option's "--name" and "-x" are written only in config/options.c's
option_rows; a command's name only in its struct command_row in cli/
(its help paragraph and examples are the row too).  Everywhere else a
message or a command line gpulab builds takes the spelling from the rows
(options_long, options_short, options_key_spelling; a row's .name).
This fails on a string literal in core/, outside those rows, that spells
an option; or one in cli/ that names a command as gpulab's command word
("gpulab run ..."); but for the few listed below with their reason.
Comments are not read.  It needs no build.

A command word below cli/ is counted, not refused: the rows are cli/'s,
the top layer, which no layer below may include (tests/layers.py), so
that a line such as a record's rerun ("gpulab run try.reduce -n ...",
run/job.c) can take the word only where a caller above hands it down."""

import os
import re
import sys

SRC = os.environ.get("srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OPTIONS = "core/config/options.c"

# (file, spelling): why it stays.  Each is a debt, not a rule.
PENDING = {
}

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
COMMAND_ROW = re.compile(r'\bconst struct command_row (\w+) = \{.*?\n\};', re.S)


def option_spellings(text):
    """Each option's spellings, "--size" and "-n", from option_rows."""
    rows = re.findall(r'\[OPT_\w+\] = \{ "([a-z-]+)", (\'.\'|0)', text)
    return ["--" + name for name, _ in rows] + ["-" + letter.strip("'") for _, letter in rows if letter != "0"]


def command_names(texts):
    """Each command row's .name, from cli/."""
    return [m.group(1) for t in texts for m in re.finditer(r'\bconst struct command_row \w+ = \{\s*\.name = "([a-z]+)"', t)]


def uncommented(text):
    """The text without comments and command rows, literals kept, lines kept."""
    text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0)[0] == "/" else m.group(0), text)
    return COMMAND_ROW.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def patterns(options, commands):
    """(spelling, its regex in a literal) of each option and command word."""
    out = []
    for s in options:
        if s.startswith("--"):
            out.append((s, re.compile(r"(?<![\w-])" + re.escape(s) + r"(?![\w-])")))
        else:  # "-n" then a space, '=', ':', '/', a quote, ')' or the end; not "-n1" nor "x-n"
            out.append((s, re.compile(r"(?<![\w-])" + re.escape(s) + r"(?=[ =:/\"')]|$)")))
    for c in commands:
        out.append(("gpulab " + c, re.compile(r"(?<![\w-])gpulab " + re.escape(c) + r"(?![\w.-])")))
    return out


def hits(path, text, pats):
    """(path, line, spelling) of each spelling in a literal of text."""
    found = []
    for n, line in enumerate(uncommented(text).split("\n"), 1):
        for lit in LITERAL.findall(line):
            found += [(path, n, s) for s, p in pats if p.search(lit)]
    return found


def selftest(pats):
    """The scan catches what it must and passes what it may: else it could
    pass a tree that breaks the rule."""
    bad = ('int f(void) { return fail(2, "-p: more than %d keys", 3); }\n'
           'static const char *w = "gpulab run %s --cold";\n')
    good = ('/* "-p: a comment" */\nconst struct command_row row_x = {\n\t.name = "run",\n'
            '\t.examples = "gpulab run x -n 2^20 --cold\\n",\n};\n'
            'static const char *u = "x-n -n1 --colder";\n')
    got = sorted(s for _, _, s in hits("t.c", bad, pats))
    want = ["--cold", "-p", "gpulab run"]
    if got != want or hits("t.c", good, pats):
        sys.exit("spellings.py: its scan is broken: %s for %s, %s for nothing" % (got, want, hits("t.c", good, pats)))


def main():
    os.chdir(SRC)
    sources = []
    for d, _, files in sorted(os.walk("core")):
        sources += [os.path.join(d, f) for f in sorted(files) if f.endswith((".c", ".h", ".cu", ".cuh"))]
    texts = {p: open(p, errors="replace").read() for p in sources}
    options = option_spellings(texts[OPTIONS])
    commands = command_names(t for p, t in texts.items() if p.startswith("core/cli/"))
    if len(options) < 30 or len(commands) < 10:
        sys.exit("spellings.py: read %d option spellings and %d commands: the rows' form changed" % (len(options), len(commands)))
    pats = patterns(options, commands)
    selftest(pats)
    found = [h for p in sources if p != OPTIONS for h in hits(p, texts[p], pats)]
    below = [h for h in found if h[2].startswith("gpulab ") and not h[0].startswith("core/cli/")]
    found = [h for h in found if h not in below]
    bad = [h for h in found if (h[0], h[2]) not in PENDING]
    for path, line, s in bad:
        print("%s:%d: %s spelled outside its row: take it from the row" % (path, line, s))
    stale = sorted(set(PENDING) - {(h[0], h[2]) for h in found})
    for path, s in stale:
        print("note: %s no longer spells %s: its exception can go" % (path, s))
    options = [h for h in found if not h[2].startswith("gpulab ")]
    print("spellings: %d options spelled outside the rows in %d files, %d command words in cli/; %d of these pending (%s)"
          % (len(options), len({h[0] for h in options}), len(found) - len(options), len(found) - len(bad),
             ", ".join(sorted({h[0] for h in found if h not in bad}))))
    print("spellings: %d command words below cli/, in %d files (counted, not refused)" % (len(below), len({h[0] for h in below})))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
