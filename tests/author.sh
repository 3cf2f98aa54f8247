#!/bin/sh
# The exercise author's first hour (issue 38), without a GPU, on the
# uninstalled build: help for each command, list PATTERN and one exercise
# in full, config's trace and origins, the user's conf.d and plugin
# directory, `gpulab new`'s refusals, `gpulab check` on the test plugins,
# and every line of these commands within 100 columns.
set -u
bin=${GPULAB_BIN:?} plugins=${GPULAB_TEST_PLUGINS:?}
src=$(cd "${srcdir:-..}" && pwd) || exit 99
top=$(dirname "${GPULAB_WRAPPER:?}")
# A temporary directory with a long name on purpose, so that every run
# shows the widths below do not depend on where the tester put it.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-author-a-directory-name-as-long-as-a-tester-might-choose-XXXXXX") \
	|| exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$tmp/sys/conf.d" "$tmp/cfg/gpulab/conf.d" "$tmp/data/gpulab/plugins"
printf '[plugin fake]\nfile = fake.so\n' > "$tmp/sys/conf.d/fake.ini"
# the user's drop-in names a plugin found only in the user's plugin directory
cp "$plugins/oldminor.so" "$tmp/data/gpulab/plugins/mine.so"
printf '[plugin oldminor]\nfile = mine.so\n[exercise fake.keyed]\ndepth = 5\n' > "$tmp/cfg/gpulab/conf.d/mine.ini"
export GPULAB_SYSCONFDIR="$tmp/sys" GPULAB_PLUGIN_PATH="$plugins" XDG_CONFIG_HOME="$tmp/cfg" \
	XDG_DATA_HOME="$tmp/data" GPULAB_CONFIG= COLUMNS=100 GPULAB_CHALLENGES="$src/challenges"
g() { "$bin" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
# narrow_to COLS LINES WHAT...: every line of the last command within COLS
# columns, measured on what gpulab wrote: each path this test chose (its
# temporary directory, the build's and the source's, the install prefix,
# however long the tester's TMPDIR or checkout) counts as /tmp/tmp.XXXXXXXXXX, what mktemp
# -d makes under the default TMPDIR.  A line of gpulab's own that is too
# long still fails, path or no path.  LINES "all", or "but-one-path": but
# for a line that is one path alone, indented (a configured prefix).
narrow_to() {
	cols=$1 lines=$2; shift 2
	WIDTH_PATHS=$(printf '%s\n' "$plugins" "$top" "$src" "$tmp" "${INSTALL_PREFIX:-}") awk -v what="$*" -v cols="$cols" \
		-v lines="$lines" '
		BEGIN { n = split(ENVIRON["WIDTH_PATHS"], paths, "\n")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) # the longest first
				if (length(paths[j]) > length(paths[i])) { p = paths[i]; paths[i] = paths[j]; paths[j] = p } }
		function masked(s,   i, k, done) {
			for (i = 1; i <= n; i++) {
				if (paths[i] == "") continue
				done = ""
				while ((k = index(s, paths[i])) > 0) {
					done = done substr(s, 1, k - 1) "/tmp/tmp.XXXXXXXXXX"
					s = substr(s, k + length(paths[i]))
				}
				s = done s
			}
			return s
		}
		{ m = masked($0) }
		length(m) > cols && !(lines == "but-one-path" && m ~ /^  \/[^ ]*$/) {
			print "FAIL: " what ": " length(m) " columns (paths masked): " m; bad = 1 }
		END { exit bad }' "$tmp/out" "$tmp/err" || fails=$((fails + 1))
}
narrow() { narrow_to 100 all "$@"; }
has() { grep -qF -- "$1" "$tmp/out" || bad "$2: no '$1' in: $(head -c 600 "$tmp/out")"; }

for c in list info metrics run compare report try learn grade config new check help version; do
	g help "$c"; [ $rc -eq 0 ] || bad "help $c: exit $rc"; has "usage: gpulab" "help $c"; narrow help "$c"
	[ "$c" = version ] || has "examples:" "help $c"
	g "$c" --help; cp "$tmp/out" "$tmp/long"; g "$c" -h
	cmp -s "$tmp/out" "$tmp/long" || bad "$c -h and $c --help differ"
done
g run fake.ok --help; has "--max-noise PCT" "run --help"
# 80 columns, but for a line that is one configured path (a prefix may be long)
g help; narrow_to 80 but-one-path help
# the man page renders without a warning at 80 columns, where groff is,
# its paths under /usr/local: the prefix is the tester's (distcheck's is
# in the build directory, and a long directory there cannot be adjusted)
man=$(dirname "${GPULAB_WRAPPER:?}")/man/gpulab.1
if ! command -v groff > /dev/null; then
	echo "author.sh: not checked: gpulab.1 at 80 columns: needs groff (groff-base)"
elif [ -f "$man" ]; then
	# as the Makefile writes a path into the page: "\:" after each "/"
	FROM=$(printf '%s' "${INSTALL_PREFIX:-}" | sed 's|/|/\\:|g') awk '
		{ if (ENVIRON["FROM"] != "") { done = ""
			while ((k = index($0, ENVIRON["FROM"])) > 0) {
				done = done substr($0, 1, k - 1) "/\\:usr/\\:local"; $0 = substr($0, k + length(ENVIRON["FROM"])) }
			$0 = done $0 }
		print }' "$man" > "$tmp/gpulab.1"
	groff -t -man -Tutf8 -ww -rLL=80n -rLT=80n "$tmp/gpulab.1" 2> "$tmp/err" > /dev/null
	[ -s "$tmp/err" ] && bad "gpulab.1 at 80 columns, under /usr/local: $(head -3 "$tmp/err")"
fi
g help frobnicate; [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "help frobnicate: exit $rc"
g --version; has "plugin ABI 2." "--version"
g frobnicate; narrow unknown command

g list; [ $rc -eq 0 ] || bad "list: exit $rc $(cat "$tmp/err")"; narrow list
has "oldminor.keyed" "list: the user's drop-in"; has "$tmp/data/gpulab/plugins/mine.so" "list: the user's plugin directory"
has "by default a point repeats until its" "list: -r's true default"
g list 'fake.k*'; has "fake.keyed" "list glob"; grep -q "fake.ok" "$tmp/out" && bad "list glob shows fake.ok"
g list fake.keyed; narrow list one
has "-p mode" "list one"; has "one of fast|slow" "list one"; has "default fast" "list one"
g list nothing.here; [ $rc -eq 5 ] || bad "list nothing.here: exit $rc"

g config; [ $rc -eq 0 ] || bad "config: exit $rc"; narrow config
has "read     system drop-in  $tmp/sys/conf.d/fake.ini" "config"
has "missing  system          $tmp/sys/gpulab.ini" "config"
has "read     user drop-in    $tmp/cfg/gpulab/conf.d/mine.ini" "config"
has "$tmp/data/gpulab/plugins" "config: the user's plugin directory"
g config fake.keyed -p mode=slow; narrow config fake.keyed
has "$tmp/cfg/gpulab/conf.d/mine.ini:4: depth = 5" "config origin"
has "-p mode=slow" "config origin"; has "the default tile = 4x2" "config origin"
mkdir "$tmp/cfg/gpulab/conf.d/dir.ini"
g config; [ $rc -eq 3 ] || bad "config with a directory drop-in: exit $rc"
has "refused  user drop-in    $tmp/cfg/gpulab/conf.d/dir.ini" "config refused"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "config refused: not one line: $(cat "$tmp/err")"
rmdir "$tmp/cfg/gpulab/conf.d/dir.ini"
# a value out of range: one line, and config's verdict is run's (issue 46, item 15)
printf '[exercise fake.keyed]\ndepth = 0\n' > "$tmp/cfg/gpulab/conf.d/zbad.ini"
g run fake.keyed -r 3; run_rc=$rc; cp "$tmp/err" "$tmp/run.err"
g config
[ $run_rc -eq 3 ] && [ $rc -eq 3 ] && [ "$(wc -l < "$tmp/run.err")" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
	&& grep -qF "zbad.ini:2: depth = 0: expected a count from 1 to 10" "$tmp/run.err" \
	&& grep -qF "zbad.ini:2: depth = 0: expected a count from 1 to 10" "$tmp/err" \
	|| bad "depth = 0: run exit $run_rc $(cat "$tmp/run.err"), config exit $rc $(cat "$tmp/err")"
g config fake.keyed; [ $rc -eq 3 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "config fake.keyed, depth = 0: exit $rc $(cat "$tmp/err")"
# a section never closed is its own line's fault, not the next's
printf '[plugin broken\nfile = x.so\n' > "$tmp/cfg/gpulab/conf.d/zbad.ini"
g config; [ $rc -eq 3 ] && grep -qF "zbad.ini:1: malformed line: section '[plugin broken' never closed" "$tmp/err" \
	|| bad "an unclosed section: exit $rc $(cat "$tmp/err")"
rm "$tmp/cfg/gpulab/conf.d/zbad.ini"

# gpulab config --variable/--cflags: what pkg-config says of this gpulab's
# own gpulab.pc, with no PKG_CONFIG_PATH and the system's pkg-config
# directories empty, as under a prefix pkg-config does not search; and the
# recipes gpulab prints use it, not pkg-config (issue 46, item 11)
if command -v pkg-config > /dev/null && [ -f "$top/gpulab.pc" ]; then
	for v in $(PKG_CONFIG_PATH="$top" pkg-config --print-variables gpulab) cflags; do
		if [ "$v" = cflags ]; then want=$(PKG_CONFIG_PATH="$top" pkg-config --cflags gpulab); set -- --cflags
		else want=$(PKG_CONFIG_PATH="$top" pkg-config --variable="$v" gpulab); set -- --variable="$v"; fi
		got=$(env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/none" GPULAB_PKGCONFIGDIR="$top" "$bin" config "$@"); rc=$?
		[ $rc -eq 0 ] && [ "$got" = "$want" ] || bad "config $*: exit $rc, '$got', pkg-config says '$want'"
	done
fi
g config --variable='a;b'; [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "config --variable 'a;b': exit $rc"
g config --variable=nvcc --cflags; [ $rc -eq 2 ] || bad "config --variable --cflags: exit $rc"
g list --cflags; [ $rc -eq 2 ] || bad "list --cflags: exit $rc"
GPULAB_PKGCONFIGDIR="$tmp/none" g config --cflags
[ $rc -eq 3 ] && grep -q "$tmp/none/gpulab.pc" "$tmp/err" || bad "config --cflags without gpulab.pc: exit $rc $(cat "$tmp/err")"
for c in check config; do
	g help "$c"; grep -q 'pkg-config --variable' "$tmp/out" && bad "help $c: a recipe that needs PKG_CONFIG_PATH"
done
grep -q '^\$(pkg-config' "$src/README.md" && bad "README: a recipe that needs PKG_CONFIG_PATH"

# the other commands' widths: metrics, compare (records copied to short
# paths: the paths given may overflow), a host-only run and its record
g metrics; narrow metrics
cp "${srcdir:-..}/tests/records/h200-reduce-2p24.json" "$tmp/a.json"
cp "${srcdir:-..}/tests/records/h200-reduce-2p24-new.json" "$tmp/b.json"
g compare "$tmp/a.json" "$tmp/b.json"; [ $rc -eq 0 ] || bad "compare: exit $rc"; narrow compare
has "reduce.unroll8 n=16777216 block=512 type=int" "compare"
g compare "$tmp/a.json" "$tmp/b.json" --min-change 5; narrow compare --min-change
g run 'fake.*' -r 6 -o "$tmp/run.json"; narrow run

cd "$tmp" || exit 99
for name in 'a/b' 'Hist' '../x' '' "$(printf 'x\033')" "$(printf '%040d' 0 | tr 0 a)"; do
	g new "$name"; [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "new '$name': exit $rc $(cat "$tmp/err")"
done
mkdir exists; g new exists; [ $rc -eq 2 ] || bad "new over a directory: exit $rc"
GPULAB_SKELETON="${GPULAB_SKELETON:-}" g new hist
[ $rc -eq 0 ] && [ -f hist/hist.cu ] && [ -f hist/Makefile ] && [ -f hist/hist.ini ] || bad "new hist: exit $rc $(cat "$tmp/err")"
grep -q skeleton hist/* && bad "new hist: 'skeleton' left in its files"
# the Makefile finds this gpulab's gpulab.pc with no PKG_CONFIG_PATH
grep -q '^PC_PATH := .*:)/.*/pkgconfig$' hist/Makefile || bad "new hist: no gpulab.pc directory in its Makefile"
code=$(grep -cvE '^\s*($|/\*|\*|//)' hist/hist.cu); [ "$code" -le 60 ] || bad "the skeleton has $code lines of code"
# what its comments answer (issue 46, item 18): what to rename first, an
# int-only exercise, reset and the output, bytes_written with atomics;
# and lab.cuh's list of helpers names lab::teardown
for w in 'Rename first the exercise' '.dtypes = GPULAB_INT32' '.teardown = lab::teardown<state>' 'No .reset here' \
	'needs it zeroed there' 'With atomics, bytes_written'; do
	grep -qF -- "$w" hist/hist.cu || bad "the skeleton's comments lack '$w'"
done
# its comment says the element types its .dtypes declares (issue 52)
grep -q '\.dtypes = GPULAB_INT32 | GPULAB_FLOAT32,' hist/hist.cu && grep -qF 'It takes int and float' hist/hist.cu \
	&& ! grep -q 'One element type only' hist/hist.cu || bad "the skeleton's comment and its .dtypes disagree"
sed -n '1,/^ \*\//p' "$src/include/gpulab/lab.cuh" | grep -q 'lab::teardown<S>' || bad "lab.cuh's list lacks lab::teardown"

# fake.chooser's lie=early calls ctx->chose from plan, the bug check must find
g check "$plugins/fake.so"; [ $rc -eq 4 ] || bad "check fake.so: exit $rc: $(cat "$tmp/out")"
has "fake.chooser: plan() at -p lie=early: the exercise chose ways" "check fake.so"
[ "$(wc -l < "$tmp/out")" -eq 1 ] || bad "check fake.so: not one problem: $(cat "$tmp/out")"
# the plugins this build made are clean
for so in "$(dirname "${GPULAB_WRAPPER:?}")"/plugins/*/.libs/*.so; do
	[ -f "$so" ] || continue
	g check "$so"; [ $rc -eq 0 ] || bad "check $so: exit $rc: $(cat "$tmp/out")" # the path given may overflow 100 columns
	has ": no problem" "check $so"
	# --quiet: a clean plugin says nothing; a problem still prints
	g check --quiet "$so"; [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] || bad "check --quiet $so: exit $rc: $(cat "$tmp/out")"
done
g check --quiet "$plugins/fake.so"; [ $rc -eq 4 ] || bad "check --quiet fake.so: exit $rc"
# --format json: the same problem, and the file's summary, as one document
g check --format json "$plugins/fake.so"; [ $rc -eq 4 ] || bad "check --format json fake.so: exit $rc"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f, p = d["files"], d["problems"]
assert d["schema"] == "gpulab-check/1" and len(f) == 1 and f[0]["plugin"] == "fake" and f[0]["problems"] == 1, d
assert len(p) == 1 and p[0]["problem"].startswith("fake.chooser: plan() at -p lie=early: the exercise chose ways"), p' \
	"$tmp/out" || bad "check --format json fake.so: $(cat "$tmp/out")"
has "fake.chooser: plan() at -p lie=early: the exercise chose ways" "check --quiet fake.so"
# the corners where limits meet: only -n 2^32 with -b 1 together finds
# gridbug.gridded's unsigned count of blocks (issue 46, item 13)
g check "$plugins/gridbug.so"; [ $rc -eq 4 ] || bad "check gridbug.so: exit $rc"
has "gridbug.gridded: plan() refuses -n 4294967296 -b 1 without saying why (ctx->error)" "check gridbug.so"
[ "$(grep -c gridded "$tmp/out")" -eq 1 ] || bad "check gridbug.so: gridded's problems: $(cat "$tmp/out")"
# as a table: a row for each problem, with its plugin; CSV that parses, and Markdown's row
g check --format csv "$plugins/gridbug.so" "$plugins/badabi.so"; [ $rc -eq 4 ] || bad "check --format csv: exit $rc"
python3 -c 'import csv, sys
r = list(csv.reader(open(sys.argv[1])))
assert r[0] == ["file", "plugin", "abi", "exercises", "refused", "problem"] and len(r) == 4, r
assert [x[1] for x in r[1:]] == ["gridbug", "gridbug", ""] and r[3][4] == "yes" and r[3][5] == "", r
assert r[2][5] == "gridbug.gridded: plan() refuses -n 4294967296 -b 1 without saying why (ctx->error)", r' \
	"$tmp/out" || bad "check --format csv: $(cat "$tmp/out")"
g check --format md "$plugins/gridbug.so"; [ $rc -eq 4 ] || bad "check --format md: exit $rc"
grep -qE '^\| [^|]*/gridbug\.so \| gridbug \| [0-9]+\.[0-9]+ \| [0-9]+ \| no \| gridbug\.gridded: plan\(\) refuses -n 4294967296 -b 1 without saying why \(ctx->error\) \|$' \
	"$tmp/out" || bad "check --format md: $(cat "$tmp/out")"
g check "$plugins/nocb.so"; [ $rc -eq 4 ] || bad "check nocb.so: exit $rc"; has "no verify callback" "check nocb.so"
# refusals (no file, a directory, a source file, "") go to stderr as one
# "gpulab:" line, stdout stays empty, exit 4 (issue 46, item 16)
touch "$tmp/hist.cu"
for f in "$tmp/nothing.so" "$tmp" "$tmp/hist.cu" ""; do
	g check "$f"
	[ $rc -eq 4 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q '^gpulab: check: ' "$tmp/err" \
		|| bad "check refusal '$f': exit $rc, out: $(cat "$tmp/out") err: $(cat "$tmp/err")"
done
g check; [ $rc -eq 2 ] || bad "check without a file: exit $rc"

# one broken plugin (issue 46, item 12): a plugin with no entry symbol and
# a file in no plugin directory, beside one that works, in short
# directories: one warning line each, within 100 columns, naming every
# directory searched; the rest listed and run; exit 4 only where asked for
mkdir -p "$tmp/p" "$tmp/sys2/conf.d" "$tmp/cfg2" "$tmp/home"
cp "$plugins/fake.so" "$plugins/noentry.so" "$tmp/p/"
printf '[plugin fake]\nfile = fake.so\n' > "$tmp/sys2/conf.d/fake.ini"
printf '[plugin noentry]\nfile = noentry.so\n[plugin missing]\nfile = missing.so\n' > "$tmp/sys2/conf.d/broken.ini"
export GPULAB_SYSCONFDIR="$tmp/sys2" GPULAB_PLUGIN_PATH="$tmp/p" XDG_CONFIG_HOME="$tmp/cfg2" XDG_DATA_HOME= HOME="$tmp/home"
g list; [ $rc -eq 0 ] && [ "$(wc -l < "$tmp/err")" -eq 2 ] || bad "list with broken plugins: exit $rc: $(cat "$tmp/err")"
narrow list with broken plugins; has "fake.keyed" "list with broken plugins"
grep -qF "no missing.so in $tmp/p or ~/.local/share/gpulab/plugins" "$tmp/err" || bad "missing.so: not every place: $(cat "$tmp/err")"
grep -qF "$tmp/p/noentry.so: no gpulab_plugin_entry: not a gpulab plugin" "$tmp/err" || bad "noentry.so: $(cat "$tmp/err")"
g list fake.keyed; [ $rc -eq 0 ] || bad "list fake.keyed beside a broken plugin: exit $rc"
g run fake.ok -r 3; [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] || bad "run fake.ok beside a broken plugin: exit $rc $(cat "$tmp/err")"
g config; [ $rc -eq 0 ] || bad "config beside a broken plugin: exit $rc"
for p in noentry missing.x; do
	g list "$p"; [ $rc -eq 4 ] && grep -q "^gpulab: list: '$p': plugin '${p%.x}' did not load: " "$tmp/err" \
		|| bad "list $p: exit $rc $(cat "$tmp/err")"
	g run "$p"; [ $rc -eq 4 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "run $p: exit $rc $(cat "$tmp/err")"
done

[ $fails -eq 0 ] && echo "author.sh: all passed"
[ $fails -eq 0 ]
