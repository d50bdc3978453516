#!/bin/sh
# step wl: a workload (workloads/NAME.wl sets WL_MKFS, WL_SETUP, WL_CMD,
# WL_PARSE and WL_ERRORTAG): mkfs.xfs, mount, run, unmount, xfs_repair -n.
# usage: wl:NAME (workloads/NAME.wl)
# reports: TEST wl:NAME:mkfs/mount/run/umount/xfs_repair; RESULT NAME phase=all
#   seconds= tlb_ipis= cal_ipis= vs_*, plus the RESULT lines of WL_PARSE
#   (files_per_s per phase for dircreate, iops for fio)
. /usr/lib/vx.sh
wl=$1
wl_load "$wl" || { fail "wl:$wl:definition"; exit 0; }
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
vs0=$(vstats)
before=$(ipis)
t0=$(date +%s)
eval "$WL_CMD" > /tmp/wl.out 2>&1
rc=$?
t1=$(date +%s)
after=$(ipis)
vs1=$(vstats)
cd /
cat /tmp/wl.out
$WL_PARSE < /tmp/wl.out | sed -n "s/^RESULT /@@VX RESULT $wl /p"
say "RESULT $wl phase=all seconds=$((t1 - t0)) $(ipi_diff "$before" "$after")$(vstats_diff "$vs0" "$vs1")"
check "wl:$wl:run" test "$rc" = 0
check "wl:$wl:umount" umount /mnt
wl_repair "wl:$wl"
