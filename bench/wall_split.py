#!/usr/bin/env python3
"""Where a sweep's wall time went, from its record's wall_s (docs/record.md):
one row a point (exercise, size, setup, sampling, verify, rest, runs, noise,
why it stopped), then the sums, as Markdown.

    python3 bench/wall_split.py RECORD [WALL_S]

WALL_S, the sweep's own wall time as measured outside gpulab, adds a last
line: what no point's steps hold (the process's start, loading, planning,
MPI and the exit).  Python 3, standard library."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpulab_record  # noqa: E402

STEPS = ("setup", "sampling", "verify", "rest")


def size(p):
    n = p.get("elements", 0)
    return f"2^{n.bit_length() - 1}" if n >= 1024 and n & (n - 1) == 0 else str(n)


def table(rec, wall=None):
    rows = [p for p in rec["results"] if "wall_s" in p]
    out = ["| exercise | n | setup s | sampling s | verify s | rest s | runs | noise % | stopped by |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    sums = dict.fromkeys(STEPS, 0.0)
    for p in rows:
        w = p["wall_s"]
        for k in STEPS:
            sums[k] += w[k]
        noise = p.get("noise_pct")
        out.append("| {} | {} | {} | {} | {} | {} |".format(
            p["exercise"], size(p), " | ".join(f"{w[k]:.2f}" for k in STEPS), p.get("runs", 0) or 0,
            "-" if noise is None else f"{noise:.2f}", p.get("stopped_by") or p.get("status", "")))
    total = sum(sums.values())
    out.append("| **all {} points** | | {} | | | |".format(
        len(rows), " | ".join(f"**{sums[k]:.1f}**" for k in STEPS)))
    out.append("")
    out.append("Points' steps: {:.1f} s ({}).".format(
        total, ", ".join(f"{k} {sums[k]:.1f}" for k in STEPS)))
    if wall is not None:
        out.append("Wall time {:.1f} s; outside the points' steps (start, loading, planning, exit): {:.1f} s.".format(
            wall, wall - total))
    return "\n".join(out)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rec = gpulab_record.load(argv[1])
    print(table(rec, float(argv[2]) if len(argv) == 3 else None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
