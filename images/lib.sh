# Helpers the guest steps share (installed as /usr/lib/vx.sh; every step
# sources it).  Markers go to the serial console; the host parses them:
#   @@VX TEST PASS|FAIL|XFAIL|SKIP name [detail]
#   @@VX RESULT workload key=value ...
# shellcheck shell=sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
say()    { echo "@@VX $*"; }
pass()   { say "TEST PASS $*"; }
fail()   { say "TEST FAIL $*"; }
check()  { _n=$1; shift; if "$@"; then pass "$_n"; else fail "$_n"; fi; }
cmdarg() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" /proc/cmdline | head -n 1; }

CPUS=$(grep -c '^processor' /proc/cpuinfo)
DISK=/dev/vda

# ipis: total TLB-shootdown and function-call IPIs over all CPUs.
ipis() {
	awk '$1 == "TLB:" || $1 == "CAL:" {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s[$1] += $i }
		END { printf "tlb=%d cal=%d\n", s["TLB:"], s["CAL:"] }' /proc/interrupts
}

# ipi_diff BEFORE AFTER: "tlb_ipis=N cal_ipis=N" between two ipis outputs.
ipi_diff() {
	echo "$1 $2" | awk '{ split($1,a,"="); split($2,b,"="); split($3,c,"="); split($4,d,"=");
		printf "tlb_ipis=%d cal_ipis=%d", c[2] - a[2], d[2] - b[2] }'
}

# vstats: the counters of debugfs vmap/stats (our vmap layer from
# mm/0007 on; nothing elsewhere) as KEY=VALUE on one line.
VSTATS="purges tlb_flushes vm_map_ram_block vm_map_ram_area blocks_new blocks_reclaimed"
vstats() {
	[ -r /sys/kernel/debug/vmap/stats ] || return 0
	awk -v keys="$VSTATS" 'BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) w[k[i]] = 1 }
		$1 in w { printf "%s=%s ", $1, $2 }' /sys/kernel/debug/vmap/stats
}

# vstats_diff BEFORE AFTER: " vs_KEY=N ..." for each counter, the change.
vstats_diff() {
	[ -n "$2" ] || return 0
	echo "$1|$2" | awk -F'|' '{ n = split($1, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); b[kv[1]] = kv[2] }
		m = split($2, c, " ")
		for (i = 1; i <= m; i++) { split(c[i], kv, "="); printf " vs_%s=%d", kv[1], kv[2] - b[kv[1]] } }'
}

# vmap_stat KEY: a figure from debugfs vmap/stats (our vmap layer only).
vmap_stat() {
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/vmap/stats 2>/dev/null
}

# ram_entries: vm_map_ram() areas and blocks, and areas not yet purged,
# in /proc/vmallocinfo.
ram_entries() { grep -cE 'vm_map_ram|unpurged' /proc/vmallocinfo; }

# stress_module NAME ARG...: load vmap_stress.ko once with ARGs.  Sets
# st_rc (finsmod's status), st_areas (vmalloc areas of the module's while
# it is loaded: its symbols still resolve) and st_res (its RESULT line);
# its log lines go to /tmp/NAME.log, finsmod's errors to /tmp/NAME.err.
stress_module() {
	_n=$1; shift
	dmesg -c > /dev/null
	st_rc=0
	finsmod /lib/modules/vmap_stress.ko "$@" > "/tmp/$_n.err" 2>&1 || st_rc=$?
	st_areas=$(grep -c '\[vmap_stress\]' /proc/vmallocinfo)
	[ "$st_rc" != 0 ] || rmmod vmap_stress
	dmesg | sed -n 's/.*vmap_stress: //p' > "/tmp/$_n.log"
	st_res=$(sed -n 's/^RESULT //p' "/tmp/$_n.log" | head -n 1)
}

# Fault injection (failslab, fail_page_alloc) for the faultinj steps.
FI=/sys/kernel/debug
fi_setup() {
	for f in failslab fail_page_alloc; do
		echo 10 > $FI/$f/probability; echo 1 > $FI/$f/interval
		echo 1000000 > $FI/$f/times; echo 0 > $FI/$f/verbose
		echo Y > $FI/$f/task-filter; echo 0 > $FI/$f/space
		echo N > $FI/$f/ignore-gfp-wait
	done
	echo N > $FI/fail_page_alloc/ignore-gfp-highmem
	echo 0 > $FI/fail_page_alloc/min-order
}
fi_injected() { echo $((2000000 - $(cat $FI/failslab/times) - $(cat $FI/fail_page_alloc/times))); }

# wl_load NAME: the workload's definition (workloads/NAME.wl).
wl_load() {
	WL_MKFS=""; WL_SETUP=""; WL_CMD=""; WL_PARSE=cat; WL_ERRORTAG=""
	. "/workloads/$1.wl"
}

# wl_mkfs_mount TEST: mkfs.xfs $WL_MKFS and mount on /mnt, a test each.
wl_mkfs_mount() {
	if ! mkfs.xfs -f -q $WL_MKFS "$DISK" > /tmp/mkfs.log 2>&1; then
		cat /tmp/mkfs.log; fail "$1:mkfs"; return 1
	fi
	pass "$1:mkfs"
	if ! mount -t xfs "$DISK" /mnt; then fail "$1:mount"; return 1; fi
	pass "$1:mount"
}

# wl_repair TEST: xfs_repair -n of the unmounted disk.
wl_repair() {
	if xfs_repair -n "$DISK" > /tmp/repair.log 2>&1; then
		pass "$1:xfs_repair"
	else
		tail -n 20 /tmp/repair.log; fail "$1:xfs_repair"
	fi
}
