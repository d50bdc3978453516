#!/bin/sh
# make compare: build the kernels at several series points, of one tree or
# of several, boot each with the same QEMU settings in one run, REPEAT
# rounds interleaved (every kernel once per round), run the same PLAN on
# each, and write a compare-kernels style report: per benchmark a summary
# table (median, spread, ratio to the first kernel), the full figure
# table, a CSV and plots.  Timings under TCG are only meaningful relative
# to each other; IPI counts are exact.
#   POINTS="stock baseline 3 full 6.12:stock"
#                       [TREE:]POINT entries: a series point of KSRC's tree,
#                       or of linux-source-TREE's (only stock: the series
#                       is made for 6.1); default: stock, the baseline,
#                       after each mm/ patch that follows it, and full
#   REPEAT=3            rounds
#   PLAN=...            guest plan (default: COMPARE_PLAN)
#   VS=LABEL            the kernel the "versus" table compares with every
#                       other one (default: full, if compared)
#   CPUS="1 2 4 8"      a scaling series: every kernel at each vCPU count,
#                       labelled LABEL@N; the report adds tables and
#                       plots (one per phase) of throughput and IPIs per
#                       1000 operations against vCPUs.  Counts above the
#                       host's cores oversubscribe it (marked so: trends,
#                       not physics).
#   compare.sh report DIR   regenerate DIR's report from its raw.csv
# Output, in one results directory: compare.md, compare.csv, raw.csv,
# *.png (gnuplot), kernels.txt (label, tree, point, kernel directory),
# kernels.md, and per-boot directories rR-LABEL/.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/report.sh"
. "$VX_ROOT/scripts/lib/points.sh"
need_cmd gnuplot

if [ "${1:-}" = report ]; then
	[ -f "${2:-}/raw.csv" ] || die "usage: compare.sh report DIR (DIR/raw.csv missing)"
	compare_report "$2"
	cat "$2/compare.md"
	exit 0
fi

COMPARE_PLAN=vmapbench,vmalloc,wl:dircreate,wl:dircold
PLAN=${PLAN:-$COMPARE_PLAN}
REPEAT=${REPEAT:-3}
plan_check "$PLAN"
"$VX_ROOT/scripts/deps.sh"

point_entries "${POINTS:-$(default_points)}" > "${TMPDIR:-/tmp}/vx-entries.$$"
trap 'rm -f "${TMPDIR:-/tmp}/vx-entries.$$"' EXIT

out=$(new_run_dir compare)
echo "$0  KSRC=$KSRC POINTS=${POINTS:-default} REPEAT=$REPEAT CPUS=$CPUS MEM=$MEM DEBUG=$DEBUG PLAN=$PLAN VX_APPEND=${VX_APPEND:-}" > "$out/command"
progress "results: $out"

# Build every kernel first (incremental, ccache), one at a time.
build_points "${TMPDIR:-/tmp}/vx-entries.$$" "$out/kernels.txt"
# A scaling series: each kernel once per vCPU count, as LABEL@N.
case $CPUS in
*" "*)
	for c in $CPUS; do
		case $c in ''|*[!0-9]*) die "CPUS=\"$CPUS\": vCPU counts, e.g. \"1 2 4 8\"" ;; esac
	done
	mv "$out/kernels.txt" "$out/kernels.base"
	while read -r label ksrc p k; do
		for c in $CPUS; do echo "$label@$c $ksrc $p $k"; done
	done < "$out/kernels.base" > "$out/kernels.txt"
	rm -f "$out/kernels.base"
	echo "host_cores=$(nproc)" > "$out/scaling" ;;
esac

: > "$out/raw.csv"
failed=""
r=1
while [ "$r" -le "$REPEAT" ]; do
	while read -r label ksrc p k; do
		d="$out/r$r-$label"
		progress "round $r/$REPEAT: $label"
		rc=0
		# (a scaling series' label carries its vCPU count: LABEL@N)
		case $label in *@*) cpus=${label##*@} ;; *) cpus=$CPUS ;; esac
		CPUS=$cpus "$VX_ROOT/scripts/boot.sh" "$k" "$d" "$PLAN" </dev/null || rc=$?
		if [ "$rc" != 0 ] || [ -n "$(splats "$d/console.log")" ] ||
		   markers "$d/console.log" | grep -q '^TEST FAIL'; then
			failed="$failed r$r-$label"
			log "boot r$r-$label failed or reported a failure; see $d/console.log"
		fi
		results_csv "$d/console.log" | sed "s/^/$r,$label,/" >> "$out/raw.csv"
	done < "$out/kernels.txt"
	r=$((r + 1))
done

compare_report "$out"
cat "$out/compare.md"
progress "results in $out"
[ -z "$failed" ] || die "failing boots:$failed (figures kept, see $out)"
