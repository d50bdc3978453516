# Parsing of a guest console log (sourced; needs common.sh).
# shellcheck shell=sh

# Splats that fail a run wherever they appear in the console.
VX_SPLAT='Kernel panic|Oops|BUG:|WARNING:|general protection fault|Unable to handle kernel|possible recursive locking|circular locking dependency|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|KASAN:|UBSAN:|list_(add|del) corruption|watchdog: BUG|rcu_sched self-detected stall|segfault at'

# markers LOG: the @@VX lines, clean.
markers() { tr -d '\r' < "$1" | grep -a -o '@@VX .*' | sed 's/^@@VX //'; }

# splats LOG: the splat lines.  Between "@@VX EXPECT-WARN begin" and "end"
# (a bad-input test) a WARN is expected; anything fatal still counts.
VX_FATAL='Kernel panic|Oops|BUG:|general protection fault|Unable to handle kernel'
splats() {
	tr -d '\r' < "$1" | awk -v fatal="$VX_FATAL" '/@@VX EXPECT-WARN begin/ { x = 1 }
		/@@VX EXPECT-WARN end/ { x = 0 } !x || $0 ~ fatal' | grep -a -E "$VX_SPLAT" || true
}

# results_csv LOG: workload,phase,metric,value rows, one per figure the
# guest reported (the kernel is named once, in the run's identity file).
results_csv() {
	markers "$1" | awk '$1 == "RESULT" {
		ph = ""; for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "phase") ph = kv[2] }
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] != "phase") print $2 "," ph "," kv[1] "," kv[2] } }'
}

# results_md CSV IDENTITY: the kernel's identity once, then a Markdown
# table of the throughput, latency and IPI figures.
results_md() {
	echo "# Results"
	echo
	sed 's/^/    /' "$2"
	echo
	echo "| workload | phase | metric | value |"
	echo "|---|---|---|---|"
	grep -E '^[^,]*,[^,]*,(files_per_s|read_iops|write_iops|seconds|tlb_ipis|cal_ipis|ns_per_op|usec|tlb_per_1000|cal_per_1000|tlb_ipis_per_1000|cal_ipis_per_1000|maps_per_1000|unmaps_per_1000|lock_contentions_per_1000|mb_per_s|maps_per_mb|ipis_per_mb|vs_purges|vs_tlb_flushes|vs_area_cache_hits|failures|maps|dirty_peak_kb|fragmented_peak_kb|blocks_reclaimed),' "$1" |
		awk -F, '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
}

# run_summary CSV TESTS: a few lines a person reads at a glance: per
# workload its throughput per phase (or its latency range), the IPIs of
# the whole run, and its tests passed and failed.
run_summary() {
	awk -F, -v tests="$2" '
	BEGIN {
		while ((getline l < tests) > 0) {
			split(l, f, " "); n = f[3]; sub(/^(wl|cread):/, "", n); sub(/:.*/, "", n)
			if (f[2] == "PASS") np[n]++; else if (f[2] == "FAIL") nf[n]++
			if (!(n in seen)) { seen[n] = 1; order[++nw] = n }
		}
	}
	FNR == 1 && $1 == "workload" { next }
	{
		w = $1
		if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
		if ($3 ~ /^(files_per_s|read_iops|write_iops|mb_per_s)$/ && $4 + 0 > 0) {
			u = ($3 == "files_per_s") ? " files/s" : ($3 == "mb_per_s") ? " MB/s" : " " $3
			thr[w] = thr[w] sprintf("%s%s %d%s", thr[w] ? ", " : "", $2, $4, u)
		}
		if ($3 == "ns_per_op" && w == "vmapbench" && $2 !~ /^floor-/) {
			nc[w]++; if (!(w in lo) || $4 + 0 < lo[w]) lo[w] = $4 + 0
			if ($4 + 0 > hi[w]) hi[w] = $4 + 0
		}
		if ($3 == "usec" && w == "vmalloc") { nu[w]++; us[w] += $4 }
		if ($2 == "all" && $3 == "tlb_ipis") tlb[w] = $4
		if ($2 == "all" && $3 == "cal_ipis") cal[w] = $4
	}
	END {
		for (i = 1; i <= nw; i++) {
			w = order[i]; s = thr[w]
			if (nc[w]) s = s sprintf("%s%d cases, %d-%d ns/op", s ? ", " : "", nc[w], lo[w], hi[w])
			if (nu[w]) s = s sprintf("%s%d tests, %d usec in all", s ? ", " : "", nu[w], us[w])
			if (w in cal) s = s sprintf("%sIPIs tlb %d cal %d", s ? "; " : "", tlb[w], cal[w])
			printf "  %-14s %-7s %s\n", w, (nf[w] ? "FAIL " nf[w] : np[w] ? "pass " np[w] : "-"), s
		}
	}' "$1"
}

# ---- plans: the guest's steps are images/steps/NAME.sh ---------------------

# step_file NAME: the file of a guest step.
step_file() { echo "$VX_ROOT/images/steps/$1.sh"; }

# step_takes_arg NAME: the step's usage line is "NAME:ARG ...".
step_takes_arg() { grep -q '^# usage: [a-z0-9-]*:[A-Z]' "$(step_file "$1")"; }

# plan_steps: every step's usage line (make steps).
plan_steps() {
	for _f in "$VX_ROOT"/images/steps/*.sh; do
		awk '/^# usage: / { u = substr($0, 10); exit }
			NR > 1 { sub(/^# (step [^:]*: )?/, ""); d = d (d ? " " : "") $0 }
			END { sub(/\. .*/, ".", d); printf "  %s\n      %s\n", u, d }' "$_f"
	done
}

# plan_check PLAN: refuse, before any build, a step the guest does not
# have, an argument to a step that takes none, and a workload with no
# workloads/NAME.wl.
plan_check() {
	for _s in $(echo "$1" | tr ',' ' '); do
		_n=${_s%%:*}
		[ -f "$(step_file "$_n")" ] ||
			die "PLAN: no guest step '$_n' (images/steps/$_n.sh); 'make steps' lists them"
		case $_s in
		*:*)
			step_takes_arg "$_n" || die "PLAN: step '$_n' takes no argument ('$_s')"
			[ -f "$VX_ROOT/workloads/${_s#*:}.wl" ] ||
				die "PLAN: '$_s' names no workload (workloads/${_s#*:}.wl)" ;;
		*)
			! step_takes_arg "$_n" ||
				die "PLAN: step '$_n' needs an argument: $(sed -n 's/^# usage: //p' "$(step_file "$_n")")" ;;
		esac
	done
}
