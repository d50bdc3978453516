#!/bin/sh
# step recover: mount what a crash left behind (XFS log recovery),
# check the filesystem is usable, unmount, xfs_repair -n.
# usage: recover:NAME (the boot after crash:NAME, on its disk)
# reports: TEST recover:NAME:* (mount, log recovery ran, work survived,
#   write, umount, xfs_repair); RESULT recover phase=mount entries=N
. /usr/lib/vx.sh
wl=$1
dmesg -c > /dev/null
if ! mount -t xfs "$DISK" /mnt; then fail "recover:$wl:mount"; exit 0; fi
pass "recover:$wl:mount"
dmesg > /tmp/recover.dmesg
grep XFS /tmp/recover.dmesg
check "recover:$wl:log-recovery-ran" grep -q 'Starting recovery' /tmp/recover.dmesg
entries=$(find /mnt | wc -l)
say "RESULT recover phase=mount entries=$entries"
check "recover:$wl:work-survived" test "$entries" -gt 1
check "recover:$wl:write" sh -c 'mkdir /mnt/after-recovery && touch /mnt/after-recovery/f'
check "recover:$wl:umount" umount /mnt
wl_repair "recover:$wl"
