#!/usr/bin/env python3
"""The table of docs/learn.md from a run of bench/learn-table.sh.

learn_table.py LESSONS OUTDIR DEVICE: reads the lessons (the INI files
`gpulab learn` reads), OUTDIR/logs/status and OUTDIR/logs/NAME.txt (one
line and one output per lesson run) and OUTDIR/progress.ini (the
verdicts and figures learn kept), and writes OUTDIR/learn-table.md (the
table's rows) and OUTDIR/learn-table.json (every lesson's raw result).
Standard library only."""
import configparser
import json
import os
import re
import sys

VERDICTS = {"holds": "holds", "fails": "does not hold", "unsure": "can't tell"}


def ini(path):
    p = configparser.ConfigParser(interpolation=None, comment_prefixes=(";", "#"), strict=False)
    p.read(path, encoding="utf-8")
    return p


def one_line(s):
    return " ".join(s.split())


def cell(s):
    return one_line(s).replace("|", "\\|")


def measured(log):
    """The `measured` line of learn's output, its continuations joined."""
    m = re.search(r"^  measured {10}(.*(?:\n {20}.*)*)", log, re.M)
    return one_line(m.group(1)) if m else ""


def why_not(log, rc):
    """Why learn gave no verdict: its own line, else the exit status."""
    m = re.search(r"^(?:No verdict: (.*)|(The experiment did not run.*))$", log, re.M)
    return (m.group(1) or m.group(2)) if m else "exit %d" % rc


def main():
    lessons_dir, out, device = sys.argv[1], sys.argv[2], sys.argv[3] or "this GPU"
    progress = ini(os.path.join(out, "progress.ini"))
    rows, raw = [], []
    with open(os.path.join(out, "logs", "status")) as f:
        runs = [line.split() for line in f if line.strip()]
    for name, rc, t0, t1 in runs:
        rc = int(rc)
        lesson = ini(os.path.join(lessons_dir, name + ".ini"))["lesson"]
        with open(os.path.join(out, "logs", name + ".txt"), errors="replace") as f:
            log = f.read()
        sec = "lesson " + name
        key = progress.get(sec, "verdict", fallback=None)
        figure = progress.get(sec, "figure", fallback=None)
        verdict = VERDICTS.get(key, "no verdict: " + why_not(log, rc))
        raw.append({"lesson": name, "exit": rc, "seconds": round(float(t1) - float(t0), 3),
                    "claim": one_line(lesson.get("claim", "")), "notes": one_line(lesson.get("notes", "")),
                    "book": one_line(lesson.get("book", "")), "figure": one_line(lesson.get("figure", "")),
                    "rule": lesson.get("rule", ""), "verdict": key, "value": float(figure) if figure else None,
                    "measured": measured(log), "output": log})
        here = measured(log) or "-"
        rows.append("| %s | %s | %s | `%s` | %s: %s |" % (cell(lesson.get("topic", "")), cell(lesson.get("notes", "")),
                                                         cell(lesson.get("book", "")), name, verdict, cell(here)))
    head = ["| claim | place in the notes | the notes' figure | lesson | verdict on %s |" % device,
            "|---|---|---|---|---|"]
    with open(os.path.join(out, "learn-table.md"), "w") as f:
        f.write("\n".join(head + rows) + "\n")
    with open(os.path.join(out, "learn-table.json"), "w") as f:
        json.dump({"device": device, "lessons": raw}, f, indent=1)
        f.write("\n")
    told = sum(1 for r in raw if r["verdict"])
    print("%d lessons, %d with a verdict: %s/learn-table.md" % (len(raw), told, out))
    return 0 if told == len(raw) else 1


if __name__ == "__main__":
    sys.exit(main())
