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
import struct

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


def f32(x):
    """x as CUDA's events give it: a float, read back as a double (every digit kept)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def as_measured(r, batch=1):
    """A point as a 1.4 run writes it: float times with all their digits, and the median's interval."""
    if r["median_ms"] is None:
        r.update(median_ci_ms=None, median_ci_pct=None, noisy=False, batch=batch)
        return r
    s = sorted(f32(x) for x in r["samples_ms"])
    m = len(s)
    lo, hi = s[max(0, int(m / 2 - 0.98 * m ** 0.5))], s[min(m - 1, int(m / 2 + 0.98 * m ** 0.5))]
    med = f32(statistics.median(s))
    r.update(median_ms=med, min_ms=s[0], max_ms=s[-1], samples_ms=[f32(x) for x in r["samples_ms"]],
             noise_pct=100 * statistics.stdev(s) / statistics.mean(s), total_ms=med + (r["host_ms"] or 0),
             gbps=r["bytes"] / (med * 1e-3) / 1e9, median_ci_ms=[lo, hi], median_ci_pct=100 * (hi - lo) / 2 / med,
             batch=batch)
    r["noisy"] = r["median_ci_pct"] > 2.5
    return r


def exact_ratios(device, results, baseline, reference, key=lambda r: (r["params"]["n"], r["params"]["type"])):
    """speedup, ref_share and peak_pct with every digit, as a run writes them."""
    def total(name, r):
        o = [x for x in results if x["exercise"] == name and x["gbps"] is not None and key(x) == key(r)]
        return o[0]["total_ms"] if o else None
    for r in results:
        if r["gbps"] is None:
            continue
        r["peak_pct"] = 100 * r["gbps"] / device["peak_gbps"]
        for k, name in (("speedup", baseline), ("ref_share", reference)):
            t = total(name, r)
            r[k] = t / r["total_ms"] if t is not None else None


def document14(device, command, results, date):
    rec = record(device, command, results, date)
    rec.update(schema="gpulab-record/1.4", batch=1, samples_kept=4096, interrupted=False, interruption=None)
    return rec


def sweep24(rng):
    """A 24-point sweep (3 exercises x 2^10..2^24) as a run writes it: every digit of every number."""
    curve = {"unroll8": [0.62, 2.9, 11.0, 42.0, 160.0, 590.0, 1400.0, 1955.0],
             "cub": [0.73, 3.4, 13.5, 51.0, 190.0, 700.0, 1750.0, 2634.6],
             "best": [0.95, 4.1, 16.0, 60.0, 260.0, 900.0, 2100.0, 3026.2]}
    res = []
    for name in ("unroll8", "cub", "best"):
        for i, e in enumerate(range(10, 25, 2)):
            n = 2 ** e
            params = {"n": n, "block": 512, "type": "int", "warmup": 5, "seed": 4100 + e}
            if name == "cub":
                del params["block"]
            res.append(as_measured(point(rng, "reduce." + name, params, n, 4 * n + 4 * (n // 512), curve[name][i],
                                         noise=5.0 if e < 14 else 0.6, runs=40 if e < 18 else 12,
                                         host_ms=0.0 if name != "unroll8" else 0.0048 * n / 2 ** 24)))
    exact_ratios(H200, res, "reduce.unroll8", "reduce.cub")
    return res


# gpulab grade's record: a class's kernels on the reduce challenge, twice
KIDS = ["ada_shfl", "brian_unroll", "carla_tail", "dmitri_oob", "erin_spin", "farid_syntax", "grace_ptr", "hugo_race"]
FAIL = {
    "wrong": (1, "wrong result", "try reduce: submissions/{k}.cu fails the gate at n=1000003 int: sum of 1000003 ints: "
                                 "expected 1000003, got 1000000; nothing was timed"),
    "race": (1, "wrong result", "try reduce: submissions/{k}.cu fails the gate at n=4096 int: sum of 4096 ints: "
                                "expected 4096, got 4064 (a race between the warps: run it again and it may differ); "
                                "nothing was timed"),
    "fault": (8, "faulted or trapped", "try reduce: submissions/{k}.cu at n=31 int: kernel: an illegal memory access "
                                       "was encountered; nothing was timed"),
    "hang": (12, "hung: stopped", "try.reduce (n=16777216 int): still running after 10 s, stopped by the watchdog "
                                  "(--watchdog)"),
    "syntax": (2, "does not compile, or breaks the contract", "try reduce: submissions/{k}.cu:14: error: expected a "
                                                              "\";\" (NVRTC, --std=c++20 -arch=sm_90)"),
    "crash": (134, "crashed", "crashed: Aborted"),
}
DAYS = [("2026-11-20T10:02:44Z", {"ada_shfl": 2810.0, "brian_unroll": 1480.0, "carla_tail": "wrong",
                                  "dmitri_oob": "fault", "erin_spin": "hang", "farid_syntax": "syntax",
                                  "grace_ptr": "crash", "hugo_race": "race"}),
        ("2026-11-27T10:05:13Z", {"ada_shfl": 3080.0, "brian_unroll": 1990.0, "carla_tail": 2210.0,
                                  "dmitri_oob": "fault", "erin_spin": 1050.0, "farid_syntax": "wrong",
                                  "grace_ptr": "crash", "hugo_race": 2480.0})]


def grade_journal(rng, day, date, kernels):
    """A journal as `gpulab grade reduce submissions/ -n 2^24 -t int -o grade-DAY.json` writes it."""
    n = 2 ** 24
    rows = [as_measured(r) for r in ladder(rng, 24)]
    for k, what in kernels.items():
        if isinstance(what, float):
            params = {"n": n, "block": 512, "type": "int", "warmup": 5, "kernel": f"submissions/{k}.cu",
                      "seed": 3300 + day}
            r = as_measured(point(rng, "try.reduce", params, n, 4 * n + 4 * (n // 512), what, noise=0.4))
            r["rerun"] = f"gpulab run try.reduce -n 16777216 -t int -w 5 -p kernel=submissions/{k}.cu"
            rows.append(r)
    exact_ratios(H200, rows, "reduce.neighbored", "reduce.cub")
    ranked = sorted((k for k, w in kernels.items() if isinstance(w, float)),
                    key=lambda k: next(r["median_ms"] for r in rows if r["params"].get("kernel", "").endswith(k + ".cu")))
    entries = [{"kernel": f"submissions/{k}.cu", "rank": i + 1, "exit": 0, "failure": None, "reason": None}
               for i, k in enumerate(ranked)]
    for k in sorted(k for k, w in kernels.items() if not isinstance(w, float)):
        code, kind, why = FAIL[kernels[k]]
        entries.append({"kernel": f"submissions/{k}.cu", "rank": None, "exit": code, "failure": kind,
                        "reason": why.format(k=k)})
    head = document14(H200, f"gpulab grade reduce submissions/ -n 2^24 -t int -o grade-{day}.json", [], date)
    del head["results"], head["interrupted"], head["interruption"]
    head["schema"] = "gpulab-record/2.1"
    head["grade"] = {"challenge": "reduce", "kernels": entries}
    with open(f"h200-grade-reduce-{day}.json", "w") as f:
        for obj in [head] + rows + [{"end": {"interrupted": False, "interruption": None, "points": len(rows)}}]:
            f.write(json.dumps(obj, separators=(", ", ": ")) + "\n")


def more_samples():
    """Issue 48's: written from their own generator, so the records above stay as they are."""
    rng = random.Random(48)
    write("h200-reduce-sweep24.json", document14(H200, "gpulab run reduce.unroll8 reduce.cub reduce.best -t int "
                                                       "-n 2^10:2^24:2 -w 5 -o sweep24.json", sweep24(rng),
                                                 "2026-11-24T16:20:05Z"))
    for day, (date, kernels) in enumerate(DAYS, 1):
        grade_journal(rng, day, date, kernels)


if __name__ == "__main__":
    main()
    more_samples()
