#!/usr/bin/env python3
"""timeline_svg.py - draws a Trace Event Format file (trace.json) as a timeline, as SVG.

    tools/timeline_svg.py [--title TEXT] [--width PX] TRACE.json... > timeline.svg

Perfetto's UI (ui.perfetto.dev) is a web application and needs the internet; this draws the
same picture offline, for the README: one track per process/thread (named by the "M"
metadata events), complete events ("X") as slices stacked by nesting depth, begin/end pairs
("B"/"E") likewise, and instant events ("i"/"I") as ticks on a row of their own under the
track's slices, each kind of event in its own colour. Several files are drawn on one time
axis (sessions recorded one after another in a boot). Nothing is fetched; rsvg-convert
(Debian librsvg2-bin) turns the SVG into a PNG (tools/make-pictures.sh).
"""
import argparse
import colorsys
import hashlib
import json
import sys
from xml.sax.saxutils import escape

ROW = 16          # pixels per slice row
LABEL = 190       # pixels of track names at the left
AXIS = 34         # pixels of the time axis at the top


def colour(name):
    """A stable, readable colour for an event name (the same name, the same colour)."""
    h = int(hashlib.md5(name.encode()).hexdigest()[:6], 16)
    r, g, b = colorsys.hls_to_rgb((h % 360) / 360.0, 0.62, 0.55)
    return f'#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}'


def load(paths):
    """Events of every file, and the names the metadata events give processes and threads."""
    events, names = [], {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for ev in data['traceEvents'] if isinstance(data, dict) else data:
            if ev.get('ph') == 'M':
                key = (ev.get('pid'), ev.get('tid') if ev.get('name') == 'thread_name' else None)
                names[key] = ev.get('args', {}).get('name', '')
            elif ev.get('ph') in ('X', 'B', 'E', 'i', 'I'):
                events.append(ev)
    return events, names


def layout(events):
    """Per track (pid, tid): its slices as (start, end, depth, name) and its instants as
    (time, name), with begin/end pairs matched into slices and depths from nesting."""
    tracks = {}
    for ev in sorted(events, key=lambda e: (e['ts'], -e.get('dur', 0))):
        t = tracks.setdefault((ev.get('pid'), ev.get('tid')), {'slices': [], 'instants': [], 'stack': [], 'open': []})
        ph = ev['ph']
        if ph in ('i', 'I'):
            t['instants'].append((ev['ts'], ev.get('name', '')))
            continue
        if ph == 'E':
            if t['open']:
                start, name, depth = t['open'].pop()
                t['slices'].append((start, ev['ts'], depth, name))
            continue
        while t['stack'] and t['stack'][-1] <= ev['ts']:
            t['stack'].pop()
        depth = len(t['stack']) + len(t['open'])
        if ph == 'B':
            t['open'].append((ev['ts'], ev.get('name', ''), depth))
            continue
        end = ev['ts'] + ev.get('dur', 0)
        t['slices'].append((ev['ts'], end, depth, ev.get('name', '')))
        t['stack'].append(end)
    return tracks


def track_name(key, names):
    pid, tid = key
    proc = names.get((pid, None), f'pid {pid}')
    thread = names.get((pid, tid))
    return f'{proc} / {thread}' if thread and thread != proc else f'{proc} {tid}'


def draw(tracks, names, title, width):
    times = [s[0] for t in tracks.values() for s in t['slices']] + \
        [s[1] for t in tracks.values() for s in t['slices']] + \
        [i[0] for t in tracks.values() for i in t['instants']]
    if not times:
        sys.exit('timeline_svg: no slices or instants to draw')
    t0, t1 = min(times), max(times)
    span = max(t1 - t0, 1e-3)
    plot = width - LABEL - 10

    def x(ts):
        return LABEL + (ts - t0) / span * plot

    rows, y = [], AXIS + 22
    for key in sorted(tracks, key=lambda k: (str(k[0]), str(k[1]))):
        t = tracks[key]
        depth = max([s[2] for s in t['slices']], default=-1) + 1
        height = (depth + (1 if t['instants'] else 0)) * ROW + 8
        rows.append((key, t, y, depth))
        y += height
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 10}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="10">',
           f'<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="8" y="16" font-size="13" font-weight="bold">{escape(title)}</text>']
    # The time axis: ten ticks, in milliseconds from the first event.
    for i in range(11):
        tx = LABEL + plot * i / 10
        out.append(f'<line x1="{tx:.1f}" y1="{AXIS}" x2="{tx:.1f}" y2="{y}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{tx:.1f}" y="{AXIS - 4}" text-anchor="middle" fill="#555">'
                   f'{(span * i / 10) / 1000:.3f} ms</text>')
    for key, t, top, depth in rows:
        out.append(f'<rect x="0" y="{top - 4}" width="{width}" height="1" fill="#cccccc"/>')
        out.append(f'<text x="6" y="{top + 10}" font-weight="bold">{escape(track_name(key, names))}</text>')
        for start, end, d, name in t['slices']:
            x0, x1 = x(start), max(x(end), x(start) + 0.6)
            yy = top + d * ROW
            out.append(f'<rect x="{x0:.2f}" y="{yy}" width="{x1 - x0:.2f}" height="{ROW - 2}" '
                       f'fill="{colour(name)}"><title>{escape(name)}</title></rect>')
            if x1 - x0 > 7 * len(name) * 0.75:
                out.append(f'<text x="{x0 + 2:.2f}" y="{yy + 11}" fill="#111">{escape(name)}</text>')
        iy = top + depth * ROW
        for ts, name in t['instants']:
            ix = x(ts)
            out.append(f'<path d="M{ix:.2f},{iy} l4,6 l-4,6 l-4,-6 z" fill="{colour(name)}" '
                       f'stroke="#333" stroke-width="0.4"><title>{escape(name)}</title></path>')
    out.append('</svg>')
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description='Draw Trace Event Format JSON as an SVG timeline.')
    ap.add_argument('--title', default='trace.json')
    ap.add_argument('--width', type=int, default=1600)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    events, names = load(args.files)
    print(draw(layout(events), names, args.title, args.width))


if __name__ == '__main__':
    main()
