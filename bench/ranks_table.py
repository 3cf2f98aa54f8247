#!/usr/bin/env python3
"""gpulab's collectives as ranks beside nccl-tests, as Markdown tables.

    bench/ranks_table.py RECORD.json [NCCL_TESTS_OUTPUT.txt ...]
    bench/ranks_table.py --ring RANKS.json SINGLE.json [SENDRECV_PERF_OUTPUT.txt]

The first form: every row of RECORD (gpulab run multigpu under mpirun)
with nccl-tests' two figures from gpulab's own median.  algbw is the
row's GB/s (its bytes over the median time); busbw is algbw times the
exercise's bus factor, as bench/busbw.py reads it from the row's notes.  Each
nccl-tests output given (all_reduce_perf and the like) adds its
out-of-place time and busbw at the same byte count, and gpulab's busbw as
a share of it.

The second form: the ring over ncclSend/ncclRecv as ranks, at each -p
chunk it was run with, against the one-process ring (allreduce_ring),
point by point, as a share of its time.  Given nccl-tests' sendrecv_perf
output, also the ring's floor through NCCL's point-to-point: its 2(w-1)
steps, each a send and a receive of n/w bytes, at sendrecv_perf's time
for that size (out-of-place), and the ring's speed as a share of it.
"""

import re
import sys

import gpulab_record

from busbw import bus_bandwidth
from table import cell

# nccl-tests' output file name names its collective: all_reduce_perf -> allreduce_nccl
NCCL_TESTS = {"all_reduce": "allreduce_nccl", "all_gather": "allgather",
              "reduce_scatter": "reduce_scatter", "broadcast": "broadcast", "sendrecv": "sendrecv"}


def load(path):
    record = gpulab_record.load(path)  # a journal (-o) or a 1.x document
    if not str(record.get("schema", "")).startswith("gpulab-record/"):
        sys.exit(f"{path}: not a gpulab record")
    return record


def nccl_tests(path):
    """(exercise, bytes) -> (us, busbw) from one nccl-tests output: the
    collective from its 'Collective test starting: X_perf' line, the
    figures from the out-of-place columns."""
    rows, exercise = {}, None
    with open(path) as lines:
        for line in lines:
            m = re.search(r"Collective test starting: (\w+)_perf", line)
            if m:
                exercise = NCCL_TESTS.get(m.group(1))
                continue
            f = line.split()
            if exercise and len(f) >= 8 and f[0].isdigit():
                rows[(exercise, int(f[0]))] = (float(f[5]), float(f[7]))
    return rows


def table(path, outputs):
    record = load(path)
    theirs = {}
    for p in outputs:
        theirs.update(nccl_tests(p))
    print(f"{len(record.get('ranks') or [])} ranks, batch {record['batch']}; "
          "nccl-tests: out-of-place, its default 20 iterations timed together")
    print()
    print("| exercise | bytes | gpulab us | gpulab busbw GB/s | nccl-tests us | nccl-tests busbw GB/s | gpulab / nccl-tests | status |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in record["results"]:
        if r["status"] == "skipped":
            continue
        busbw = bus_bandwidth(r)
        us, their_bw = theirs.get((r["exercise"].split(".")[-1], r["bytes"]), (None, None))
        share = busbw / their_bw if busbw and their_bw else None
        print(f"| {r['exercise']} | {r['bytes']} | {cell(r['median_ms'] and 1e3 * r['median_ms'], '{:.1f}')} | "
              f"{cell(busbw, '{:.1f}')} | {cell(us, '{:.1f}')} | {cell(their_bw, '{:.1f}')} | "
              f"{cell(share and 100 * share, '{:.1f}%')} | {r['status']} |")


def ring(ranks_path, single_path, sendrecv_path=None):
    single = {r["bytes"]: r for r in load(single_path)["results"] if r["status"] == "ok"}
    ranks = load(ranks_path)
    w = len(ranks.get("ranks") or []) or 1
    sendrecv = nccl_tests(sendrecv_path) if sendrecv_path else {}
    print("| bytes | -p chunk | ring_sendrecv as ranks, us | allreduce_ring in one process, us | "
          "ranks' speed as a share | send/recv floor, us | share of the floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in ranks["results"]:
        one = single.get(r["bytes"])
        if r["status"] != "ok" or not one:
            continue
        us = 1e3 * r["median_ms"]
        step = sendrecv.get(("sendrecv", r["bytes"] // w), (None,))[0]
        floor = step and 2 * (w - 1) * step
        print(f"| {r['bytes']} | {r['params'].get('chunk', '-')} | {us:.1f} | {1e3 * one['median_ms']:.1f} | "
              f"{100 * one['median_ms'] / r['median_ms']:.1f}% | {cell(floor, '{:.1f}')} | "
              f"{cell(floor and 100 * floor / us, '{:.1f}%')} |")


if __name__ == "__main__":
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--ring":
        ring(*sys.argv[2:])
    elif len(sys.argv) >= 2 and not sys.argv[1].startswith("-"):
        table(sys.argv[1], sys.argv[2:])
    else:
        sys.exit(__doc__.strip().split("\n\n")[1])
