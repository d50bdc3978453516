# Comparison tables and plots over kernels (sourced; needs common.sh).
# shellcheck shell=sh

# awk number format for the scaling tables: integers as they are, other
# numbers with two decimals (not awk's %.6g, which turns 37388000 into
# 3.7388e+07).
VX_AWK_FMT='function fmtn(v) { return (v == int(v)) ? sprintf("%d", v) : sprintf("%.2f", v) }'

# kernels_md DIR: what each label is (tree, point, patch, identity, and
# the config options its tree's Kconfig does not have).
kernels_md() {
	echo "| label | tree | point | kernel | options dropped |"
	echo "|---|---|---|---|---|"
	while read -r _l _ksrc _p _k; do
		printf '| %s | %s | %s %s | %s | %s |\n' "$_l" "$_ksrc" "$_p" \
			"$(sed -n 's/^point=[0-9]* //p' "$_k/identity")" "$(basename "$_k")" \
			"$(sed -n 's/^config_dropped=//p' "$_k/identity")"
	done < "$1/kernels.txt"
}

# compare_vs "LABELS": the kernel the versus tables compare with every
# other one: VS, else full when it is compared.
compare_vs() {
	if [ -n "${VS:-}" ]; then echo "$VS"; return; fi
	case " $1 " in *" full "*) echo full ;; esac
}

# compare_report DIR: compare.csv, ratios.csv, kernels.md, compare.md and
# the plots from DIR/raw.csv, DIR/kernels.txt (and DIR/host.csv).  The
# statistics (medians, ratios, intervals, verdicts) are scripts/stats.py's.
compare_report() {
	_labels=$(awk '{ printf "%s ", $1 }' "$1/kernels.txt")
	kernels_md "$1" > "$1/kernels.md"
	{
		echo "# Compare: $(echo "$_labels" | sed 's/ *$//; s/ / vs /g')"
		echo
		sed 's/^/    /' "$1/command"
		echo
		cat "$1/kernels.md"
		echo
		"$VX_PYTHON" "$VX_ROOT/scripts/stats.py" report "$1" "$_labels" "$(compare_vs "$_labels")"
	} > "$1/compare.md.tmp"
	mv "$1/compare.md.tmp" "$1/compare.md"
	compare_plots "$1" "$_labels"
	[ ! -f "$1/scaling" ] || scaling_md "$1" >> "$1/compare.md"
}

# scaling_md OUT: for a scaling series (kernels labelled LABEL@VCPUS), per
# workload and metric (files/s, IPIs and maps per 1000 operations) a
# table of kernel x vCPUs, and a plot of it (scaling-WORKLOAD-METRIC.png).
# vCPU counts above the host's cores are marked "*": oversubscribed.
scaling_md() {
	_hc=$(sed -n 's/^host_cores=//p' "$1/scaling")
	echo
	echo "## Scaling: medians against vCPUs"
	echo
	echo "Columns marked * have more vCPUs than the host has cores ($_hc): the host is"
	echo "oversubscribed, so those figures show trends, not physics, and no pass/fail uses them."
	for _m in files_per_s cal_ipis_per_1000 tlb_ipis_per_1000 maps_per_1000; do
		for _w in $(awk -F, -v m="$_m" '$3 == m && $4 ~ /@/ { print $1 }' "$1/compare.csv" | sort -u); do
			echo
			echo "### $_w: $_m"
			echo
			awk -F, -v w="$_w" -v m="$_m" -v hc="$_hc" '
			'"$VX_AWK_FMT"'
			$1 == w && $3 == m && $4 ~ /@/ {
				k = $4; sub(/@.*/, "", k); c = $4; sub(/.*@/, "", c)
				r = k " " $2
				if (!(r in seen)) { seen[r] = 1; rows[++nr] = r }
				if (!(c in cs)) { cs[c] = 1; cols[++nc] = c }
				v[r, c] = $5
			}
			END {
				for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++)
					if (cols[j] + 0 < cols[i] + 0) { t = cols[i]; cols[i] = cols[j]; cols[j] = t }
				printf "| kernel | phase |"
				for (i = 1; i <= nc; i++) printf " %s vCPU%s |", cols[i], (cols[i] + 0 > hc + 0) ? "*" : ""
				print ""; printf "|---|---|"; for (i = 1; i <= nc; i++) printf "---:|"; print ""
				for (j = 1; j <= nr; j++) {
					split(rows[j], f, " "); printf "| %s | %s |", f[1], f[2]
					for (i = 1; i <= nc; i++) printf " %s |", ((rows[j], cols[i]) in v) ? fmtn(v[rows[j], cols[i]]) : "-"
					print ""
				}
			}' "$1/compare.csv"
			scaling_plot "$1" "$_w" "$_m" "$_hc"
		done
	done
}

# scaling_plot OUT WORKLOAD METRIC HOSTCORES: per phase, a plot with one
# line per kernel (scaling-WORKLOAD-METRIC-PHASE.png), and its Markdown
# image.  One plot per phase: a warm phase runs orders of magnitude
# faster than a cold one and would flatten it to the axis.
scaling_plot() {
	for _ph in $(awk -F, -v w="$2" -v m="$3" '$1 == w && $3 == m && $4 ~ /@/ { print $2 }' "$1/compare.csv" | sort -u); do
		_plot=""
		for _k in $(awk -F, -v w="$2" -v m="$3" -v ph="$_ph" '$1 == w && $3 == m && $2 == ph && $4 ~ /@/ {
			k = $4; sub(/@.*/, "", k); print k }' "$1/compare.csv" | sort -u); do
			_f="$1/plot-scaling-$2-$3-$_k-$_ph.dat"
			awk -F, -v w="$2" -v m="$3" -v ph="$_ph" -v k="$_k" '$1 == w && $3 == m && $2 == ph && $4 ~ /@/ {
				l = $4; sub(/@.*/, "", l); c = $4; sub(/.*@/, "", c)
				if (l == k) print c, $5, $6, $7 }' "$1/compare.csv" | sort -n > "$_f"
			_plot="$_plot${_plot:+, }'$_f' using 1:2:3:4 with yerrorlines title '$_k'"
		done
		gnuplot <<-GP
		set terminal png size 900,560 noenhanced
		set output '$1/scaling-$2-$3-$_ph.png'
		set title '$2, $_ph: $3 (median, min-max bars; oversubscribed right of the dashed line)'
		set xlabel 'vCPUs'; set ylabel '$3'; set logscale x 2; set yrange [0:*]
		set arrow from $4, graph 0 to $4, graph 1 nohead dashtype 2
		set key outside right
		plot $_plot
		GP
		echo
		echo "![$2 $_ph $3](scaling-$2-$3-$_ph.png)"
	done
}

# compare_plots OUT "LABELS": PNGs from OUT/compare.csv with gnuplot:
# vm_map_ram and vmap ns/op against pages, one line per kernel and thread
# count, median with min-max error bars; and dircreate files/s per kernel.
compare_plots() {
	_o=$1
	for _api in vm_map_ram vmap; do
		_plot=""
		for _l in $2; do
			for _t in $(awk -F, -v a="$_api" '$1 == "vmapbench" && $3 == "ns_per_op" &&
				index($2, a "-p") == 1 { sub(/.*-t/, "", $2); print $2 }' "$_o/compare.csv" | sort -un); do
				awk -F, -v l="$_l" -v re="^$_api-p[0-9]+-t$_t\$" '$1 == "vmapbench" &&
					$3 == "ns_per_op" && $4 == l && $2 ~ re {
					p = $2; sub(/^[^-]*-p/, "", p); sub(/-t.*/, "", p); print p, $5, $6, $7 }' \
					"$_o/compare.csv" | sort -n > "$_o/plot-$_api-$_l-t$_t.dat"
				[ -s "$_o/plot-$_api-$_l-t$_t.dat" ] || continue
				_plot="$_plot${_plot:+, }'$_o/plot-$_api-$_l-t$_t.dat' using 1:2:3:4 with yerrorlines title '$_l $_t thr'"
			done
		done
		[ -n "$_plot" ] || continue
		gnuplot <<-GP
		set terminal png size 1000,650 noenhanced
		set output '$_o/vmapbench-$_api.png'
		set title '$_api + touch + check + unmap: ns per iteration (median, min-max bars)'
		set xlabel 'pages'; set ylabel 'ns/op'; set logscale xy
		set key outside right
		plot $_plot
		GP
	done
	awk -F, '$1 == "dircreate" && $3 == "files_per_s" && $2 != "stat" { print $4, $2, $5 }' \
		"$_o/compare.csv" > "$_o/plot-dircreate.dat"
	[ -s "$_o/plot-dircreate.dat" ] || return 0
	for _ph in create unlink; do
		awk -v ph="$_ph" '$2 == ph { print $1, $3 }' "$_o/plot-dircreate.dat" > "$_o/plot-dircreate-$_ph.dat"
	done
	gnuplot <<-GP
	set terminal png size 900,600 noenhanced
	set output '$_o/dircreate.png'
	set title 'dircreate: files per second'
	set style data histograms; set style fill solid 0.8; set boxwidth 0.9
	set ylabel 'files/s'; set yrange [0:*]
	plot '$_o/plot-dircreate-create.dat' using 2:xtic(1) title 'create', \
	     '$_o/plot-dircreate-unlink.dat' using 2 title 'unlink'
	GP
}
