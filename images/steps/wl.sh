#!/bin/sh
# step wl: a workload (workloads/NAME.wl sets WL_MKFS, WL_SETUP, WL_CMD,
# WL_PARSE, WL_ERRORTAG and WL_RAMDISK): mkfs.xfs, mount, run, unmount,
# xfs_repair -n.
# usage: wl:NAME (workloads/NAME.wl)
# reports: TEST wl:NAME:mkfs/mount/run/umount/xfs_repair; RESULT NAME phase=all
#   seconds= tlb_ipis= cal_ipis= vs_* vc_* (calls of vm_map_ram, vm_unmap_ram,
#   vmap, vunmap), lock_contentions= (VARIANT=lockstat), per 1000 file
#   operations: *_per_1000, plus the RESULT lines of WL_PARSE (files_per_s per
#   phase for dircreate and fs_mark, iops for fio)
. /usr/lib/vx.sh
wl=$1
wl_load "$wl" || { fail "wl:$wl:definition"; exit 0; }
[ -z "${CR_FS:-}" ] || { fail "wl:$wl:definition (a compressed-read workload: PLAN=cread:$wl)"; exit 0; }
# WL_RAMDISK=MB: the filesystem on a RAM disk (brd) of MB MiB instead of
# vda, so that reading a metadata block costs a memory copy, not a virtio
# request and its completion interrupt: as cheap as the re-read of a
# page-cache-backed buffer was in 2.6.27.
if [ -n "$WL_RAMDISK" ]; then
	# (left loaded by an earlier workload that failed)
	rmmod brd 2>/dev/null
	if finsmod /lib/modules/brd.ko rd_nr=1 rd_size=$((WL_RAMDISK * 1024)) && [ -b /dev/ram0 ]; then
		DISK=/dev/ram0
	else
		fail "wl:$wl:ramdisk (brd.ko rd_size=${WL_RAMDISK}M)"
		exit 0
	fi
fi
wl_mkfs_mount "wl:$wl" || exit 0
# WL_ERRORTAG=TAG=VALUE: an XFS error-injection knob set after mount, e.g.
# buf_lru_ref=1 (every directory buffer freed, and unmapped, at its last
# release, as in 2.6.27); needs CONFIG_XFS_DEBUG (VARIANT=xfsdebug).
if [ -n "$WL_ERRORTAG" ]; then
	tagf=/sys/fs/xfs/${DISK##*/}/errortag/${WL_ERRORTAG%%=*}
	if [ -w "$tagf" ] && echo "${WL_ERRORTAG#*=}" > "$tagf"; then
		pass "wl:$wl:errortag"
	else
		fail "wl:$wl:errortag (no $tagf: needs CONFIG_XFS_DEBUG, VARIANT=xfsdebug)"
		umount /mnt
		exit 0
	fi
fi
cd /mnt && eval "$WL_SETUP"
vcalls_setup || fail "wl:$wl:kprobe-events"
vc0=$(vcalls)
vs0=$(vstats)
lockstat_start
before=$(ipis)
t0=$(date +%s)
eval "$WL_CMD" > /tmp/wl.out 2>&1
rc=$?
t1=$(date +%s)
after=$(ipis)
ls1=$(lockstat_vmap)
vs1=$(vstats)
vc1=$(vcalls)
cd /
cat /tmp/wl.out
$WL_PARSE < /tmp/wl.out > /tmp/wl.res
sed -n "s/^RESULT /@@VX RESULT $wl /p" /tmp/wl.res
all="seconds=$((t1 - t0)) $(ipi_diff "$before" "$after")$(vstats_diff "$vs0" "$vs1")$(kv_diff vc_ "$vc0" "$vc1")$ls1"
say "RESULT $wl phase=all $all$(per_1000 "$all" /tmp/wl.res)"
check "wl:$wl:run" test "$rc" = 0
check "wl:$wl:umount" umount /mnt
wl_repair "wl:$wl"
[ -z "$WL_RAMDISK" ] || rmmod brd
