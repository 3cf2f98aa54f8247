#!/usr/bin/env python3
"""gpulab run records of the transposes at several shapes (docs/record.md)
as one Markdown table: a row a shape, memcpy's GB/s, and every other
exercise (with its own parameters, where they differ from the shape's)
as a share of memcpy's GB/s at that shape and type.  For bench/*.sh."""
import json
import sys

SHAPE_KEYS = ("type", "rows", "cols", "seed", "reps", "warmup")


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            record = json.load(f)
        if not str(record.get("schema", "")).startswith("gpulab-record/"):
            sys.exit(f"{path}: not a gpulab record")
        rows.extend(record["results"])
    return rows


def column(r):
    name = r["exercise"].split(".", 1)[-1]
    extra = [f"{k}={v}" for k, v in r["params"].items() if k not in SHAPE_KEYS and k != "per_sm"]
    return name + (" " + " ".join(extra) if extra else "")


def main(paths):
    results = load(paths)
    shapes, columns, gbps = [], [], {}
    for r in results:
        shape = (r["params"]["rows"], r["params"]["cols"], r["params"]["type"])
        if shape not in shapes:
            shapes.append(shape)
        c = column(r)
        if c not in columns:
            columns.append(c)
        gbps[shape, c] = r["gbps"] if r["status"] == "ok" else None
    others = [c for c in columns if c != "memcpy"]
    print("| shape | type | memcpy GB/s | " + " | ".join(others) + " |")
    print("|---|---|---:|" + "---:|" * len(others))
    for shape in shapes:
        ref = gbps.get((shape, "memcpy"))
        cells = []
        for c in others:
            v = gbps.get((shape, c))
            cells.append("-" if v is None or not ref else f"{100 * v / ref:.1f}%")
        print(f"| {shape[0]} x {shape[1]} | {shape[2]} | {'-' if ref is None else f'{ref:.0f}'} | "
              + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: shapes_table.py RECORD.json...")
    main(sys.argv[1:])
