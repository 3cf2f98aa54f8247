#!/usr/bin/env python3
"""A gpulab run record (docs/record.md) as a Markdown table, for bench/*.sh."""
import sys

import gpulab_record


def cell(v, fmt):
    return "-" if v is None else fmt.format(v)


def main(path):
    record = gpulab_record.load(path)  # a journal (-o) or a 1.x document
    if not str(record.get("schema", "")).startswith("gpulab-record/"):
        sys.exit(f"{path}: not a gpulab record")
    print("| exercise | params | GPU ms | runs | noise % | host ms | GB/s | % peak | speedup | of ref | status |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in record["results"]:
        params = " ".join(f"{k}={v}" for k, v in r["params"].items() if k not in ("reps", "warmup"))
        status = r["status"] + (" THROTTLED" if (r.get("clocks") or {}).get("throttled") else "")
        status += "" if r["converged"] else " NOISY"
        status += " UNHELD" if r.get("timing") == "unheld" else ""
        print(f"| {r['exercise']} | {params} | {cell(r['median_ms'], '{:.4f}')} | {r['runs']} | "
              f"{cell(r['noise_pct'], '{:.2f}')} | {cell(r['host_ms'], '{:.4f}')} | {cell(r['gbps'], '{:.1f}')} | "
              f"{cell(r['peak_pct'], '{:.1f}')} | {cell(r['speedup'], '{:.2f}x')} | "
              f"{cell(r['ref_share'] and 100 * r['ref_share'], '{:.0f}%')} | {status} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: table.py RECORD.json")
    main(sys.argv[1])
