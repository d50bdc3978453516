#!/bin/sh
# make bisect-selftest: make bisect must find a deliberately broken patch.
# A copy of the series gets scripts/testdata/broken-test_vmalloc.patch
# (fix_size_alloc_test fails) inserted after BROKEN_AFTER patches; bisect
# from the baseline (good) to the end (bad) must name exactly that patch.
# Slow (a build and a boot per bisect step): not part of make test.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/tests.sh"

BROKEN_AFTER=${BROKEN_AFTER:-4}
broken=scripts/testdata/broken-test_vmalloc.patch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$VX_PATCHES/." "$tmp/"
cp "$VX_ROOT/$broken" "$tmp/broken-test_vmalloc.patch"
series_list | awk -v n="$BROKEN_AFTER" '{ print } NR == n { print "broken-test_vmalloc.patch" }' > "$tmp/series"
want=$((BROKEN_AFTER + 1))
progress "bisecting a series with $broken as patch $want"

rc=0
VX_PATCHES=$tmp GOOD=baseline BAD= BISECT_PLAN=vmalloc BISECT_METRIC= VX_APPEND="vx.vmloops=200" \
	"$VX_ROOT/scripts/bisect.sh" > "$tmp/bisect.out" 2>&1 || rc=$?
cat "$tmp/bisect.out"
got=$(sed -n 's/^first bad point: \([0-9]*\) .*/\1/p' "$tmp/bisect.out")
if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
	t_pass "make bisect finds the broken patch (point $want)"
else
	t_fail "make bisect finds the broken patch (point $want): got '${got:-nothing}', rc=$rc"
fi
# Leave the tree at the real series again.
VX_PATCHES= "$VX_ROOT/scripts/tree.sh" > /dev/null
t_finish
