#!/usr/bin/env python3
"""nccl-tests' algbw and busbw for every row of a gpulab record, as a
Markdown table, from gpulab's own median: algbw is the row's GB/s (bytes
over the median time; for the all-reduces the vector's bytes once), and
busbw = algbw x 2(g-1)/g for an all-reduce over g GPUs (0 on one GPU),
algbw for the links.  The exercise's own algbw/busbw notes come from its
own events and median, warm-ups included, so they are not used here.
    bench/busbw.py RECORD.json
"""
import json
import sys


def main(path):
    rows = json.load(open(path))["results"]
    print()
    print("| exercise | bytes | GPUs | GPU us | algbw GB/s | busbw GB/s | status |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        notes = r.get("notes") or {}
        g = notes.get("gpus", 2)
        t, algbw = r.get("median_ms"), r.get("gbps")
        busbw = None
        if algbw is not None:
            busbw = algbw * 2 * (g - 1) / g if "allreduce" in r["exercise"] else algbw
        cell = lambda v, f: "-" if v is None else f.format(v)
        print(f"| {r['exercise']} | {4 * r['elements']} | {g:g} | {cell(t and 1e3 * t, '{:.1f}')} | "
              f"{cell(algbw, '{:.2f}')} | {cell(busbw, '{:.2f}')} | {r['status']} |")


if __name__ == "__main__":
    main(sys.argv[1])
