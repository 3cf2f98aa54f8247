#!/bin/sh
# Warp divergence with its counters (--metrics), as Markdown.
#   bench/divergence.sh [OUT.md]    (default: docs/bench-divergence.md)
# Reading counters may need root (see gpulab(1), --metrics).
set -eu
. "$(dirname "$0")/common.sh"
out=${1:-docs/bench-divergence.md}
bench_header "$out" "divergence" "float work per thread at the plugin's default size; speedup is over math1.
The counters come from untimed runs after the timed ones.  Produced by bench/divergence.sh."
bench_section "$out" "math1 to math3, with counters" divergence --metrics warp_execution_efficiency,branch_efficiency,inst_per_warp
echo "wrote $out"
