#!/usr/bin/env python3
"""bench/multigpu-4gpu.sh's tables, from the files it wrote in OUTDIR.

    bench/multigpu4_table.py OUTDIR

Writes OUTDIR/table.md and OUTDIR/summary.json (and prints the table):

- verification: every multigpu exercise, in one process and as ranks,
  points verified out of points run (verify-one.json, verify-ranks.json),
  and every point that was not ("skipped" rows with their one line);
- NCCL's collectives as ranks beside nccl-tests (colls.json,
  nccl-tests.txt): busbw at each size from 4 MiB to 1 GiB, gpulab's as a
  share of nccl-tests', and whether it is within 5%;
- the rings: the hand-made ring as ranks over CUDA IPC and in one process,
  beside NCCL's all-reduce as ranks, in one process, and nccl-tests'
  (ring-ranks.json, ring-one.json, colls.json, nccl-tests.txt);
- the notes: parts.tsv (each part's result and seconds), refuse.txt,
  kill.txt and topo.txt (nvidia-smi topo -m).

A file that is missing leaves its table out and says so.
"""

import json
import os
import sys

import gpulab_record

from busbw import bus_bandwidth
from ranks_table import nccl_tests
from table import cell

WITHIN = 0.05  # the issue's bound: gpulab's busbw within 5% of nccl-tests' (either way)


def load(out, name):
    path = os.path.join(out, name)
    try:
        return gpulab_record.load(path)
    except (OSError, ValueError) as e:
        print(f"{name}: not read ({e})", file=sys.stderr)
        return None


def text(out, name):
    try:
        with open(os.path.join(out, name)) as f:
            return f.read().rstrip("\n")
    except OSError:
        return None


def short(exercise):
    return exercise.split(".")[-1]


def verification(one, ranks, lines, summary):
    """Points verified, by exercise, in one process and as ranks."""
    counts = {}
    for mode, rec in (("one", one), ("ranks", ranks)):
        for r in (rec or {}).get("results", []):
            c = counts.setdefault(short(r["exercise"]), {}).setdefault(mode, [0, 0])
            c[0] += r["status"] == "ok"
            c[1] += 1
    w = len((ranks or {}).get("ranks") or []) or "-"
    lines += ["## Verification: n = 1, 3, 1000003, 2^28+1; int and float", "",
              f"| exercise | one process (-p gpus=all) | {w} ranks |", "|---|---:|---:|"]
    for ex, c in counts.items():
        cells = [f"{c[m][0]}/{c[m][1]}" if m in c else "-" for m in ("one", "ranks")]
        lines.append(f"| {ex} | {cells[0]} | {cells[1]} |")
    bad = [(mode, r) for mode, rec in (("one process", one), ("ranks", ranks))
           for r in (rec or {}).get("results", []) if r["status"] != "ok"]
    if bad:  # one line for each exercise, mode, status and message, with its points
        lines += ["", "Not verified:", ""]
        groups = {}
        for mode, r in bad:
            p = r.get("params", {})
            key = (mode, short(r["exercise"]), r["status"], r.get("message") or "")
            groups.setdefault(key, []).append(f"{p.get('n')} {p.get('type', '')}".strip())
        for (mode, ex, status, message), points in groups.items():
            lines.append(f"- {mode}: {ex} ({', '.join(points)}): {status}: {message}")
    lines.append("")
    summary["verification"] = {ex: {m: {"ok": v[0], "points": v[1]} for m, v in c.items()}
                               for ex, c in counts.items()}
    summary["not_verified"] = len(bad)


def rows_by(rec, exercise=None):
    """(exercise, bytes) -> row, for the rows that ran."""
    return {(short(r["exercise"]), r["bytes"]): r for r in (rec or {}).get("results", [])
            if r["status"] == "ok" and (exercise is None or short(r["exercise"]) == exercise)}


def collectives(colls, theirs, lines, summary):
    w = len((colls or {}).get("ranks") or []) or "-"
    lines += [f"## NCCL's collectives as {w} ranks beside nccl-tests (floats, busbw GB/s)", "",
              "| collective | bytes | gpulab us | gpulab busbw | nccl-tests us | nccl-tests busbw | gpulab / nccl-tests | within 5% |",
              "|---|---:|---:|---:|---:|---:|---:|:---:|"]
    out = []
    for (ex, size), r in sorted(rows_by(colls).items()):
        bw = bus_bandwidth(r)
        us, their = theirs.get((ex, size), (None, None))
        share = bw / their if bw and their else None
        ok = share is not None and abs(share - 1) <= WITHIN
        lines.append(f"| {ex} | {size} | {cell(r['median_ms'] and 1e3 * r['median_ms'], '{:.1f}')} | "
                     f"{cell(bw, '{:.1f}')} | {cell(us, '{:.1f}')} | {cell(their, '{:.1f}')} | "
                     f"{cell(share and 100 * share, '{:.1f}%')} | {'yes' if ok else 'no' if share else '-'} |")
        out.append({"exercise": ex, "bytes": size, "busbw": bw, "nccl_tests_busbw": their, "share": share,
                    "within": ok if share else None})
    lines.append("")
    summary["collectives"] = out


def rings(ring_ranks, ring_one, colls, theirs, lines, summary):
    ranked, one, nccl_ranks = rows_by(ring_ranks), rows_by(ring_one), rows_by(colls, "allreduce_nccl")
    sizes = sorted({s for (_, s) in list(ranked) + list(one)})
    lines += ["## The hand-made ring beside NCCL's all-reduce (floats, busbw GB/s)", "",
              "| bytes | ring as ranks (IPC) | ring, one process | NCCL as ranks | NCCL, one process | nccl-tests | "
              "ranks / one process |", "|---:|---:|---:|---:|---:|---:|---:|"]
    out = []
    for s in sizes:
        a = ranked.get(("allreduce_ring", s))
        b = one.get(("allreduce_ring", s))
        c = nccl_ranks.get(("allreduce_nccl", s))
        d = one.get(("allreduce_nccl", s))
        fig = [a and bus_bandwidth(a), b and bus_bandwidth(b), c and bus_bandwidth(c), d and bus_bandwidth(d),
               theirs.get(("allreduce_nccl", s), (None, None))[1]]
        share = fig[0] / fig[1] if fig[0] and fig[1] else None
        lines.append(f"| {s} | " + " | ".join(cell(x, "{:.1f}") for x in fig) + f" | {cell(share and 100 * share, '{:.1f}%')} |")
        out.append(dict(zip(("bytes", "ring_ranks", "ring_one", "nccl_ranks", "nccl_one", "nccl_tests"), [s] + fig)))
    lines.append("")
    summary["rings"] = out


def notes(out, lines, summary):
    parts = text(out, "parts.tsv")
    if parts:
        rows = [p.split("\t") for p in parts.splitlines()[1:]]
        lines += ["## Parts", "", "| part | result | seconds |", "|---|---|---:|"]
        lines += [f"| {p[0]} | {p[1]} | {p[2]} |" for p in rows if len(p) >= 3]
        lines.append("")
        summary["parts"] = [{"part": p[0], "result": p[1], "seconds": float(p[2])} for p in rows if len(p) >= 3]
    for name, title in (("refuse.txt", "One rank more than the GPUs"), ("kill.txt", "A rank killed mid-run"),
                        ("topo.txt", "Topology")):
        t = text(out, name)
        if t is not None:
            lines += [f"## {title}", "", "```", t, "```", ""]
            summary[name.split(".")[0]] = t


def main(out):
    summary, lines = {}, []
    one, ranks = load(out, "verify-one.json"), load(out, "verify-ranks.json")
    colls, ring_ranks, ring_one = load(out, "colls.json"), load(out, "ring-ranks.json"), load(out, "ring-one.json")
    nt = os.path.join(out, "nccl-tests.txt")
    theirs = nccl_tests(nt) if os.path.exists(nt) else {}
    device = (one or colls or {}).get("device") or {}
    lines += [f"# multigpu on every GPU of {device.get('name', 'the host')}", "",
              "Produced by bench/multigpu-4gpu.sh; NCCL_NVLS_ENABLE=0; nccl-tests: out-of-place, "
              "its default 20 iterations timed together, under the same mpirun line.", ""]
    verification(one, ranks, lines, summary)
    collectives(colls, theirs, lines, summary)
    rings(ring_ranks, ring_one, colls, theirs, lines, summary)
    notes(out, lines, summary)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().split("\n\n")[1])
    main(sys.argv[1])
