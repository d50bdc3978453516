#!/bin/sh
# make bisect-check: every series point, on its own, builds, boots and
# passes a short plan.  Each point is one test; its run directory and log
# are kept.
#   POINTS="1 3"   points to check (default: every point, 1 to the end)
#   PLAN=...       guest plan per point (default: CHECK_PLAN below)
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/tests.sh"

CHECK_PLAN=vmalloc,wl:dircreate
n=$(series_count)
[ "$n" -gt 0 ] || die "patches/series is empty: nothing to bisect-check"
POINTS=${POINTS:-$(seq 1 "$n")}
out=$(new_run_dir bisect-check)
echo "$0  KSRC=$KSRC POINTS=$(echo $POINTS) CPUS=$CPUS DEBUG=$DEBUG PLAN=${PLAN:-$CHECK_PLAN}" > "$out/command"
progress "results: $out"

for p in $POINTS; do
	name=$(point_name "$p")
	log="$out/point-$p-$name.log"
	progress "point $p/$n: $name"
	if SERIES=$p PLAN=${PLAN:-$CHECK_PLAN} "$VX_ROOT/scripts/run.sh" check > "$log" 2>&1; then
		t_pass "point $p $name ($(tail -n 1 "$log"))"
	else
		grep '^FAIL' "$log" | head -n 5 | sed 's/^/    /'
		t_fail "point $p $name ($(tail -n 1 "$log"); see $log)"
	fi
done
t_finish
