#!/usr/bin/env bash
# README's quick start and test command, verbatim, in a fresh clone of
# this repository's HEAD; fails on any line of their output that warns
# (autoreconf, configure, the compilers, ar, libtool, make install).
# Slow (a full build for every architecture, then the test suite): not
# part of `make check`; the coordinator or CI runs it by hand:
#   tests/quickstart.sh [--no-apt]
# --no-apt leaves out the quick start's first line, the README's install
# line (it needs root and a network).  Without a GPU the quick start's last step,
# `./gpulab run reduce.unroll8`, must fail with "no CUDA device" (exit 6),
# and that alone is forgiven.  Then `make install DESTDIR=...` is run too.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
no_apt=0
[ "${1:-}" = --no-apt ] && no_apt=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$here" "$tmp/gpulab"
cd "$tmp/gpulab"

block_after() { # line $2 (default 1) of the first ```sh block after the line matching $1
	awk -v pat="$1" -v want_line="${2:-1}" '$0 ~ pat { want = 1; next } want && /^```/ { if (fenced) exit; fenced = 1; next }
		fenced && ++line == want_line { print; exit }' README.md
}
# the quick start's block: the install line (after its marker), then the build
install=$(block_after '<!-- install-command')
quick=$(block_after '<!-- install-command' 2)
test_cmd=$(block_after '<!-- test-command')
[ -n "$install" ] && [ -n "$quick" ] && [ -n "$test_cmd" ] \
	|| { echo "quickstart.sh: no install line, quick start or test command in README.md" >&2; exit 1; }
[ $no_apt -eq 1 ] || quick="$install && $quick"

echo "+ $quick"
set +e
(eval "$quick") > "$tmp/quick.log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
	if [ $rc -eq 6 ] && tail -1 "$tmp/quick.log" | grep -q "no CUDA device"; then
		echo "quickstart.sh: no GPU here; the quick start's run stopped at 'no CUDA device', as it must"
	else
		tail -20 "$tmp/quick.log"; echo "quickstart.sh: the quick start failed, exit $rc" >&2; exit 1
	fi
fi
rm -rf build
echo "+ $test_cmd"
(eval "$test_cmd") > "$tmp/test.log" 2>&1 || { tail -30 "$tmp/test.log"; echo "quickstart.sh: the test command failed" >&2; exit 1; }
(cd build && make install DESTDIR="$tmp/root") > "$tmp/install.log" 2>&1 || { tail -20 "$tmp/install.log"; exit 1; }

# A warning is any line that says so, from any tool; a test's own output
# is in its .log, not here.
if grep -inE 'warn|ignored|remember to run|couldn.t open' "$tmp/quick.log" "$tmp/test.log" "$tmp/install.log"; then
	echo "quickstart.sh: the lines above warn" >&2
	exit 1
fi
echo "quickstart.sh: the quick start and the test command ran clean"
