#!/usr/bin/env python3
"""scale_curves.py - the scale curves of `make bench` (issue 24): how a cost grows with the
size of the work. Reads the console logs of benchmark boots, where each point is a line
`SCALE CURVE SIZE VALUE` (VALUE in guest instructions under -icount), writes them all to a
JSON list of {"curve", "size", "value"}, and prints one line per curve: its points, and for
a per-operation curve whether the value at the largest size is within 1.3x of the value at
the smallest (the goal; "NO" shows a cost that grows with the work).
usage: scale_curves.py OUT.json CONSOLE.log...
Exits 1 when no log has a point (the part ran but measured nothing), else 0: a missed goal
is for people to read, as in bench_goals.py."""
import json
import re
import sys

GOAL = 1.3
# Curves whose value is a whole run, not one operation: they grow by design, no goal.
TOTALS = {"boot_kernel_by_memory_mib"}
POINT = re.compile(r"^SCALE ([a-z_0-9]+) ([0-9]+) ([0-9]+)\r?$")


def read_points(paths):
    """Every SCALE line of the logs, in order; a later point of a (curve, size) replaces an
    earlier one."""
    points = {}
    for path in paths:
        try:
            with open(path, errors="replace") as f:
                for line in f:
                    m = POINT.match(line.rstrip("\n"))
                    if m:
                        points[(m.group(1), int(m.group(2)))] = int(m.group(3))
        except FileNotFoundError:
            pass
    return [{"curve": c, "size": s, "value": v} for (c, s), v in points.items()]


def curve_line(name, pts):
    """One curve as a line: its points by size, then its verdict."""
    pts = sorted(pts, key=lambda p: p["size"])
    text = ", ".join("%d -> %d" % (p["size"], p["value"]) for p in pts)
    if name in TOTALS or len(pts) < 2:
        verdict = "(a total: no goal)" if name in TOTALS else "(one point: no verdict)"
    else:
        first, last = pts[0]["value"], pts[-1]["value"]
        ratio = last / first if first else float("inf")
        verdict = "within %.1fx: %s (%.2fx)" % (GOAL, "yes" if ratio <= GOAL else "NO", ratio)
    return "scale: %-36s %s  %s" % (name, text, verdict)


def main():
    points = read_points(sys.argv[2:])
    with open(sys.argv[1], "w") as f:
        json.dump(points, f, indent=1)
        f.write("\n")
    if not points:
        print("scale: no SCALE lines in %s" % " ".join(sys.argv[2:]), file=sys.stderr)
        return 1
    curves = {}
    for p in points:
        curves.setdefault(p["curve"], []).append(p)
    print("scale: cost against the size of the work, guest instructions (%s)" % sys.argv[1])
    for name in sorted(curves):
        print(curve_line(name, curves[name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
