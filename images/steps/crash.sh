#!/bin/sh
# step crash: start the workload and, vx.crashafter seconds later
# (default 5), reboot at once, without syncing or unmounting, as a power
# failure would: the next boot's recover:NAME step finds a dirty log.
# usage: crash:NAME (workloads/NAME.wl; vx.crashafter=S)
# reports: TEST crash:NAME:mkfs/mount, RESULT crash phase=before-crash,
#   the marker CRASHING (the host expects the guest to go down)
. /usr/lib/vx.sh
wl=$1
wl_load "$wl" || { fail "crash:$wl:definition"; exit 0; }
wl_mkfs_mount "crash:$wl" || exit 0
after=$(cmdarg vx.crashafter); after=${after:-5}
cd /mnt && eval "$WL_SETUP"
eval "$WL_CMD" > /tmp/wl.out 2>&1 &
# Half way, sync: that forces the log to disk, so that the crash
# leaves committed transactions whose metadata is not yet written
# back, which recovery must replay; the second half adds work that
# only lives in memory and is lost.
sleep $((after / 2))
sync
sleep $((after - after / 2))
# What the disk has seen so far (sectors written), for the record.
say "RESULT crash phase=before-crash entries=$(find /mnt | wc -l) sectors_written=$(awk '$3 == "vda" { print $10 }' /proc/diskstats)"
say "CRASHING crash:$wl after ${after}s"
# Let the serial line drain first: sysrq b resets at once, and a marker
# still in the tty's buffer would be lost.
sleep 1
echo b > /proc/sysrq-trigger
sleep 30
fail "crash:$wl:reboot did not happen"
