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
# mm/0010 on; nothing elsewhere) as KEY=VALUE on one line.
VSTATS="purges tlb_flushes vm_map_ram_block vm_map_ram_area blocks_new blocks_reused blocks_reclaimed area_cache_hits vm_unmap_ram_xa_lookups"
vstats() {
	[ -r /sys/kernel/debug/vmap/stats ] || return 0
	awk -v keys="$VSTATS" 'BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) w[k[i]] = 1 }
		$1 in w { printf "%s=%s ", $1, $2 }' /sys/kernel/debug/vmap/stats
}

# kv_diff PREFIX BEFORE AFTER: " PREFIXKEY=N ..." for each KEY=VALUE of
# AFTER, the change since BEFORE.
kv_diff() {
	[ -n "$3" ] || return 0
	echo "$2|$3" | awk -F'|' -v p="$1" '{ n = split($1, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); b[kv[1]] = kv[2] }
		m = split($2, c, " ")
		for (i = 1; i <= m; i++) { split(c[i], kv, "="); printf " %s%s=%d", p, kv[1], kv[2] - b[kv[1]] } }'
}

vstats_diff() { kv_diff vs_ "$1" "$2"; }

# vstats_off: stop vmap/stats counting events, for a timed step.  From
# mm/0029 on the kernel counts them only from the first read of the file
# until 0 is written to it; earlier kernels of the series always count
# (the write fails).  Prints "off" when counting is off: the caller must
# then not read vstats, which would turn it on again.
vstats_off() {
	[ -e /sys/kernel/debug/vmap/stats ] || return 0
	if echo 0 2>/dev/null > /sys/kernel/debug/vmap/stats; then echo off; fi
}

# per_1000 "KEY=N ..." RESULTS: the file operations of a workload (the sum
# of files= over its RESULT lines) and, per 1000 of them, its IPIs and
# its calls to map and unmap (rates_per_1000).
per_1000() {
	_ops=$(awk '$1 == "RESULT" { for (i = 2; i <= NF; i++) if ($i ~ /^files=/) { sub(/^files=/, "", $i); ops += $i } }
		END { printf "%.0f", ops }' "$2")
	[ "$_ops" != 0 ] || return 0
	echo " files=$_ops$(rates_per_1000 "$_ops" "$1")" | tr -d '\n'
}

# rates_per_1000 OPS "KEY=N ...": per 1000 of OPS file operations, the
# IPIs, lock contentions (lock_stat kernels) and calls to map (vm_map_ram,
# vmap) and unmap (vm_unmap_ram, vunmap) of the counts given.
rates_per_1000() {
	awk -v ops="$1" -v all="$2" 'BEGIN {
		n = split(all, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); v[kv[1]] = kv[2] }
		printf " tlb_ipis_per_1000=%.3f cal_ipis_per_1000=%.3f",
			v["tlb_ipis"] * 1000 / ops, v["cal_ipis"] * 1000 / ops
		if ("lock_contentions" in v)
			printf " lock_contentions_per_1000=%.3f", v["lock_contentions"] * 1000 / ops
		if ("vc_vm_map_ram" in v)
			printf " maps_per_1000=%.3f unmaps_per_1000=%.3f",
				(v["vc_vm_map_ram"] + v["vc_vmap"]) * 1000 / ops,
				(v["vc_vm_unmap_ram"] + v["vc_vunmap"]) * 1000 / ops
	}'
}

# vcalls_setup: kprobe events vx/vm_map_ram, vx/vm_unmap_ram, vx/vmap
# and vx/vunmap (CONFIG_KPROBE_EVENTS), so that kprobe_profile counts the
# calls on any kernel, stock included.  They are enabled in a trace
# instance of their own whose buffer is off: the hit counts are all we
# want, and the main buffer stays the trace step's.  Once per boot.
TR=/sys/kernel/debug/tracing
VCALLS="vm_map_ram vm_unmap_ram vmap vunmap"
vcalls_setup() {
	[ -w $TR/kprobe_events ] || return 0
	[ ! -d $TR/events/vx ] || return 0
	# Plain int3 probes: optimizing them into jumps would patch the text
	# later, from a work item, with IPIs inside the measured window.
	[ ! -w /proc/sys/debug/kprobes-optimization ] ||
		echo 0 > /proc/sys/debug/kprobes-optimization || return 1
	for _f in $VCALLS; do echo "p:vx/$_f $_f" >> $TR/kprobe_events || return 1; done
	mkdir -p $TR/instances/vx &&
	echo 0 > $TR/instances/vx/tracing_on &&
	echo 1 > $TR/instances/vx/events/vx/enable
}

# vcalls: "vm_map_ram=N vm_unmap_ram=N vmap=N vunmap=N", the calls so far
# (hits and the hits a probe missed), or nothing unless all four probes
# are armed.
vcalls() {
	[ "$(cat $TR/instances/vx/events/vx/enable 2>/dev/null)" = 1 ] || return 0
	awk -v keys="$VCALLS" 'BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) w[k[i]] = 1 }
		$1 in w { printf "%s=%.0f ", $1, $2 + $3 }' $TR/kprobe_profile
}

# lockstat_start: zero /proc/lock_stat and collect (VARIANT=lockstat).
lockstat_start() {
	[ -w /proc/lock_stat ] || return 0
	echo 0 > /proc/lock_stat
	echo 1 > /proc/sys/kernel/lock_stat
}

# lockstat_vmap: " lock_contentions=N lock_acquisitions=N" since
# lockstat_start, summed over the locks of the vmap layer's allocator: the
# lock classes named vmap or vmlist (vmap_area_lock, free_vmap_area_lock,
# purge locks, our busy-tree zones and per-CPU purge lists), our per-CPU
# area caches (&vc->lock) and 6.12's per-node vn-> locks (busy, lazy and
# pool), not the per-CPU and per-block vbq->/vb-> locks of vm_map_ram().
# Columns of a class line: name:,
# con-bounces, contentions, 4 wait times, acq-bounces, acquisitions, ...
lockstat_vmap() {
	[ -r /proc/lock_stat ] || return 0
	echo 0 > /proc/sys/kernel/lock_stat
	# Once lockdep has turned itself off, lock_stat stops counting.
	if grep -q 'lock debugging disabled' /proc/lock_stat; then
		echo " lock_stat_disabled=1"
		return 0
	fi
	awk '$1 ~ /:$/ && NF >= 13 { n = $1; sub(/:$/, "", n); sub(/-[RW]$/, "", n)
		if ((n ~ /vmap|vmlist|vn->|^&vc->lock$/) && n !~ /vbq?->/) { c += $3; a += $9 } }
		END { printf " lock_contentions=%.0f lock_acquisitions=%.0f", c, a }' /proc/lock_stat
}

# uptime_cs: centiseconds since boot (busybox date has no sub-seconds).
uptime_cs() { awk '{ printf "%.0f\n", $1 * 100 }' /proc/uptime; }

# phase_run NAME FILES CMD...: run CMD as a timed phase of a workload that
# touches FILES files; print "RESULT phase=NAME files= usec= files_per_s="
# with the phase's IPIs and vmap calls, also per 1000 files, as
# dircreate does for its own phases.
phase_run() {
	_ph=$1 _nf=$2; shift 2
	_i0=$(ipis) _v0=$(vcalls) _t0=$(uptime_cs)
	"$@"
	_rc=$?
	_t1=$(uptime_cs) _i1=$(ipis) _v1=$(vcalls)
	_all="$(ipi_diff "$_i0" "$_i1")$(kv_diff vc_ "$_v0" "$_v1")"
	echo "RESULT phase=$_ph files=$_nf usec=$(((_t1 - _t0) * 10000))" \
		"files_per_s=$((_t1 > _t0 ? _nf * 100 / (_t1 - _t0) : 0)) $_all" \
		"$(rates_per_1000 "$_nf" "$_all")"
	return $_rc
}

# vmap_stat KEY: a figure from debugfs vmap/stats (our vmap layer only).
vmap_stat() {
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/vmap/stats 2>/dev/null
}

# ram_entries: vm_map_ram() areas and blocks in /proc/vmallocinfo.  Not
# the "unpurged vm_area" entries: those are anyone's lazily freed areas,
# e.g. the stacks of the module's own threads, which exit after its
# vm_unmap_aliases() and are vfree()d an RCU grace period later.
ram_entries() { grep -c 'vm_map_ram' /proc/vmallocinfo; }

# vmap_stress.ko's largest mapping: stress_module passes it as max_pages=
# to every load, so that ST_MAX_BYTES (4 KiB pages) is what the module
# maps at most.
ST_MAX_PAGES=128
ST_MAX_BYTES=$((ST_MAX_PAGES * 4096))

# ram_entries_over BYTES: the vm_map_ram entries larger than BYTES: for a
# module that maps at most BYTES at a time, the vmap blocks, not its own
# mappings.
ram_entries_over() {
	awk -v b="$1" '$3 == "vm_map_ram" && $2 + 0 > b + 0 { n++ } END { print n + 0 }' /proc/vmallocinfo
}

# areas_snapshot FILE: the vmalloc areas (address ranges) there are now.
# Without real addresses (init sets kptr_restrict=1) it writes "unknown",
# and module_areas then reports "unknown", which no leak check passes.
areas_snapshot() {
	if grep -q -v '^0x[0-9a-f]*-0x[0-9a-f]* ' /proc/vmallocinfo; then
		echo unknown > "$1"
	else
		awk '{ print $1 }' /proc/vmallocinfo > "$1"
	fi
}

# module_areas MODULE BEFORE: the vmalloc areas MODULE allocated and has
# not freed, counted while it is loaded: areas that were not there before
# it was loaded (BEFORE, an areas_snapshot) and whose caller is MODULE's
# (its symbols resolve while it is loaded) or an address no symbol
# covers any more (its init code, freed once init returned).
# An area that existed before cannot be its own, though it may show as its
# own: a module unloaded just before (test_vmalloc) leaves areas that
# kvfree_rcu() frees seconds later, and their caller address is MODULE's
# once it loads there.
module_areas() {
	if [ "$(cat "$2")" = unknown ]; then echo unknown; return; fi
	awk -v m="[$1]" 'NR == FNR { was[$1] = 1; next }
		!($1 in was) && (index($0, m) || $3 ~ /^0x[0-9a-f]+$/) { n++ } END { print n + 0 }' "$2" /proc/vmallocinfo
}

# stress_module NAME ARG...: load vmap_stress.ko once with ARGs.  Sets
# st_rc (finsmod's status), st_res (its RESULT line) and what the module
# left behind, counted while it is still loaded: st_areas (vmalloc areas,
# module_areas), st_live (vmap/stats vm_map_ram_live), st_ram
# (ram_entries) and st_blocks (those of them larger than ST_MAX_BYTES, the
# module's largest mapping: vmap blocks); its log lines go to
# /tmp/NAME.log, finsmod's errors to /tmp/NAME.err.
stress_module() {
	_n=$1; shift
	dmesg -c > /dev/null
	areas_snapshot "/tmp/$_n.areas"
	st_rc=0
	finsmod /lib/modules/vmap_stress.ko max_pages="$ST_MAX_PAGES" "$@" > "/tmp/$_n.err" 2>&1 || st_rc=$?
	st_areas=$(module_areas vmap_stress "/tmp/$_n.areas")
	st_live=$(vmap_stat vm_map_ram_live) st_ram=$(ram_entries)
	st_blocks=$(ram_entries_over "$ST_MAX_BYTES")
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
	WL_MKFS=""; WL_SETUP=""; WL_CMD=""; WL_PARSE=cat; WL_ERRORTAG=""; WL_RAMDISK=""
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
