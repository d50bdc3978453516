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
#   REPEAT=3            rounds; REPEAT=auto: rounds until the 95% interval
#                       of every ratio of VS to another kernel is within
#                       +-REPEAT_TARGET% (default 3), at least 3 rounds and
#                       at most REPEAT_MAX (default 10); each round prints
#                       the cases still short of the target
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
# vmapbench cases run for vx.vbms=1000 ms each, every case vx.vbreps=3
# times per boot, interleaved, unless VX_APPEND sets vx.vbms or vx.vbloops.
# Output, in one results directory: compare.md, compare.csv (medians),
# ratios.csv (every ratio between two kernels: interval, p, verdict),
# raw.csv, host.csv (how busy the host was with other work during each
# boot), *.png (gnuplot), kernels.txt (label, tree, point, kernel
# directory), kernels.md, and per-boot directories rR-LABEL/.
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
REPEAT_TARGET=${REPEAT_TARGET:-3}
REPEAT_MAX=${REPEAT_MAX:-10}
case $REPEAT in
auto) rounds=$REPEAT_MAX ;;
''|*[!0-9]*|0) die "REPEAT=$REPEAT: a number of rounds, or auto" ;;
*) rounds=$REPEAT ;;
esac
plan_check "$PLAN"
# Time-based vmapbench cases, several samples per boot (see above).
case " ${VX_APPEND:-} " in
*" vx.vbms="*|*" vx.vbloops="*) ;;
*) VX_APPEND="vx.vbms=1000 vx.vbreps=3 ${VX_APPEND:-}"; export VX_APPEND ;;
esac
"$VX_ROOT/scripts/deps.sh"

point_entries "${POINTS:-$(default_points)}" > "${TMPDIR:-/tmp}/vx-entries.$$"
trap 'rm -f "${TMPDIR:-/tmp}/vx-entries.$$"' EXIT
# A VS that names no kernel compared is a typo: say so before any build.
[ -z "${VS:-}" ] || awk -v vs="$VS" '$3 == vs { f = 1 } END { exit !f }' "${TMPDIR:-/tmp}/vx-entries.$$" ||
	die "VS=$VS is not one of the kernels compared: $(awk '{ printf "%s ", $3 }' "${TMPDIR:-/tmp}/vx-entries.$$")"

out=$(new_run_dir compare)
echo "$0  KSRC=$KSRC POINTS=${POINTS:-default} REPEAT=$REPEAT$([ "$REPEAT" != auto ] || echo " REPEAT_TARGET=$REPEAT_TARGET REPEAT_MAX=$REPEAT_MAX") CPUS=$CPUS MEM=$MEM DEBUG=$DEBUG PLAN=$PLAN VX_APPEND=${VX_APPEND:-}" > "$out/command"
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
echo "round,kernel,others_cpu_pct,steal_pct,load1,other_guests,builds" > "$out/host.csv"
labels=$(awk '{ printf "%s ", $1 }' "$out/kernels.txt")
vs=$(compare_vs "$labels")
[ "$REPEAT" != auto ] || [ -n "$vs" ] ||
	die "REPEAT=auto needs VS=LABEL, the kernel whose ratios to the others must reach the target (no full in POINTS)"
failed=""
accel=$ACCEL
r=1
while [ "$r" -le "$rounds" ]; do
	while read -r label ksrc p k; do
		d="$out/r$r-$label"
		progress "round $r/$REPEAT: $label"
		rc=0
		# (a scaling series' label carries its vCPU count: LABEL@N)
		case $label in *@*) cpus=${label##*@} ;; *) cpus=$CPUS ;; esac
		ACCEL=$accel CPUS=$cpus "$VX_ROOT/scripts/boot.sh" "$k" "$d" "$PLAN" </dev/null || rc=$?
		# The first boot's KVM probe decides for the whole run: a KVM that
		# does not boot costs every probe 20 s, and boots of one compare on
		# two accelerators would not compare.
		if [ "$accel" = auto ] && [ -s "$d/accel" ]; then
			accel=$(cat "$d/accel")
			progress "accelerator $accel (probed in r$r-$label) for every later boot of this run"
		fi
		if [ "$rc" != 0 ] || [ -n "$(splats "$d/console.log")" ] ||
		   markers "$d/console.log" | grep -q '^TEST FAIL'; then
			failed="$failed r$r-$label"
			log "boot r$r-$label failed or reported a failure; see $d/console.log"
		fi
		results_csv "$d/console.log" | sed "s/^/$r,$label,/" >> "$out/raw.csv"
		# (no host.txt: boot.sh stopped before its guest ran)
		[ ! -f "$d/host.txt" ] || awk -F= -v r="$r" -v l="$label" '{ v[$1] = $2 } END {
			print r "," l "," v["others_cpu_pct"] "," v["steal_pct"] "," v["load1"] "," v["other_guests"] "," v["builds"] }' \
			"$d/host.txt" >> "$out/host.csv"
		[ ! -f "$d/host.txt" ] ||
			[ "$(awk -F= '$1 == "others_cpu_pct" || $1 == "steal_pct" { if ($2 > 25) b = 1 } END { print b + 0 }' "$d/host.txt")" = 0 ] ||
			log "r$r-$label ran on a busy host: $(tr '\n' ' ' < "$d/host.txt")"
	done < "$out/kernels.txt"
	# REPEAT=auto: enough rounds once every ratio's interval is narrow.
	if [ "$REPEAT" = auto ] && [ "$r" -ge 3 ]; then
		arc=0
		"$VX_PYTHON" "$VX_ROOT/scripts/stats.py" auto "$out" "$labels" "$vs" "$REPEAT_TARGET" > "$out/auto-r$r.txt" || arc=$?
		if [ "$arc" = 0 ]; then
			progress "round $r: every ratio of $vs is within ±$REPEAT_TARGET%; done"
			break
		fi
		# (3: ratios still short of the target; anything else is an error)
		[ "$arc" = 3 ] || die "stats.py auto failed (rc=$arc): $(tail -n 3 "$out/auto-r$r.txt")"
		progress "round $r: $(wc -l < "$out/auto-r$r.txt") ratio(s) of $vs still short of ±$REPEAT_TARGET% (list: $out/auto-r$r.txt):"
		head -n 10 "$out/auto-r$r.txt" | sed 's/^/    /' >&2
		[ "$r" -lt "$rounds" ] || log "REPEAT_MAX=$REPEAT_MAX rounds reached with ratios still short of the target"
	fi
	r=$((r + 1))
done

compare_report "$out"
cat "$out/compare.md"
progress "results in $out"
[ -z "$failed" ] || die "failing boots:$failed (figures kept, see $out)"
