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

# results_csv LOG KERNEL: kernel,workload,phase,key,value rows.
results_csv() {
	markers "$1" | awk -v k="$2" '$1 == "RESULT" {
		ph = ""; for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "phase") ph = kv[2] }
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] != "phase") print k "," $2 "," ph "," kv[1] "," kv[2] } }'
}

# results_md CSV: a Markdown table of the throughput, latency and IPI figures.
results_md() {
	echo "| kernel | workload | phase | metric | value |"
	echo "|---|---|---|---|---|"
	grep -E ',(files_per_s|read_iops|write_iops|seconds|tlb_ipis|cal_ipis|ns_per_op|tlb_per_1000|cal_per_1000|vs_purges|vs_tlb_flushes|failures|maps|dirty_peak_kb|fragmented_peak_kb|blocks_reclaimed),' "$1" |
		awk -F, '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }'
}
