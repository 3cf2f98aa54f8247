#!/bin/sh
# sum_matrix's block shapes against its copy ceiling, as Markdown.
#   bench/sum_matrix.sh [OUT.md]    (default: docs/bench-sum_matrix.md)
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-sum_matrix.md}
bench_header "$out" "sum_matrix: block shapes" "int matrices at the plugin's default size; GB/s count
two reads and a write.  Speedup is over block32x32; of ref is the share of copy's speed (cudaMemcpyAsync of the
same bytes).  Produced by bench/sum_matrix.sh."
bench_section "$out" "block shapes" sum_matrix
echo "wrote $out"
