#!/usr/bin/env python3
"""scale_svg.py - draws the scale curves of `make bench` (build/scale.json, issue 24) as SVG:
one small log-log panel per curve, cost in guest instructions against the size of the work.

    tools/scale_svg.py AFTER.json [BEFORE.json] > scale.svg

AFTER's points are drawn as solid lines; BEFORE's (the same format, an earlier run) dashed,
in grey, so that a fix shows as the distance between them. Each panel also shades the goal:
up to 1.3 times the cost at the smallest size. Nothing is fetched; rsvg-convert (Debian
librsvg2-bin) turns the SVG into a PNG if one is wanted.
"""
import json
import math
import sys
from xml.sax.saxutils import escape

PANEL_W, PANEL_H = 330, 210   # pixels per panel
LEFT, RIGHT, TOP, BOTTOM = 58, 14, 30, 34  # the plot's margins inside a panel
GOAL = 1.3


def curves(path):
    """{curve: [(size, value), ...] sorted by size} of one scale.json."""
    out = {}
    with open(path) as f:
        for p in json.load(f):
            # A size of 0 (ipc_roundtrip_sleepers: no other process) has no place on a log
            # axis: it is drawn at 1.
            out.setdefault(p["curve"], []).append((max(p["size"], 1), p["value"]))
    return {c: sorted(pts) for c, pts in out.items()}


def log_ticks(lo, hi):
    """Powers of ten from below lo to above hi."""
    return [10 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def number(v):
    """A tick label: 1, 10, 100, 1k, 10k, 1M."""
    for div, suffix in ((10 ** 6, "M"), (10 ** 3, "k")):
        if v >= div:
            return "%g%s" % (v / div, suffix)
    return "%g" % v


def panel(name, after, before, x0, y0):
    """The SVG elements of one curve's panel with its top-left corner at (x0, y0)."""
    pts = after + before
    sizes = [s for s, _ in pts]
    values = [max(v, 1) for _, v in pts]
    xs = log_ticks(min(sizes), max(sizes))
    ys = log_ticks(min(values), max(values) * GOAL)
    w, h = PANEL_W - LEFT - RIGHT, PANEL_H - TOP - BOTTOM

    def px(s):
        return x0 + LEFT + w * (math.log10(s) - math.log10(xs[0])) / (math.log10(xs[-1]) - math.log10(xs[0]) or 1)

    def py(v):
        return y0 + TOP + h - h * (math.log10(max(v, 1)) - math.log10(ys[0])) / (math.log10(ys[-1]) - math.log10(ys[0]) or 1)

    e = ['<text x="%d" y="%d" font-size="13" font-weight="bold">%s</text>' % (x0 + 8, y0 + 18, escape(name))]
    first = after[0][1]
    e.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="#e3f4e3"/>'
             % (x0 + LEFT, py(first * GOAL), w, max(py(first) - py(first * GOAL), 1)))
    for t in xs:
        e.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (px(t), y0 + TOP, px(t), y0 + TOP + h))
        e.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%s</text>' % (px(t), y0 + TOP + h + 13, number(t)))
    for t in ys:
        e.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (x0 + LEFT, py(t), x0 + LEFT + w, py(t)))
        e.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end">%s</text>' % (x0 + LEFT - 4, py(t) + 3, number(t)))
    e.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (x0 + LEFT, y0 + TOP, w, h))
    e.append('<text x="%d" y="%d" font-size="10" text-anchor="middle">size</text>' % (x0 + LEFT + w // 2, y0 + PANEL_H - 6))
    for line, style in ((before, 'stroke="#999" stroke-dasharray="5,3"'), (after, 'stroke="#1f6fb4"')):
        if line:
            path = " ".join("%.1f,%.1f" % (px(s), py(v)) for s, v in line)
            e.append('<polyline points="%s" fill="none" stroke-width="2" %s/>' % (path, style))
            for s, v in line:
                e.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (px(s), py(v), "#999" if line is before else "#1f6fb4"))
    return e


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    after = curves(sys.argv[1])
    before = curves(sys.argv[2]) if len(sys.argv) == 3 else {}
    if not after:
        sys.exit("scale_svg: no points in %s" % sys.argv[1])
    names = sorted(after)
    cols = min(3, len(names))
    rows = (len(names) + cols - 1) // cols
    width, height = cols * PANEL_W, rows * PANEL_H + 24
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="8" y="16" font-size="12">guest instructions (log) against size (log); blue: now, grey dashed: before; '
           'green: within %.1fx of the smallest size</text>' % GOAL]
    for i, name in enumerate(names):
        out += panel(name, after[name], before.get(name, []), (i % cols) * PANEL_W, 24 + (i // cols) * PANEL_H)
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
