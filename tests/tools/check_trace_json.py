#!/usr/bin/env python3
"""check_trace_json.py FILE - checks a Trace Event Format file as Perfetto would need it:
valid JSON with a traceEvents list; every event has name, ph, ts (a number), pid, tid;
"X" slices have a dur >= 0 and, per pid/tid, nest (a slice that starts inside another ends
inside it). Prints a summary, "events N slices N instants N begins N metadata N", and one
line "slice NAME ts dur" per slice, then exits 0, or prints the problem and exits 1."""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    events = doc["traceEvents"]
    count = {"X": 0, "i": 0, "B": 0, "M": 0}
    tracks = {}
    for e in events:
        for key in ("name", "ph", "pid", "tid"):
            if key not in e:
                sys.exit("event without %s: %r" % (key, e))
        if e["ph"] not in count:
            sys.exit("unexpected phase %r" % e["ph"])
        count[e["ph"]] += 1
        if e["ph"] == "M":
            continue
        if not isinstance(e["ts"], (int, float)):
            sys.exit("ts not a number: %r" % e)
        if e["ph"] == "X":
            if e["dur"] < 0:
                sys.exit("negative dur: %r" % e)
            tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    for track, slices in tracks.items():
        slices.sort(key=lambda s: (s["ts"], -s["dur"]))
        stack = []
        for s in slices:
            end = s["ts"] + s["dur"]
            while stack and stack[-1] <= s["ts"] + 1e-9:
                stack.pop()
            if stack and end > stack[-1] + 1e-9:
                sys.exit("slice %r at %s overlaps its parent's end on track %r" % (s["name"], s["ts"], track))
            stack.append(end)
    print("events %d slices %d instants %d begins %d metadata %d" %
          (len(events), count["X"], count["i"], count["B"], count["M"]))
    for e in events:
        if e["ph"] == "X":
            print("slice %s %.3f %.3f" % (e["name"], e["ts"], e["dur"]))


main()
