#!/bin/bash
# Every command's row (cli/commands.h) as a user meets it.  Each command
# the general help lists:
#   - refuses an option its row does not declare, exit 2, in one line that
#     names the command and what it takes (nothing is silently ignored);
#   - where it takes --format, refuses a format it does not print, the same
#     way, and prints one JSON document with its "schema" for json;
#   - prints its help, whose every line fits 80 columns.
# Run by make check.
set -u
[ -n "${GPULAB_WRAPPER:-}" ] || { echo "rows.sh: GPULAB_WRAPPER must be set (make check sets it)"; exit 99; }
G=$GPULAB_WRAPPER
failed=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; failed=1; }

# the option words of help's option lines, one a line: "-n" "--size" ...
options_of() { "$G" help "$@" | awk '/^  -|^      --/' | grep -oE -- '(^| )--[a-z][a-z-]*' | tr -d ' '; }
# the options of every line whose value is a word of its own (N, FILE)
valued=" $("$G" help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' |
	while read -r c; do "$G" help "$c"; done | awk '/^  -|^      --/ { for (i = 1; i <= NF; i++) {
		if ($i !~ /^--?[a-z]/) { if ($i ~ /^[A-Z]/) print list; break } w = $i; sub(/,$/, "", w); list = list " " w } list = "" }' |
	paste -sd ' ') "
commands=$("$G" help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
all=$(for c in $commands; do options_of "$c"; done; options_of)
all=$(echo "$all" | LC_ALL=C sort -u)
[ "$(echo "$commands" | wc -l)" -ge 15 ] || bad "the general help lists $(echo "$commands" | wc -l) commands"
[ "$(echo "$all" | wc -l)" -ge 30 ] || bad "the helps show $(echo "$all" | wc -l) options"

# the arguments that bring command c to its checks
args_of() { case $1 in record) echo upgrade x.json ;; *) ;; esac; }

for c in $commands; do
	"$G" help "$c" >"$tmp/help" 2>&1 || bad "gpulab help $c: exit $?"
	awk -v c="$c" 'length > 80 { print "FAIL: gpulab help " c ": a line over 80 columns: " $0; exit 1 }' "$tmp/help" || failed=1
	# `gpulab help -h` is the general help, as `gpulab -h` is
	[ "$c" = help ] || "$G" "$c" -h | cmp -s - "$tmp/help" || bad "gpulab $c -h is not gpulab help $c"
	declared=" $(options_of "$c" | paste -sd ' ') $(options_of | paste -sd ' ') "
	opt=
	for o in $all; do
		case $declared in *" $o "*) ;; *) opt=$o; break ;; esac
	done
	[ -n "$opt" ] || { bad "$c declares every option: nothing to refuse"; continue; }
	value=()
	case $valued in *" $opt "*) value=(1) ;; esac
	# shellcheck disable=SC2046
	"$G" "$c" $(args_of "$c") "$opt" "${value[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "^gpulab: $c: takes no .*$opt; it takes " "$tmp/err" \
		|| [ -s "$tmp/out" ]; then
		bad "gpulab $c $opt ${value[*]}: exit $rc, stderr: $(cat "$tmp/err")"
	else
		echo "ok: gpulab $c $opt ${value[*]}: $(cat "$tmp/err")"
	fi
done

# --format json, for every command whose help names json among its
# formats: one document python3's json reads, whose "schema" is the
# command's (docs/json.md).  On the fake plugin, in a directory of its own.
mkdir -p "$tmp/sys" "$tmp/work" "$tmp/xdg" || exit 99
printf '[plugin fake]\nfile = fake.so\n' >"$tmp/sys/gpulab.ini"
# grade's: the fake try plugin, whose challenge gated any .cu file passes
mkdir -p "$tmp/sysgrade" "$tmp/subs" && echo '// a kernel' >"$tmp/subs/mine.cu" || exit 99
printf '[plugin fake]\nfile = fakeref.so\n[plugin try]\nfile = faketry.so\n' >"$tmp/sysgrade/gpulab.ini"
records=$(cd "${srcdir:-..}/tests/records" && pwd) || exit 99
lessons=$(cd "${srcdir:-..}/lessons" && pwd) || exit 99
# the arguments that make command c print its data, and its schema
json_case()
{
	case $1 in
	list) echo "gpulab-list/1" ;;
	info) echo "gpulab-info/1" ;;
	metrics) echo "gpulab-metrics/1" ;;
	run) echo "gpulab-record/1.4 fake.ok -r 3" ;;
	compare) echo "gpulab-compare/1 $records/h200-reduce-2p24.json $records/h200-reduce-2p24-new.json" ;;
	try) echo "gpulab-record/1.4 gated $tmp/subs/mine.cu -n 64" ;;
	new) echo "gpulab-new/1 made" ;;
	learn) echo "gpulab-learn/1" ;;
	config) echo "gpulab-config/1 fake.keyed -n 2^11" ;;
	grade) echo "gpulab-grade/1 gated $tmp/subs -n 64" ;;
	board) echo "gpulab-board/1 $records/board/h200-week1.json $records/board/h100-week2.json $records/board/h200-week2.json" ;;
	check) echo "gpulab-check/1 $GPULAB_TEST_PLUGINS/fake.so" ;;
	report) echo "gpulab-report/1 $records/h200-reduce-2p24.json -o $tmp/work/page.html" ;;
	*) echo "?" ;;
	esac
}
for c in $commands; do
	"$G" help "$c" | grep -q '^      --format F .*json' || continue
	read -r schema words <<<"$(json_case "$c")"
	[ "$schema" != "?" ] || { bad "$c prints json, but rows.sh has no case for it"; continue; }
	# shellcheck disable=SC2086
	sys=$tmp/sys
	{ [ "$c" = grade ] || [ "$c" = try ]; } && sys=$tmp/sysgrade
	(cd "$tmp/work" && env GPULAB_SYSCONFDIR="$sys" GPULAB_PLUGIN_PATH="$GPULAB_TEST_PLUGINS" XDG_CONFIG_HOME="$tmp/xdg" \
		XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" GPULAB_LESSONS="$lessons" GPULAB_CONFIG= "$GPULAB_BIN" "$c" $words --format json >"$tmp/out" 2>"$tmp/err" </dev/null)
	rc=$?
	# info needs a GPU: where there is none, said, not hidden
	if [ $rc -ne 0 ] && [ "$c" = info ] && grep -q 'no CUDA device' "$tmp/err"; then
		echo "SKIP: gpulab $c --format json: $(head -1 "$tmp/err")"
		continue
	fi
	# try's ladder is the fake plugin's, whose fake.wrong is wrong: exit 1, and its document
	[ "$c" = try ] && [ $rc -eq 1 ] && rc=0
	# fake.so has the problem check must find (its chooser's lie=early): exit 4, and the document
	[ "$c" = check ] && [ $rc -eq 4 ] && rc=0
	got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["schema"])' "$tmp/out" 2>&1)
	if [ $rc -ne 0 ] || [ "$got" != "$schema" ]; then
		bad "gpulab $c $words --format json: exit $rc, schema '$got', wanted '$schema': $(head -3 "$tmp/err")"
	else
		echo "ok: gpulab $c --format json: $got"
	fi
	# csv where it is declared: RFC 4180 rows python3's csv reads, each as wide as the header
	"$G" help "$c" | grep -q '^      --format F .*csv' || continue
	# shellcheck disable=SC2086
	(cd "$tmp/work" && env GPULAB_SYSCONFDIR="$sys" GPULAB_PLUGIN_PATH="$GPULAB_TEST_PLUGINS" XDG_CONFIG_HOME="$tmp/xdg" \
		XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" GPULAB_LESSONS="$lessons" GPULAB_CONFIG= "$GPULAB_BIN" "$c" \
		$words --format csv >"$tmp/out" 2>"$tmp/err" </dev/null)
	got=$(python3 -c 'import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
print(len(rows) > 1 and len({len(r) for r in rows}) == 1)' "$tmp/out" 2>&1)
	[ "$got" = True ] && echo "ok: gpulab $c --format csv" || bad "gpulab $c $words --format csv: $got: $(head -3 "$tmp/out")"
done

# the documents of a command besides its first: a lesson of learn (on the
# fake plugin, whose exercises run on the host)
mkdir -p "$tmp/lessons" || exit 99
printf '%s\n' '[lesson]' 'order = 1' 'chapter = Chapter 3' 'topic = A topic' 'claim = A claim.' 'book = 1.26x' \
	'run = fake.sleepy fake.ok -n 64 -r 10' 'figure = speedup fake.sleepy fake.ok@n=64' 'rule = >= 1' 'unit = x' \
	'why = Because.' 'docs = learn.md' '[task]' 'challenge = gated' 'target = 1.5x fake.sleepy' 'text = Do it.' \
	>"$tmp/lessons/fake.ini" || exit 99
while read -r c schema words; do
	# shellcheck disable=SC2086
	(cd "$tmp/work" && env GPULAB_SYSCONFDIR="$tmp/sys" GPULAB_PLUGIN_PATH="$GPULAB_TEST_PLUGINS" XDG_CONFIG_HOME="$tmp/xdg" \
		XDG_STATE_HOME="$tmp/state" GPULAB_LESSONS="$tmp/lessons" GPULAB_CONFIG= "$GPULAB_BIN" "$c" $words --format json \
		>"$tmp/out" 2>"$tmp/err" </dev/null)
	rc=$?
	got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["schema"])' "$tmp/out" 2>&1)
	if [ $rc -ne 0 ] || [ "$got" != "$schema" ]; then
		bad "gpulab $c $words --format json: exit $rc, schema '$got', wanted '$schema': $(head -3 "$tmp/err")"
	else
		echo "ok: gpulab $c $words --format json: $got"
	fi
done <<EOF
learn gpulab-lesson/1 fake
EOF

# the man page's commands and options are the rows': a command each has an
# item in COMMANDS, an option each is spelled in COMMANDS or OPTIONS, and
# an item of OPTIONS names only options a row has
man=${srcdir:-..}/man/gpulab.1.in
items=" $(awk '/^\.SH COMMANDS/ { on = 1; next } /^\.SH/ { on = 0 } on && /^\.TP/ { getline; print }' "$man" |
	awk '{ gsub(/"/, ""); print $2 }' | paste -sd ' ') "
for c in $commands; do
	case $items in *" $c "*) ;; *) bad "man/gpulab.1.in: no item for the command $c in COMMANDS" ;; esac
done
spelled=" $(awk '/^\.SH (COMMANDS|OPTIONS)/ { on = 1; next } /^\.SH/ { on = 0 } on' "$man" |
	grep -oE -- '\\-\\-[a-z]+(\\-[a-z]+)*' | tr -d '\\' | paste -sd ' ') "
for o in $all; do
	case $spelled in *" $o "*) ;; *) bad "man/gpulab.1.in: $o (a row's) is in neither COMMANDS nor OPTIONS" ;; esac
done
for o in $(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 } on && /^\.TP/ { getline; print }' "$man" |
	grep -oE -- '\\-\\-[a-z]+(\\-[a-z]+)*' | tr -d '\\' | sort -u); do
	case " $(echo "$all" | paste -sd ' ') " in *" $o "*) ;; *) bad "man/gpulab.1.in: OPTIONS has $o, which no row has" ;; esac
done
echo "ok: the man page has $(echo "$commands" | wc -w) commands and $(echo "$all" | wc -w) options of the rows"
exit $failed
