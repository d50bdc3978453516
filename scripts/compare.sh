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
#   compare.sh report DIR   regenerate DIR's report from its raw.csv
# Output, in one results directory: compare.md, compare.csv, raw.csv,
# *.png (gnuplot), kernels.txt (label, tree, point, kernel directory),
# kernels.md, and per-boot directories rR-LABEL/.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/report.sh"
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

# default_points: stock, baseline, each mm/ patch after the baseline, full.
default_points() {
	_b=$(SERIES=baseline series_point)
	_n=$(series_count)
	echo 0 "$_b"
	series_list | awk -v b="$_b" -v n="$_n" 'NR > b && NR < n && /^mm\// { print NR }'
	echo "$_n"
}

# entries: "KSRC POINT LABEL" per kernel, validated before any build.
entries() {
	_base=$(SERIES=baseline series_point)
	_n=$(series_count)
	for _e in ${POINTS:-$(default_points)}; do
		case $_e in
		*:*) _ksrc=linux-source-${_e%%:*} _p=${_e#*:} ;;
		*)   _ksrc=$KSRC _p=$_e ;;
		esac
		case $_p in full) _p=$_n ;; esac
		_p=$(SERIES=$_p series_point)
		_ver=$(basename "$_ksrc" | sed 's/^linux-source-//; s/\.tar\..*//')
		if [ "$_ksrc" != "$KSRC" ] && [ "$_p" != 0 ]; then
			die "POINTS entry '$_e': only stock can be built from $_ksrc (the series is made for $KSRC)"
		fi
		if [ "$_p" = 0 ]; then _l=stock-$_ver
		elif [ "$_p" = "$_base" ]; then _l=baseline
		elif [ "$_p" = "$_n" ]; then _l=full
		else _l=p$_p
		fi
		case " $_seen " in *" $_l "*) continue ;; esac
		_seen="$_seen $_l"
		echo "$_ksrc $_p $_l"
	done
}
_seen=""
entries > "${TMPDIR:-/tmp}/vx-entries.$$"
trap 'rm -f "${TMPDIR:-/tmp}/vx-entries.$$"' EXIT

out=$(new_run_dir compare)
echo "$0  KSRC=$KSRC POINTS=${POINTS:-default} REPEAT=$REPEAT CPUS=$CPUS MEM=$MEM DEBUG=$DEBUG PLAN=$PLAN VX_APPEND=${VX_APPEND:-}" > "$out/command"
progress "results: $out"

# Build every kernel first (incremental, ccache), one at a time.
: > "$out/kernels.txt"
while read -r ksrc p label; do
	progress "building $label ($ksrc, point $p)"
	KSRC=$ksrc "$VX_ROOT/scripts/deps.sh" </dev/null
	k=$(KSRC=$ksrc SERIES=$p "$VX_ROOT/scripts/kernel.sh" </dev/null)
	echo "$label $ksrc $p $k" >> "$out/kernels.txt"
done < "${TMPDIR:-/tmp}/vx-entries.$$"

: > "$out/raw.csv"
failed=""
r=1
while [ "$r" -le "$REPEAT" ]; do
	while read -r label ksrc p k; do
		d="$out/r$r-$label"
		progress "round $r/$REPEAT: $label"
		rc=0
		"$VX_ROOT/scripts/boot.sh" "$k" "$d" "$PLAN" </dev/null || rc=$?
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
