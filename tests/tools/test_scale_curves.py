#!/usr/bin/env python3
"""test_scale_curves.py - unit tests of tools/scale_curves.py and tools/scale_svg.py (the
scale curves of `make bench`, issue 24): reading SCALE lines, the JSON, the verdicts.

Prints one TAP line per test ("ok - NAME" / "not ok - NAME"), as tests/run_all.sh counts them.
"""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import scale_curves  # noqa: E402
import scale_svg  # noqa: E402


def run(log_text):
    """scale_curves.main on one console log: (exit status, stdout, the JSON it wrote)."""
    with tempfile.TemporaryDirectory() as d:
        log, out = os.path.join(d, "console.log"), os.path.join(d, "scale.json")
        with open(log, "w") as f:
            f.write(log_text)
        sys.argv = ["scale_curves.py", out, log]
        stdout, stderr = io.StringIO(), io.StringIO()
        with redirect_stdout(stdout), redirect_stderr(stderr):
            status = scale_curves.main()
        with open(out) as f:
            return status, stdout.getvalue(), json.load(f)


class Curves(unittest.TestCase):
    def test_points_are_read_with_carriage_returns_and_other_lines_ignored(self):
        status, _, points = run("bench: x 5 instructions\r\nSCALE a_curve 10 120\r\n"
                                "SCALE a_curve 1 100\nSCALE bad line\nxSCALE a_curve 2 3\n")
        self.assertEqual(status, 0)
        self.assertEqual(sorted((p["size"], p["value"]) for p in points), [(1, 100), (10, 120)])
        self.assertEqual({p["curve"] for p in points}, {"a_curve"})

    def test_flat_curve_is_within_and_growing_curve_is_not(self):
        _, out, _ = run("SCALE flat 1 100\nSCALE flat 1000 130\nSCALE grows 1 100\nSCALE grows 1000 131\n")
        lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("scale: ")}
        self.assertIn("within 1.3x: yes", lines["flat"])
        self.assertIn("within 1.3x: NO", lines["grows"])
        self.assertIn("1 -> 100, 1000 -> 131", lines["grows"])

    def test_largest_against_smallest_size_not_first_printed(self):
        _, out, _ = run("SCALE c 1000 500\nSCALE c 1 100\nSCALE c 10 100\n")
        self.assertIn("NO (5.00x)", out)

    def test_a_total_gets_no_verdict(self):
        _, out, _ = run("SCALE boot_kernel_by_memory_mib 128 6400000\nSCALE boot_kernel_by_memory_mib 1024 16700000\n")
        self.assertIn("a total: no goal", out)
        self.assertNotIn("within", out)

    def test_no_points_fails(self):
        status, _, points = run("bench: nothing here\n")
        self.assertEqual(status, 1)
        self.assertEqual(points, [])


class Picture(unittest.TestCase):
    def test_svg_has_a_panel_per_curve_and_the_before_line(self):
        with tempfile.TemporaryDirectory() as d:
            after, before = os.path.join(d, "a.json"), os.path.join(d, "b.json")
            json.dump([{"curve": "c1", "size": 1, "value": 10}, {"curve": "c1", "size": 100, "value": 11},
                       {"curve": "c2", "size": 8, "value": 45}, {"curve": "c2", "size": 4096, "value": 45}],
                      open(after, "w"))
            json.dump([{"curve": "c1", "size": 1, "value": 10}, {"curve": "c1", "size": 100, "value": 900}],
                      open(before, "w"))
            sys.argv = ["scale_svg.py", after, before]
            out = io.StringIO()
            with redirect_stdout(out):
                scale_svg.main()
        svg = out.getvalue()
        self.assertTrue(svg.startswith("<svg") and svg.rstrip().endswith("</svg>"))
        self.assertIn(">c1</text>", svg)
        self.assertIn(">c2</text>", svg)
        self.assertEqual(svg.count("stroke-dasharray"), 1)  # only c1 has a before line


class TapResult(unittest.TextTestResult):
    """Prints one TAP line per test case."""

    def addSuccess(self, test):
        print(f"ok - scale_curves: {test._testMethodName}")

    def addFailure(self, test, err):
        print(f"not ok - scale_curves: {test._testMethodName}")
        print("\n".join("#   " + line for line in self._exc_info_to_string(err, test).split("\n")))

    addError = addFailure


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    runner = unittest.TextTestRunner(resultclass=TapResult, stream=open(os.devnull, "w"))
    sys.exit(0 if runner.run(suite).wasSuccessful() else 1)
