#!/usr/bin/env python3
"""Writes the sample records the report's tests draw (run from tests/records).

They have the shape `gpulab run --output` writes (docs/record.md), on the
devices the docs were measured on; their medians are the GB/s of
docs/bench-reduce.md, docs/bench-transpose.md and docs/metrics.md where those
have the point, and made up where they do not (the sweep's sizes between
2^20, 2^24 and 2^28, the block sizes), and their samples are drawn around the
medians.  Numbers are not measurements: they are for the tests alone."""
import json
import random
import statistics

H200 = {"name": "NVIDIA H200", "uuid": "GPU-6f1c2f55-0b43-5b0a-9b0e-3d1c5a7e2a11", "bus_id": "00000000:19:00.0",
        "compute_capability": "9.0", "sms": 132, "l2_bytes": 52428800, "memory_bytes": 150754820096,
        "memory_clock_mhz": 3134, "bus_width_bits": 6144, "peak_gbps": 4814.3, "max_sm_mhz": 1980,
        "cuda_driver": "13.0", "cuda_runtime": "13.0", "driver": "580.95.05", "clocks": "nvml"}
H100 = dict(H200, name="NVIDIA H100 80GB HBM3", uuid="GPU-1d2e3f40-5a6b-7c8d-9e0f-a1b2c3d4e5f6",
            memory_bytes=85045510144, memory_clock_mhz=2619, bus_width_bits=5120, peak_gbps=3352.3)

LADDER = ["neighbored", "neighbored_less", "interleaved", "unroll2", "unroll4", "unroll8", "unroll16",
          "unroll8_loop", "unroll_warps8", "unroll_warps8_sync", "complete_unroll_warps8", "complete_unroll", "gmem",
          "smem", "smem_dyn", "unroll4_smem", "shfl", "cub", "best"]
# GB/s and host ms, from docs/bench-reduce.md
GBPS = {
    20: ([178.1, 280.3, 284.0, 324.0, 304.3, 295.6, 372.4, 385.6, 294.9, 297.6, 294.3, 298.3, 275.3, 272.5, 306.5,
          304.6, 278.5, 365.1, 476.6]),
    24: ([301.1, 561.3, 660.1, 1053.3, 1563.5, 1955.0, 2391.6, 1840.9, 1885.5, 2003.5, 1928.0, 2341.1, 799.6, 917.6,
          824.8, 1984.1, 1043.3, 2634.6, 3026.2]),
    28: ([318.4, 599.9, 707.6, 1252.6, 2267.6, 3395.3, 3861.7, 2898.6, 3165.5, 3487.9, 3208.4, 3525.9, 905.6, 1001.8,
          940.5, 3155.6, 1177.3, 4387.9, 4422.0]),
}
HOST = {20: 0.0004, 24: 0.0048, 28: 0.0704}


def samples_around(rng, median, noise_pct, runs):
    v = [median * (1 + rng.gauss(0, noise_pct / 100)) for _ in range(runs)]
    return [float(f"{x:.6g}") for x in v]


def point(rng, exercise, params, elements, nbytes, gbps, noise=0.3, runs=12, host_ms=None, status="ok", message="",
          converged=True, throttled=0, metrics=None, cold=False, notes=None):
    measured = status in ("ok", "unverified") and gbps is not None
    r = {"exercise": exercise, "params": params, "elements": elements}
    if measured:
        median = nbytes / (gbps * 1e9) * 1e3
        s = samples_around(rng, median, noise, runs)
        med = statistics.median(s)
        r.update(median_ms=round(med, 6), min_ms=round(min(s), 6), max_ms=round(max(s), 6), runs=runs,
                 noise_pct=round(100 * statistics.stdev(s) / statistics.mean(s), 4))
    else:
        s = []
        r.update(median_ms=None, min_ms=None, max_ms=None, runs=0, noise_pct=None)
    r.update(converged=converged if measured else False, stopped_by="noise",
             host_ms=(host_ms if measured and host_ms is not None else None),
             total_ms=(round(r["median_ms"] + (host_ms or 0), 6) if measured else None), bytes=nbytes,
             gbps=(round(nbytes / (r["median_ms"] * 1e-3) / 1e9, 3) if measured else None),
             peak_pct=None, speedup=None, ref_share=None, verified=status == "ok", status=status, message=message,
             notes=notes or {})
    if metrics is not None:
        r["metrics"] = metrics
        r["metric_passes"] = 2
    r["clocks"] = ({"samples": runs, "sm_mhz_min": 1980 if not throttled else 1110, "sm_mhz_mean": 1980.0,
                    "sm_mhz_max": 1980, "mem_mhz": 3134, "throttled": throttled,
                    "reasons": "sw_power_cap" if throttled else ""} if measured else None)
    r["samples_ms"] = s
    args = " ".join(f"-p {k}={v}" for k, v in params.items() if k not in ("n", "type", "block", "warmup"))
    r["rerun"] = (f"gpulab run {exercise} -n {params.get('n', '')} -t {params.get('type', '')} "
                  f"-w {params.get('warmup', 5)} {args}".replace(" -n  ", " ").replace(" -t  ", " ").strip()
                  + (" --cold" if cold else ""))
    return r


def ratios(device, results, baseline, reference):
    """speedup and ref_share as gpulab computes them: total time at the same point."""
    def same(a, b):
        ka = {k: v for k, v in a["params"].items() if k not in ("seed", "warmup", "reps", "block")}
        kb = {k: v for k, v in b["params"].items() if k not in ("seed", "warmup", "reps", "block")}
        return ka == kb
    for r in results:
        if r["gbps"] is None:
            continue
        r["peak_pct"] = round(100 * r["gbps"] / device["peak_gbps"], 3)
        for key, name in (("speedup", baseline), ("ref_share", reference)):
            other = [o for o in results if o["exercise"] == name and o["gbps"] is not None and same(o, r)
                     and o["params"].get("block") in (None, r["params"].get("block"), 512)]
            if other:
                r[key] = round(other[0]["total_ms"] / r["total_ms"], 4)


def record(device, command, results, date="2026-11-22T14:03:11Z"):
    return {"schema": "gpulab-record/1", "gpulab": {"version": "0.1.0", "revision": "96a694162497", "abi": "2.0"},
            "host": "h200-lab-1", "date": date, "command": command, "cold": False,
            "stopping": {"max_noise_pct": 0.5, "min_time_s": 0.1, "timeout_s": 10, "min_runs": 10},
            "device": device, "results": results}


def ladder(rng, e, scale=None):
    n = 2 ** e
    res = []
    for i, name in enumerate(LADDER):
        params = {"n": n, "block": 512, "type": "int", "warmup": 5, "seed": 1234 + i}
        if name == "cub":
            params = {"n": n, "type": "int", "warmup": 5, "seed": 1234 + i}
        g = GBPS[e][i] * (scale.get(name, 1) if scale else 1)
        res.append(point(rng, "reduce." + name, params, n, 4 * n + 4 * (n // 512), g, noise=0.25,
                         host_ms=HOST[e] if name not in ("cub", "best") else 0.0))
    ratios(H200, res, "reduce.neighbored", "reduce.cub")
    return res


def write(name, rec):
    with open(name, "w") as f:
        json.dump(rec, f, indent=None, separators=(", ", ": "))
        f.write("\n")


def main():
    rng = random.Random(14)
    write("h200-reduce-2p24.json", record(H200, "gpulab run reduce -t int -n 2^24 -w 5 --quiet --output "
                                                "docs/bench-reduce-2.json", ladder(rng, 24)))
    write("h200-reduce-2p28.json", record(H200, "gpulab run reduce -t int -n 2^28 -w 5 --quiet --output "
                                                "docs/bench-reduce-3.json", ladder(rng, 28)))
    # the same run again after a change: unroll8 faster, best slower
    write("h200-reduce-2p24-new.json", record(H200, "gpulab run reduce -t int -n 2^24 -w 5 --quiet --output new.json",
                                              ladder(rng, 24, {"unroll8": 1.15, "best": 0.8}),
                                              date="2026-11-23T09:41:02Z"))
    sweep = []
    curve = {"unroll8": {16: 60.0, 18: 170.0, 20: 295.6, 22: 900.0, 24: 1955.0, 26: 2900.0, 28: 3395.3},
             "cub": {16: 70.0, 18: 190.0, 20: 365.1, 22: 1150.0, 24: 2634.6, 26: 3900.0, 28: 4387.9},
             "best": {16: 95.0, 18: 260.0, 20: 476.6, 22: 1500.0, 24: 3026.2, 26: 4100.0, 28: 4422.0}}
    for name in ("unroll8", "cub", "best"):
        for e in range(16, 29, 2):
            n = 2 ** e
            params = {"n": n, "block": 512, "type": "int", "warmup": 5, "seed": 77 + e}
            if name == "cub":
                del params["block"]
            sweep.append(point(rng, "reduce." + name, params, n, 4 * n + 4 * (n // 512), curve[name][e],
                               noise=0.8 if e < 20 else 0.3, runs=12 if e >= 20 else 40,
                               converged=not (name == "unroll8" and e == 16)))
    ratios(H200, sweep, "reduce.neighbored", "reduce.cub")
    write("h200-reduce-sweep.json", record(H200, "gpulab run reduce.unroll8 reduce.cub reduce.best -t int "
                                                 "-n 2^16:2^28:2 -w 5 --quiet --output docs/bench-reduce-sweep.json",
                                           sweep))
    tp = []
    for name, g in (("memcpy", 4157.9), ("copy_row", 4002.7), ("naive_row", 557.8), ("naive_col", 1373.3),
                    ("smem", 1022.0), ("smem_pad", 1790.0), ("smem_unroll", 3908.0), ("smem_swizzle", 3912.6)):
        params = {"type": "float", "warmup": 5, "rows": 8192, "cols": 8192, "seed": 5}
        tp.append(point(rng, "transpose." + name, params, 8192 * 8192, 2 * 4 * 8192 * 8192, g, noise=0.2))
    ratios(H200, tp, "transpose.naive_row", "transpose.memcpy")
    write("h200-transpose-8192.json", record(H200, "gpulab run transpose -t float -p rows=8192 -p cols=8192 -w 5 "
                                                   "--quiet --output docs/bench-transpose-1.json", tp))
    blocks = []
    base = {"unroll2": 1053.3, "unroll4": 1563.5, "unroll8": 1955.0, "unroll16": 2391.6}
    shape = {128: 0.78, 256: 0.93, 512: 1.0, 1024: 0.88}
    n = 2 ** 24
    for name in base:
        for b in (128, 256, 512, 1024):
            params = {"n": n, "block": b, "type": "int", "warmup": 5, "seed": 9}
            blocks.append(point(rng, "reduce." + name, params, n, 4 * n + 4 * (n // b), base[name] * shape[b]))
    for r in blocks:
        r["peak_pct"] = round(100 * r["gbps"] / H200["peak_gbps"], 3)
    write("h200-reduce-blocks.json", record(H200, "gpulab run 'reduce.unroll*' -b 128,256,512,1024 -t int -n 2^24 "
                                                  "-w 5 --quiet --output blocks.json", blocks))
    div = []
    counters = {"warmup": (100, 100, 2881.5), "math1": (50.16, 99.81, 5717), "math2": (100, 100, 2881.5),
                "math3": (50.16, 99.81, 5717)}
    for name, g in (("warmup", 31.8), ("math1", 16.0), ("math2", 31.8), ("math3", 16.0)):
        n = 4194304
        w, b, i = counters[name]
        m = {"warp_execution_efficiency": {"metric": "smsp__thread_inst_executed_per_inst_executed.pct", "value": w},
             "branch_efficiency": {"metric": "smsp__sass_average_branch_targets_threads_uniform.pct", "value": b},
             "inst_per_warp": {"metric": "smsp__average_inst_executed_per_warp.ratio", "value": i}}
        div.append(point(rng, "divergence." + name, {"n": n, "block": 64, "type": "float", "warmup": 5, "seed": 3},
                         n, 4 * n, g, metrics=m))
    ratios(H100, div, "divergence.math1", None)
    write("h100-divergence-metrics.json", record(dict(H100), "gpulab run divergence.warmup divergence.math1 "
                                                 "divergence.math2 divergence.math3 --metrics warp_execution_efficiency,"
                                                 "branch_efficiency,inst_per_warp --output divergence.json", div))
    st = []
    n = 2 ** 24
    for name, kw in (("neighbored", {}), ("interleaved", {"status": "FAILED",
                                                          "message": "sum: expected 2147483648, got 2147483136"}),
                     ("unroll2", {"converged": False, "noise": 4.0}), ("unroll4", {"throttled": 7}),
                     ("unroll8", {"status": "unverified", "message": "not verified (--no-verify)"}),
                     ("unroll16", {"status": "ERROR", "message": "kernel launch: an illegal memory access"}),
                     ("smem_dyn", {"status": "skipped", "message": "block size 2048 exceeds this GPU's limit of 1024"}),
                     ("cub", {}), ("best", {})):
        i = LADDER.index(name)
        params = {"n": n, "block": 512, "type": "int", "warmup": 5, "seed": 11}
        st.append(point(rng, "reduce." + name, params, n, 4 * n + 4 * (n // 512), GBPS[24][i], **kw))
    ratios(H200, st, "reduce.neighbored", "reduce.cub")
    write("h200-states.json", record(H200, "gpulab run reduce.neighbored reduce.interleaved ... --output states.json",
                                     st))


if __name__ == "__main__":
    main()
