#!/bin/bash
# A rank killed mid-run, and how long its job takes to end (issue 45):
#   bench/kill-rank.sh OUT ERR AFTER RANK MPIRUN ARGS...
# starts MPIRUN ARGS... (an Open MPI mpirun line) in the background, its
# stdout in OUT and stderr in ERR; once its rank RANK is running (its pid
# is mpirun's child with OMPI_COMM_WORLD_RANK=RANK), waits AFTER seconds
# more, kills that rank with kill -9, and waits at most 60 s for mpirun
# to end (then kills it too).  Prints one line, "PID MS STATUS": the
# rank's pid (- if it never came), the milliseconds from the kill to
# mpirun's end, and mpirun's exit status.
set -u
out=$1 err=$2 after=$3 rank=$4
shift 4
rank_pid() {
	local kid
	for kid in $(pgrep -P "$1"); do
		tr '\0' '\n' <"/proc/$kid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && { echo "$kid"; return; }
	done
}
"$@" >"$out" 2>"$err" &
mp=$!
victim=
for _ in $(seq 600); do # 60 s for the ranks to start
	victim=$(rank_pid "$mp" "$rank")
	[ -n "$victim" ] && break
	kill -0 "$mp" 2>/dev/null || break
	sleep 0.1
done
sleep "$after"
t0=$(date +%s%N)
[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
for _ in $(seq 1200); do
	kill -0 "$mp" 2>/dev/null || break
	sleep 0.05
done
t1=$(date +%s%N)
kill -0 "$mp" 2>/dev/null && kill -9 "$mp"
wait "$mp"
rc=$?
echo "${victim:--} $(((t1 - t0) / 1000000)) $rc"
