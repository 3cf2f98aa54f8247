#!/usr/bin/env python3
"""The house rules of core/ (docs/hacking.md), checked from the source.

core/ is layered, top to bottom: cli, learn, session, draw, compare,
records, emit, run, plugins, config, io, and the ground floor (the files
directly in core/).  A
file may include and call only its own layer and those below.  This fails on:
  - a file in a folder that is in no layer (every such file);
  - an include of a header in a higher layer, a quoted include resolved
    first against the including file's folder ("../emit/writer.h");
  - a call to a function defined in a higher layer, from a .c or .cu file
    or from a header's inline function or macro;
  - files that call each other, two or in a longer circle (A calls B calls
    C calls A), in one layer or across: the call graph's strongly
    connected components;
  - a name defined as a function twice in core/ (static or not, a header's
    static inline, a C++ method, in one file or two), or as a function and
    a type (struct, union, enum, class, typedef, using);
  - a file written outside io/ (docs/hacking.md): a call that creates,
    replaces, renames or truncates one (rename, creat, mkstemp, truncate,
    link, symlink; not tmpfile, whose file has no name; fopen, freopen or fdopen in a mode with w, a
    or +; open or openat with O_WRONLY, O_RDWR, O_CREAT, O_TRUNC or
    O_APPEND, but of "/dev/null"), but those WRITES_ELSEWHERE names;
  - a room using what only some rooms above may (ONLY_FOR): a journal
    (io/journal.h) is the record's alone, records/'s; and emit/ may not
    include or call io/ at all: it formats, and writes no file of its own.
A definition is a name, after a type, whose parameter list is followed by
'{': at any indentation and with its type on the line before (GNU style).
A call is a name followed by '(' outside comments and strings and not
after a type (which declares it), to a function of another file: one not
static defined in a .c or .cu file (outside a class and an anonymous
namespace), or one defined in a header.
A header and the .c or .cu beside it of the same name are one unit.
Pure Python 3 with its standard library.  Run from `make check`;
`python3 tests/layers.py -v` prints the graph and a summary;
tests/layers_selftest.py shows each case failing on a small tree."""

import os
import re
import sys

LAYERS = ["cli", "learn", "session", "draw", "compare", "records", "emit", "run", "plugins", "config", "io", ""]  # top to bottom; "" = core/ itself
# Files that implement one header each way, of which one is built: not namesakes.
ALTERNATIVES = [{"core/run/profile_cupti.cu", "core/run/profile_none.c"}]
SOURCES = (".c", ".h", ".cu", ".cuh")
# Files a plugin shares with another or with core/, as its local.mk says,
# each (includer, included): no other crosses a plugin's folder.
PLUGIN_SHARED = {
    ("plugins/multigpu/plan.cuh", "plugins/reduce/best.cuh"),  # sums with reduce's best kernel
    ("plugins/multigpu/ring.cuh", "plugins/reduce/best.cuh"),  # its vec4<T>
    ("plugins/try/log.c", "core/escape.h"),  # escapes as the core does: escape.c linked from core/libshared.la
    ("plugins/try/challenges.h", "core/plugins/challenge.h"),  # reads challenge.ini as the core does (libshared.la)
    ("plugins/try/builtins.cuh", "core/plugins/challenge.h"),  # the generators and references it names
}

# Units of core/ that only some rooms may include or call, beside their
# own: a journal is the record's alone (records/output.c writes a run's,
# records/upgrade.c rewrites one), so that the record has one owner.
ONLY_FOR = {"core/io/journal": ("records",)}
# Rooms that may not use another room below them at all: emit/ formats,
# and the file what it formats goes to is its caller's.
NEVER = {"emit": ("io",)}
# Files written outside io/, each (file, its first argument): none but a
# scratch file no one reads as gpulab's output.
WRITES_ELSEWHERE = {
    ("core/learn/grade.c", "g->errfile"),  # a graded child's stderr, its last line read back, then removed
}
WRITE_CALL = re.compile(r"\b(rename|renameat2?|creat|mkstemps?|mkostemps?|truncate|ftruncate|link|linkat|"
                        r"symlink|symlinkat)\s*\(")
OPEN_CALL = re.compile(r"\b(fopen|freopen|fdopen|open|openat)\s*\(")
WRITE_FLAG = re.compile(r"\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b")
STRING = re.compile(r'"((?:\\.|[^"\\\n])*)"')

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
NAME_PAREN = re.compile(r"\b(%s)\s*\(" % IDENT)
CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)
TAG_TYPE = re.compile(r"\b(?:struct|union|enum|class)\s+(%s)\s*(?:final\s*)?[{;:]" % IDENT)
USING = re.compile(r"\busing\s+(%s)\s*=" % IDENT)
# Words that come before a name and '(' but do not make it a definition.
NOT_A_TYPE = {"return", "else", "case", "goto", "do", "new", "delete", "throw", "sizeof", "typeof",
              "co_return", "co_yield", "co_await", "operator"}
# Names followed by '(' that are never functions of ours.
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "typeof", "__typeof__", "alignof",
            "_Alignof", "defined", "catch", "decltype", "static_assert", "_Static_assert",
            "__attribute__", "__declspec", "noexcept", "alignas", "_Alignas", "_Generic", "__asm__", "asm"}
# What may come between a parameter list and the body of a definition.
AFTER_PARAMS = re.compile(r"(?:\s+|\b(?:const|noexcept|override|final|volatile)\b|&)*")


def room_of(path):
    """The folder under core/ that path is in ("" for the ground floor)."""
    parts = os.path.relpath(path, "core").split(os.sep)
    return parts[0] if len(parts) > 1 else ""


def may_use(f, g):
    """Why f may not include or call g, though g is not above it; or None."""
    if unit(g) in ONLY_FOR and room_of(f) not in ONLY_FOR[unit(g)] + (room_of(g),):
        return "which only %s may use: the record has one owner" % ", ".join(r + "/" for r in ONLY_FOR[unit(g)])
    if room_of(g) in NEVER.get(room_of(f), ()):
        return "and %s/ may not use %s/: it formats, and writes no file of its own" % (room_of(f), room_of(g))
    return None


def layer_of(path):
    """Rank of the layer path is in (0 is the top, cli), or None."""
    parts = os.path.relpath(path, "core").split(os.sep)
    top = parts[0] if len(parts) > 1 else ""
    return LAYERS.index(top) if top in LAYERS else None


def unit(path):
    """A header and its .c or .cu are one unit of the call graph."""
    return os.path.splitext(path)[0]


def strip(text):
    """The code without comments and string or character literals (as "")."""
    pat = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0).startswith("/") else '""', text)


def uncomment(text):
    """The text without comments, its string literals kept."""
    pat = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0).startswith("/") else m.group(0), text)


def writes(text):
    """(call, its first argument) of each call in text that writes a file:
    creates, replaces, renames or truncates one (see the top)."""
    code, out = uncomment(text), []
    for m in WRITE_CALL.finditer(code):
        if re.match(IDENT + "$", before(code, m.start())) and before(code, m.start()) not in NOT_A_TYPE:
            continue                 # a declaration or a definition, not a call
        args = code[m.end():close_paren(code, m.end()) - 1]
        out.append((m.group(1), args.split(",")[0].strip()))
    for m in OPEN_CALL.finditer(code):
        if re.match(IDENT + "$", before(code, m.start())) and before(code, m.start()) not in NOT_A_TYPE:
            continue
        args = code[m.end():close_paren(code, m.end()) - 1]
        first = args.split(",")[0].strip()
        if m.group(1) not in ("open", "openat"):
            modes = STRING.findall(args)
            if modes and re.search(r"[wa+]", modes[-1]):
                out.append((m.group(1), first))
        elif WRITE_FLAG.search(args) and first != '"/dev/null"':
            out.append((m.group(1), first))
    return out


def without_preprocessor(code):
    """code with each preprocessor line (and its continuations) blanked."""
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: "\n" * m.group(0).count("\n"), code, flags=re.M)


def scopes(code):
    """(open, close, kind) of each brace pair: kind is class, anon (an
    anonymous namespace), open (a named namespace or extern "C", whose
    contents are file scope) or block (a body or an initializer)."""
    out, stack, last = [], [], 0
    for m in re.finditer(r"[{};]", code):
        if m.group(0) == "{":
            head = code[last:m.start()]
            if re.search(r"\bnamespace\s*$", head):
                kind = "anon"
            elif re.search(r"\bnamespace\s+%s\s*$|\bextern\s*\"\"\s*$" % IDENT, head):
                kind = "open"
            elif re.search(r"\b(?:struct|class|union)\b", head) and ")" not in head and "=" not in head:
                kind = "class"
            else:
                kind = "block"
            stack.append((m.start(), kind))
        elif m.group(0) == "}" and stack:
            start, kind = stack.pop()
            out.append((start, m.start(), kind))
        last = m.end()
    return out


def close_paren(code, i):
    """Index just past the ')' matching the '(' at code[i - 1]."""
    depth = 1
    while depth and i < len(code):
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        i += 1
    return i


def before(code, i):
    """The token that ends just before code[i], skipping white space."""
    j = i
    while j > 0 and code[j - 1].isspace():
        j -= 1
    m = re.search(r"(%s|::|\S)$" % IDENT, code[max(0, j - 64):j])
    return m.group(1) if m else ""


def definitions(code):
    """(name, local, method) of each function defined (not only declared)
    in code; local: static, a method, or in an anonymous namespace."""
    code = without_preprocessor(code)
    spans = scopes(code)
    out = []
    for m in NAME_PAREN.finditer(code):
        name = m.group(1)
        if name in KEYWORDS:
            continue
        prev = before(code, m.start())
        if not (re.match(IDENT + "$", prev) and prev not in NOT_A_TYPE or prev in ("*", "&", ">", "::", "]", ")")):
            continue
        end = close_paren(code, m.end())
        end += AFTER_PARAMS.match(code, end).end() - end
        if not code.startswith("{", end):
            continue
        kinds = [k for s, e, k in spans if s < m.start() < e]
        if "block" in kinds:
            continue                 # a macro's loop in a body, not a definition
        start = max(code.rfind(c, 0, m.start()) for c in ";{}") + 1
        static = re.search(r"\bstatic\b", code[start:m.start()]) is not None
        method = "class" in kinds
        out.append((name, static or method or "anon" in kinds, method))
    return out


def statement_end(code, i):
    """Index of the ';' ending the statement at i, outside braces."""
    depth = 0
    while i < len(code):
        c = code[i]
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == ";" and depth == 0:
            return i
        i += 1
    return i


def types(code):
    """Names of the types code declares: tags, typedefs and usings."""
    code = without_preprocessor(code)
    out = set(TAG_TYPE.findall(code)) | set(USING.findall(code))
    for m in re.finditer(r"\btypedef\b", code):
        decl = code[m.end():statement_end(code, m.end())]
        decl = re.sub(r"\{.*\}", " ", decl, flags=re.S)       # the body of typedef struct {...} name
        pointer = re.search(r"\(\s*[*&^]\s*(%s)\s*\)" % IDENT, decl)   # typedef int (*name)(...)
        if pointer:
            out.add(pointer.group(1))
            continue
        decl = re.sub(r"(\[[^\]]*\]\s*)+$", "", decl.strip())            # typedef char name[16]
        last = re.search(r"(%s)\s*$" % IDENT, decl)
        if last:
            out.add(last.group(1))
    return out


def resolve_include(f, inc, quoted):
    """The file under core/ that f's #include names, or None: a quoted one
    is looked for first beside f, then (as -I core) under core/."""
    places = [os.path.dirname(f)] if quoted else []
    for d in places + ["core"]:
        target = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(target):
            return target if target.split(os.sep)[0] == "core" else None
    return None


def components(graph):
    """The strongly connected components of graph (node -> set of nodes)
    with more than one node: Tarjan's, without recursion."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def called(code):
    """Names code calls: a name and '(' not after a type (which declares it)."""
    out = set()
    for m in CALL.finditer(code):
        prev = before(code, m.start())
        if not (re.match(IDENT + "$", prev) and prev not in NOT_A_TYPE):
            out.add(m.group(1))
    return out


def plugin_include(f, inc, quoted):
    """What f, a plugin's file, includes: ("own", path), ("core", path),
    ("plugin", path) or ("lost", inc) for a quoted include found nowhere;
    ("system", inc) for the rest (<gpulab/...>, the standard, CUDA...)."""
    plugin = os.sep.join(f.split(os.sep)[:2])  # plugins/NAME, and what is under it
    if quoted:
        beside = os.path.normpath(os.path.join(os.path.dirname(f), inc))
        if os.path.isfile(beside):
            own = beside.startswith(plugin + os.sep)
            return ("own" if own else "plugin" if beside.split(os.sep)[0] == "plugins" else "core", beside)
        if inc == "config.h":  # configure's, in the build directory
            return ("system", inc)
    if inc.startswith("gpulab/"):
        return ("system", inc)
    for root in ("core", "."):  # core/'s -I core, and paths from the top
        target = os.path.normpath(os.path.join(root, inc))
        if os.path.isfile(target) and target.split(os.sep)[0] in ("core", "plugins"):
            return ("core" if target.startswith("core" + os.sep) else "plugin", target)
    return ("lost", inc) if quoted else ("system", inc)


def check_plugins(errors):
    """The problems of plugins/'s includes, into errors; how many files."""
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk("plugins") for f in fs if f.endswith(SOURCES))
    for f in files:
        for quoted, angled in INCLUDE.findall(open(f, encoding="utf-8").read()):
            kind, what = plugin_include(f, quoted or angled, bool(quoted))
            if kind in ("own", "system") or (f, what) in PLUGIN_SHARED:
                continue
            errors.append("%s includes %s, %s" % (f, what, {
                "core": "a file of core/: a plugin sees the core through <gpulab/...> alone",
                "plugin": "another plugin's file: share it through include/gpulab/",
                "lost": "found nowhere in its folder"}[kind]))
    return len(files)


def check(verbose=False):
    """The problems of the tree under the current directory, and a summary."""
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk("core") for f in fs if f.endswith(SOURCES))
    text = {f: open(f, encoding="utf-8").read() for f in files}
    code = {f: strip(text[f]) for f in files}
    errors = ["%s is in a folder of no layer; add it to LAYERS here and to docs/hacking.md" % f
              for f in files if layer_of(f) is None]
    ranked = [f for f in files if layer_of(f) is not None]

    includes = 0
    for f in ranked:
        for quoted, angled in INCLUDE.findall(text[f]):
            target = resolve_include(f, quoted or angled, bool(quoted))
            if target is None or layer_of(target) is None:
                continue
            includes += 1
            if layer_of(target) < layer_of(f):
                errors.append("%s includes %s, a layer above it" % (f, target))
            elif may_use(f, target):
                errors.append("%s includes %s, %s" % (f, target, may_use(f, target)))

    defined, callable_, typed = {}, {}, {}
    for f in files:
        for name in types(code[f]):
            typed.setdefault(name, []).append(f)
        for name, local, method in definitions(code[f]):
            defined.setdefault(name, []).append(f)
            if not method and (f.endswith((".h", ".cuh")) or not local):
                callable_.setdefault(name, f)
    for name, where in sorted(defined.items()):
        if len(where) > 1 and set(where) not in ALTERNATIVES:
            errors.append("%s is defined as a function %d times, in %s" % (name, len(where), " and ".join(where)))
        if name in typed:
            errors.append("%s is a function in %s and a type in %s" % (name, where[0], typed[name][0]))

    calls = {}
    for f in ranked:
        own = {n for n, _, _ in definitions(code[f])}
        for name in called(code[f]) - own:
            g = callable_.get(name)
            if g and layer_of(g) is not None and unit(g) != unit(f) and {f, g} not in ALTERNATIVES:
                calls.setdefault(f, {}).setdefault(g, set()).add(name)
    for f, callees in sorted(calls.items()):
        for g, names in sorted(callees.items()):
            if layer_of(g) < layer_of(f):
                errors.append("%s calls %s in %s, a layer above it" % (f, ", ".join(sorted(names)), g))
            elif may_use(f, g):
                errors.append("%s calls %s in %s, %s" % (f, ", ".join(sorted(names)), g, may_use(f, g)))

    for f in ranked:
        if room_of(f) == "io":
            continue
        for call, first in writes(text[f]):
            if (f, first) not in WRITES_ELSEWHERE:
                errors.append("%s writes a file outside io/: %s(%s...); write it through io/outfile.h" % (f, call, first))

    graph = {}
    for f, callees in calls.items():
        for g in callees:
            graph.setdefault(unit(f), set()).add(unit(g))
    circles = components(graph)
    for comp in circles:
        edges = ["%s -> %s (%s)" % (f, g, ", ".join(sorted(n)))
                 for f in sorted(calls) if unit(f) in comp
                 for g, n in sorted(calls[f].items()) if unit(g) in comp]
        errors.append("%d files call each other in a circle: %s" % (len(comp), "; ".join(edges)))

    if verbose:
        for f, callees in sorted(calls.items()):
            print("%s -> %s" % (f, " ".join(sorted(callees))))
        count = lambda word: sum(word in e for e in errors)
        print("layers.py: %d layers, top to bottom (files): %s" % (len(LAYERS), " > ".join(
            "%s (%d)" % (l or "core/", sum(layer_of(f) == i for f in ranked)) for i, l in enumerate(LAYERS))))
        print("layers.py: %d includes within core/, %d upward" % (includes, count(" includes ")))
        print("layers.py: %d calls between files, %d upward" %
              (sum(len(c) for c in calls.values()), count(" calls ")))
        print("layers.py: %d circles of files calling each other (pairs included)" % len(circles))
        print("layers.py: %d function names, %d type names; %d used twice or for both" %
              (len(defined), len(typed), count(" is defined as ") + count(" and a type ")))
    plugin_files = check_plugins(errors)
    if verbose:
        print("layers.py: %d plugin files, %d including what is not theirs" %
              (plugin_files, sum(" includes " in e and e.startswith("plugins") for e in errors)))
    for e in errors:
        print("layers.py: " + e)
    print("layers.py: %d files, %d functions, %d calls between files, %d problems" %
          (len(files), sum(len(w) for w in defined.values()), sum(len(c) for c in calls.values()), len(errors)))
    return errors


def main():
    os.chdir(os.environ.get("srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    return 1 if check("-v" in sys.argv[1:]) else 0


if __name__ == "__main__":
    sys.exit(main())
