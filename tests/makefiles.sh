#!/bin/sh
# The plugin Makefiles a user builds with, where pkg-config finds no
# gpulab.pc (issue 52): examples/axpy's, and the one `gpulab new` writes.
# Each must stop with one line saying how to point it at gpulab, exit 2,
# and build nothing: axpy's ran "o axpy.so axpy.cu", a recipe whose
# failure make ignores (its flags all empty), and exited 0.  Found, each
# plans an nvcc command.  No GPU, no nvcc run (make -n).
set -u
bin=${GPULAB_BIN:?} wrapper=${GPULAB_WRAPPER:?}
src=$(cd "${srcdir:-..}" && pwd) || exit 99
command -v pkg-config > /dev/null || { echo "makefiles.sh: no pkg-config: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
want='*** pkg-config finds no gpulab.pc: PKG_CONFIG_PATH=$(gpulab config --variable=pcfiledir) make.  Stop.'
# gpulab.pc nowhere pkg-config looks: not the tester's PKG_CONFIG_PATH,
# not the system's directories (an installed gpulab there would be found)
# make as a user types it, not as make check's sub-make
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "$@"; }
nowhere() { env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/none" MAKEFLAGS= MFLAGS= MAKELEVEL= make --no-print-directory "$@"; }
# refused DIR WHAT MAKE-ARGS...: one line, exit 2, nothing built
refused() {
	dir=$1 what=$2; shift 2
	(cd "$dir" && nowhere -s "$@") > "$tmp/out" 2>&1; rc=$?
	[ $rc -eq 2 ] || bad "$what: exit $rc: $(cat "$tmp/out")"
	[ "$(wc -l < "$tmp/out")" -eq 1 ] && [ "$(sed 's/^[^ ]*:[0-9]*: //' "$tmp/out")" = "$want" ] \
		|| bad "$what: not the one line: $(cat "$tmp/out")"
	ls "$dir"/*.so > /dev/null 2>&1 && bad "$what: built $(ls "$dir"/*.so)"
}

mkdir "$tmp/axpy"
refused "$tmp/axpy" "examples/axpy" -f "$src/examples/axpy/Makefile" SRCDIR="$src/examples/axpy"
refused "$tmp/axpy" "examples/axpy NVCC=nvcc" -f "$src/examples/axpy/Makefile" SRCDIR="$src/examples/axpy" NVCC=nvcc

(cd "$tmp" && GPULAB_SKELETON="$src/skeleton" "$bin" new hist > /dev/null) || bad "new hist: exit $?"
# its Makefile names this gpulab's configured gpulab.pc directory, where
# a gpulab may be installed: point it at none
sed -i "s|^\(PC_PATH := .*:)\).*|\1$tmp/none|" "$tmp/hist/Makefile"
grep -q "^PC_PATH := .*:)$tmp/none\$" "$tmp/hist/Makefile" || bad "new hist: no PC_PATH line to point elsewhere"
refused "$tmp/hist" "gpulab new's Makefile"
refused "$tmp/hist" "gpulab new's Makefile, NVCC=nvcc" NVCC=nvcc

# found (this build's gpulab.pc): each plans its nvcc line
pcdir=$(dirname "$wrapper")
for m in "axpy -f $src/examples/axpy/Makefile SRCDIR=$src/examples/axpy" "hist"; do
	set -- $m; dir=$1; shift
	(cd "$tmp/$dir" && PKG_CONFIG_PATH="$pcdir" mk -n "$@") > "$tmp/out" 2>&1 \
		&& grep -q "^[^ -][^ ]*nvcc .* -o $dir.so " "$tmp/out" || bad "$dir with gpulab.pc: $(cat "$tmp/out")"
done

[ $fails -eq 0 ] && echo "makefiles.sh: all passed"
[ $fails -eq 0 ]
