#!/bin/sh
# step faultinj-xfs: XFS under dircreate -F with the fault injection of the faultinj step
# (10% of slab and page allocations fail for tasks that opt in):
# no hang, faults reach XFS, the workload ends (errors allowed), the
# filesystem remounts (log recovery if it shut down) and xfs_repair -n is
# clean.
# usage: faultinj-xfs (DEBUG=1 kernels)
# reports: TEST faultinj-xfs:* (no hang, faults injected, exited, umount,
#   remount, xfs_repair); RESULT faultinj phase=xfs
. /usr/lib/vx.sh
if [ ! -d $FI/failslab ] || [ ! -d $FI/fail_page_alloc ]; then
	fail "faultinj-xfs:configured (DEBUG=1 kernels only)"; exit 0
fi
fi_setup
dmesg -c > /dev/null
WL_MKFS="-n size=64k"
wl_mkfs_mount "faultinj-xfs:xfs" || exit 0
xrc=0
# dircreate -F: each worker opts in after mlockall(), so that its
# syscalls, not its page faults, meet the failures.
dircreate -F -t $CPUS -d 2 -n 5000 -p /mnt > /tmp/fi.wl 2>&1 &
wpid=$!
# No hang: the workload ends within vx.fiwait seconds (default 300);
# if not, the blocked tasks' stacks go to the console (sysrq w), so
# that the failure says where it hangs.
fiwait=$(cmdarg vx.fiwait); fiwait=${fiwait:-300}
waited=0
while kill -0 $wpid 2>/dev/null && [ $waited -lt "$fiwait" ]; do
	sleep 5; waited=$((waited + 5))
	[ $((waited % 60)) != 0 ] || echo "faultinj-xfs: still running after ${waited}s: $(tail -n 1 /tmp/fi.wl)"
done
if kill -0 $wpid 2>/dev/null; then
	fail "faultinj-xfs:no-hang (workload still running after ${fiwait}s)"
	echo w > /proc/sysrq-trigger
	sleep 5
	tail -n 5 /tmp/fi.wl
	exit 0
fi
wait $wpid || xrc=$?
pass "faultinj-xfs:no-hang"
xfs_injected=$(fi_injected)
tail -n 5 /tmp/fi.wl
tolerated=$(sed -n 's/.*tolerated_errors=//p' /tmp/fi.wl)
# An ENOMEM inside a dirty transaction shuts XFS down (by design):
# the workload then stops with EIO, and the remount must recover.
shutdown=no
! dmesg | grep -q 'Shutting down filesystem' || shutdown=yes
say "RESULT faultinj phase=xfs injected=$xfs_injected tolerated_errors=${tolerated:-none} xfs_shutdown=$shutdown dircreate_rc=$xrc seconds=$waited"
check "faultinj-xfs:xfs-faults-injected" test "$xfs_injected" -gt 0
# The workload may fail with an error (a shut down filesystem), not
# die of a signal.
check "faultinj-xfs:xfs-workload-exited" test "$xrc" -lt 128
check "faultinj-xfs:xfs-umount" umount /mnt
# A shut down filesystem leaves a dirty log: a mount replays it.
check "faultinj-xfs:xfs-remount" sh -c "mount -t xfs $DISK /mnt && umount /mnt"
wl_repair "faultinj-xfs:xfs"
