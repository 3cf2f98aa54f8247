#!/usr/bin/env python3
"""`gpulab compare --format json` output as a Markdown table, for bench/*.sh:
each point's medians, the speedup of the new side (base time / new time),
the Mann-Whitney p and the verdict, then a line counting the verdicts."""
import json
import sys


def main(path):
    with open(path) as f:
        c = json.load(f)
    print("| params | base ms | new ms | speedup | p | verdict |")
    print("|---|---:|---:|---:|---:|---|")
    tally = {}
    for p in c["points"]:
        ratio = p.get("ratio")
        speedup = "-" if not ratio else f"{1 / ratio:.2f}x"
        fmt = lambda v, f: "-" if v is None else f.format(v)
        print(f"| {p['params']} | {fmt(p.get('base_ms'), '{:.4f}')} | {fmt(p.get('new_ms'), '{:.4f}')} | "
              f"{speedup} | {fmt(p.get('p'), '{:.2g}')} | {p['verdict']} |")
        tally[p["verdict"]] = tally.get(p["verdict"], 0) + 1
    print()
    print("Verdicts: " + ", ".join(f"{n} {v}" for v, n in sorted(tally.items())) +
          (f"; {len(c['unmatched'])} unmatched" if c["unmatched"] else "") + ".")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: compare_table.py COMPARE.json")
    main(sys.argv[1])
