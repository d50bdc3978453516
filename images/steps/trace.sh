#!/bin/sh
# step trace: the vmap trace events (mm/0011).  A short vmap_stress run
# with them on (it ends with vm_unmap_aliases(), which reclaims and
# purges) must produce each kind.
# usage: trace
# reports: TEST trace:EVENT per event; RESULT trace phase=events EVENT=N...
. /usr/lib/vx.sh
TR=/sys/kernel/tracing
mount -t tracefs tracefs $TR 2>/dev/null
if [ ! -d $TR/events/vmap ]; then
	say "TEST SKIP trace kernel has no vmap trace events (before mm/0011)"
	exit 0
fi
echo 0 > $TR/tracing_on; echo > $TR/trace
echo 1 > $TR/events/vmap/enable
echo 1 > $TR/tracing_on
stress_module tr mode=random ops=2000
echo 0 > $TR/tracing_on
echo 0 > $TR/events/vmap/enable
counts=""
for ev in vmap_alloc vmap_free_lazy vmap_purge vmap_block_new vmap_block_reclaim vmap_block_free; do
	c=$(grep -c " $ev: " $TR/trace)
	counts="$counts $ev=$c"
	check "trace:$ev" test "$c" -gt 0
done
grep -m 2 ' vmap_purge: ' $TR/trace
say "RESULT trace phase=events$counts"
echo > $TR/trace
