#!/bin/sh
# The committed pictures: one chart per benchmark record in docs/records/, drawn
# by `gpulab report -o NAME.svg` into docs/pictures/.  It expects these
# records, written by the bench scripts (each -N.json is the N-th
# section of its script), and draws those that exist, saying which not:
#   docs/records/bench-reduce-2.json       bench/reduce.sh, the ladder at 2^24
#   docs/records/bench-reduce-3.json       bench/reduce.sh, the ladder at 2^28
#   docs/records/bench-reduce-4.json       bench/reduce.sh, block sizes 64 to 1024 at 2^24
#   docs/records/bench-reduce-sweep-1.json bench/reduce-sweep.sh, best against CUB, ints, 2^10 to 2^31
#   docs/records/bench-reduce-sweep-2.json bench/reduce-sweep.sh, the same for floats
#   docs/records/bench-transpose-6.json    bench/transpose.sh, 8192 x 8192 against memcpy
#   docs/records/bench-transpose-7.json    bench/transpose.sh, 16384 x 16384
#   docs/records/bench-sum_matrix-1.json   bench/sum_matrix.sh, the book's shapes, copy and best
#   docs/records/bench-sum_matrix-2.json   bench/sum_matrix.sh, block shapes of the book's kernel
#   docs/records/bench-divergence-1.json   bench/divergence.sh, math1 to math3 with counters
#   docs/records/bench-rungs-1.json        bench/rungs.sh, the rungs past the book at 2^24
#   docs/records/bench-rungs-2.json        bench/rungs.sh, the same at 2^28
# The counters and the tables are in the HTML report of a record
# (gpulab report RECORD -o FILE.html), not in the .svg files.
#   bench/report.sh [DOCS]          (default: docs)
set -eu
gpulab=${GPULAB:-gpulab}
docs=${1:-docs}
mkdir -p "$docs/pictures"
# picture RECORD NAME: DOCS/records/RECORD as NAME.svg, where it exists.
picture()
{
	if [ -f "$docs/records/$1" ]; then
		$gpulab report "$docs/records/$1" -o "$docs/pictures/$2.svg"
		echo "wrote $docs/pictures/$2.svg"
	else
		echo "no $docs/records/$1: no $2.svg (run the bench script that writes it)"
	fi
}
picture bench-reduce-2.json reduce-ladder-2p24
picture bench-reduce-3.json reduce-ladder-2p28
picture bench-reduce-4.json reduce-blocks
picture bench-reduce-sweep-1.json reduce-sweep-int
picture bench-reduce-sweep-2.json reduce-sweep-float
picture bench-transpose-6.json transpose-8192
picture bench-transpose-7.json transpose-16384
picture bench-sum_matrix-1.json sum_matrix
picture bench-sum_matrix-2.json sum_matrix-blocks
picture bench-divergence-1.json divergence
picture bench-rungs-1.json hopper-ladder-2p24
picture bench-rungs-2.json hopper-ladder-2p28
