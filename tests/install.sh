#!/bin/sh
# `make install DESTDIR=...` of this build (issue 46, items 10 and 14):
# every page of docs/ that a lesson or gpulab(1) cites is installed, in
# $(docdir), and gpulab(1) cites it there; the directory each GPULAB_*
# variable replaces is, as gpulab(1) gives it, where make install put
# those files (the binary's defaults come from the same make variables).
set -u
top=$(dirname "${GPULAB_WRAPPER:?}") src=${srcdir:-..}
docdir=${INSTALL_DOCDIR:?} pkgdatadir=${INSTALL_PKGDATADIR:?} mandir=${INSTALL_MANDIR:?}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
root=$tmp/root
# a make of its own: no jobserver is handed to a test
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$top" install DESTDIR="$root" > "$tmp/log" 2>&1 \
	|| { tail -20 "$tmp/log"; exit 1; }

# each lesson's page (docs = PAGE#anchor)
for l in "$src"/lessons/*.ini; do
	page=$(sed -n 's/^docs *= *\([^#]*\).*/\1/p' "$l")
	[ -f "$root$docdir/$page" ] || bad "$(basename "$l"): its page $page is not installed in $docdir"
	# and the pages its texts cite as {docs}/PAGE, which learn prints as $docdir/PAGE (issue 52, item 5)
	for page in $(grep -o '{docs}/[A-Za-z0-9_.-]*\.md' "$l" | sed 's|{docs}/||' | sort -u); do
		[ -f "$root$docdir/$page" ] || bad "$(basename "$l"): its text cites $page, not installed in $docdir"
	done
done
# the man page as installed, \: (a place a line may break) removed
man=$tmp/gpulab.1
sed 's/\\://g' "$root$mandir/man1/gpulab.1" > "$man" || exit 99
grep -n 'docs/' "$man" | sed 's/^/FAIL: gpulab.1 cites a page of the source tree: /' | grep . && fails=$((fails + 1))
for page in $(grep -o "$docdir/[A-Za-z0-9_.-]*\.md" "$man" | sort -u); do
	[ -f "$root$page" ] || bad "gpulab.1 cites $page, not installed"
done
grep -q "$docdir/learn.md" "$man" || bad "gpulab.1 does not cite $docdir/learn.md"
# the default each variable replaces, and a file make install put there
default_of() { sed -n "/^\\.B $1\$/,/^\\.TP/{/instead of\$/{n;s/^\\.IR* \\([^ ]*\\).*/\\1/p}}" "$man" | head -1; }
for v in GPULAB_LESSONS:lessons:smem-pad.ini GPULAB_CHALLENGES:challenges:reduce/template.cu GPULAB_SKELETON:skeleton:skeleton.cu \
	GPULAB_DOCDIR::learn.md; do
	var=${v%%:*} rest=${v#*:}
	want=$pkgdatadir/${rest%%:*}
	[ "$var" = GPULAB_DOCDIR ] && want=$docdir
	got=$(default_of "$var")
	[ "$got" = "$want" ] || bad "gpulab.1: $var's default is '$got'; the binary's is $want"
	[ -f "$root$want/${rest#*:}" ] || bad "$var: $want/${rest#*:} is not installed"
done

[ $fails -eq 0 ] && echo "install.sh: all passed"
[ $fails -eq 0 ]
