#!/bin/bash
# The bash completion (completion/gpulab) in a real bash: it registers for
# gpulab, and the function, driven as bash drives it (COMP_WORDS,
# COMP_CWORD), offers exactly the expected words from this build's
# gpulab.  Run by make check; skips (77) without bash 4.
set -u
[ -n "${BASH_VERSINFO:-}" ] && [ "${BASH_VERSINFO[0]}" -ge 4 ] || { echo "completion.sh: SKIP: needs bash 4"; exit 77; }
[ -n "${GPULAB_WRAPPER:-}" ] || { echo "completion.sh: GPULAB_WRAPPER must be set (make check sets it)"; exit 99; }
# shellcheck source=../completion/gpulab
completion=$(cd "$(dirname "${srcdir:-..}/completion/gpulab")" && pwd)/gpulab # absolute: the test cds below
. "$completion"
failed=0

registered=$(complete -p gpulab)
if [ "$registered" != "complete -F _gpulab gpulab" ]; then
	echo "FAIL: complete -p gpulab says: $registered"
	failed=1
fi

# offers WANT: run the completion on COMP_WORDS, COMP_CWORD, COMP_LINE;
# the sorted offers, one line, must be WANT
offers()
{
	local want=$1 got
	_gpulab
	got=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd ' ')
	if [ "$got" != "$want" ]; then
		echo "FAIL: $COMP_LINE<Tab> (words: ${COMP_WORDS[*]:1}): got '$got', wanted '$want'"
		failed=1
	else
		echo "ok: $COMP_LINE<Tab>: $got"
	fi
}

# expect WANT WORD... : complete the last WORD of `gpulab WORD...`, the
# words as given (no '=' in them split off: as where COMP_WORDBREAKS
# lacks '=')
expect()
{
	local want=$1
	shift
	COMP_WORDS=("$GPULAB_WRAPPER" "$@")
	COMP_CWORD=$#
	COMP_LINE="gpulab $*"
	COMP_POINT=${#COMP_LINE}
	offers "$want"
}

# typed WANT LINE: complete `gpulab LINE` at its end, split into words as
# an interactive bash splits it (at blanks, and around each '=', which is
# in COMP_WORDBREAKS; quotes kept): "-p finish=fi" is "-p" "finish" "="
# "fi", and "-p finish=" ends on the word "=".
typed()
{
	local want=$1 line=$2
	local -a words=()
	set -f
	read -ra words <<<"${line//=/ = }"
	set +f
	[[ -z $line || $line == *' ' ]] && words+=('')
	COMP_WORDS=("$GPULAB_WRAPPER" "${words[@]}")
	COMP_CWORD=${#words[@]}
	COMP_LINE="gpulab $line"
	COMP_POINT=${#COMP_LINE}
	offers "$want"
}

dir=$(mktemp -d /tmp/gpulab-completion-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 99
touch base.json new.json mine.cu notes.txt run.ini
mkdir records

expect 'board check compare config grade help info learn list metrics new record report run try version' ''
expect 'compare config' co
expect 'upgrade' record ''
expect '--config --help --output --samples --version -h -o' record upgrade -
expect '--config --help --version' --
expect 'divergence.math1 divergence.math1_debug divergence.math2 divergence.math2_debug divergence.math3 divergence.math3_debug' \
	run divergence.math
expect 'divergence divergence.math1 divergence.math1_debug divergence.math2 divergence.math2_debug divergence.math3 divergence.math3_debug divergence.partial divergence.warmup' \
	run diverg
expect 'divergence.warmup' run divergence.w
expect '--batch --block' run --b
expect 'iters=' run divergence.math1 -p ''
expect 'iters=' run -n 2^20 divergence.math1 -t float -p it
expect 'float int' run reduce -t ''
expect 'csv json md table' compare a.json b.json --format ''
expect 'csv json md table' info --format ''
expect 'json table' report --format ''
expect 'warp_execution_efficiency' run divergence.math1 --metrics warp_exec
expect 'achieved_occupancy,sm_efficiency' run divergence.math1 --metrics achieved_occupancy,sm_eff
expect 'base.json new.json records' compare ''
expect 'new.json' compare base.json n
expect 'base.json new.json records' report ''
expect 'records run.ini' run --config r
expect '' run -n ''
expect 'divergence divergence-debug divergence-efficiency divergence-efficiency-math2 divergence-inst' learn diverg
expect 'mine.cu records' learn divergence --submit ''
expect 'records' grade reduce ''
if "$GPULAB_WRAPPER" list 2>/dev/null | grep -q '^  try\.reduce '; then
	expect 'histogram prefix_sum reduce sum_matrix transpose' try ''
	expect 'mine.cu records' try reduce ''
	expect 'kernel=' try reduce mine.cu -p ker
	expect '--template --test --timeout --type' try reduce --t
else
	echo "completion.sh: no try plugin in this build (no NVRTC): its cases skipped"
fi
# an enum key's values after KEY=: as bash splits it, bare (readline
# replaces what follows the '=')...
typed 'auto cluster first_block last_block packed' 'run reduce.best -p finish='
typed 'first_block' 'run reduce.best -p finish=fi'
typed 'blocks= finish= seed=' 'run reduce.best -p finish=auto -p '
typed 'blocks= finish= seed=' 'run -p finish=auto reduce.best -p '
typed 'first_block' 'run -p seed=1 reduce.best -p finish=fi'
typed 'csv json md table' 'run reduce --format='
typed 'json' 'run reduce --format=j'
typed 'iters=' 'run --format=json divergence.math1 -p '
# ...and whole where the word is not split
expect 'finish=auto finish=cluster finish=first_block finish=last_block finish=packed' run reduce.best -p finish=
expect 'finish=first_block' run reduce.best -p finish=fi
# a glob, quoted or escaped as typed, names the exercises whose keys -p offers
typed 'seed=' "run 'reduce.unroll*' -p "
typed 'seed=' 'run reduce.unroll\* -p '
typed 'blocks= finish= seed=' 'run "reduce.b*" -p '
typed 'iters=' "run 'divergence.math?' -p "
typed 'blocks= finish= seed=' "run 'reduce.unroll*' reduce.best -p "
# every command offers exactly the options its help prints from its row,
# and the general help's: nothing the row lacks, nothing it has missed
general=$("$GPULAB_WRAPPER" help | awk '/^  -|^      --/' | grep -oE -- '(^| )--?[a-z][a-z-]*' | tr -d ' ')
for cmd in $("$GPULAB_WRAPPER" help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }'); do
	want=$({ echo "$general"; "$GPULAB_WRAPPER" help "$cmd" | awk '/^  -|^      --/' | grep -oE -- '(^| )--?[a-z][a-z-]*' | tr -d ' '; } \
		| LC_ALL=C sort -u | paste -sd ' ')
	[ "$cmd" = record ] && expect "$want" record upgrade - || expect "$want" "$cmd" -
done
# the words that complete an option's value name options the rows have
rows=" $(for cmd in $("$GPULAB_WRAPPER" help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }'); do
	"$GPULAB_WRAPPER" help "$cmd"; done | awk '/^  -|^      --/' | grep -oE -- '(^| )--?[a-z][a-z-]*' | tr -d ' ' | paste -sd ' ') $(echo $general) "  # general's words on one line: a newline is no space to match
valued=$(sed -n '/^\tcase \$prev in/,/^\tesac/p' "$completion" | grep -oE -- '^\s*-[^)]*\)' | grep -oE -- '--?[a-z][a-z-]*')
[ -n "$valued" ] || { echo "FAIL: no option whose value completion/gpulab completes (its case \$prev in, read from $completion)"; failed=1; }
for opt in $valued; do
	case $rows in *" $opt "*) ;; *) echo "FAIL: completion/gpulab completes the value of $opt, which no command's row has"; failed=1 ;; esac
done
# report writes .html or .svg
touch page.html chart.svg
typed 'chart.svg page.html records' 'report base.json -o '
exit $failed
