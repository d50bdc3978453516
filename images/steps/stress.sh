#!/bin/sh
# step stress: vmap_stress.ko mode=random: every CPU maps and unmaps random
# sizes (1..128 pages) in random order with random lifetimes, checking
# every page.  Then (the module calls vm_unmap_aliases() last) nothing it
# mapped may be left while it is still loaded: vm_map_ram_live (vmap/stats)
# as before, no vm_map_ram entry more in /proc/vmallocinfo than before,
# and no vmalloc area of the module's (lib.sh's
# module_areas).  A kernel without vmap/stats (stock, or before mm/0010)
# cannot count the mappings inside vmap blocks, and before mm/0009 a CPU
# keeps partly used blocks by design: there the vmallocinfo check counts
# only entries no larger than the module's largest mapping (its areas of
# its own, above the block limit) and reports the blocks kept.
# A second load with inject_leak=1 must fail that check.
# vx.stressops= (default 100000 per thread).
# usage: stress (vx.stressops=N)
# reports: TEST stress:random, stress:no-leak,
#   stress:leak-check-catches-injected; RESULT stress phase=random
. /usr/lib/vx.sh
ko=/lib/modules/vmap_stress.ko
[ -f "$ko" ] || { fail "stress:module $ko missing"; exit 0; }
sops=$(cmdarg vx.stressops); sops=${sops:-100000}
live0=$(vmap_stat vm_map_ram_live); ram0=$(ram_entries)
blocks0=$(ram_entries_over "$ST_MAX_BYTES")
# st_leaks: what the last stress_module left behind, or nothing.
st_leaks() {
	[ "${live0:-none}" = "${st_live:-none}" ] || printf ' vm_map_ram_live=%s->%s' "$live0" "$st_live"
	if [ -n "$live0" ]; then
		[ "$st_ram" -le "$ram0" ] || printf ' ram_entries=%s->%s' "$ram0" "$st_ram"
	else
		[ $((st_ram - st_blocks)) -le $((ram0 - blocks0)) ] ||
			printf ' ram_entries_not_blocks=%s->%s' $((ram0 - blocks0)) $((st_ram - st_blocks))
	fi
	[ "$st_areas" = 0 ] || printf ' module_areas_left=%s' "$st_areas"
}
stress_module st mode=random ops="$sops"
cat /tmp/st.log /tmp/st.err
check "stress:random" sh -c "[ $st_rc = 0 ] && echo '$st_res' | grep -q 'failures=0 '"
leaks=$(st_leaks)
say "RESULT stress phase=random $st_res vm_map_ram_live_before=${live0:-none} vm_map_ram_live_after=${st_live:-none} ram_entries_before=$ram0 ram_entries_after=$st_ram module_areas_left=$st_areas"
if [ -z "$leaks" ] && [ -z "$live0" ]; then
	pass "stress:no-leak (no vmap/stats: mappings inside vmap blocks not counted; blocks $blocks0->$st_blocks)"
elif [ -z "$leaks" ]; then
	pass "stress:no-leak"
else
	# What is left, for the log: mappings, blocks and pending areas.
	grep -E 'vm_map_ram|unpurged' /proc/vmallocinfo || true
	fail "stress:no-leak$leaks"
fi
# The check must see a leak: the module holds a vmalloc() area and a
# vm_map_ram() mapping until rmmod (inject_leak=1).
stress_module leak mode=random ops=1000 inject_leak=1
leaks=$(st_leaks)
case $leaks in
*module_areas_left=[1-9]*)
	if [ -n "$live0" ] && [ "$live0" = "${st_live:-}" ]; then
		fail "stress:leak-check-catches-injected vm_map_ram_live did not move:$leaks"
	else
		pass "stress:leak-check-catches-injected$leaks"
	fi ;;
*) fail "stress:leak-check-catches-injected rc=$st_rc found:${leaks:- nothing}" ;;
esac
