#!/usr/bin/env python3
"""nccl-tests' algbw and busbw for every row of a gpulab record, as a
Markdown table, from gpulab's own median: algbw is the row's GB/s (bytes
over the median time; for the all-reduces the vector's bytes once), and
busbw = algbw x the exercise's bus factor: 2(g-1)/g for an all-reduce
over g GPUs (0 on one GPU), (g-1)/g for a gather or scatter, 1 for the
links and the broadcast.  The plugin defines the factor once and notes
it on every row, as the ratio of its busbw note to its algbw note; those
notes' own figures come from its own events and median, warm-ups
included, so only their ratio is used here.
    bench/busbw.py RECORD.json
"""
import sys

import gpulab_record

from table import cell


def bus_factor(row):
    """The row's bus factor, as its exercise noted it (None without notes)."""
    notes = row.get("notes") or {}
    return notes["busbw"] / notes["algbw"] if notes.get("algbw") else None


def bus_bandwidth(row):
    """busbw in GB/s: the row's algbw (its GB/s) times its bus factor."""
    algbw, k = row.get("gbps"), bus_factor(row)
    return algbw * k if algbw is not None and k is not None else None


def main(path):
    rows = gpulab_record.load(path)["results"]  # a journal (-o) or a 1.x document
    print()
    print("| exercise | bytes | GPUs | GPU us | algbw GB/s | busbw GB/s | status |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        notes = r.get("notes") or {}
        g = notes.get("gpus", 2)
        t, algbw, busbw = r.get("median_ms"), r.get("gbps"), bus_bandwidth(r)
        print(f"| {r['exercise']} | {4 * r['elements']} | {g:g} | {cell(t and 1e3 * t, '{:.1f}')} | "
              f"{cell(algbw, '{:.2f}')} | {cell(busbw, '{:.2f}')} | {r['status']} |")


if __name__ == "__main__":
    main(sys.argv[1])
