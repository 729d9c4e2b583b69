#!/usr/bin/env python3
"""compare_table.py - the table of `make compare`: reads the console logs of the Linux run
and of the tracekern run of tools/compare/compare_bench.c (its COMPARE lines), and the
boot times compare.sh measured, and prints one table (row, Linux, tracekern, ratio), and
writes it as JSON.

    compare_table.py --linux LOG --tracekern LOG [--tracekern-bench LOG] [--boot FILE]
                     [--linux-name TEXT] [--linux-config CONFIG] [--json OUT]

The kernel-side rows come from the Linux module's COMPARE lines in the Linux log
(tools/compare/module/compare_mod.c) and from `make bench`'s rows in the tracekern test
kernel's log (--tracekern-bench: "bench: ROW VALUE instructions"); mmiotrace's row is the
traced read minus the untraced read on each kernel.

A log must end its rows with COMPARE-END (else the run stopped early: an error). A row a
kernel could not run (COMPARE-SKIP NAME: WHY) shows "not measured on KERNEL: WHY" instead
of a number, and so does a row missing from a log; neither has a ratio: only a row both
kernels really ran is compared. With --linux-config (the image's /boot/config), a
user_events row Linux could not run also says whether CONFIG_USER_EVENTS was built in.
The ratio is tracekern / Linux: below 1, tracekern runs fewer instructions.
Exit status 0; 1 with a message when a log cannot be read or is incomplete.
"""
import argparse
import json
import re
import statistics
import sys

# (key, what the table calls it), in the order of docs/compare.md.
ROWS = [
    ("tsc_per_insn", "TSC ticks per guest instruction (check, 1.00)"),
    ("getpid", "getpid (int $0x80)"),
    ("trace_marker_12_minus_null", "trace_marker write 12 B - /dev/null write 12 B"),
    ("syscall_event_getpid", "sys_enter_getpid enabled, per call"),
    ("user_events_writev_4byte", "user_events writev, 4-byte payload"),
    ("fork_exit_wait", "fork + exit + wait"),
    ("pipe_roundtrip_16", "pipe round trip, 16 bytes"),
    ("function_per_traced_call", "function tracer, per traced call"),
    ("function_graph_per_traced_call", "function_graph, per traced call"),
    ("function_filtered_per_traced_call", "function, filtered to getpid's functions, per call"),
    ("function_graph_filtered_per_traced_call", "function_graph, filtered to getpid's, per call"),
    ("tracing_off_after_on_getpid", "compiled in but off: getpid after on->off - before"),
    ("ring_buffer_reserve_commit_8", "ring buffer reserve+commit, 8 bytes"),
    ("mmiotrace_per_access", "mmiotrace, per traced 4-byte read (traced - untraced)"),
]
BOOT_ROW = ("boot_to_shell_ms", "boot to shell, wall clock ms, median of 3, no -icount")

# tracekern's `make bench` rows (tests/bench/) that are the twins of the Linux module's.
BENCH_ROWS = {
    "ring buffer reserve+commit, 8-byte payload": "ring_buffer_reserve_commit_8",
    "mmiotrace: untraced 4-byte read": "mmio_read_untraced",
    "mmiotrace: traced 4-byte read": "mmio_read_traced",
}
BENCH_LINE = re.compile(r"^bench: (.*?)\s+([0-9]+) instructions\s*$")

LINE = re.compile(r"^(COMPARE|COMPARE-SKIP|COMPARE-INFO)\s+([a-z_0-9]+)(?::\s*(.*?)|\s+(-?[0-9]+\.[0-9]+))\s*$")


class LogError(Exception):
    pass


def parse_log(path):
    """The rows of one console log: {key: float or "not measured: WHY"}, and the INFO texts.
    Lines other than the bench's are skipped (kernel messages, the shell's echo)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError as e:
        raise LogError(f"{path}: {e.strerror}")
    rows, info, ended = {}, {}, False
    for raw in text.splitlines():
        line = raw.strip("\r")
        if line.strip() == "COMPARE-END":
            ended = True
            continue
        m = LINE.match(line)
        if m is None:
            continue
        kind, key, why, value = m.groups()
        if kind == "COMPARE" and value is not None:
            rows[key] = float(value)
        elif kind == "COMPARE-SKIP" and why is not None:
            rows[key] = "not measured: " + why
        elif kind == "COMPARE-INFO" and why is not None:
            info.setdefault(key, []).append(why)
    if not ended:
        raise LogError(f"{path}: no COMPARE-END line: the bench did not finish")
    return rows, info


def parse_bench(path):
    """tracekern's kernel-side rows from a `bench=` boot's console: {key: float}."""
    rows = {}
    with open(path, "rb") as f:
        for raw in f.read().decode("utf-8", "replace").splitlines():
            m = BENCH_LINE.match(raw.strip("\r"))
            if m and m.group(1) in BENCH_ROWS:
                rows[BENCH_ROWS[m.group(1)]] = float(m.group(2))
    return rows


def derive_mmiotrace(rows):
    """mmiotrace_per_access = traced read - untraced read, when both were measured; else
    the reason one of them gives."""
    traced, untraced = rows.get("mmio_read_traced"), rows.get("mmio_read_untraced")
    if isinstance(traced, float) and isinstance(untraced, float):
        rows["mmiotrace_per_access"] = traced - untraced
    elif isinstance(traced, str) or isinstance(untraced, str):
        rows["mmiotrace_per_access"] = traced if isinstance(traced, str) else untraced


def explain_user_events(linux, config_path):
    """Adds to a user_events row Linux skipped what its config says about user_events."""
    why = linux.get("user_events_writev_4byte")
    if not isinstance(why, str):
        return
    with open(config_path) as f:
        built_in = any(line.strip() == "CONFIG_USER_EVENTS=y" for line in f)
    if not built_in:
        linux["user_events_writev_4byte"] = why + " (CONFIG_USER_EVENTS is not set in this kernel's config)"


def parse_boot(path):
    """{"linux": [ms, ...], "tracekern": [ms, ...]} from the BOOT-MS lines."""
    boots = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "BOOT-MS":
                boots[parts[1]] = [int(p) for p in parts[2:]]
    return boots


def side_value(rows, key, kernel):
    """One kernel's cell: its number, or why it has none."""
    value = rows.get(key)
    if value is None:
        return f"no result in the {kernel} log"
    if isinstance(value, str):
        return value.replace("not measured:", f"not measured on {kernel}:", 1)
    return value


def ratio_of(linux, tracekern):
    """tracekern / Linux, only when both kernels gave a number."""
    if isinstance(linux, float) and isinstance(tracekern, float) and linux > 0:
        return tracekern / linux
    return None


def build_rows(linux, tracekern, boots):
    """The table as a list of dicts: row, what, linux, tracekern, ratio (None when either
    side is not a number)."""
    table = []
    for key, what in ROWS:
        lv = side_value(linux, key, "Linux")
        tv = side_value(tracekern, key, "tracekern")
        table.append({"row": key, "what": what, "linux": lv, "tracekern": tv, "ratio": ratio_of(lv, tv)})
    if boots:
        key, what = BOOT_ROW
        lb, tb = boots.get("linux"), boots.get("tracekern")
        lv = float(statistics.median(lb)) if lb else "no boot times"
        tv = float(statistics.median(tb)) if tb else "no boot times"
        table.append({"row": key, "what": what, "linux": lv, "tracekern": tv, "ratio": ratio_of(lv, tv),
                      "boots_ms": {"linux": lb, "tracekern": tb}})
    return table


def print_table(table, linux_name, info):
    """The table on stdout: numbers in the columns, and a text cell (why a kernel has no
    number) as a numbered note under it."""
    print(f"compare: guest instructions per operation under -icount shift=0,sleep=off "
          f"(Linux: {linux_name}); ratio = tracekern / Linux")
    notes = []

    def cell(value):
        if isinstance(value, float):
            return f"{value:.2f}"
        if value not in notes:
            notes.append(value)
        return f"[{notes.index(value) + 1}]"

    width = max(len(r["what"]) for r in table)
    print(f"{'row':<{width}}  {'Linux':>12}  {'tracekern':>12}  {'ratio':>6}")
    for r in table:
        ratio = f"{r['ratio']:.2f}" if r["ratio"] is not None else "-"
        print(f"{r['what']:<{width}}  {cell(r['linux']):>12}  {cell(r['tracekern']):>12}  {ratio:>6}")
    for number, text in enumerate(notes, 1):
        print(f"[{number}] {text}")
    for side, texts in info.items():
        for key, lines in texts.items():
            for text in lines:
                print(f"compare: {side}: {key}: {text}")


def main():
    ap = argparse.ArgumentParser(description="the table of make compare")
    ap.add_argument("--linux", required=True)
    ap.add_argument("--tracekern", required=True)
    ap.add_argument("--tracekern-bench")
    ap.add_argument("--boot")
    ap.add_argument("--linux-name", default="Linux")
    ap.add_argument("--linux-config")
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        linux, linux_info = parse_log(args.linux)
        tracekern, tracekern_info = parse_log(args.tracekern)
        if args.tracekern_bench:
            tracekern.update(parse_bench(args.tracekern_bench))
        derive_mmiotrace(linux)
        derive_mmiotrace(tracekern)
        boots = parse_boot(args.boot) if args.boot else {}
        if args.linux_config:
            explain_user_events(linux, args.linux_config)
    except (LogError, OSError, ValueError) as e:
        print(f"compare_table: {e}", file=sys.stderr)
        return 1
    table = build_rows(linux, tracekern, boots)
    print_table(table, args.linux_name, {"Linux": linux_info, "tracekern": tracekern_info})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"linux": args.linux_name,
                       "unit": "guest instructions per operation (-icount shift=0,sleep=off), "
                               "except boot_to_shell_ms",
                       "ratio": "tracekern / Linux",
                       "rows": table,
                       "info": {"linux": linux_info, "tracekern": tracekern_info}}, f, indent=1)
            f.write("\n")
        print(f"compare: rows written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
