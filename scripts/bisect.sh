#!/bin/sh
# make bisect: the first bad series point, found by `git bisect run` over
# the tree's point commits (vx-point-N), each point built and booted by
# run.sh like any other kernel.
#   GOOD=stock BAD=         the ends (any SERIES value; BAD empty = full)
#   BISECT_PLAN=...         what each point runs (default: BISECT_DEFAULT_PLAN)
#   BISECT_METRIC=workload/phase/key with BISECT_ABOVE=X or BISECT_BELOW=X:
#                           a point is bad when that figure is above (below)
#                           X; without a metric, when any of its tests fails
# Prints "first bad point: N NAME"; logs of every step in its results dir.
#   bisect.sh --step        (internal) judge the commit git bisect picked
set -eu
. "$(dirname "$0")/lib/common.sh"

BISECT_DEFAULT_PLAN=vmalloc,wl:dircreate

# step: build and boot the point at BISECT_HEAD; exit 0 good, 1 bad,
# 125 to skip (git bisect run's protocol).
step() {
	c=$(git -C "$VX_BISECT_TREE" rev-parse BISECT_HEAD)
	p=$(git -C "$VX_BISECT_TREE" tag --points-at "$c" | sed -n 's/^vx-point-//p' | head -n 1)
	[ -n "$p" ] || { log "commit $c is no series point: skipped"; exit 125; }
	slog="$VX_BISECT_OUT/point-$p.log"
	progress "bisect: point $p ($(point_name "$p"))"
	rc=0
	SERIES=$p PLAN=${BISECT_PLAN:-$BISECT_DEFAULT_PLAN} "$VX_ROOT/scripts/run.sh" check > "$slog" 2>&1 || rc=$?
	if [ -z "${BISECT_METRIC:-}" ]; then
		verdict=good; [ "$rc" = 0 ] || verdict=bad
	else
		d=$(sed -n 's/.*run.sh: results: //p' "$slog" | head -n 1)
		v=$(echo "$BISECT_METRIC" | awk -F/ '{ print $1, $2, $3 }' | {
			read -r w ph m
			awk -F, -v w="$w" -v p="$ph" -v m="$m" '$1 == w && $2 == p && $3 == m { print $4; exit }' \
				"$d/results.csv" 2>/dev/null; })
		[ -n "$v" ] || { log "point $p: no $BISECT_METRIC in $d/results.csv: skipped"; exit 125; }
		verdict=$(awk -v v="$v" -v a="${BISECT_ABOVE:-}" -v b="${BISECT_BELOW:-}" 'BEGIN {
			bad = (a != "" && v + 0 > a + 0) || (b != "" && v + 0 < b + 0)
			print bad ? "bad" : "good" }')
		verdict="$verdict ($BISECT_METRIC=$v)"
	fi
	echo "point $p $(point_name "$p"): $verdict" >> "$VX_BISECT_OUT/verdicts.txt"
	progress "bisect: point $p is $verdict"
	case $verdict in good*) exit 0 ;; *) exit 1 ;; esac
}

[ "${1:-}" != --step ] || step

[ -z "${BISECT_METRIC:-}" ] || [ -n "${BISECT_ABOVE:-}${BISECT_BELOW:-}" ] ||
	die "BISECT_METRIC needs BISECT_ABOVE or BISECT_BELOW"
"$VX_ROOT/scripts/deps.sh"
# git bisect keeps its state in the tree: hold the tree for the whole run.
tree_lock
t=$(SERIES='' "$VX_ROOT/scripts/tree.sh")
good=$(SERIES=${GOOD:-stock} series_point)
bad=$(SERIES=${BAD:-} series_point)
[ "$good" -lt "$bad" ] || die "GOOD (point $good) must come before BAD (point $bad)"
out=$(new_run_dir bisect)
echo "$0  KSRC=$KSRC GOOD=$good BAD=$bad PLAN=${BISECT_PLAN:-$BISECT_DEFAULT_PLAN} METRIC=${BISECT_METRIC:-tests} ABOVE=${BISECT_ABOVE:-} BELOW=${BISECT_BELOW:-}" > "$out/command"
progress "results: $out; bisecting points $good (good) .. $bad (bad)"

g() { git -C "$t" "$@"; }
g bisect reset >/dev/null 2>&1 || true
g bisect start --no-checkout "vx-point-$bad" "vx-point-$good" > "$out/bisect.log"
rc=0
VX_BISECT_TREE=$t VX_BISECT_OUT=$out g bisect run "$VX_ROOT/scripts/bisect.sh" --step >> "$out/bisect.log" 2>&1 || rc=$?
first=$(g rev-parse -q --verify refs/bisect/bad || true)
g bisect log > "$out/bisect-replay.txt" 2>/dev/null || true
g bisect reset >/dev/null 2>&1 || true
g checkout -q --detach "vx-point-$(SERIES='' series_point)"
cat "$out/verdicts.txt" 2>/dev/null || true
[ "$rc" = 0 ] || die "git bisect run failed (rc=$rc); see $out/bisect.log"
p=$(g tag --points-at "$first" | sed -n 's/^vx-point-//p' | head -n 1)
[ -n "$p" ] || die "bisect ended on no series point; see $out/bisect.log"
echo "first bad point: $p $(point_name "$p")" | tee "$out/first-bad.txt"
