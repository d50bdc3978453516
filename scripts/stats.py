#!/usr/bin/python3
"""Statistics of a make compare run: medians, ratios between kernels with
their 95% confidence intervals and a verdict, and the Markdown tables of
compare.md.  Debian's python3-numpy and python3-scipy.

    stats.py report DIR "LABELS" [VS]   DIR/compare.csv, DIR/ratios.csv and
                                         the body of compare.md (stdout)
    stats.py auto DIR "LABELS" VS PCT   exit 0 when every ratio of VS to
                                         another kernel has a 95% interval
                                         within +-PCT%; else list the cases
                                         still short of it and exit 3 (2:
                                         no ratio to judge)

Input: DIR/raw.csv, rows of round,kernel,workload,phase,key,value.  A round
is one boot of each kernel; a boot may report a figure several times (the
vmapbench step's repetitions, interleaved with the other cases): those are
that round's samples, in the order they were measured.  Optional
DIR/host.csv (round,kernel,others_cpu_pct,load1): how busy the host was
with other work during each boot.

Method.  A boot's value of a timing or throughput figure is its best
sample: interference from the host only slows a run down, so the fastest
repetition is the least disturbed one (on a 10-round run of stock 6.1,
full and 6.12, taking it rather than the median narrowed the median
interval of full's ratios from +-14.8% to +-10.0%).  Counts take the
median.  Between two kernels the unit is
the boot: with the boots' values a_1..a_n and b_1..b_m, the ratio is
exp(mean(log a) - mean(log b)), the ratio of geometric means, and its 95%
interval comes from Welch's t-test on the logarithms (timings are skewed;
their logarithms much less so, and a ratio is a difference of
logarithms).  Welch's test does not assume equal variances and its t
distribution suits few rounds.  Verdict: "faster" or "slower" when the
interval excludes 1, by the direction of the metric (ns and usec: lower is
better; files/s, IOPS, MB/s: higher is better); else "~", no significant
difference.  One boot per kernel gives no interval ("n/a").
"""
import csv
import math
import os
import re
import sys
from collections import OrderedDict, defaultdict

import numpy as np
from scipy import stats

# Figures where lower is better / higher is better: the ones that get a
# ratio and a verdict.  Counts (IPIs, maps per 1000 operations) are exact
# and shown as they are.
LOWER = {"ns_per_op", "usec", "x_floor"}
HIGHER = {"files_per_s", "read_iops", "write_iops", "mb_per_s"}
# x_floor is ns_per_op over the floor: not a figure of its own in a tally.
TALLY = (LOWER | HIGHER) - {"x_floor"}
# The figures of the "Every figure" table.
SHOWN = ["ns_per_op", "x_floor", "tlb_per_1000", "cal_per_1000",
         "tlb_ipis_per_1000", "cal_ipis_per_1000", "maps_per_1000",
         "unmaps_per_1000", "maps_per_mb", "ipis_per_mb",
         "lock_contentions_per_1000", "usec", "files_per_s", "read_iops",
         "write_iops", "mb_per_s", "tlb_ipis", "cal_ipis", "vs_purges",
         "vs_tlb_flushes", "vs_vm_map_ram_block", "vs_vm_map_ram_area",
         "vs_blocks_new", "vs_blocks_reused", "vs_blocks_reclaimed"]
CONFIDENCE = 0.95
# A boot during which other work used more than this share of one host
# core is flagged as run on a busy host.
BUSY_PCT = 25.0


def fmtn(v):
    """Integers, and numbers from 100 up, as integers; others with two
    decimals."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return "%d" % round(v) if float(v) == int(v) or abs(v) >= 100 else "%.2f" % v


def read_raw(path):
    """(round, kernel, workload, phase, key) -> [values], in file order.
    (vmapbench's rep= is which repetition a line is, not a figure.)"""
    samples = OrderedDict()
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if len(row) != 6 or row[0] == "round" or row[4] == "rep":
                continue
            try:
                value = float(row[5])
            except ValueError:
                continue
            samples.setdefault((int(row[0]), row[1], row[2], row[3], row[4]), []).append(value)
    return samples


def best(key, vals):
    """A boot's value of a figure from its samples.  Interference from the
    host only ever slows a run down, so the sample it disturbed least is
    the fastest: the least time, the most throughput.  Counts (IPIs, maps)
    take the median."""
    if key in LOWER:
        return min(vals)
    if key in HIGHER:
        return max(vals)
    return float(np.median(vals))


def add_x_floor(samples):
    """vmapbench x_floor: a case's ns_per_op over the floor case of the
    same pages and threads, same kernel and boot: the best sample of each."""
    derived = OrderedDict()
    for (r, k, w, ph, key), vals in samples.items():
        if w != "vmapbench" or key != "ns_per_op" or ph.startswith("floor-"):
            continue
        floor = samples.get((r, k, w, "floor-" + ph.split("-", 1)[-1], key))
        if floor and min(floor) > 0:
            derived[(r, k, w, ph, "x_floor")] = [min(vals) / min(floor)]
    samples.update(derived)
    return samples


def per_boot(samples):
    """(workload, phase, key, kernel) -> {round: best() of its samples},
    and the same -> the number of samples."""
    boots, counts = OrderedDict(), defaultdict(int)
    for (r, k, w, ph, key), vals in samples.items():
        boots.setdefault((w, ph, key, k), {})[r] = float(best(key, vals))
        counts[(w, ph, key, k)] += len(vals)
    return boots, counts


def ratio_ci(a, b, confidence=CONFIDENCE):
    """Ratio of geometric means of a over b, its interval (Welch's t on
    the logarithms) and the p-value; interval and p are None with fewer
    than two values on a side or none that vary."""
    la, lb = np.log(np.asarray(a, float)), np.log(np.asarray(b, float))
    ratio = float(np.exp(la.mean() - lb.mean()))
    if len(la) < 2 or len(lb) < 2:
        return ratio, None, None, None
    va, vb = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    se = math.sqrt(va + vb)
    if se == 0:
        return ratio, ratio, ratio, (0.0 if ratio != 1 else 1.0)
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))
    half = stats.t.ppf(0.5 + confidence / 2, df) * se
    p = float(2 * stats.t.sf(abs(la.mean() - lb.mean()) / se, df))
    return ratio, ratio * math.exp(-half), ratio * math.exp(half), p


def mean_ci(v, confidence=CONFIDENCE):
    """Geometric mean of v over boots and its interval (t on the
    logarithms); the interval is None with fewer than two values."""
    lv = np.log(np.asarray(v, float))
    m = float(np.exp(lv.mean()))
    if len(lv) < 2:
        return m, None, None
    half = stats.t.ppf(0.5 + confidence / 2, len(lv) - 1) * lv.std(ddof=1) / math.sqrt(len(lv))
    return m, m * math.exp(-half), m * math.exp(half)


def verdict(key, lo, hi):
    """faster / slower / ~ (no significant difference) / n/a."""
    if lo is None:
        return "n/a"
    if lo <= 1 <= hi:
        return "~"
    better = hi < 1 if key in LOWER else lo > 1
    return "faster" if better else "slower"


class Run:
    """A compare run's figures, per boot, and the ratios between kernels."""

    def __init__(self, d, labels):
        self.dir = d
        self.labels = labels
        self.samples = add_x_floor(read_raw(os.path.join(d, "raw.csv")))
        self.boots, self.counts = per_boot(self.samples)
        self.rows = OrderedDict()   # (workload, phase, key) in first-seen order
        for (w, ph, key, k) in self.boots:
            self.rows.setdefault((w, ph, key), None)

    def values(self, w, ph, key, k):
        b = self.boots.get((w, ph, key, k))
        return [b[r] for r in sorted(b)] if b else []

    def ratio(self, w, ph, key, k, base):
        """(ratio, lo, hi, p, verdict) of kernel k over base, or None."""
        a, b = self.values(w, ph, key, k), self.values(w, ph, key, base)
        if not a or not b or min(a + b) <= 0:
            return None
        r, lo, hi, p = ratio_ci(a, b)
        return r, lo, hi, p, verdict(key, lo, hi)

    def write_csvs(self):
        with open(os.path.join(self.dir, "compare.csv"), "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(["workload", "phase", "key", "kernel", "median", "min", "max", "n", "samples"])
            for (w, ph, key, k) in sorted(self.boots, key=sort_key):
                v = self.values(w, ph, key, k)
                out.writerow([w, ph, key, k, fmtn(float(np.median(v))), fmtn(min(v)), fmtn(max(v)),
                              len(v), self.counts[(w, ph, key, k)]])
        with open(os.path.join(self.dir, "ratios.csv"), "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(["workload", "phase", "key", "kernel", "base", "ratio", "ci_lo", "ci_hi",
                          "p", "verdict"])
            for (w, ph, key) in self.rows:
                if key not in LOWER | HIGHER:
                    continue
                for k in self.labels:
                    for base in self.labels:
                        res = None if k == base else self.ratio(w, ph, key, k, base)
                        if res:
                            r, lo, hi, p, v = res
                            out.writerow([w, ph, key, k, base, "%.4f" % r,
                                          "" if lo is None else "%.4f" % lo,
                                          "" if hi is None else "%.4f" % hi,
                                          "" if p is None else "%.4g" % p, v])


def sort_key(k):
    """workload, phase (numbers in it as numbers), key, kernel."""
    w, ph, key, kern = k
    nat = [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", ph)]
    return (w, [(0, t) if isinstance(t, int) else (1, t) for t in nat], key, kern)


def cell_ratio(res):
    """A ratio with its interval and verdict, e.g. '0.91 [0.88-0.94] faster'."""
    r, lo, hi, p, v = res
    if lo is None:
        return "%.2f (n/a: one round)" % r
    return "%.2f [%.2f-%.2f] %s" % (r, lo, hi, v)


def median_cell(v, spread):
    """The median of a kernel's boot values and its text, with the spread
    as '±N%' ((max - min) / 2 / median, spread "pct") or '(min-max)'."""
    m = float(np.median(v))
    s = fmtn(m)
    if spread == "pct" and m and max(v) != min(v):
        s += " ±%d%%" % ((max(v) - min(v)) * 50 / m)
    elif spread == "range" and fmtn(min(v)) != fmtn(max(v)):
        s += " (%s-%s)" % (fmtn(min(v)), fmtn(max(v)))
    return m, s


def kernel_table(run, w, key, cell):
    """Per phase, a column per kernel: cell(phase, kernel, its boot
    values), "-" where a kernel has none."""
    phases = [ph for (ww, ph, kk) in run.rows if ww == w and kk == key]
    if not phases:
        return []
    out = ["| %s | %s |" % ("case" if w == "vmapbench" else "phase", " | ".join(run.labels)),
           "|---|" + "---:|" * len(run.labels)]
    for ph in phases:
        cells = []
        for k in run.labels:
            v = run.values(w, ph, key, k)
            cells.append(cell(ph, k, v) if v else "-")
        out.append("| %s | %s |" % (ph, " | ".join(cells)))
    return out


def summary_table(run, w, key):
    """Per phase: each kernel's median over boots and its spread, and its
    ratio to the first kernel with the verdict."""
    base = run.labels[0]

    def cell(ph, k, v):
        s = median_cell(v, "pct")[1]
        if k != base and key in LOWER | HIGHER:
            res = run.ratio(w, ph, key, k, base)
            if res:
                s += " (%.2fx %s)" % (res[0], res[4])
        return s

    return kernel_table(run, w, key, cell)


def level_table(run, w, key):
    """Per phase: each kernel's geometric mean over boots with its 95%
    interval, for a figure held against a fixed goal (x_floor at most
    1.5, say): met with confidence when the interval lies below it."""

    def cell(ph, k, v):
        m, lo, hi = mean_ci(v)
        return "%.2f" % m if lo is None else "%.2f [%.2f-%.2f]" % (m, lo, hi)

    return kernel_table(run, w, key, cell)


def versus_table(run, vs, w, key):
    """Per phase: VS over each other kernel, interval and verdict."""
    others = [k for k in run.labels if k != vs]
    phases = [ph for (ww, ph, kk) in run.rows if ww == w and kk == key]
    if not phases or not others:
        return []
    out = ["| %s | %s |" % ("case" if w == "vmapbench" else "phase",
                            " | ".join("%s / %s" % (vs, k) for k in others)),
           "|---|" + "---:|" * len(others)]
    for ph in phases:
        cells = []
        for k in others:
            res = run.ratio(w, ph, key, vs, k)
            cells.append(cell_ratio(res) if res else "-")
        out.append("| %s | %s |" % (ph, " | ".join(cells)))
    return out


def verdict_figures(run, floored):
    """The figures a kernel pair is judged on: every timing or throughput
    figure but the floor cases (the same PTE writes on every kernel, a
    control).  With FLOORED, vmapbench's cases are taken over their floor
    (x_floor): a boot that runs slower as a whole, floor included, then
    moves nothing.  Both kernels' floors are the same code, so the ratio of
    x_floor estimates the ratio of ns_per_op."""
    for (w, ph, key) in run.rows:
        if w == "vmapbench" and ph.startswith("floor-"):
            continue
        if floored and w == "vmapbench" and key == "ns_per_op" and (w, ph, "x_floor") in run.rows:
            continue
        # One figure per phase: a phase that reports a throughput also
        # reports its time (usec), the same measurement under two names.
        if key in LOWER and any((w, ph, h) in run.rows for h in HIGHER):
            continue
        if key in TALLY or (floored and key == "x_floor"):
            yield w, ph, key


def tally(run, vs, other, floored=False):
    """VS against OTHER over verdict_figures(): the geometric mean of the
    time ratios (a throughput ratio inverted: below 1, VS is faster) and
    the counts of faster, slower and level verdicts."""
    logs, n = [], defaultdict(int)
    for (w, ph, key) in verdict_figures(run, floored):
        res = run.ratio(w, ph, key, vs, other)
        if not res:
            continue
        r = res[0] if key in LOWER else 1 / res[0]
        logs.append(math.log(r))
        n[res[4]] += 1
    if not logs:
        return None
    return math.exp(sum(logs) / len(logs)), len(logs), n


def host_flags(d):
    """Boots that ran while other work used the host, or while the host's
    hypervisor took its CPUs away (steal): [(round, kernel, what)]."""
    p = os.path.join(d, "host.csv")
    if not os.path.exists(p):
        return None
    flagged = []
    with open(p, newline="") as f:
        for row in csv.DictReader(f):
            what = []
            for key, name in (("others_cpu_pct", "other work"), ("steal_pct", "steal")):
                try:
                    pct = float(row.get(key) or "nan")
                except ValueError:
                    continue
                if pct > BUSY_PCT:
                    what.append("%s %.0f%%" % (name, pct))
            if what:
                flagged.append((row["round"], row["kernel"], ", ".join(what)))
    return flagged


def section(title, table):
    """A heading and its table, or nothing when the table is empty."""
    return ["", title, ""] + table if table else []


def report(d, labels, vs):
    run = Run(d, labels)
    run.write_csvs()
    if vs not in labels:
        vs = None
    rounds = sorted({r for (r, k, w, ph, key) in run.samples})
    out = ["Rounds: %d, interleaved (each kernel booted once per round).  A boot's value of a timing or"
           " throughput figure is its best sample (host interference only slows a run down), of a count the"
           " median; the table cells are the median over boots and ±spread = (max - min) / 2 / median.  Ratios are of geometric means over boots, with the 95%% interval of Welch's t-test on"
           " the logarithms: \"faster\" or \"slower\" when the interval excludes 1, \"~\" when the difference"
           " is not significant." % len(rounds),
           "Timings under TCG compare kernels of the same run only; IPI counts are exact."]
    flags = host_flags(d)
    if flags is not None:
        out += ["", "Host load (host.csv): %s" % (
            "no boot ran while other work, or steal, took more than %d%% of a host core." % BUSY_PCT
            if not flags else
            "%d boot(s) ran while other work, or steal, took more than %d%% of a host core: %s.  Their"
            " figures are kept; read them with that in mind." % (len(flags), BUSY_PCT, ", ".join(
                "r%s-%s (%s)" % f for f in flags)))]
    if vs:
        out += ["", "## Summary: %s against each kernel" % vs, ""]
        floors = any(key == "x_floor" for (w, ph, key) in run.rows)
        for floored in ([False, True] if floors else [False]):
            for k in labels:
                if k == vs:
                    continue
                t = tally(run, vs, k, floored)
                if t:
                    g, cases, n = t
                    out.append("- %s / %s%s: geometric mean of time ratios %.3f over %d case(s) (below 1: %s"
                               " faster): %d faster, %d slower, %d no significant difference%s" % (
                                   vs, k, ", vmapbench over its floor" if floored else "", g, cases, vs,
                                   n["faster"], n["slower"], n["~"],
                                   ", %d without an interval (one round)" % n["n/a"] if n["n/a"] else ""))
    if any(w == "vmapbench" and key == "ns_per_op" for (w, ph, key) in run.rows):
        out += ["", "## vmapbench: ns per map + touch + check + unmap", ""]
        out += summary_table(run, "vmapbench", "ns_per_op")
        if vs:
            out += ["", "### %s versus each kernel (ratio, 95%% interval, verdict; below 1.00: %s faster)" % (vs, vs), ""]
            out += versus_table(run, vs, "vmapbench", "ns_per_op")
        out += section("### x_floor: ns per op over the same kernel's floor (same loop, PTE writes only)",
                       summary_table(run, "vmapbench", "x_floor"))
        out += section("### x_floor: geometric mean over boots with its 95% interval (against a fixed goal:"
                       " met with confidence where the whole interval is below it)",
                       level_table(run, "vmapbench", "x_floor"))
        if vs:
            out += section("### %s versus each kernel in x_floor (a boot's speed as a whole, which moves its floor"
                           " too, divided out)" % vs, versus_table(run, vs, "vmapbench", "x_floor"))
        out += section("### Function-call (TLB flush) IPIs per 1000 ops",
                       summary_table(run, "vmapbench", "cal_per_1000"))
    if any(w == "vmalloc" and key == "usec" for (w, ph, key) in run.rows):
        out += ["", "## test_vmalloc: usec per test (mean over threads)", ""]
        out += summary_table(run, "vmalloc", "usec")
        if vs:
            out += ["", "### %s versus each kernel" % vs, ""]
            out += versus_table(run, vs, "vmalloc", "usec")
    workloads = sorted({w for (w, ph, key) in run.rows if key in HIGHER})
    for w in workloads:
        out += ["", "## %s: throughput, and what the kernel counted per 1000 file operations (or per MB)" % w, ""]
        for key in ["files_per_s", "mb_per_s", "read_iops", "write_iops", "maps_per_1000", "unmaps_per_1000",
                    "maps_per_mb", "ipis_per_mb", "tlb_ipis_per_1000", "cal_ipis_per_1000",
                    "lock_contentions_per_1000"]:
            t = summary_table(run, w, key)
            if t:
                out += [key + ":", ""] + t + [""]
                if vs and key in HIGHER:
                    out += ["%s versus each kernel (above 1.00: %s faster):" % (vs, vs), ""]
                    out += versus_table(run, vs, w, key) + [""]
    out += ["", "## Every figure", "",
            "Median over boots, (min-max) when they differ, and the change against %s." % labels[0], ""]
    out.append("| workload | phase | metric | %s |" % " | ".join(labels))
    out.append("|---|---|---|" + "---:|" * len(labels))
    for (w, ph, key) in run.rows:
        if key not in SHOWN:
            continue
        cells = []
        base = run.values(w, ph, key, labels[0])
        bm = float(np.median(base)) if base else None
        for k in labels:
            v = run.values(w, ph, key, k)
            if not v:
                cells.append("-")
                continue
            m, s = median_cell(v, "range")
            if k != labels[0]:
                s += " %+.1f%%" % ((m - bm) * 100 / bm) if bm else " n/a"
            cells.append(s)
        out.append("| %s | %s | %s | %s |" % (w, ph, key, " | ".join(cells)))
    print("\n".join(out))


def auto(d, labels, vs, pct):
    """REPEAT=auto: the ratios of VS to each other kernel whose interval is
    wider than +-pct%, or that have none yet, over verdict_figures().
    Returns 0 when there is none, 3 when there are, 2 when there was no
    ratio to judge.
    (Over x_floor instead, the intervals of a 10-round run of 3 kernels
    were wider: a median half width of 12.6% against 10.0% for ns_per_op;
    the floor's own samples vary as much as the cases'.)"""
    run = Run(d, labels)
    short, checked = [], 0
    for (w, ph, key) in verdict_figures(run, False):
        for k in labels:
            if k == vs:
                continue
            res = run.ratio(w, ph, key, vs, k)
            if not res:
                continue
            checked += 1
            r, lo, hi = res[:3]
            width = None if lo is None else max(r / lo, hi / r) - 1
            if width is None or width * 100 > pct:
                short.append("%s %s %s %s/%s: %s" % (w, ph, key, vs, k,
                                                  "no interval yet" if width is None else "±%.1f%%" % (width * 100)))
    if not checked:
        print("no ratio of %s to another kernel to judge (no boot reported a figure?)" % vs)
        return 2
    for s in short:
        print("short of ±%g%%: %s" % (pct, s))
    return 3 if short else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "report":
        report(argv[1], argv[2].split(), argv[3] if len(argv) > 3 else None)
        return 0
    if len(argv) == 5 and argv[0] == "auto":
        return auto(argv[1], argv[2].split(), argv[3], float(argv[4]))
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
