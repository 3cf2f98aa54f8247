#!/bin/sh
# Transposes at any shape (issue 41): the square and 1:4 shapes the other
# benches use, 16380 x 16388 (every row off a 128-byte line) and odd and
# rectangular shapes near 2^28 elements, ints; the library's transpose
# (cuBLAS geam) beside memcpy; the alignment lesson's counters; and a
# summary of each exercise as a share of memcpy at the same shape.
#   bench/transpose-shapes.sh [OUT.md]   (default: docs/bench-transpose-shapes.md)
# SHAPES overrides the shapes (ROWSxCOLS, space-separated), LINED those
# where tma also runs with lines=0; PART=2 measures the walks instead
# (pitched and peeled down the rows, peeled on lines, tma down groups of
# column tiles, with and without a line more), beside memcpy and geam: it
# ran when order's default was down and tma's lines' 0 (today auto and 1;
# each section's command says what ran).  REPS as in
# common.sh (the committed run: REPS=20, small records).
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-transpose-shapes.md}
shapes=${SHAPES:-"16384x16384 8192x32768 16380x16388 12289x20483 5793x46341 46341x5793"}
lined=${LINED:-"16384x16384 8192x32768 5793x46341"} # where tma runs with lines=0 too
bench_header "$out" "transpose at any shape" "int matrices; GB/s count bytes read plus written (padding
not).  of ref is the share of memcpy's speed (cudaMemcpyAsync device to device of the dense
matrix) at the same shape.  peeled runs twice: its tiles on the stores' sectors (align=stores,
the default) and on the loads'.  pitched and the tma exercises keep rows padded to whole
128-byte lines; lines=N adds N more lines a row (tma's default: 1).  Produced by
bench/transpose-shapes.sh."
exercises="transpose.memcpy transpose.geam transpose.smem_swizzle transpose.smem_async transpose.pitched transpose.tma_copy transpose.tma"
records=
# Each exercise as a share of memcpy, from every record made, and done.
summary() {
	{
		echo
		echo "## Summary: each exercise as a share of memcpy at the same shape"
		echo
		# shellcheck disable=SC2086
		python3 "$here/shapes_table.py" $records
	} >> "$out"
	echo "wrote $out"
}
if [ "${PART:-1}" = 2 ]; then
	# The walks: pitched and peeled with the grid down the rows (their
	# default), peeled on lines, tma down groups of column tiles.
	for s in $shapes; do
		r=${s%x*} c=${s#*x}
		bench_section "$out" "$r x $c: the walks down" transpose.memcpy transpose.geam transpose.pitched \
			transpose.peeled -t int -p rows="$r" -p cols="$c"
		records="$records $record"
		bench_section "$out" "$r x $c: peeled on lines" transpose.peeled -t int -p rows="$r" -p cols="$c" -p align=lines
		records="$records $record"
		bench_section "$out" "$r x $c: tma down groups of column tiles" transpose.tma -t int -p rows="$r" -p cols="$c" \
			-p group=4 -p lines=0,1
		records="$records $record"
		bench_section "$out" "$r x $c: tma, one more line a row" transpose.tma -t int -p rows="$r" -p cols="$c" \
			-p lines=1
		records="$records $record"
	done
	summary
	exit 0
fi
for s in $shapes; do
	r=${s%x*} c=${s#*x}
	# shellcheck disable=SC2086
	bench_section "$out" "$r x $c" $exercises -t int -p rows="$r" -p cols="$c"
	records="$records $record"
	bench_section "$out" "$r x $c: peeled, each side aligned" transpose.peeled -t int -p rows="$r" -p cols="$c" \
		-p align=stores,loads
	records="$records $record"
	case " $lined " in *" $s "*)
		bench_section "$out" "$r x $c: no line past the round-up" transpose.tma_copy transpose.tma -t int \
			-p rows="$r" -p cols="$c" -p lines=0
		records="$records $record" ;;
	esac
done
metrics=gld_transactions_per_request,gst_transactions_per_request,dram__bytes_read.sum,dram__bytes_write.sum
bench_section "$out" "4093 x 4099: what an unaligned row costs, in sectors per request" \
	transpose.smem_unroll transpose.peeled transpose.pitched -t int -p rows=4093 -p cols=4099 -r 3 --metrics "$metrics"
{
	echo
	echo "The counters of that run (\`--metrics\`), from its record:"
	echo
	python3 "$here/metrics_table.py" "$record"
} >> "$out"
summary
