#!/bin/sh
# make run / make test: build the kernel at SERIES, build the image, boot it
# on a fresh qcow2 disk, run PLAN, and write results to one directory per run.
#   run.sh run|test
# "test" also counts every step as a test and prints "N passed, N failed".
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/tests.sh"
mode=${1:-run}
DEFAULT_PLAN=wl:dircreate
[ "$mode" = test ] && DEFAULT_PLAN=vmalloc,wl:dircreate,wl:fio-files,wl:fio-randrw
PLAN=${PLAN:-$DEFAULT_PLAN}

"$VX_ROOT/scripts/deps.sh"
out=$(new_run_dir "$mode")
echo "$0 $*  KSRC=$KSRC SERIES=$SERIES CPUS=$CPUS MEM=$MEM DEBUG=$DEBUG PLAN=$PLAN" > "$out/command"
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

# Every guest TEST marker is a test of ours.
markers "$log" | grep '^TEST ' > "$out/tests.txt" || true
while read -r _ verdict name rest; do
	case $verdict in
	PASS)  t_pass "$name" ;;
	XFAIL) t_xfail "$name" "$rest" ;;
	*)     t_fail "$name $rest" ;;
	esac
done < "$out/tests.txt"

s=$(splats "$log")
if [ -z "$s" ]; then t_pass "no splat in console"; else echo "$s" | head -n 5; t_fail "no splat in console"; fi

results_csv "$log" "$id" > "$out/results.csv"
results_md "$out/results.csv" > "$out/results.md"
cat "$out/results.md"
progress "results in $out"
if [ "$mode" = test ]; then
	# Host-side tests of the harness, reusing this run's accelerator choice.
	ACCEL=$(cat "$out/accel") "$VX_ROOT/scripts/selftest.sh" "$k" > "$out/selftest.txt" 2>&1 || true
	t_merge "$out/selftest.txt"
	t_finish
else
	[ "$vx_nfail" = 0 ] || die "$nfail step(s) failed; see $out"
fi
