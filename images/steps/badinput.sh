#!/bin/sh
# step badinput: vmap_badinput.ko (workloads/vmap-bench) hands the vmap
# layer bad input; each case is a test, and so are: a WARN was printed
# (and nothing worse), the module's summary, and no vm_map_ram() mapping
# or vmap area leaked.  The console between the EXPECT-WARN markers may
# hold WARNs; the host still fails the run on any oops or BUG there.
# usage: badinput (vx.biops=N)
# reports: TEST badinput:CASE per case, :summary :warned :no-oops :no-leak;
#   RESULT badinput (live mappings and areas before/after)
. /usr/lib/vx.sh
ko=/lib/modules/vmap_badinput.ko
[ -f "$ko" ] || { fail "badinput:module $ko missing"; exit 0; }
dmesg -c > /dev/null
live0=$(vmap_stat vm_map_ram_live); areas0=$(grep -vcE 'vm_map_ram|unpurged' /proc/vmallocinfo)
areas_snapshot /tmp/bi.areas
say "EXPECT-WARN begin"
birc=0
biops=$(cmdarg vx.biops)
finsmod "$ko" ${biops:+ops=$biops} > /tmp/bi.err 2>&1 || birc=$?
say "EXPECT-WARN end"
# vmalloc areas the module allocated and did not free (lib.sh).
mod_areas=$(module_areas vmap_badinput /tmp/bi.areas)
[ "$birc" != 0 ] || rmmod vmap_badinput
dmesg > /tmp/bi.log
sed -n 's/.*vmap_badinput: CASE //p' /tmp/bi.log > /tmp/bi.cases
while read -r name verdict rest; do
	if [ "$verdict" = ok ]; then pass "badinput:$name"; else fail "badinput:$name $rest"; fi
done < /tmp/bi.cases
check "badinput:summary" grep -q 'vmap_badinput: SUMMARY .* failures=0 ' /tmp/bi.log
check "badinput:warned" grep -q 'WARNING:' /tmp/bi.log
check "badinput:no-oops" sh -c "! grep -qE 'BUG:|Oops|general protection' /tmp/bi.log"
live1=$(vmap_stat vm_map_ram_live); areas1=$(grep -vcE 'vm_map_ram|unpurged' /proc/vmallocinfo)
say "RESULT badinput phase=all vm_map_ram_live_before=${live0:-0} vm_map_ram_live_after=${live1:-0} areas_before=$areas0 areas_after=$areas1 module_areas_left=$mod_areas"
# The area count overall moves with kernel activity (vmap'ed kthread
# stacks, module init sections): the leak checks are exact ones.
# Kernels without vmap/stats (before mm/0010) are checked on the
# areas alone; there every vm_map_ram() is a vmap area of its caller.
check "badinput:no-leak" test "${live0:-none}" = "${live1:-none}" -a "$mod_areas" = 0
