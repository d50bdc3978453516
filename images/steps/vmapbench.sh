#!/bin/sh
# step vmapbench: workloads/vmap-bench's vmap_bench.ko, one insmod per case
# (API x pages x threads; more threads than vCPUs are skipped).  Per case:
# ns per map-touch-check-unmap iteration (mean over threads, min, max), TLB
# and function-call IPIs per 1000 iterations of all threads as the module
# counted them while its threads ran (from /proc/interrupts around the
# insmod where it cannot count), and tlb_ipis/cal_ipis, /proc/interrupts
# around the whole insmod (module load and unload included).  One test,
# vmapbench:check: every case ran and the module reported no failure.
# Command line: vx.vbthreads=1,2,4,8 vx.vbsizes=1,4,16,64,65 vx.vbloops=5000
# vx.vbms=N (each case runs N ms instead of vbloops iterations: long
# enough that a host hiccup is a small part of it) vx.vbreps=R (every case
# R times, the cases interleaved: one sample each)
# vx.vbmode=all|both|LIST (all, the default: vm_map_ram, vmap and floor,
# the same loop with PTE writes only, the page table cost; both: the
# first two; or a comma list of them), vx.vbinject=1 (the check must then
# fail), vx.vbcount=1 (count vmap/stats events while the cases run, for
# the vs_* changes; by default kernels from mm/0029 on run them with
# counting off, as a kernel nobody reads the statistics of, and report
# no vs_*; earlier kernels always count).
# usage: vmapbench
# reports: TEST vmapbench:check; RESULT vmapbench phase=API-pP-tT rep=R
#   ns_per_op= min= max= tlb_per_1000= cal_per_1000= ... vs_* (vmap/stats
#   changes), one per case and repetition; on VARIANT=lockstat kernels also
#   lock_contentions= lock_acquisitions= lock_contentions_per_1000= (the
#   global vmap locks while the module was loaded and ran: lib.sh's
#   lockstat_vmap) per 1000 iterations of all threads
. /usr/lib/vx.sh

# vmapbench_case API PAGES THREADS LOOPS INJECT [REP]: one insmod, one
# RESULT; fails when the module did not report a clean SUMMARY.  With
# vbms set, the case runs for vbms milliseconds instead of LOOPS.
vmapbench_case() {
	dmesg -c > /dev/null
	vs0=""
	[ "$vscount" = off ] || vs0=$(vstats)
	before=$(ipis)
	# The module loads only when its checks passed.  finsmod loads it
	# once: busybox insmod would run a failing module a second time.
	vbrc=0
	lockstat_start
	finsmod /lib/modules/vmap_bench.ko mode="$1" sizes="$2" threads="$3" \
		loops="$4" ms="${vbms:-0}" inject_corruption="$5" > /tmp/vb.err 2>&1 || vbrc=$?
	[ "$vbrc" != 0 ] || rmmod vmap_bench >> /tmp/vb.err 2>&1 || vbrc=rmmod
	lks=$(lockstat_vmap)
	after=$(ipis)
	vs1=""
	[ "$vscount" = off ] || vs1=$(vstats)
	dmesg | sed -n 's/.*vmap_bench: //p' > /tmp/vb.log
	res=$(sed -n 's/^RESULT //p' /tmp/vb.log | head -n 1)
	if [ -n "$res" ]; then
		say "RESULT vmapbench $(echo "$res $(ipi_diff "$before" "$after")$lks" | awk -v rep="${6:-1}" '{
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["tlb"] < 0) { v["tlb"] = v["tlb_ipis"]; v["cal"] = v["cal_ipis"] }
			ops = ("ops" in v) ? v["ops"] : v["loops"] * v["threads"]
			printf "phase=%s-p%s-t%s rep=%s api=%s pages=%s threads=%s loops=%s", v["api"],
				v["pages"], v["threads"], rep, v["api"], v["pages"], v["threads"], v["loops"]
			printf " ns_per_op=%s min=%s max=%s tlb_per_1000=%.1f cal_per_1000=%.1f",
				v["ns_per_op"], v["min"], v["max"], v["tlb"] * 1000 / ops, v["cal"] * 1000 / ops
			printf " tlb_ipis=%s cal_ipis=%s failures=%s", v["tlb_ipis"], v["cal_ipis"], v["failures"]
			if ("lock_contentions" in v)
				printf " lock_contentions=%s lock_acquisitions=%s lock_contentions_per_1000=%.3f",
					v["lock_contentions"], v["lock_acquisitions"], v["lock_contentions"] * 1000 / ops
			if ("lock_stat_disabled" in v)
				printf " lock_stat_disabled=1" }')$(vstats_diff "$vs0" "$vs1")"
	fi
	[ "$vbrc" = 0 ] && [ -n "$res" ] && grep -q '^SUMMARY .* failures=0$' /tmp/vb.log &&
		! grep -q '^FAIL' /tmp/vb.log && return 0
	echo "vmapbench: case api=$1 pages=$2 threads=$3 failed (rc=$vbrc): $(cat /tmp/vb.err)"
	return 1
}

ko=/lib/modules/vmap_bench.ko
[ -f "$ko" ] || { fail "vmapbench:check $ko missing"; exit 0; }
vbthreads=$(cmdarg vx.vbthreads); vbsizes=$(cmdarg vx.vbsizes)
vbloops=$(cmdarg vx.vbloops); vbmode=$(cmdarg vx.vbmode)
vbinject=$(cmdarg vx.vbinject)
vscount=on
[ "$(cmdarg vx.vbcount)" = 1 ] || vscount=$(vstats_off)
vbms=0 vbreps=$(cmdarg vx.vbreps)
case ${vbmode:-all} in
all)  vbmode="vm_map_ram vmap floor" ;;
both) vbmode="vm_map_ram vmap" ;;
*)    vbmode=$(echo "$vbmode" | tr ',' ' ') ;;
esac
ncases=0 nbad=0
# Warm up, unmeasured: under TCG the first pass through the vmap
# code pays for its translation.
for api in $vbmode; do
	vmapbench_case "$api" 4 1 200 0 > /dev/null 2>&1 || true
done
vbms=$(cmdarg vx.vbms)
# Repetitions go round every case in turn, the floor included: a
# stretch of host noise falls on several cases, not on one case's samples.
for rep in $(seq 1 "${vbreps:-1}"); do
	for api in $vbmode; do
		for p in $(echo "${vbsizes:-1,4,16,64,65}" | tr ',' ' '); do
			for t in $(echo "${vbthreads:-1,2,4,8}" | tr ',' ' '); do
				if [ "$t" -gt "$CPUS" ]; then
					[ "$rep" != 1 ] || echo "vmapbench: skipping threads=$t: only $CPUS vCPUs"
					continue
				fi
				ncases=$((ncases + 1))
				vmapbench_case "$api" "$p" "$t" "${vbloops:-5000}" "${vbinject:-0}" "$rep" ||
					nbad=$((nbad + 1))
			done
		done
	done
done
if [ "$ncases" = 0 ]; then
	fail "vmapbench:check no case to run"
elif [ "$nbad" = 0 ]; then
	pass "vmapbench:check"
else
	fail "vmapbench:check failed_cases=$nbad of $ncases"
fi
