#!/bin/bash
# What a record costs (issues 37 and 46), on the host-only fake plugin, so
# any machine can run it: the bytes -o writes and the wall time it adds to
# a 200-point sweep, with each entry's fdatasync on the journal's thread
# (as gpulab does) and, for comparison, in line (the thread made unable to
# start: a preloaded pthread_create that fails, which the journal falls
# back from), and what each sync took; the size of the 21-point `fake.ok
# -n 1:2^20` record (10^6 runs a point) and how long compare, report and
# --resume take to read it; compare and --resume of a record of 5 million
# samples (`--samples all`); compare of two 1000-point records, its time
# and memory.
# Writes docs/bench-record.md (the table) and docs/records/bench-record.json
# (the numbers), or OUT.md and records/OUT.json beside it.
#   bench/record.sh BUILD_DIR [OUT]
# BEFORE=OLD_BUILD_DIR (and BEFORE_REVISION, its name) also times the
# 5-million-sample compare and --resume with that build's gpulab (an
# earlier revision, for a change's before and after on one machine).
# BUILD_DIR is a build tree after `make check` (its core/gpulab and the
# fake plugin in tests/plugins/.libs).  Needs python3, a C compiler (cc,
# for the preloaded stand-in), strace (for the bytes written and the
# syncs' times) and GNU time (/usr/bin/time) for the memory.
set -eu
build=$(cd "${1:?usage: bench/record.sh BUILD_DIR [OUT]}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../docs/bench-record}
out=${out%.md}
record=$(dirname "$out")/records/$(basename "$out").json
mkdir -p "$(dirname "$record")"
reps=${REPS:-3}
gpulab=$build/core/gpulab
work=$(mktemp -d /tmp/gpulab-bench-record-XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '[plugin fake]\nfile = fake.so\n' > "$work/gpulab.ini"
export GPULAB_SYSCONFDIR=$work GPULAB_PLUGIN_PATH=$build/tests/plugins/.libs XDG_CONFIG_HOME=$work GPULAB_CONFIG=
results=$work/results.txt
: > "$results"

# timed NAME CMD...: wall, user+sys seconds and max RSS of CMD, best of
# $reps by wall, as "NAME wall cpu kb" in $results.
timed()
{
	local name=$1 best=
	shift
	for _ in $(seq "$reps"); do
		/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2>> "$work/stderr"
		read -r wall user sys kb < "$work/time"
		line="$name $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $kb"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$(echo "$best" | cut -d' ' -f2)" 'BEGIN { exit !(a < b) }'; then
			best=$line
		fi
	done
	echo "$best" >> "$results"
}

# bytes_written RECORD CMD...: what CMD writes to RECORD and its
# temporary, all told (strace's writes to their descriptors); and its
# fdatasyncs: how many, their median, longest and total seconds.
bytes_written()
{
	local record=$1
	shift
	strace -f -qq -T --seccomp-bpf -e trace=openat,write,close,fdatasync -o "$work/strace" "$@" > /dev/null 2>> "$work/stderr"
	python3 - "$work/strace" "$record" <<'PY'
import re, sys, statistics
fds, total, syncs = {}, 0, []
for line in open(sys.argv[1]):
    m = re.search(r'openat\(AT_FDCWD, "([^"]*)".*\) = (\d+) <', line)
    if m:
        fds[m.group(2)] = m.group(1).startswith(sys.argv[2])
        continue
    m = re.search(r'write\((\d+),.*\) = (\d+) <', line)
    if m and fds.get(m.group(1)):
        total += int(m.group(2))
    m = re.search(r'fdatasync\((\d+)\) += 0 <([0-9.]+)>', line)
    if m and fds.get(m.group(1)):
        syncs.append(float(m.group(2)))
    m = re.search(r'close\((\d+)\)', line)
    if m:
        fds.pop(m.group(1), None)
print(total, len(syncs), statistics.median(syncs) if syncs else 0, max(syncs, default=0), sum(syncs))
PY
}

# A pthread_create that fails, preloaded: the journal then syncs each
# entry in line, before the next point runs (io/journal.c falls back so).
cat > "$work/nothread.c" <<'C'
#include <errno.h>
#include <pthread.h>
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
	(void)t, (void)a, (void)f, (void)arg;
	return EAGAIN;
}
C
cc -shared -fPIC -O2 -o "$work/nothread.so" "$work/nothread.c"

# A 200-point sweep, 10^5 runs a point: with -o and without.
sizes=$(seq -s, 1 100)
sweep=(run fake.ok -n "$sizes" -t int,float -r 100000 -w 0)
for _ in $(seq "$reps"); do # alternated, so the machine's load falls on all alike
	REPS=1 timed sweep200_o "$gpulab" "${sweep[@]}" -o "$work/s200.json"
	REPS=1 timed sweep200 "$gpulab" "${sweep[@]}"
	REPS=1 timed sweep200_inline env LD_PRELOAD="$work/nothread.so" "$gpulab" "${sweep[@]}" -o "$work/s200.json"
done
echo "sweep200_bytes $(bytes_written "$work/s200.json" "$gpulab" "${sweep[@]}" -o "$work/s200.json")" >> "$results"
echo "sweep200_size $(stat -c %s "$work/s200.json")" >> "$results"

# The 21-point sweep of 10^6 runs a point, and its readers.
"$gpulab" run fake.ok -n 1:2^20 -o "$work/r21.json" > /dev/null
echo "r21_size $(stat -c %s "$work/r21.json")" >> "$results"
timed r21_compare "$gpulab" compare "$work/r21.json" "$work/r21.json"
timed r21_report "$gpulab" report "$work/r21.json" -o "$work/r21.html"
timed r21_resume "$gpulab" run fake.ok -n 1:2^20 -o "$work/r21.json" --resume

# 5 points of 10^6 runs, every sample kept: 5 million samples.
"$gpulab" run fake.ok -n 1:16 -r 1000000 -w 0 --samples all -o "$work/big.json" > /dev/null
echo "big_size $(stat -c %s "$work/big.json")" >> "$results"
timed big_compare "$gpulab" compare "$work/big.json" "$work/big.json"
timed big_resume "$gpulab" run fake.ok -n 1:16 -r 1000000 -w 0 --samples all -o "$work/big.json" --resume
if [ -n "${BEFORE:-}" ]; then
	before=$(cd "$BEFORE" && pwd)
	GPULAB_PLUGIN_PATH=$before/tests/plugins/.libs timed before_compare "$before/core/gpulab" compare "$work/big.json" "$work/big.json"
	# its own record of the same run: another revision's is not resumed
	GPULAB_PLUGIN_PATH=$before/tests/plugins/.libs "$before/core/gpulab" run fake.ok -n 1:16 -r 1000000 -w 0 \
		--samples all -o "$work/big-before.json" > /dev/null
	GPULAB_PLUGIN_PATH=$before/tests/plugins/.libs timed before_resume "$before/core/gpulab" run fake.ok -n 1:16 \
		-r 1000000 -w 0 --samples all -o "$work/big-before.json" --resume
fi

# Two 1000-point records, 4096 samples a point (the most a point keeps),
# and two of 100 runs a point.
thousand=$(seq -s, 1 500)
for k in a b; do
	"$gpulab" run fake.ok -n "$thousand" -t int,float -r 4096 -w 0 -o "$work/$k.json" > /dev/null
	"$gpulab" run fake.ok -n "$thousand" -t int,float -r 100 -w 0 -o "$work/$k-100.json" > /dev/null
done
echo "p1000_size $(stat -c %s "$work/a.json")" >> "$results"
echo "p1000_100_size $(stat -c %s "$work/a-100.json")" >> "$results"
timed p1000_compare "$gpulab" compare "$work/a.json" "$work/b.json"
timed p1000_100_compare "$gpulab" compare "$work/a-100.json" "$work/b-100.json"

python3 - "$results" "$out" "$(uname -m)" "$(nproc)" "$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	"${BEFORE_REVISION:-earlier}" "$record" <<'PY'
import json, os, sys, datetime
rows, out = {}, sys.argv[2]
for line in open(sys.argv[1]):
    name, *v = line.split()
    rows.setdefault(name, []).append([float(x) for x in v])
best = {k: min(v) for k, v in rows.items()}  # by wall, the first field
one = lambda k, i=0: best[k][i]
mb = lambda b: b / 1e6
data = {
    "date": datetime.date.today().isoformat(), "machine": f"{sys.argv[3]}, {sys.argv[4]} CPUs",
    "revision": sys.argv[5],
    "sweep200": {"wall_s_with_o": one("sweep200_o"), "wall_s_without_o": one("sweep200"),
                 "wall_s_with_o_sync_in_line": one("sweep200_inline"),
                 "cpu_s_with_o": one("sweep200_o", 1), "cpu_s_without_o": one("sweep200", 1),
                 "cpu_s_with_o_sync_in_line": one("sweep200_inline", 1),
                 "bytes_written": int(one("sweep200_bytes")), "record_bytes": int(one("sweep200_size")),
                 "fdatasync": {"count": int(one("sweep200_bytes", 1)), "median_s": one("sweep200_bytes", 2),
                               "max_s": one("sweep200_bytes", 3), "total_s": one("sweep200_bytes", 4)}},
    "samples5m": {"record_bytes": int(one("big_size")),
                  "read_s": {k: one("big_" + k) for k in ("compare", "resume")},
                  "max_rss_kb": {k: int(one("big_" + k, 2)) for k in ("compare", "resume")}},
    "sweep21": {"record_bytes": int(one("r21_size")),
                "read_s": {k: one("r21_" + k) for k in ("compare", "report", "resume")},
                "max_rss_kb": {k: int(one("r21_" + k, 2)) for k in ("compare", "report", "resume")}},
    "compare1000": {"samples_4096": {"record_bytes": int(one("p1000_size")), "wall_s": one("p1000_compare"),
                                     "cpu_s": one("p1000_compare", 1), "max_rss_kb": int(one("p1000_compare", 2))},
                    "runs_100": {"record_bytes": int(one("p1000_100_size")), "wall_s": one("p1000_100_compare"),
                                 "cpu_s": one("p1000_100_compare", 1),
                                 "max_rss_kb": int(one("p1000_100_compare", 2))}},
}
if "before_compare" in best:
    data["samples5m"]["before"] = {"revision": sys.argv[6],
                                   "read_s": {k: one("before_" + k) for k in ("compare", "resume")},
                                   "max_rss_kb": {k: int(one("before_" + k, 2)) for k in ("compare", "resume")}}
with open(sys.argv[7], "w") as f:
    json.dump(data, f, indent=2)
    f.write("\n")
s, r, c, b = data["sweep200"], data["sweep21"], data["compare1000"], data["samples5m"]
def before_row(b):
    if "before" not in b:
        return ""
    x = b["before"]
    return (f"\n| ... the same with gpulab {x['revision']} (before) | {x['read_s']['compare']:.2f} s, "
            f"{x['max_rss_kb']['compare'] / 1024:.0f} MiB / {x['read_s']['resume']:.2f} s, "
            f"{x['max_rss_kb']['resume'] / 1024:.0f} MiB |")

with open(out + ".md", "w") as f:
    f.write(f"""# What a record costs

{data['date']}, {data['machine']}, gpulab {data['revision']}, the host-only fake plugin
(`bench/record.sh`; the numbers in [records/{os.path.basename(sys.argv[7])}](records/{os.path.basename(sys.argv[7])})). Times are the best
of the runs by wall clock; CPU is user + system.

| measure | value |
|---|---:|
| 200-point sweep (`fake.ok`, 10^5 runs a point): record size | {mb(s['record_bytes']):.2f} MB |
| ... bytes written to it and its temporary | {mb(s['bytes_written']):.2f} MB ({s['bytes_written'] / s['record_bytes']:.3f}x the record) |
| ... wall time with `-o` / without | {s['wall_s_with_o']:.2f} s / {s['wall_s_without_o']:.2f} s ({100 * (s['wall_s_with_o'] / s['wall_s_without_o'] - 1):+.1f}%) |
| ... wall time with `-o`, each sync in line (no thread) | {s['wall_s_with_o_sync_in_line']:.2f} s ({100 * (s['wall_s_with_o_sync_in_line'] / s['wall_s_without_o'] - 1):+.1f}%) |
| ... CPU time with `-o` / without / in line | {s['cpu_s_with_o']:.2f} s / {s['cpu_s_without_o']:.2f} s / {s['cpu_s_with_o_sync_in_line']:.2f} s |
| ... its `fdatasync`s (under strace): count, median, longest, total | {s['fdatasync']['count']}, {1000 * s['fdatasync']['median_s']:.1f} ms, {1000 * s['fdatasync']['max_s']:.1f} ms, {s['fdatasync']['total_s']:.2f} s |
| `fake.ok -n 1:2^20` (21 points, 10^6 runs each): record size | {mb(r['record_bytes']):.2f} MB |
| ... read by `compare` / `report` / `--resume` | {r['read_s']['compare']:.2f} s / {r['read_s']['report']:.2f} s / {r['read_s']['resume']:.2f} s |
| 5 million samples (`fake.ok -n 1:16 -r 10^6 --samples all`): record size | {mb(b['record_bytes']):.1f} MB |
| ... read by `compare` / `--resume` | {b['read_s']['compare']:.2f} s, {b['max_rss_kb']['compare'] / 1024:.0f} MiB / {b['read_s']['resume']:.2f} s, {b['max_rss_kb']['resume'] / 1024:.0f} MiB |{before_row(b)}
| `compare` of two 1000-point records, 4096 samples a point ({mb(c['samples_4096']['record_bytes']):.0f} MB each) | {c['samples_4096']['wall_s']:.2f} s wall, {c['samples_4096']['cpu_s']:.2f} s CPU, {c['samples_4096']['max_rss_kb'] / 1024:.0f} MiB |
| `compare` of two 1000-point records, 100 runs a point ({mb(c['runs_100']['record_bytes']):.1f} MB each) | {c['runs_100']['wall_s']:.2f} s wall, {c['runs_100']['cpu_s']:.2f} s CPU, {c['runs_100']['max_rss_kb'] / 1024:.0f} MiB |
""")
print(open(out + ".md").read())
PY
