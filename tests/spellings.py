#!/usr/bin/env python3
"""Each option and each command is spelled once in core/ (docs/hacking.md,
"Commands and options: one row each").

An option's "--name" and "-x" are written only in config/options.c's
option_rows; a command's name only in core/command_names.h, a ground-floor
header every layer may include (CMD_RUN "run"), which its struct
command_row in cli/ takes as its .name (the row's help paragraph and
examples are the row, and spell it as it is).  Everywhere else a message
or a command line gpulab builds takes the spelling from them
(options_long, options_short, options_key_spelling; "gpulab " CMD_RUN).
This fails on a string literal in core/, outside those rows and that
header, that spells an option, or that names a command as gpulab's
command word ("gpulab run ..."), in any layer; but for the few listed
below with their reason.  Comments are not read.  It needs no build."""

import os
import re
import sys

SRC = os.environ.get("srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OPTIONS = "core/config/options.c"
NAMES = "core/command_names.h"

# (file, spelling): why it stays.  Each is a debt, not a rule.
PENDING = {
}
# (file, a whole literal): a "gpulab NAME" that is no command word but a
# noun, said of gpulab; why it is one.
NOT_COMMANDS = {
    ("core/records/resume.c", "gpulab version"): "the version of gpulab a record was written by (its \"gpulab\" object)",
    ("core/records/ondisk.c", "is not a gpulab record, and %s replaces only a record: nothing was run (move it, or name "):
        "a record gpulab writes, said of a file that is not one",
}

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
COMMAND_ROW = re.compile(r'\bconst struct command_row (\w+) = \{.*?\n\};', re.S)


def option_spellings(text):
    """Each option's spellings, "--size" and "-n", from option_rows."""
    rows = re.findall(r'\[OPT_\w+\] = \{ "([a-z-]+)", (\'.\'|0)', text)
    return ["--" + name for name, _ in rows] + ["-" + letter.strip("'") for _, letter in rows if letter != "0"]


def command_names(text):
    """Each command's name, from command_names.h's #define CMD_X "x"."""
    return re.findall(r'^#define CMD_[A-Z]+ "([a-z]+)"$', text, re.M)


def rows_named(texts, names):
    """Each command row's .name is a CMD_ macro of command_names.h, one row
    a name: else a row could spell its name again."""
    got = sorted(m.group(1) for t in texts for m in re.finditer(r'\bconst struct command_row \w+ = \{\s*\.name = (\w+),', t))
    want = sorted("CMD_" + n.upper() for n in names)
    return [] if got == want else ["%s: the rows' names are %s, not %s's %s" % ("core/cli", got, NAMES, want)]


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
    """(path, line, spelling) of each spelling in a literal of text, but a
    noun of NOT_COMMANDS."""
    found = []
    for n, line in enumerate(uncommented(text).split("\n"), 1):
        for lit in LITERAL.findall(line):
            found += [(path, n, s) for s, p in pats if p.search(lit) and (path, lit) not in NOT_COMMANDS]
    return found


def selftest(pats):
    """The scan catches what it must and passes what it may: else it could
    pass a tree that breaks the rule."""
    bad = ('int f(void) { return fail(2, "-p: more than %d keys", 3); }\n'
           'static const char *w = "gpulab run %s --cold";\n'
           'static const char *v = "no lesson (`gpulab learn` lists them)";\n')
    good = ('/* "-p: a comment" */\nconst struct command_row row_x = {\n\t.name = "run",\n'
            '\t.examples = "gpulab run x -n 2^20 --cold\\n",\n};\n'
            'static const char *u = "x-n -n1 --colder";\n'
            'static const char *t = "gpulab " CMD_RUN " %s; gpulab runs, gpulab try.reduce";\n')
    got = sorted(s for _, _, s in hits("t.c", bad, pats))
    want = ["--cold", "-p", "gpulab learn", "gpulab run"]
    if got != want or hits("t.c", good, pats):
        sys.exit("spellings.py: its scan is broken: %s for %s, %s for nothing" % (got, want, hits("t.c", good, pats)))


def main():
    os.chdir(SRC)
    sources = []
    for d, _, files in sorted(os.walk("core")):
        sources += [os.path.join(d, f) for f in sorted(files) if f.endswith((".c", ".h", ".cu", ".cuh"))]
    texts = {p: open(p, errors="replace").read() for p in sources}
    options = option_spellings(texts[OPTIONS])
    commands = command_names(texts[NAMES])
    if len(options) < 30 or len(commands) < 10:
        sys.exit("spellings.py: read %d option spellings and %d commands: the rows' form changed" % (len(options), len(commands)))
    pats = patterns(options, commands)
    selftest(pats)
    misnamed = rows_named((t for p, t in texts.items() if p.startswith("core/cli/")), commands)
    for m in misnamed:
        print(m)
    words = [s for s, _ in pats if s.startswith("gpulab ")]
    found = [h for p in sources if p != NAMES for h in hits(p, texts[p], pats) if p != OPTIONS or h[2] in words]
    bad = [h for h in found if (h[0], h[2]) not in PENDING]
    for path, line, s in bad:
        take = "\"gpulab \" CMD_%s (command_names.h)" % s[7:].upper() if s in words else "it from its row"
        print("%s:%d: %s spelled outside its row: take %s" % (path, line, s, take))
    stale = sorted(set(PENDING) - {(h[0], h[2]) for h in found})
    for path, s in stale:
        print("note: %s no longer spells %s: its exception can go" % (path, s))
    for path, lit in sorted(k for k in NOT_COMMANDS if '"%s"' % k[1] not in texts.get(k[0], "")):
        print("note: %s no longer has \"%s\": its exception can go" % (path, lit))
    options = [h for h in found if not h[2].startswith("gpulab ")]
    print("spellings: %d options spelled outside the rows in %d files, %d command words in %d files; %d of these pending (%s)"
          % (len(options), len({h[0] for h in options}), len(found) - len(options),
             len({h[0] for h in found if h not in options}), len(found) - len(bad),
             ", ".join(sorted({h[0] for h in found if h not in bad}))))
    return 1 if bad or misnamed else 0


if __name__ == "__main__":
    sys.exit(main())
