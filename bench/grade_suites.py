#!/usr/bin/env python3
"""Check a grade's outcome against a suite's expect.tsv (bench/grade-suites.sh).

    grade_suites.py [--mode ranked|test] [--label TEXT] GRADE.json EXPECT.tsv

GRADE.json is what `gpulab grade -o` wrote (a journal whose first line, the
header, holds "grade": {"challenge", "kernels": [...]}), or the
gpulab-grade/1 document `gpulab grade --format json` prints.  Each kernel
is matched to its row of EXPECT.tsv by its file name.  EXPECT.tsv, tab
separated, '#' for comments:

    file  outcome  exit  failure  reason  test

outcome is `ranked` or `failed`; a failed row's exit is try's exit
status, failure grade's word for it ("wrong result", "hung: stopped",
...), reason a stable substring of the line grade printed ('-': any).
test says what the gate alone (`grade --test`) makes of it: `same`, or
`pass` for a kernel that passes the gate and fails only in the timed runs.

Prints one line a kernel (file, expected, got, ok or FAIL) and a summary;
exits 1 on any mismatch, 2 when a file cannot be read.  Python's standard
library only.
"""
import json
import os
import sys


def load_grade(path):
    """The grade member: from a record's header line, or a grade document."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = json.loads(text.split("\n", 1)[0])  # a journal: its header
    grade = doc.get("grade", doc) if isinstance(doc, dict) else None
    if not isinstance(grade, dict) or not isinstance(grade.get("kernels"), list):
        raise ValueError("%s: no grade member with kernels" % path)
    return grade


def load_expect(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != 6 or cells[1] not in ("ranked", "failed") or cells[5] not in ("same", "pass"):
                raise ValueError("%s:%d: not 6 cells (file, ranked|failed, exit, failure, reason, same|pass)"
                                 % (path, number))
            rows[cells[0]] = {"outcome": cells[1], "exit": cells[2], "failure": cells[3], "reason": cells[4],
                              "test": cells[5]}
    return rows


def wanted(row, mode):
    """What the row expects in this mode: ('pass'|'ranked'|'failed', exit, failure, reason)."""
    if row["outcome"] == "ranked":
        return ("pass" if mode == "test" else "ranked", None, None, None)
    if mode == "test" and row["test"] == "pass":
        return ("pass", None, None, None)
    return ("failed", row["exit"], row["failure"], row["reason"])


def got(kernel, mode):
    """What grade made of the kernel: ('ranked'|'pass'|'failed', exit, failure, reason)."""
    status, failure = kernel.get("exit"), kernel.get("failure")
    if kernel.get("rank") is not None:
        return ("pass" if mode == "test" else "ranked", None, None, None)
    if mode == "test" and (kernel.get("passed") or status in (None, 0) and (not failure or "pass" in failure)):
        return ("pass", None, None, None)
    return ("failed", status, failure, kernel.get("reason") or "")


def matches(want, have):
    if want[0] != have[0]:
        return False
    if want[0] != "failed":
        return True
    exit_ok = want[1] == "-" or str(have[1]) == want[1]
    failure_ok = want[2] == "-" or have[2] == want[2]
    reason_ok = want[3] == "-" or want[3] in have[3]
    return exit_ok and failure_ok and reason_ok


def said(outcome, expected=False):
    """An outcome in words; an expected reason is a substring, quoted."""
    if outcome[0] != "failed":
        return outcome[0]
    text = "failed %s %s" % (outcome[1], outcome[2])
    if expected:
        return text + (', with "%s"' % outcome[3] if outcome[3] != "-" else "")
    return text + (": " + outcome[3][:110] if outcome[3] else "")


def check(grade, expect, mode, label, out):
    seen, bad = set(), 0
    if grade.get("mode", mode) != mode:  # grade says which it ran (since --test)
        out.write("%s: grade ran in mode %s, not %s\n" % (label, grade["mode"], mode))
        bad += 1
    out.write("%-16s %-40s %-60s %s\n" % ("kernel", "expected", "got", ""))
    for kernel in grade["kernels"]:
        name = os.path.basename(str(kernel.get("kernel", "")))
        seen.add(name)
        have = got(kernel, mode)
        if name not in expect:
            out.write("%-16s %-40s %-60s FAIL\n" % (name, "(no row in expect.tsv)", said(have)))
            bad += 1
            continue
        want = wanted(expect[name], mode)
        ok = matches(want, have)
        bad += not ok
        out.write("%-16s %-40s %-60s %s\n" % (name, said(want, True), said(have), "ok" if ok else "FAIL"))
    for name in sorted(set(expect) - seen):
        out.write("%-16s %-40s %-60s FAIL\n" % (name, said(wanted(expect[name], mode), True), "(not graded)"))
        bad += 1
    total = len(seen | set(expect))
    out.write("%s: %d kernels, %d as expected, %d not\n" % (label, total, total - min(bad, total), bad))
    return bad


def main(argv):
    mode, label, args = "ranked", None, []
    it = iter(argv)
    for a in it:
        if a == "--mode":
            mode = next(it, "")
        elif a == "--label":
            label = next(it, "")
        else:
            args.append(a)
    if mode not in ("ranked", "test") or len(args) != 2:
        sys.stderr.write("usage: grade_suites.py [--mode ranked|test] [--label TEXT] GRADE.json EXPECT.tsv\n")
        return 2
    try:
        grade, expect = load_grade(args[0]), load_expect(args[1])
    except (OSError, ValueError) as e:
        sys.stderr.write("grade_suites.py: %s\n" % e)
        return 2
    label = label or "%s %s" % (grade.get("challenge", "?"), mode)
    return 1 if check(grade, expect, mode, label, sys.stdout) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
