#!/bin/sh
# make run / make test: build the kernel at SERIES, build the image, boot it
# on a fresh qcow2 disk, run PLAN, and write results to one directory per run.
#   run.sh run|test|check|steps
# "test" counts every step as a test and prints "N passed, N failed, N
# skipped"; it also runs the crash/log-recovery test (CRASH_WL, "" to
# skip), the fragmentation test in a boot with vmap_space_limit=FRAG_LIMIT
# ("" to skip), fstests' list TEST_FSTESTS (default short, "" to skip; at
# dirblock_64k, scripts/fstests.sh) and the harness selftests.  "check" is
# "test" with a short plan and none of those.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/tests.sh"
. "$VX_ROOT/scripts/lib/fstests.sh"
mode=${1:-run}
case $mode in
run)   DEFAULT_PLAN=wl:dircreate ;;
check) DEFAULT_PLAN=vmalloc,wl:dircreate ;;
test)  DEFAULT_PLAN=vmalloc,stress,trace,vmapbench,badinput,wl:dircreate,wl:dircreate-8k,wl:fio-files,wl:fio-randrw,cread:erofs-small,cread:f2fs-small ;;
steps) echo "guest steps (PLAN=a,b:ARG,...; images/steps/NAME.sh):"; plan_steps; exit 0 ;;
*)     die "usage: run.sh run|test|check|steps" ;;
esac
if [ "$mode" != run ]; then
	# A short vmapbench in the tests (the guest's default is 5000 loops);
	# a vx.vbloops= in the caller's VX_APPEND comes later and wins.
	VX_APPEND="vx.vbloops=1000 ${VX_APPEND:-}"
	export VX_APPEND
fi
# Debug kernels have fault injection (images/debug.config).
[ "$mode" != test ] || [ "$DEBUG" != 1 ] || DEFAULT_PLAN="$DEFAULT_PLAN,faultinj,faultinj-xfs"
PLAN=${PLAN:-$DEFAULT_PLAN}
CRASH_WL=${CRASH_WL-dircreate}
FRAG_LIMIT=${FRAG_LIMIT-40M}
TEST_FSTESTS=${TEST_FSTESTS-short}
plan_check "$PLAN"

# guest_tests LOG: every guest TEST marker is a test of ours, and so is
# the absence of a splat.
guest_tests() {
	markers "$1" | grep '^TEST ' > "$1.tests" || true
	cat "$1.tests" >> "$out/tests.txt"
	while read -r _ verdict name rest; do
		case $verdict in
		PASS)  t_pass "$name" ;;
		XFAIL) t_xfail "$name" "$rest" ;;
		SKIP)  t_skip "$name" "$rest" ;;
		*)     t_fail "$name $rest" ;;
		esac
	done < "$1.tests"
	s=$(splats "$1")
	if [ -z "$s" ]; then t_pass "no splat in $2 console"; else echo "$s" | head -n 5; t_fail "no splat in $2 console"; fi
}

# crash_test K OUT WL: boot 1 runs crash:WL, which reboots the guest in the
# middle of the workload without syncing, as a power failure would; boot 2
# mounts the same disk (XFS log recovery) and checks it (recover:WL).
crash_test() {
	_rc=0
	"$VX_ROOT/scripts/boot.sh" "$1" "$2/crash" "crash:$3" 600 || _rc=$?
	# (the kernel's own "sysrq: Resetting" after the guest's last result
	# tells the same, should the marker have been cut off)
	if [ "$_rc" = 4 ] && { markers "$2/crash/console.log" | grep -q "^CRASHING crash:$3" ||
		tr -d '\r' < "$2/crash/console.log" | sed -n '/@@VX RESULT crash phase=before-crash/,$p' | grep -q 'sysrq: Resetting'; }; then
		t_pass "crash:$3: guest went down in the middle of the workload"
	else
		t_fail "crash:$3: guest went down in the middle of the workload (boot rc=$_rc)"
	fi
	guest_tests "$2/crash/console.log" crash
	_rc=0
	VX_DISK="$2/crash/disk.qcow2" ACCEL=$(cat "$2/crash/accel") \
		"$VX_ROOT/scripts/boot.sh" "$1" "$2/recover" "recover:$3" 600 || _rc=$?
	if [ "$_rc" = 0 ]; then t_pass "recover:$3: guest completes plan"; else t_fail "recover:$3: guest completes plan (rc=$_rc)"; fi
	guest_tests "$2/recover/console.log" recover
}

# frag_test K OUT LIMIT: a boot whose vmap allocations are confined to
# LIMIT of vmalloc space, running the fragmenting pattern (the frag step).
frag_test() {
	_rc=0
	VX_APPEND="${VX_APPEND:-} vmap_space_limit=$3" \
		"$VX_ROOT/scripts/boot.sh" "$1" "$2/frag" frag 600 || _rc=$?
	if [ "$_rc" = 0 ]; then t_pass "frag: guest completes plan"; else t_fail "frag: guest completes plan (rc=$_rc)"; fi
	guest_tests "$2/frag/console.log" frag
	results_csv "$2/frag/console.log" >> "$2/results.csv"
}

"$VX_ROOT/scripts/deps.sh"
out=$(new_run_dir "$mode")
echo "$0 $*  KSRC=$KSRC SERIES=$SERIES CPUS=$CPUS MEM=$MEM DEBUG=$DEBUG PLAN=$PLAN VX_APPEND=${VX_APPEND:-}" > "$out/command"
progress "results: $out"

if k=$("$VX_ROOT/scripts/kernel.sh"); then
	t_pass "kernel builds"
else
	t_fail "kernel builds"; t_finish
fi
cp "$k/identity" "$k/.config" "$out/"
id=$(sed -n 's/^id=//p' "$k/identity")

rc=0
"$VX_ROOT/scripts/boot.sh" "$k" "$out" "$PLAN" || rc=$?
echo "accel=$(cat "$out/accel") cpus=$CPUS mem=$MEM" >> "$out/identity"
log="$out/console.log"
if markers "$log" | grep -q '^BOOTED'; then t_pass "guest boots"; else t_fail "guest boots"; fi
case $rc in
0) t_pass "guest completes plan" ;;
3) t_fail "guest completes plan (killed at timeout)" ;;
*) t_fail "guest completes plan (stopped early, rc=$rc)" ;;
esac
guest_tests "$log" main

{ echo "workload,phase,metric,value"; results_csv "$log"; } > "$out/results.csv"
results_md "$out/results.csv" "$out/identity" > "$out/results.md"
if [ "$mode" = test ] && [ -n "$CRASH_WL" ]; then
	ACCEL=$(cat "$out/accel") crash_test "$k" "$out" "$CRASH_WL"
fi
if [ "$mode" = test ] && [ -n "$FRAG_LIMIT" ]; then
	ACCEL=$(cat "$out/accel") frag_test "$k" "$out" "$FRAG_LIMIT"
	results_md "$out/results.csv" "$out/identity" > "$out/results.md"
fi
if [ "$mode" = test ] && [ -n "$TEST_FSTESTS" ]; then
	ACCEL=$(cat "$out/accel") FSTESTS_TESTS=$TEST_FSTESTS FSTESTS_CFG=dirblock_64k \
		"$VX_ROOT/scripts/fstests.sh" test "$k" "$out/fstests" > "$out/fstests.txt" 2>&1 || true
	t_merge "$out/fstests.txt"
	grep -q '^[0-9]* passed, [0-9]* failed, [0-9]* skipped$' "$out/fstests.txt" || t_fail "fstests: $(tail -n 1 "$out/fstests.txt")"
fi
{
	echo "== $id ($(cat "$out/accel"), $CPUS vCPUs)"
	run_summary "$out/results.csv" "$out/tests.txt"
	if [ -f "$out/fstests.txt" ]; then
		if grep -q '^FAIL' "$out/fstests.txt"; then v="FAIL $(grep -c '^FAIL' "$out/fstests.txt")"
		elif grep -q '^SKIP' "$out/fstests.txt"; then v=SKIP
		# (no PASS either: fstests.sh stopped before any test; its error
		# is already a FAIL of this run)
		elif grep -q '^PASS' "$out/fstests.txt"; then v="pass $(grep -c '^PASS' "$out/fstests.txt")"
		else v=FAIL; fi
		printf '  %-14s %-7s %s\n' fstests "$v" \
			"$TEST_FSTESTS at dirblock_64k: $(cat "$out"/fstests/*/status.csv 2>/dev/null | fstests_totals)"
	fi
	echo "== full table: $out/results.md"
} > "$out/summary.txt"
print_summary() { echo; cat "$out/summary.txt"; }
case $mode in
test)
	# Host-side tests of the harness, reusing this run's accelerator choice.
	ACCEL=$(cat "$out/accel") "$VX_ROOT/scripts/selftest.sh" "$k" > "$out/selftest.txt" 2>&1 || true
	t_merge "$out/selftest.txt"
	print_summary
	t_finish ;;
check)
	print_summary
	t_finish ;;
*)
	print_summary
	[ "$vx_nfail" = 0 ] || die "$vx_nfail step(s) failed; see $out" ;;
esac
