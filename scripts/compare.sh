#!/bin/sh
# make compare: build the kernels at several series points, boot each with
# the same QEMU settings in one run, REPEAT rounds interleaved (every kernel
# once per round), run the same PLAN on each, and write a compare-kernels
# style table: the median of each figure per kernel, its min-max spread,
# and its delta against the first kernel.  Timings under TCG are only
# meaningful relative to each other; IPI counts are exact.
#   POINTS="stock baseline 3 full"  series points (default: stock, the
#                                   baseline, after each mm/ patch that
#                                   follows it, and the full series)
#   REPEAT=3                        rounds
#   PLAN=...                        guest plan (default: COMPARE_PLAN)
# Output, in one results directory: compare.md, compare.csv, raw.csv,
# *.png (gnuplot), kernels.txt, and per-boot directories rR-pN/.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/report.sh"
need_cmd gnuplot

COMPARE_PLAN=vmapbench,vmalloc,wl:dircreate,wl:dircold
PLAN=${PLAN:-$COMPARE_PLAN}
plan_check "$PLAN"
REPEAT=${REPEAT:-3}
"$VX_ROOT/scripts/deps.sh"

# default_points: stock, baseline, each mm/ patch after the baseline, full.
default_points() {
	_b=$(SERIES=baseline series_point)
	_n=$(series_count)
	echo 0 "$_b"
	series_list | awk -v b="$_b" -v n="$_n" 'NR > b && NR < n && /^mm\// { print NR }'
	echo "$_n"
}
points=""
for p in ${POINTS:-$(default_points)}; do
	case $p in full) p=$(series_count) ;; esac
	p=$(SERIES=$p series_point)
	case " $points " in *" $p "*) ;; *) points="$points $p" ;; esac
done

out=$(new_run_dir compare)
echo "$0  KSRC=$KSRC POINTS=$(echo $points) REPEAT=$REPEAT CPUS=$CPUS MEM=$MEM DEBUG=$DEBUG PLAN=$PLAN" > "$out/command"
progress "results: $out"

# Build every kernel first (incremental, ccache), one at a time.
: > "$out/kernels.txt"
for p in $points; do
	progress "building point $p ($(point_name "$p"))"
	k=$(SERIES=$p "$VX_ROOT/scripts/kernel.sh")
	echo "p$p $(point_name "$p") $k" >> "$out/kernels.txt"
done

: > "$out/raw.csv"
failed=""
r=1
while [ "$r" -le "$REPEAT" ]; do
	while read -r label name k; do
		d="$out/r$r-$label"
		progress "round $r/$REPEAT: $label ($name)"
		rc=0
		"$VX_ROOT/scripts/boot.sh" "$k" "$d" "$PLAN" || rc=$?
		if [ "$rc" != 0 ] || [ -n "$(splats "$d/console.log")" ] ||
		   markers "$d/console.log" | grep -q '^TEST FAIL'; then
			failed="$failed r$r-$label"
			log "boot r$r-$label failed or reported a failure; see $d/console.log"
		fi
		results_csv "$d/console.log" | sed "s/^/$r,$label,/" >> "$out/raw.csv"
	done < "$out/kernels.txt"
	r=$((r + 1))
done

# compare.csv: workload,phase,key,kernel,median,min,max,n
labels=$(awk '{ printf "%s ", $1 }' "$out/kernels.txt")
sort -t, -k3,3 -k4,4 -k5,5 -k2,2 -k6,6g "$out/raw.csv" | awk -F, '
	{ m = $3 "," $4 "," $5 "," $2; v[m, ++n[m]] = $6; if (!(m in seen)) { seen[m] = 1; order[++nm] = m } }
	END {
		print "workload,phase,key,kernel,median,min,max,n"
		for (i = 1; i <= nm; i++) {
			m = order[i]; c = n[m]
			med = (c % 2) ? v[m, (c + 1) / 2] : (v[m, c / 2] + v[m, c / 2 + 1]) / 2
			print m "," med "," v[m, 1] "," v[m, c] "," c
		}
	}' > "$out/compare.csv.tmp"
# The sort above orders values numerically within a metric, so min/max
# and median are right; re-sort the rows by metric for reading.
{ head -n 1 "$out/compare.csv.tmp"; tail -n +2 "$out/compare.csv.tmp" | sort -t, -k1,1 -k2,2V -k3,3 -k4,4V; } > "$out/compare.csv"
rm -f "$out/compare.csv.tmp"

compare_md "$out/compare.csv" "$labels" "$out/kernels.txt" > "$out/compare.md"
compare_plots "$out" "$labels"
cat "$out/compare.md"
progress "results in $out"
[ -z "$failed" ] || die "failing boots:$failed (figures kept, see $out)"
