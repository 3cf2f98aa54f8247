#!/bin/bash
# The bash completion (completion/gpulab) in a real bash: it registers for
# gpulab, and the function, driven as bash drives it (COMP_WORDS,
# COMP_CWORD), offers exactly the expected words from this build's
# gpulab.  Run by make check; skips (77) without bash 4.
set -u
[ -n "${BASH_VERSINFO:-}" ] && [ "${BASH_VERSINFO[0]}" -ge 4 ] || { echo "completion.sh: no bash 4: skipped"; exit 77; }
[ -n "${GPULAB_WRAPPER:-}" ] || { echo "completion.sh: GPULAB_WRAPPER must be set (make check sets it)"; exit 99; }
# shellcheck source=../completion/gpulab
. "${srcdir:-..}/completion/gpulab"
failed=0

registered=$(complete -p gpulab)
if [ "$registered" != "complete -F _gpulab gpulab" ]; then
	echo "FAIL: complete -p gpulab says: $registered"
	failed=1
fi

# expect WANT WORD... : complete the last WORD of `gpulab WORD...`; the
# sorted offers, one line, must be WANT
expect()
{
	local want=$1
	shift
	COMP_WORDS=("$GPULAB_WRAPPER" "$@")
	COMP_CWORD=$#
	COMP_LINE="gpulab $*"
	COMP_POINT=${#COMP_LINE}
	_gpulab
	local got
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd ' ')
	if [ "$got" != "$want" ]; then
		echo "FAIL: gpulab $*<Tab>: got '$got', wanted '$want'"
		failed=1
	else
		echo "ok: gpulab $*<Tab>: $got"
	fi
}

dir=$(mktemp -d /tmp/gpulab-completion-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 99
touch base.json new.json mine.cu notes.txt run.ini
mkdir records

expect 'compare info list metrics report run try' ''
expect 'compare' co
expect '--config --help --version' --
expect 'divergence.math1 divergence.math1_debug divergence.math2 divergence.math2_debug divergence.math3 divergence.math3_debug' \
	run divergence.math
expect 'divergence divergence.math1 divergence.math1_debug divergence.math2 divergence.math2_debug divergence.math3 divergence.math3_debug divergence.warmup' \
	run diverg
expect 'divergence.warmup' run divergence.w
expect '--batch --block' run --b
expect 'iters=' run divergence.math1 -p ''
expect 'iters=' run -n 2^20 divergence.math1 -t float -p it
expect 'float int' run reduce -t ''
expect 'csv json table' compare a.json b.json --format ''
expect 'warp_execution_efficiency' run divergence.math1 --metrics warp_exec
expect 'achieved_occupancy,sm_efficiency' run divergence.math1 --metrics achieved_occupancy,sm_eff
expect 'base.json new.json records' compare ''
expect 'new.json' compare base.json n
expect 'base.json new.json records' report ''
expect 'records run.ini' run --config r
expect '' run -n ''
if "$GPULAB_WRAPPER" list 2>/dev/null | grep -q '^  try\.reduce '; then
	expect 'reduce sum_matrix transpose' try ''
	expect 'mine.cu records' try reduce ''
	expect 'kernel=' try reduce mine.cu -p ker
	expect '--template --timeout --type' try reduce --t
else
	echo "completion.sh: no try plugin in this build (no NVRTC): its cases skipped"
fi
# an enum key's values after KEY=
expect 'finish=auto finish=cluster finish=first_block finish=last_block finish=packed' run reduce.best -p finish=
expect 'finish=first_block' run reduce.best -p finish=fi
exit $failed
