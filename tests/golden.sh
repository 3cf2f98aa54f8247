#!/bin/bash
# The output gpulab prints, byte for byte: a set of commands (list, run in
# every format, sweeps, compare of records, errors), each one's stdout,
# stderr and exit status, against tests/golden.expected.  The runs are the
# fake plugin's host-only exercises under tests/fakeclock.c, a clock that
# ticks by the call, so that their timings are the same every time too;
# only the host's name, gpulab's revision, the paths and where each
# point's wall time went (wall_s, the real clock's) are masked, and
# no GPU is visible (CUDA_VISIBLE_DEVICES=-1), so that a GPU machine
# prints what this one does.  A refactoring that must not change what
# gpulab prints keeps this passing; a change that means to updates the
# file, and its diff shows what changed:
#   GPULAB_GOLDEN_UPDATE=1 make check TESTS=tests/golden.sh
# Skips (77) where the clock cannot be preloaded.
set -u
for v in GPULAB_BIN GPULAB_TEST_PLUGINS FAKECLOCK; do
	[ -n "${!v:-}" ] || { echo "golden.sh: $v must be set (make check sets it)"; exit 99; }
done
[ -e "$FAKECLOCK" ] || { echo "golden.sh: no $FAKECLOCK: skipped"; exit 77; }
expected=${srcdir:-.}/tests/golden.expected
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/sys" "$tmp/xdg/gpulab" "$tmp/work"
printf '[plugin fake]\nfile = fake.so\n[plugin gone]\nfile = gone.so\n' >"$tmp/sys/gpulab.ini"
printf '[defaults]\nreps = 5\n' >"$tmp/xdg/gpulab/gpulab.ini"
records=$(cd "${srcdir:-.}/tests/records" && pwd) || exit 99

# g ARGS...: one command's output, as the expected file has it
g()
{
	local rc
	(
		cd "$tmp/work" || exit 99
		env GPULAB_SYSCONFDIR="$tmp/sys" GPULAB_PLUGIN_PATH="$GPULAB_TEST_PLUGINS" \
			XDG_CONFIG_HOME="$tmp/xdg" XDG_DATA_HOME="$tmp/data" GPULAB_CONFIG= COLUMNS=100 CUDA_VISIBLE_DEVICES=-1 \
			LD_PRELOAD="$FAKECLOCK" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
			"$GPULAB_BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	)
	rc=$?
	echo "\$ gpulab $*"
	cat "$tmp/out"
	echo "--- stderr"
	cat "$tmp/err"
	echo "--- exit $rc"
}

# f FILE: a file the commands wrote (a record), as the expected file has it
f()
{
	echo "\$ cat $1"
	cat "$tmp/work/$1"
}

commands()
{
	g list
	g list --format csv
	g list --format json
	g list --format md
	g run fake.ok
	g run fake.ok --format csv
	g run fake.ok --format json
	g run fake.ok --wide
	g run fake.ok fake.unlike -n 512,1024 --format md
	g run fake.ok -t int,float -n 512,1024,2048
	g run fake.keyed -n 2^11:2^13 -t int
	g run fake.keyed fake.ok -n 2^11:2^13 -r 2
	g run fake.keyed fake.ok -n 2^11:2^13 -r 2 --wide
	g run fake.keyed fake.ok -n 2^11:2^13 -r 2 --format csv
	g run fake.keyed -n 2^11:2^13 -t int,float --format json
	g run fake.keyed -p tile=2x2,4x4 --format csv
	g run fake.keyed -p tile=2x2,4x4
	g run fake.keyed -p tile=2x2,4x4 --format md
	g run fake.keyed -p mode=slow -p tile=3x5 -p offset=-4 -p seed=77 -n 2^12
	g run fake.chooser fake.ok -n 512,1024 -r 2 -p lie=value --wide
	g run fake.chooser -n 512,4096 -r 2
	g run fake.chooser -r 6 --samples --format json
	g run fake.unlike fake.ok
	g run fake.unlike fake.ok --format csv
	g run fake.floaty fake.repeats fake.resets
	g run fake.floaty fake.repeats fake.resets --wide
	g run fake.ok fake.wrongat fake.picky -n 256,4096,2^40 -r 8 --wide
	g run fake.ok fake.wrongat fake.picky -n 256,4096,2^40 -r 8
	g run fake.keyed fake.ok -n 2^11:2^13 -r 2 -p tile=1x1,64x64 --wide
	g run fake.chooser -n 512,4096 -r 7 --wide
	g run fake.repeats --batch 4
	g run fake.jittery -r 5
	g run fake.ok --metrics default
	g run fake.wrong
	g run fake.wrong --format csv
	g run fake.wrong --format json
	g run fake.ok fake.wrong fake.wrongat fake.picky -n 256,4096 --format md
	g run fake.failrun
	g run fake.picky -n 1024,4096
	g run fake.wrongat -n 128,256,512
	g run fake.ok fake.wrong fake.failsetup --format csv
	g run fake.shaped
	g run fake.keyed -n 4097
	g run fake.keyed -p depth=deep
	g run fake.ok --format yaml
	g run fake.nothing
	g run fake.ok -n 2^40
	g run fake.ok fake.keyed -n 1024,2048 -r 8 --output a.json --format csv
	g run fake.ok fake.keyed -n 1024,2048 -r 12 --output b.json
	g compare a.json b.json
	g compare a.json b.json --format csv
	g compare a.json b.json --format json
	g compare a.json b.json --format md
	g compare a.json --base fake.ok --new fake.keyed --format md
	g compare a.json b.json --fail-above 10
	g compare a.json --base fake.ok --new fake.keyed
	g compare a.json --base fake.ok --new fake.keyed --format csv
	g compare a.json /nonexistent.json
	g compare "$records/h200-reduce-2p24.json" "$records/h200-reduce-2p24-new.json"
	g compare "$records/h200-reduce-2p24.json" "$records/h200-reduce-2p24-new.json" --format csv
	g compare "$records/h200-reduce-2p24.json" "$records/h200-reduce-2p24-new.json" --format json
	g compare "$records/h200-reduce-2p24.json" "$records/h200-reduce-2p24-new.json" --min-change 5 --fail-above 3
	g compare "$records/h200-reduce-2p24.json" --base reduce.cub --new reduce.best
	g compare "$records/h200-reduce-2p24.json" "$records/h200-reduce-2p24-new.json" --format md
	g run fake.ok fake.keyed -n 1024,2048 -r 2 --output c.json
	g run fake.ok fake.keyed -n 1024,2048,4096 -r 2 --output c.json --resume
	g run fake.ok fake.keyed -n 1024,2048,4096 -r 2 --output c.json --resume --format json
	f c.json
	g frobnicate
}

# The host, revision and build directory differ from machine to machine;
# the temporary directory from run to run.
mask()
{
	sed -e "s|$tmp|TMP|g" -e "s|$GPULAB_TEST_PLUGINS|PLUGINS|g" -e "s|$GPULAB_BIN|gpulab|g" -e "s|$records|RECORDS|g" \
		-e 's/"host": "[^"]*"/"host": "HOST"/g' \
		-e 's/"revision": "[^"]*"/"revision": "REV"/g' \
		-e 's/"wall_s": {[^}]*}/"wall_s": {WALL}/g'
}

commands | mask >"$tmp/got"
if [ -n "${GPULAB_GOLDEN_UPDATE:-}" ]; then
	cp "$tmp/got" "$expected" && echo "golden.sh: $expected updated" && exit 0
	exit 99
fi
if ! diff -u "$expected" "$tmp/got"; then
	echo "FAIL: gpulab's output differs from $expected (above; GPULAB_GOLDEN_UPDATE=1 rewrites it)"
	exit 1
fi
echo "ok: $(grep -c '^\$ gpulab' "$tmp/got") commands print what $expected has"
