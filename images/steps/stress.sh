#!/bin/sh
# step stress: vmap_stress.ko mode=random: every CPU maps and unmaps random
# sizes (1..128 pages) in random order with random lifetimes, checking
# every page.  Then (the module calls vm_unmap_aliases() last) nothing it
# mapped may be left: vm_map_ram_live (vmap/stats) as before, no
# vm_map_ram or unpurged entry more in /proc/vmallocinfo than before,
# and no vmalloc area of the module's.  vx.stressops= (default 100000
# per thread).
# usage: stress (vx.stressops=N)
# reports: TEST stress:random, stress:no-leak; RESULT stress phase=random
. /usr/lib/vx.sh
ko=/lib/modules/vmap_stress.ko
[ -f "$ko" ] || { fail "stress:module $ko missing"; exit 0; }
sops=$(cmdarg vx.stressops); sops=${sops:-100000}
live0=$(vmap_stat vm_map_ram_live); ram0=$(ram_entries)
stress_module st mode=random ops="$sops"
cat /tmp/st.log /tmp/st.err
check "stress:random" sh -c "[ $st_rc = 0 ] && echo '$st_res' | grep -q 'failures=0 '"
live1=$(vmap_stat vm_map_ram_live); ram1=$(ram_entries)
say "RESULT stress phase=random $st_res vm_map_ram_live_before=${live0:-none} vm_map_ram_live_after=${live1:-none} ram_entries_before=$ram0 ram_entries_after=$ram1 module_areas_left=$st_areas"
check "stress:no-leak" test "${live0:-none}" = "${live1:-none}" -a "$ram1" -le "$ram0" -a "$st_areas" = 0
