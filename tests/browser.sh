#!/bin/sh
# gpulab report in a real browser: headless Chromium (Debian's chromium,
# which .ci/run installs) renders reports of the sample records; the DOM
# it builds, the requests it makes and a screenshot at 1280 px are held
# to what the records say (tests/browser_check.py): at 1280 px no element
# is wider than the page, and no number in a table has more than 5
# significant digits; a grade record's board lists every kernel with its
# rank or its failure; gpulab board's page has a board per GPU model,
# each student ranked by their best share.  Skips (77) without chromium, and says so.
# KEEP=DIR keeps the pages and screenshots there.
set -u
records=${srcdir:-..}/tests/records
check="python3 ${srcdir:-..}/tests/browser_check.py"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "browser.sh: SKIP: needs chromium"; exit 77; }
[ -n "${GPULAB_BIN:-}" ] || { echo "browser.sh: GPULAB_BIN must be set (make check sets it)"; exit 99; }
dir=${KEEP:-$(mktemp -d /tmp/gpulab-browser-XXXXXX)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT
failed=0

# chromium ARGS... PAGE: headless, as root in a container (no sandbox),
# with a profile of its own, under a minute, and without the browser's
# own traffic (updates, sign-in, dictionaries), so that every request in
# the net log is the page's.  Its configuration and crash reports go in
# dir too, not in the build tree's tests/ (the tests' XDG_CONFIG_HOME).
# Its TMPDIR is /tmp, whatever the tester's: Chromium puts a socket there,
# and a socket's path is at most 107 bytes, so under a long TMPDIR it
# dies ("Socket path too long") before it renders anything.
chrome()
{
	TMPDIR=/tmp XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache" timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --disable-default-apps \
		--disable-extensions --disable-features=SpellCheck,Translate,OptimizationHints,MediaRouter \
		--user-data-dir="$dir/profile" "$@" 2>>"$dir/chromium.log"
}

# page_of COMMAND NAME KIND RECORD...: the page gpulab COMMAND (report,
# board) draws of the records, its DOM (of the probe's copy: the page
# with the script that measures its layout, its policy against scripts
# dropped), its requests and its screenshot.
page_of()
{
	command=$1 name=$2 kind=$3
	shift 3
	"$GPULAB_BIN" "$command" "$@" -o "$dir/$name.html" || { echo "FAIL: gpulab $command $*"; failed=1; return; }
	$check probe "$dir/$name.html" "$dir/$name.probe.html" || failed=1
	chrome --dump-dom --window-size=1280,1400 --log-net-log="$dir/$name.netlog" "file://$dir/$name.probe.html" > "$dir/$name.dom"
	$check dom "$dir/$name.dom" "$kind" "$@" || failed=1
	$check layout "$dir/$name.dom" || failed=1
	$check netlog "$dir/$name.netlog" || failed=1
	chrome --screenshot="$dir/$name.png" --window-size=1280,1400 "file://$dir/$name.html" >/dev/null
	$check png "$dir/$name.png" || failed=1
	echo "checked $name"
}
page() { page_of report "$@"; }

page ladder bars "$records/h200-reduce-2p24.json"
page transpose bars "$records/h200-transpose-8192.json"
# counters with Nsight Compute's long names, beside a chart (issue 52): at
# 1280 px the table fits, and no header breaks inside a word
page counters counters "${srcdir:-..}/docs/records/bench-transpose-12.json"
page sweep sweep "$records/h200-reduce-sweep.json"
page sweep24 sweep "$records/h200-reduce-sweep24.json"
page board board "$records/h200-grade-reduce-1.json"
page history history "$records/h200-grade-reduce-2.json" "$records/h200-grade-reduce-1.json"
# gpulab board: a class over five records, one board per GPU model, each
# student's history a small chart (issue 55)
page_of board class class "$records"/board/h200-week*.json "$records/board/h100-week2.json"
# report of grade records on two GPU models: the same boards, never one history
page report_class class "$records/board/h200-week1.json" "$records/board/h100-week2.json"
page compare compare "$records/h200-reduce-2p24.json" "$records/h200-reduce-2p24-new.json"
page compare_many compare_many "$records/h200-reduce-sweep.json" "$records/h200-reduce-sweep.json"
sed '0,/"cold": false, /s||"cold": false, "batch": 20, |' "$records/h200-reduce-2p24.json" > "$dir/batch.json"
page compare_warned compare_warned "$records/h200-reduce-2p24.json" "$dir/batch.json"
sed 's|"reduce.neighbored"|"reduce.</script><script>alert(1)</script>"|' "$records/h200-reduce-2p24.json" > "$dir/a.json"
sed '0,/"type": "int"/s|"type": "int"|"type": "<svg onload=alert(1)>"|' "$records/h200-reduce-2p24.json" > "$dir/b.json"
page hostile hostile "$dir/a.json" "$dir/b.json"
# the net log check must see a page's request when there is one
echo '<img src="http://127.0.0.1:9/x.png">' > "$dir/fetches.html"
chrome --dump-dom --log-net-log="$dir/fetches.netlog" "file://$dir/fetches.html" >/dev/null
if $check netlog "$dir/fetches.netlog" >/dev/null; then
	echo "FAIL: the net log check missed a page's request"
	failed=1
fi
exit $failed
