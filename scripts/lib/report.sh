# Comparison tables and plots over kernels (sourced; needs common.sh).
# shellcheck shell=sh

# The figures worth a row in a comparison: throughput, latency, IPIs,
# and what the vmap layer counted in debugfs vmap/stats (vs_*: purges,
# its TLB flushes, vm_map_ram() from a block or an area, blocks created
# and reclaimed; kernels without vmap/stats show "-").
VX_METRICS='ns_per_op|x_floor|tlb_per_1000|cal_per_1000|tlb_ipis_per_1000|cal_ipis_per_1000|maps_per_1000|unmaps_per_1000|lock_contentions_per_1000|usec|files_per_s|read_iops|write_iops|tlb_ipis|cal_ipis|vs_purges|vs_tlb_flushes|vs_vm_map_ram_block|vs_vm_map_ram_area|vs_blocks_new|vs_blocks_reclaimed'

# fmtn(v) in awk: integers as they are, other numbers with two decimals (not
# awk's %.6g, which turns 37388000 into 3.7388e+07).
VX_AWK_FMT='function fmtn(v) { return (v == int(v)) ? sprintf("%d", v) : sprintf("%.2f", v) }'

# compare_csv DIR: DIR/compare.csv (workload,phase,key,kernel,median,min,
# max,n) from DIR/raw.csv (round,kernel,workload,phase,key,value).  Derived
# rows: vmapbench x_floor, a case's ns_per_op over the floor case of the
# same pages and threads on the same kernel, per round.
compare_csv() {
	awk -F, '{ print }
		$3 == "vmapbench" && $5 == "ns_per_op" { ns[$1 "," $2 "," $4] = $6 }
		END {
			for (k in ns) {
				split(k, f, ","); ph = f[3]
				if (ph ~ /^floor-/) continue
				fp = ph; sub(/^[^-]*-/, "floor-", fp); fl = f[1] "," f[2] "," fp
				if ((fl in ns) && ns[fl] > 0)
					printf "%s,%s,vmapbench,%s,x_floor,%.2f\n", f[1], f[2], ph, ns[k] / ns[fl]
			}
		}' "$1/raw.csv" |
	sort -t, -k3,3 -k4,4 -k5,5 -k2,2 -k6,6g | awk -F, '
	'"$VX_AWK_FMT"'
	{ m = $3 "," $4 "," $5 "," $2; v[m, ++n[m]] = $6; if (!(m in seen)) { seen[m] = 1; order[++nm] = m } }
	END {
		for (i = 1; i <= nm; i++) {
			m = order[i]; c = n[m]
			med = (c % 2) ? v[m, (c + 1) / 2] : (v[m, c / 2] + v[m, c / 2 + 1]) / 2
			print m "," fmtn(med) "," fmtn(v[m, 1]) "," fmtn(v[m, c]) "," c
		}
	}' | sort -t, -k1,1 -k2,2V -k3,3 -k4,4V > "$1/compare.csv.tmp"
	{ echo "workload,phase,key,kernel,median,min,max,n"; cat "$1/compare.csv.tmp"; } > "$1/compare.csv"
	rm -f "$1/compare.csv.tmp"
}

# summary_table CSV "LABELS" WORKLOAD METRIC: one row per phase, one column
# per kernel: the median, its spread ((max - min) / 2 / median) and its ratio
# to the first kernel's median.
summary_table() {
	awk -F, -v labels="$2" -v w="$3" -v metric="$4" '
	'"$VX_AWK_FMT"'
	$1 == w && $3 == metric {
		if (!($2 in seen)) { seen[$2] = 1; order[++np] = $2 }
		med[$2, $4] = $5; lo[$2, $4] = $6; hi[$2, $4] = $7; n = $8
	}
	END {
		if (!np) exit
		nl = split(labels, L, " ")
		printf "| %s |", w == "vmapbench" ? "case" : "phase"
		for (j = 1; j <= nl; j++) printf " %s |", L[j]
		print ""; printf "|---|"; for (j = 1; j <= nl; j++) printf "---:|"; print ""
		for (i = 1; i <= np; i++) {
			p = order[i]; printf "| %s |", p
			for (j = 1; j <= nl; j++) {
				if (!((p, L[j]) in med)) { printf " - |"; continue }
				v = med[p, L[j]]; s = fmtn(v)
				if (v != 0 && hi[p, L[j]] != lo[p, L[j]])
					s = s sprintf(" ±%d%%", (hi[p, L[j]] - lo[p, L[j]]) * 50 / v)
				b = med[p, L[1]]
				if (j > 1 && ((p, L[1]) in med) && b != 0) s = s sprintf(" (%.2fx)", v / b)
				printf " %s |", s
			}
			print ""
		}
	}' "$1"
}

# versus_table CSV VS "LABELS" WORKLOAD METRIC: VS's median over each
# other kernel's, per phase (below 1.00: VS takes less).
versus_table() {
	awk -F, -v vs="$2" -v labels="$3" -v w="$4" -v metric="$5" '
	$1 == w && $3 == metric {
		if (!($2 in seen)) { seen[$2] = 1; order[++np] = $2 }
		med[$2, $4] = $5
	}
	END {
		if (!np) exit
		nl = split(labels, L, " ")
		printf "| %s |", w == "vmapbench" ? "case" : "phase"
		for (j = 1; j <= nl; j++) if (L[j] != vs) printf " %s / %s |", vs, L[j]
		print ""; printf "|---|"; for (j = 1; j <= nl; j++) if (L[j] != vs) printf "---:|"; print ""
		for (i = 1; i <= np; i++) {
			p = order[i]; printf "| %s |", p
			for (j = 1; j <= nl; j++) {
				if (L[j] == vs) continue
				a = med[p, vs]; b = med[p, L[j]]
				if (((p, vs) in med) && ((p, L[j]) in med) && b != 0) printf " %.2f |", a / b
				else printf " - |"
			}
			print ""
		}
	}' "$1"
}

# compare_md DIR "LABELS": the report.  Kernels, then per benchmark its
# summary tables, then every figure (compare-kernels style).
compare_md() {
	_c=$1/compare.csv
	_vs=${VS:-}
	[ -n "$_vs" ] || case " $2 " in *" full "*) _vs=full ;; esac
	echo "# Compare: $(echo "$2" | sed 's/ *$//; s/ / vs /g')"
	echo
	sed 's/^/    /' "$1/command"
	echo
	cat "$1/kernels.md"
	echo
	echo "Rounds: $(cut -d, -f1 "$1/raw.csv" | sort -u | wc -l), interleaved; medians, ±spread = (max - min) / 2 / median, (Nx) = ratio to $(echo "$2" | cut -d' ' -f1)."
	echo "Timings under TCG compare kernels of the same run only; IPI counts are exact."
	if grep -q '^vmapbench,.*,ns_per_op,' "$_c"; then
		echo; echo "## vmapbench: ns per map + touch + check + unmap"; echo
		summary_table "$_c" "$2" vmapbench ns_per_op
		if [ -n "$_vs" ]; then
			echo; echo "### $_vs versus each kernel (ratio of medians; <= 1.00: $_vs as fast or faster)"; echo
			versus_table "$_c" "$_vs" "$2" vmapbench ns_per_op
		fi
		if grep -q '^vmapbench,.*,x_floor,' "$_c"; then
			echo; echo "### x_floor: ns per op over the same kernel's floor (same loop, PTE writes only)"; echo
			summary_table "$_c" "$2" vmapbench x_floor
		fi
		echo; echo "### Function-call (TLB flush) IPIs per 1000 ops"; echo
		summary_table "$_c" "$2" vmapbench cal_per_1000
	fi
	if grep -q '^vmalloc,.*,usec,' "$_c"; then
		echo; echo "## test_vmalloc: usec per test (mean over threads)"; echo
		summary_table "$_c" "$2" vmalloc usec
	fi
	for _w in $(awk -F, '$3 == "files_per_s" || $3 ~ /_iops$/ { print $1 }' "$_c" | sort -u); do
		echo; echo "## $_w: throughput, and what the kernel counted per 1000 file operations"; echo
		for _m in files_per_s read_iops write_iops maps_per_1000 unmaps_per_1000 \
			tlb_ipis_per_1000 cal_ipis_per_1000 lock_contentions_per_1000; do
			grep -q "^$_w,[^,]*,$_m," "$_c" || continue
			echo "$_m:"; echo; summary_table "$_c" "$2" "$_w" "$_m"; echo
		done
	done
	echo; echo "## Every figure"; echo
	echo "Median over rounds, (min-max) when they differ, and the change against $(echo "$2" | cut -d' ' -f1)."
	echo
	awk -F, -v labels="$2" -v metrics="^($VX_METRICS)\$" '
	'"$VX_AWK_FMT"'
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
				s = fmtn(v)
				if (lo[m, L[j]] != hi[m, L[j]]) s = s " (" fmtn(lo[m, L[j]]) "-" fmtn(hi[m, L[j]]) ")"
				if (j > 1 && base != 0) s = s sprintf(" %+.1f%%", (v - base) * 100 / base)
				else if (j > 1) s = s " n/a"
				printf " %s |", s
			}
			print ""
		}
	}' "$_c"
}

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

# compare_report DIR: compare.csv, kernels.md, compare.md and the plots
# from DIR/raw.csv and DIR/kernels.txt.
compare_report() {
	_labels=$(awk '{ printf "%s ", $1 }' "$1/kernels.txt")
	compare_csv "$1"
	kernels_md "$1" > "$1/kernels.md"
	compare_md "$1" "$_labels" > "$1/compare.md"
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
