#!/bin/sh
# step frag: vmap_stress.ko mode=frag (vx.fragops= vm_map_ram() calls,
# default 10^6) in a boot with vmap_space_limit= (run.sh's frag boot):
# partly used blocks are left behind on every CPU, and not one
# vm_map_ram() may fail.  Reports the peak vmap space that blocks with
# dirty pages, and fragmented ones (no live region), held (vmap/stats).
# usage: frag (in a boot with vmap_space_limit=; vx.fragops=N)
# Then the refill check (vmap_stress mode=refill): the space that 1-page
# vmap() areas held, once freed, must serve 3-page ones (at least 90%).
# reports: TEST frag:limited/no-failure/no-leak/refill; RESULT frag (peaks
#   in kB; phase=refill: first_pages= second_pages=)
. /usr/lib/vx.sh
ko=/lib/modules/vmap_stress.ko
[ -f "$ko" ] || { fail "frag:module $ko missing"; exit 0; }
limit=$(cmdarg vmap_space_limit)
if [ -z "$limit" ]; then fail "frag:limited (boot without vmap_space_limit=)"; exit 0; fi
if ! dmesg | grep -q 'vmap: allocations limited'; then
	say "TEST SKIP frag kernel ignores vmap_space_limit= (before mm/0008)"
	exit 0
fi
pass "frag:limited"
fops=$(cmdarg vx.fragops); fops=${fops:-1000000}
live0=$(vmap_stat vm_map_ram_live)
t0=$(date +%s)
stress_module fr mode=frag ops="$fops"
t1=$(date +%s)
cat /tmp/fr.log /tmp/fr.err
dmesg | grep -m 3 'vmap allocation' || true
check "frag:no-failure" sh -c "[ $st_rc = 0 ] && echo '$st_res' | grep -q 'failures=0 '"
live1=$(vmap_stat vm_map_ram_live)
check "frag:no-leak" test "${live0:-none}" = "${live1:-none}"
bkb=$(vmap_stat block_kb)
peak=""
if [ -n "$bkb" ]; then
	peak="dirty_blocks_peak=$(vmap_stat blocks_dirty_peak) fragmented_blocks_peak=$(vmap_stat blocks_fragmented_peak)"
	peak="$peak dirty_peak_kb=$(($(vmap_stat blocks_dirty_peak) * bkb)) fragmented_peak_kb=$(($(vmap_stat blocks_fragmented_peak) * bkb))"
	peak="$peak blocks_new=$(vmap_stat blocks_new) blocks_reused=$(vmap_stat blocks_reused) blocks_reclaimed=$(vmap_stat blocks_reclaimed) purges=$(vmap_stat purges)"
fi
say "RESULT frag phase=limit-$limit $st_res seconds=$((t1 - t0)) $peak"

# Space freed by areas of one size must serve another: vmap() 1-page
# areas until the limited space runs out, free them (and 80% as many
# again, through a purge), then 3-page ones (vmap_stress mode=refill;
# ops= bounds the live areas: one per page of the limit is more than fit).
lpages=$(echo "$limit" | awk '{ n = $1 + 0; u = toupper(substr($1, length($1)))
	if (u == "K") n *= 1024; else if (u == "M") n *= 1048576; else if (u == "G") n *= 1073741824
	printf "%d", n / 4096 }')
stress_module rf mode=refill ops="$lpages"
cat /tmp/rf.log /tmp/rf.err
check "frag:refill" sh -c "[ $st_rc = 0 ] && echo '$st_res' | grep -q 'failures=0$'"
say "RESULT frag phase=refill $st_res"
