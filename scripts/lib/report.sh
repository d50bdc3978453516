# Comparison tables and plots over kernels (sourced; needs common.sh).
# shellcheck shell=sh

# The figures worth a row in a comparison: throughput, latency, IPIs,
# and what the vmap layer counted in debugfs vmap/stats (vs_*: purges,
# its TLB flushes, vm_map_ram() from a block or an area, blocks created
# and reclaimed; kernels without vmap/stats show "-").
VX_METRICS='ns_per_op|tlb_per_1000|cal_per_1000|usec|files_per_s|read_iops|write_iops|tlb_ipis|cal_ipis|vs_purges|vs_tlb_flushes|vs_vm_map_ram_block|vs_vm_map_ram_area|vs_blocks_new|vs_blocks_reclaimed'

# compare_md CSV "LABELS" KERNELS: Markdown in the style of mmtests'
# compare-kernels: per figure, the median for each kernel (min-max when
# rounds differ) and its change against the first kernel.
compare_md() {
	echo "## Kernels"
	echo
	echo "| label | series point | kernel |"
	echo "|---|---|---|"
	awk '{ n = split($3, a, "/"); printf "| %s | %s | %s |\n", $1, $2, a[n] }' "$3"
	echo
	echo "## Figures"
	echo
	echo "Median over rounds, (min-max) when they differ, and the change against $(echo "$2" | cut -d' ' -f1)."
	echo
	awk -F, -v labels="$2" -v metrics="^($VX_METRICS)\$" '
	NR == 1 { next }
	$3 ~ metrics {
		m = $1 SUBSEP $2 SUBSEP $3
		if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
		med[m, $4] = $5; lo[m, $4] = $6; hi[m, $4] = $7
	}
	END {
		nl = split(labels, L, " ")
		printf "| workload | phase | metric |"; for (j = 1; j <= nl; j++) printf " %s |", L[j]; print ""
		printf "|---|---|---|"; for (j = 1; j <= nl; j++) printf "---:|"; print ""
		for (i = 1; i <= nm; i++) {
			m = order[i]; split(m, f, SUBSEP)
			printf "| %s | %s | %s |", f[1], f[2], f[3]
			base = med[m, L[1]]
			for (j = 1; j <= nl; j++) {
				if (!((m, L[j]) in med)) { printf " - |"; continue }
				v = med[m, L[j]]
				s = sprintf("%g", v)
				if (lo[m, L[j]] != hi[m, L[j]]) s = s sprintf(" (%g-%g)", lo[m, L[j]], hi[m, L[j]])
				if (j > 1 && base != 0) s = s sprintf(" %+.1f%%", (v - base) * 100 / base)
				else if (j > 1) s = s " n/a"
				printf " %s |", s
			}
			print ""
		}
	}' "$1"
}

# compare_plots OUT "LABELS": PNGs from OUT/compare.csv with gnuplot:
# vm_map_ram and vmap ns/op against threads (4 pages) per kernel, and
# dircreate files/s per kernel.
compare_plots() {
	_o=$1
	for _api in vm_map_ram vmap; do
		_plot=""
		for _l in $2; do
			awk -F, -v l="$_l" -v re="^$_api-p4-t" '$1 == "vmapbench" && $3 == "ns_per_op" &&
				$4 == l && $2 ~ re { sub(/.*-t/, "", $2); print $2, $5 }' "$_o/compare.csv" |
				sort -n > "$_o/plot-$_api-$_l.dat"
			[ -s "$_o/plot-$_api-$_l.dat" ] || continue
			_plot="$_plot${_plot:+, }'$_o/plot-$_api-$_l.dat' with linespoints title '$_l'"
		done
		[ -n "$_plot" ] || continue
		gnuplot <<-GP
		set terminal png size 900,600 noenhanced
		set output '$_o/vmapbench-$_api.png'
		set title '$_api + touch + unmap of 4 pages: ns per iteration'
		set xlabel 'threads'; set ylabel 'ns/op'; set logscale y; set xtics 1
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
