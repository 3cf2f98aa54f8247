#!/usr/bin/env python3
"""A gpulab run record's --metrics counters (docs/record.md) as a Markdown
table, one row an exercise, one column a counter, for bench/*.sh."""
import sys

import gpulab_record


def value(v):
    if v is None:
        return "-"
    return f"{v:.4g}" if abs(v) < 1e6 else f"{v:.4e}"


def main(path):
    record = gpulab_record.load(path)  # a journal (-o) or a 1.x document
    if not str(record.get("schema", "")).startswith("gpulab-record/"):
        sys.exit(f"{path}: not a gpulab record")
    rows = [r for r in record["results"] if r.get("metrics")]
    if not rows:
        sys.exit(f"{path}: no --metrics in it")
    names = list(rows[0]["metrics"])
    print("| exercise | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for r in rows:
        m = r["metrics"]
        print(f"| {r['exercise']} | " + " | ".join(value((m.get(n) or {}).get("value")) for n in names) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: metrics_table.py RECORD.json")
    main(sys.argv[1])
