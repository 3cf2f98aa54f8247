#!/usr/bin/env python3
"""The house rules of core/ (docs/hacking.md), checked from the source.

core/ is layered, top to bottom: cli, draw, records, emit, run, plugins,
config, and the ground floor (the files directly in core/).  A file may
include and call only its own layer and those below.  This fails on:
  - an include of a header in a higher layer;
  - a call to a function defined in a higher layer;
  - two files that call each other (in one layer or across);
  - a function name defined in two files, or used both for a function
    and for a struct, enum, union or typedef.
A call is a name followed by '(' outside comments and strings, where the
name is a non-static function defined in another file of core/.
Run from `make check`; `python3 tests/layers.py -v` prints the graph."""

import os
import re
import sys

LAYERS = ["cli", "draw", "records", "emit", "run", "plugins", "config", ""]  # top to bottom; "" = core/ itself
# Files that implement one header each way, of which one is built: not namesakes.
ALTERNATIVES = [{"core/run/profile_cupti.cu", "core/run/profile_none.c"}]

DEF = re.compile(r"^(?!typedef\b|#|extern\b(?! ""))([A-Za-z_][^;(=\n]*?)[ *]([a-z_][a-z0-9_]*)\(", re.M)
TYPE = re.compile(r"\b(?:struct|enum|union)\s+([a-z_][a-z0-9_]*)\s*\{|\}\s*([a-z_][a-z0-9_]*)\s*;")
INCLUDE = re.compile(r'^#\s*include\s+"([^"]+)"', re.M)
CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")


def layer(path):
    """Rank of the layer path is in: 0 is the top (cli)."""
    rel = os.path.relpath(path, "core")
    top = rel.split(os.sep)[0] if os.sep in rel else ""
    if top not in LAYERS:
        sys.exit("layers.py: %s is in no layer; add its folder to LAYERS and docs/hacking.md" % path)
    return LAYERS.index(top)


def strip(text):
    """The code without comments and string or character literals."""
    pat = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0).startswith("/") else '""', text)


def definitions(code):
    """(name, static) of each function defined (not only declared) in code."""
    out = []
    for m in DEF.finditer(code):
        depth, i = 1, m.end()
        while depth and i < len(code):
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
        if code[i:].lstrip().startswith("{"):
            out.append((m.group(2), m.group(1).lstrip().startswith("static")))
    return out


def main():
    os.chdir(os.environ.get("srcdir", os.path.join(os.path.dirname(__file__), "..")))
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk("core") for f in fs
                   if f.endswith((".c", ".h", ".cu")))
    code = {f: strip(open(f, encoding="utf-8").read()) for f in files}
    errors = []

    for f in files:
        for inc in INCLUDE.findall(open(f, encoding="utf-8").read()):
            target = os.path.join("core", inc)
            if os.path.exists(target) and layer(target) < layer(f):
                errors.append("%s includes %s, a layer above it" % (f, target))

    defined, public, types = {}, {}, {}
    for f in files:
        for m in TYPE.finditer(code[f]):
            types.setdefault(m.group(1) or m.group(2), f)
        if f.endswith(".h"):
            continue
        for name, static in definitions(code[f]):
            defined.setdefault(name, []).append(f)
            if not static:
                public[name] = f
    for name, where in sorted(defined.items()):
        if len(where) > 1 and set(where) not in ALTERNATIVES:
            errors.append("%s is defined in %s" % (name, " and ".join(where)))
        if name in types:
            errors.append("%s is a function in %s and a type in %s" % (name, where[0], types[name]))

    calls = {}
    for f in files:
        if f.endswith(".h"):
            continue
        for name in set(CALL.findall(code[f])):
            g = public.get(name)
            if g and g != f and not {f, g} in ALTERNATIVES:
                calls.setdefault(f, {}).setdefault(g, set()).add(name)
    for f, callees in sorted(calls.items()):
        for g, names in sorted(callees.items()):
            if layer(g) < layer(f):
                errors.append("%s calls %s in %s, a layer above it" % (f, ", ".join(sorted(names)), g))
            if f < g and f in calls.get(g, {}):
                errors.append("%s and %s call each other (%s; %s)" % (f, g, ", ".join(sorted(names)),
                                                                     ", ".join(sorted(calls[g][f]))))
    if "-v" in sys.argv:
        for f, callees in sorted(calls.items()):
            print("%s -> %s" % (f, " ".join(sorted(callees))))
    for e in errors:
        print("layers.py: " + e)
    print("layers.py: %d files, %d functions, %d calls between files, %d problems" %
          (len(files), len(defined), sum(len(c) for c in calls.values()), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
