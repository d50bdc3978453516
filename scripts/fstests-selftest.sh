#!/bin/sh
# make fstests-selftest: fstests must catch a broken xfs_buf mapping.  A
# copy of the series gets scripts/testdata/broken-xfs-buf-map.patch (every
# multi-page buffer mapped with vm_map_ram() one page short, so the last
# page of a 64k directory block has no mapping) appended; fstests' short list at 64k directory blocks must
# then fail, where it passes on the series itself (make test).
# A build and a boot of a few minutes: not part of make test.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/tests.sh"

broken=scripts/testdata/broken-xfs-buf-map.patch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$VX_PATCHES/." "$tmp/"
cp "$VX_ROOT/$broken" "$tmp/broken-xfs-buf-map.patch"
{ series_list; echo broken-xfs-buf-map.patch; } > "$tmp/series"
progress "fstests' short list on the series with $broken appended"

k=$(VX_PATCHES=$tmp SERIES= "$VX_ROOT/scripts/kernel.sh")
out=$(new_run_dir fstests-selftest)
rc=0
FSTESTS_TESTS=short FSTESTS_CFG=dirblock_64k \
	"$VX_ROOT/scripts/fstests.sh" test "$k" "$out" > "$out/fstests.txt" 2>&1 || rc=$?
cat "$out/fstests.txt"
failed=$(awk -F, '$2 == "fail" || $2 == "crash" { printf " %s", $1 }' "$out"/*/status.csv 2>/dev/null || true)
# Caught means: the guest came up and the suite got to its tests (setup
# passed, a test has a result), and a test failed, crashed the guest or
# splatted; not that the guest or the suite did not work at all.
if [ "$rc" != 0 ] && [ -n "$failed" ] && grep -q '^PASS .*: setup$' "$out/fstests.txt" &&
	grep -q -E '^FAIL .*: (no failure beyond known-failures|no kernel splat)' "$out/fstests.txt"; then
	t_pass "fstests' short list fails on a broken xfs_buf mapping (failed:$failed)"
else
	t_fail "fstests' short list fails on a broken xfs_buf mapping (rc=$rc, failed tests:${failed:- none}); see $out"
fi
# Leave the tree at the real series again.
VX_PATCHES= "$VX_ROOT/scripts/tree.sh" > /dev/null
t_finish
