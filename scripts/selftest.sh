#!/bin/sh
# Host-side tests of the harness itself.  Prints "N passed, N failed".
#   selftest.sh [KERNEL_DIR]   (with a kernel: also the hung-guest test)
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/tests.sh"
S=$VX_ROOT/scripts
ok()  { t_pass "selftest: $*"; }
bad() { t_fail "selftest: $*"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# expect_error WHAT PATTERN CMD...: CMD exits non-zero and says PATTERN.
expect_error() {
	what=$1 pat=$2; shift 2
	if "$@" > "$tmp/out" 2>&1; then bad "$what: exited 0"; return; fi
	if grep -q -E "$pat" "$tmp/out"; then ok "$what"; else bad "$what: no '$pat' in: $(head -c 300 "$tmp/out")"; fi
}

expect_error "bad SERIES name is refused" "names no patch" env SERIES=no-such.patch "$S/tree.sh"
expect_error "SERIES beyond the series is refused" "has only" env SERIES=999 "$S/tree.sh"
expect_error "missing package is named" "missing packages: linux-source-0.0" \
	env KSRC=linux-source-0.0 CHECK_ONLY=1 "$S/deps.sh"
expect_error "uninstalled KSRC is reported" "not installed" env KSRC=linux-source-0.0 "$S/tree.sh"
# A plan is checked against images/steps/ and workloads/ before any build.
expect_error "unknown PLAN step is refused before any build" "no guest step 'no-such-step'" \
	env PLAN=vmalloc,no-such-step "$S/run.sh" check
expect_error "PLAN naming a missing workload is refused" "names no workload" \
	env PLAN=wl:no-such-workload "$S/run.sh" check

# The splat detector must see a splat (and nothing in a clean log).
printf '[ 1.0] WARNING: CPU: 0 PID: 1 at mm/vmalloc.c:123 foo\n' > "$tmp/splat.log"
printf '[ 1.0] vmalloc error: size 4096, vm_struct allocation failed\n' > "$tmp/clean.log"
[ -n "$(splats "$tmp/splat.log")" ] && ok "splat detector finds a WARNING" || bad "splat detector missed a WARNING"
[ -z "$(splats "$tmp/clean.log")" ] && ok "splat detector passes an allocation failure message" ||
	bad "splat detector flagged a clean log"
# Inside EXPECT-WARN markers (bad-input tests) a WARN is expected, a BUG is not.
printf '@@VX EXPECT-WARN begin\n[ 1.0] WARNING: CPU: 0 PID: 1 at mm/vmalloc.c:9 vm_unmap_ram\n@@VX EXPECT-WARN end\n' > "$tmp/xwarn.log"
[ -z "$(splats "$tmp/xwarn.log")" ] && ok "splat detector accepts an expected WARN" ||
	bad "splat detector flagged an expected WARN"
printf '@@VX EXPECT-WARN begin\n[ 1.0] BUG: unable to handle page fault\n@@VX EXPECT-WARN end\n' > "$tmp/xbug.log"
[ -n "$(splats "$tmp/xbug.log")" ] && ok "splat detector finds a BUG among expected WARNs" ||
	bad "splat detector missed a BUG among expected WARNs"

if [ -n "${1:-}" ]; then
	# A guest that hangs is killed at its timeout and reported as such.
	rc=0
	"$S/boot.sh" "$1" "$tmp/hang" hang 45 >"$tmp/hang.out" 2>&1 || rc=$?
	if [ "$rc" = 3 ] && grep -q 'timeout' "$tmp/hang.out"; then ok "hung guest killed at its timeout"
	else bad "hung guest: rc=$rc $(tail -n 3 "$tmp/hang.out")"; fi
	# A step the guest does not know is a failure, not a silent skip.
	"$S/boot.sh" "$1" "$tmp/unk" no-such-step 120 >/dev/null 2>&1 || true
	markers "$tmp/unk/console.log" | grep -q '^TEST FAIL plan:unknown-step' &&
		ok "unknown plan step fails" || bad "unknown plan step did not fail"
fi
t_finish
