#!/usr/bin/python3
"""Unit tests of scripts/stats.py on fixed data with known answers.
Prints PASS/FAIL lines (selftest.sh counts them) and exits non-zero on
a failure."""
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402


def write_raw(d, rows):
    with open(os.path.join(d, "raw.csv"), "w") as f:
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")


class RatioTest(unittest.TestCase):
    def test_welch_known_answer(self):
        # log a = 0, 0.02, -0.02, 0 and b = 1.1 a: the ratio is 1.1, both
        # sides have the sample variance 0.0008/3 of their logarithms, so
        # se = sqrt(2 * 0.0008 / 3 / 4) = 0.0115470, Welch's df = 6 and
        # t(0.975, 6) = 2.446912 (tables): half width 0.0282548, and the
        # interval is 1.1 exp(-+0.0282548) = [1.069353, 1.131522].
        a = [math.exp(x) for x in (0, 0.02, -0.02, 0)]
        b = [1 / 1.1 * x for x in a]
        r, lo, hi, p = stats.ratio_ci(b, a)
        self.assertAlmostEqual(r, 1 / 1.1, places=9)
        r, lo, hi, p = stats.ratio_ci(a, b)
        self.assertAlmostEqual(r, 1.1, places=9)
        self.assertAlmostEqual(lo, 1.069353, places=5)
        self.assertAlmostEqual(hi, 1.131522, places=5)
        # t = log(1.1) / se = 8.2541 on 6 df: p = 1.7e-4 (tables).
        self.assertLess(p, 2e-4)
        self.assertGreater(p, 1.5e-4)

    def test_unequal_variances_df(self):
        # Welch-Satterthwaite: the sample variances of the logs are 0.01
        # (n=3) and 9.765625e-05 (n=5): va = 0.01/3, vb = 9.765625e-05/5,
        # df = (va+vb)^2 / (va^2/2 + vb^2/4) = 2.02349, where the t
        # quantile is between t(0.975, 2) = 4.3027 and t(0.975, 3) = 3.1824.
        a = [math.exp(x) for x in (-0.1, 0, 0.1)]
        b = [math.exp(x) for x in (-0.0125, -0.0125 / 2, 0, 0.0125 / 2, 0.0125)]
        # the sample variance of b's logs: 0.0125^2 * 2.5 / 4 = 9.765625e-05
        r, lo, hi, p = stats.ratio_ci(a, b)
        va, vb = 0.01 / 3, 9.765625e-05 / 5
        se = math.sqrt(va + vb)
        self.assertAlmostEqual(r, 1.0, places=9)
        half = math.log(hi)
        self.assertAlmostEqual(half / se, stats.stats.t.ppf(0.975, 2.02349), places=3)
        self.assertTrue(3.1824 < half / se < 4.3027)
        self.assertAlmostEqual(math.log(lo), -half, places=9)

    def test_one_round_has_no_interval(self):
        r, lo, hi, p = stats.ratio_ci([100.0], [200.0, 210.0])
        self.assertAlmostEqual(r, 100 / math.sqrt(200 * 210))
        self.assertIsNone(lo)
        self.assertEqual(stats.verdict("ns_per_op", lo, hi), "n/a")

    def test_level_known_answer(self):
        # logs 0, 0.02, -0.02, 0 times 1.5: the geometric mean is 1.5, the
        # sample variance of the logs 0.0008/3, se = sqrt(0.0008/3/4) =
        # 0.0081650, t(0.975, 3) = 3.182446 (tables): half width 0.0259846,
        # interval 1.5 exp(-+0.0259846) = [1.461525, 1.539488].
        v = [1.5 * math.exp(x) for x in (0, 0.02, -0.02, 0)]
        m, lo, hi = stats.mean_ci(v)
        self.assertAlmostEqual(m, 1.5, places=9)
        self.assertAlmostEqual(lo, 1.461525, places=5)
        self.assertAlmostEqual(hi, 1.539488, places=5)
        self.assertEqual(stats.mean_ci([1.4])[1:], (None, None))

    def test_verdicts_follow_the_metric(self):
        self.assertEqual(stats.verdict("ns_per_op", 0.8, 0.9), "faster")
        self.assertEqual(stats.verdict("ns_per_op", 1.1, 1.2), "slower")
        self.assertEqual(stats.verdict("usec", 0.95, 1.05), "~")
        self.assertEqual(stats.verdict("files_per_s", 1.1, 1.2), "faster")
        self.assertEqual(stats.verdict("mb_per_s", 0.8, 0.9), "slower")


class RunTest(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()

    def test_boot_best_sample_and_x_floor(self):
        # Round 1: three repetitions; a hiccup (9000) does not move the
        # boot's value, its best sample (2000); x_floor is the best case
        # over the best floor, 2000 / 1000; a count takes the median; the
        # rep= rows are not a figure.
        write_raw(self.d, [
            (1, "k", "vmapbench", "vmap-p4-t1", "rep", 1),
            (1, "k", "vmapbench", "vmap-p4-t1", "ns_per_op", 2200),
            (1, "k", "vmapbench", "vmap-p4-t1", "cal_per_1000", 5),
            (1, "k", "vmapbench", "floor-p4-t1", "ns_per_op", 1100),
            (1, "k", "vmapbench", "vmap-p4-t1", "rep", 2),
            (1, "k", "vmapbench", "vmap-p4-t1", "ns_per_op", 9000),
            (1, "k", "vmapbench", "vmap-p4-t1", "cal_per_1000", 1),
            (1, "k", "vmapbench", "floor-p4-t1", "ns_per_op", 1000),
            (1, "k", "vmapbench", "vmap-p4-t1", "rep", 3),
            (1, "k", "vmapbench", "vmap-p4-t1", "ns_per_op", 2000),
            (1, "k", "vmapbench", "vmap-p4-t1", "cal_per_1000", 2),
            (1, "k", "vmapbench", "floor-p4-t1", "ns_per_op", 1300),
            (1, "k", "dircreate", "create", "files_per_s", 900),
            (1, "k", "dircreate", "create", "files_per_s", 1000),
        ])
        run = stats.Run(self.d, ["k"])
        self.assertEqual(run.values("vmapbench", "vmap-p4-t1", "ns_per_op", "k"), [2000])
        self.assertEqual(run.values("vmapbench", "vmap-p4-t1", "x_floor", "k"), [2])
        self.assertEqual(run.values("vmapbench", "vmap-p4-t1", "cal_per_1000", "k"), [2])
        self.assertEqual(run.values("dircreate", "create", "files_per_s", "k"), [1000])
        self.assertEqual(run.counts[("vmapbench", "vmap-p4-t1", "ns_per_op", "k")], 3)
        self.assertNotIn(("vmapbench", "vmap-p4-t1", "rep"), run.rows)
        # Verdicts leave the floor out; floored, a case is judged by x_floor.
        self.assertEqual(list(stats.verdict_figures(run, False)),
                         [("vmapbench", "vmap-p4-t1", "ns_per_op"), ("dircreate", "create", "files_per_s")])
        self.assertEqual(sorted(stats.verdict_figures(run, True)),
                         [("dircreate", "create", "files_per_s"), ("vmapbench", "vmap-p4-t1", "x_floor")])

    def test_report_tables_and_tally(self):
        rows = []
        for r in (1, 2, 3):
            rows += [(r, "old", "vmapbench", "vm_map_ram-p4-t1", "ns_per_op", 3000 + r),
                     (r, "new", "vmapbench", "vm_map_ram-p4-t1", "ns_per_op", 1500 + r),
                     (r, "old", "vmapbench", "vmap-p4-t1", "ns_per_op", 5000 + 10 * r),
                     (r, "new", "vmapbench", "vmap-p4-t1", "ns_per_op", 5030 - 10 * r),
                     (r, "old", "dircreate", "create", "files_per_s", 1000 + r),
                     (r, "new", "dircreate", "create", "files_per_s", 900 + r),
                     # the same phase's time: not a case of its own
                     (r, "old", "dircreate", "create", "usec", 2000 - r),
                     (r, "new", "dircreate", "create", "usec", 2200 - r)]
        write_raw(self.d, rows)
        with open(os.path.join(self.d, "host.csv"), "w") as f:
            f.write("round,kernel,others_cpu_pct,steal_pct,load1,other_guests,builds\n"
                    "1,old,3,0,0.1,0,0\n2,new,80,1,1.9,0,2\n")
        out = os.path.join(self.d, "out.md")
        with open(out, "w") as f:
            old = sys.stdout
            sys.stdout = f
            try:
                stats.report(self.d, ["old", "new"], "new")
            finally:
                sys.stdout = old
        md = open(out).read()
        self.assertIn("- new / old: geometric mean of time ratios", md)
        self.assertIn("over 3 case(s) (below 1: new faster): 1 faster, 1 slower, 1 no significant difference", md)
        self.assertIn("| vm_map_ram-p4-t1 | 0.50 [0.50-0.50] faster |", md)
        self.assertIn("1 boot(s) ran while other work, or steal, took more than 25% of a host core: r2-new (other work 80%)", md)
        csv_text = open(os.path.join(self.d, "compare.csv")).read()
        self.assertIn("vmapbench,vm_map_ram-p4-t1,ns_per_op,new,1502,1501,1503,3,3\n", csv_text)
        ratios = open(os.path.join(self.d, "ratios.csv")).read()
        self.assertIn("dircreate,create,files_per_s,new,old,", ratios)
        self.assertRegex(ratios, r"dircreate,create,files_per_s,new,old,0\.900\d,[0-9.]+,[0-9.]+,[0-9.e-]+,slower")

    def test_auto_lists_wide_intervals(self):
        rows = []
        for r, (a, b) in enumerate([(100, 100), (100, 150), (100, 70)], 1):
            rows += [(r, "x", "vmalloc", "t", "usec", a), (r, "y", "vmalloc", "t", "usec", b),
                     (r, "x", "vmalloc", "u", "usec", 100 + r), (r, "y", "vmalloc", "u", "usec", 100 + r)]
        write_raw(self.d, rows)
        old = sys.stdout
        sys.stdout = open(os.path.join(self.d, "auto.out"), "w")
        try:
            self.assertEqual(stats.auto(self.d, ["x", "y"], "x", 3.0), 3)
            rows = [row for row in rows if row[3] == "u"]
            write_raw(self.d, rows)
            self.assertEqual(stats.auto(self.d, ["x", "y"], "x", 3.0), 0)
            # A VS with no figures (a typo, or no boot reported): an error,
            # never "every ratio within the target".
            self.assertEqual(stats.auto(self.d, ["x", "y"], "z", 3.0), 2)
        finally:
            sys.stdout.close()
            sys.stdout = old
        self.assertEqual(open(os.path.join(self.d, "auto.out")).read(),
                         "short of ±3%: vmalloc t usec x/y: ±157.9%\nno ratio of z to another kernel to judge"
                         " (no boot reported a figure?)\n")


class Result(unittest.TextTestResult):
    """PASS/FAIL lines, one per test."""

    def addSuccess(self, test):
        super().addSuccess(test)
        print("PASS stats: %s" % test.id().split(".", 1)[1])

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print("FAIL stats: %s: %s" % (test.id().split(".", 1)[1], err[1]))

    def addError(self, test, err):
        super().addError(test, err)
        print("FAIL stats: %s: error %s" % (test.id().split(".", 1)[1], err[1]))


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    res = unittest.TextTestRunner(resultclass=Result, stream=open(os.devnull, "w")).run(suite)
    sys.exit(0 if res.wasSuccessful() else 1)
