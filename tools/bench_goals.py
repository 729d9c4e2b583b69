#!/usr/bin/env python3
"""bench_goals.py - prints each goal of tools/bench-goals.txt beside the row make bench
measured: the value, the goal, and "met" or "NOT MET" (a row that was not measured in this
run, e.g. under BENCH=..., says so). usage: bench_goals.py GOALS JSON...
Never fails on a missed goal: the table is for people; the rows stay in build/bench*.json."""
import json
import sys


def read_goals(path):
    """The (row, goal, why) triples of the goals file, comments and blank lines skipped."""
    goals = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            row, goal, why = line.split("|", 2)
            goals.append((row, float(goal), why))
    return goals


def read_rows(paths):
    """Every row of the JSON files make bench wrote (a missing file is a skipped part)."""
    rows = {}
    for path in paths:
        try:
            with open(path) as f:
                for r in json.load(f):
                    rows[r["row"]] = r
        except FileNotFoundError:
            pass
    return rows


def main():
    goals = read_goals(sys.argv[1])
    rows = read_rows(sys.argv[2:])
    print("bench: goals (tools/bench-goals.txt)")
    for row, goal, why in goals:
        r = rows.get(row)
        if r is None:
            print(f"bench: goal {row:<58} {'':>9} < {goal:<6g} not measured in this run")
            continue
        verdict = "met" if r["value"] < goal else "NOT MET"
        print(f"bench: goal {row:<58} {r['value']:>9g} < {goal:<6g} {verdict} ({why})")


main()
