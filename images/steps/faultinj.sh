#!/bin/sh
# step faultinj: fault injection (DEBUG=1 kernels have failslab and
# fail_page_alloc).  For the tasks that opt in (make-it-fail), 10% of slab
# and page allocations fail.  vm_map_ram() and vmalloc() must fail cleanly
# (vmap_badinput.ko only_ops=1 allow_nomem=1: no wrong mapping, no leak).
# XFS under the same injection is the faultinj-xfs step.
# usage: faultinj (DEBUG=1 kernels)
# reports: TEST faultinj:* (fails cleanly, faults injected, saw ENOMEM,
#   no leak); RESULT faultinj phase=vmap
. /usr/lib/vx.sh
if [ ! -d $FI/failslab ] || [ ! -d $FI/fail_page_alloc ]; then
	fail "faultinj:configured (failslab/fail_page_alloc missing: DEBUG=1 kernels only)"; exit 0
fi
pass "faultinj:configured"
fi_setup
live0=$(vmap_stat vm_map_ram_live)
firc=0
dmesg -c > /dev/null
# The module marks its own task make-it-fail around its cycles.
finsmod /lib/modules/vmap_badinput.ko only_ops=1 allow_nomem=1 ops=20000 \
	> /tmp/fi.err 2>&1 || firc=$?
[ "$firc" != 0 ] || rmmod vmap_badinput
vmap_injected=$(fi_injected)
dmesg | sed -n 's/.*vmap_badinput: SUMMARY //p' | tail -n 1 > /tmp/fi.sum
cat /tmp/fi.sum /tmp/fi.err
check "faultinj:vmap-fails-cleanly" grep -q 'failures=0 ' /tmp/fi.sum
check "faultinj:vmap-faults-injected" test "$vmap_injected" -gt 0
check "faultinj:vmap-saw-nomem" sh -c "! grep -q 'nomem=0\$' /tmp/fi.sum"
live1=$(vmap_stat vm_map_ram_live)
check "faultinj:vmap-no-leak" test "${live0:-none}" = "${live1:-none}"
say "RESULT faultinj phase=vmap injected=$vmap_injected $(cat /tmp/fi.sum)"
