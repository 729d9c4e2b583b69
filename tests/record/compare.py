#!/usr/bin/env python3
"""compare.py - does a host tool show the same events as the guest's `cat trace`?

  compare.py tracecmd GUEST_TRACE TRACE_DAT

Both sides become lists of events (guest_trace.py for the guest): the same count, and event
by event the same CPU, task, pid, irq flags, timestamp (the guest truncates nanoseconds to
microseconds, so the nanoseconds trace-cmd prints with -t are truncated the same way),
irq flags from a second report in latency format (-l, which cuts task names to 8 characters),
event name and field values (function names, marker text, registers, addresses; numbers
compared mod 2**32, see guest_trace.number). Lines the guest prints without a time or task
(function_graph, mmiotrace's own log format) are compared on what they do print. Events the
ring overwrote or dropped must appear as trace-cmd's "[N EVENTS DROPPED]" lines. Prints what
it found and exits with 0 when everything matched, 1 otherwise.
"""
import re
import subprocess
import sys

import guest_trace

REPORT = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                    r'(?P<sec>\d+)\.(?P<ns>\d{9}): (?P<name>\w+):(?P<rest>.*)$')
LATENCY = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?P<cpu>\d+)(?P<flags>\S{5})\s+'
                     r'(?P<sec>\d+)\.(?P<ns>\d{9}): (?P<name>\w+):(?P<rest>.*)$')
DROPPED = re.compile(r'^CPU:(?P<cpu>\d+) \[(?:(?P<n>\d+) )?EVENTS DROPPED\]$')
GRAPH_TEXT = re.compile(r'\|  (?P<indent> *)(?P<what>\S.*)$')


def sys_args(text):
    """ "fd: 0x00000001, buf: 0x0804adb0" -> (("fd", 1), ("buf", 0x804adb0))."""
    if not text:
        return ()
    return tuple((k, guest_trace.hexnum(v)) for k, v in (a.split(': ', 1) for a in text.split(', ')))


def report_key(name, rest):
    """The key of a trace-cmd event, spelled as guest_trace.std_key spells the guest's."""
    text = rest.strip()
    if name == 'print':
        return ('print', rest.lstrip().split(': ', 1)[1] if ': ' in rest else text)
    if name == 'function':
        m = re.match(r'^(\S+) <-- (\S+)$', text)
        return ('function',) + (m.groups() if m else (text,))
    if name in ('funcgraph_entry', 'funcgraph_exit'):
        m = GRAPH_TEXT.search(rest)
        if not m:
            return (name, text)
        depth = len(m.group('indent')) // 2
        what = m.group('what')
        if name == 'funcgraph_entry' and what.endswith('() {'):
            return (name, depth, what[:-4])
        dur = re.search(r'(\d+\.\d{3}) us', rest)
        return (name, depth, dur.group(1) if dur else None) if what == '}' else (name, depth, what)
    if name == 'funcgraph_leaf':  # "func(); (depth) (start: NS  end: NS)", both in hex
        m = re.match(r'^(\S+)\(\); \((\d+)\) \(start: ([0-9a-f]+)\s+end: ([0-9a-f]+)\)', text)
        if not m:
            return (name, text)
        ns = int(m.group(4), 16) - int(m.group(3), 16)
        return (name, int(m.group(2)), m.group(1), f'{ns // 1000}.{ns % 1000:03d}')
    if name == 'cpu_snapshot':
        m = re.match(r'^snapshot #(\d+) \+(\d+) cycles at ([^+: ]+)(?:\+0x[0-9a-f]+)?: (.*)$', text)
        if not m:
            return (name, text)
        regs = dict(kv.split('=') for kv in m.group(4).split())
        return (name, int(m.group(1)), int(m.group(2)), m.group(3)) + \
            tuple(guest_trace.hexnum(regs.get(r, 'ffffffffff')) for r in guest_trace.SNAPSHOT_REGS)
    if name == 'sys_enter':
        m = re.match(r'^NR (\d+) \((.*)\)$', text)
        return (name, int(m.group(1))) + tuple(guest_trace.hexnum(a) for a in m.group(2).split(', ')) \
            if m else (name, text)
    if name == 'sys_exit':
        m = re.match(r'^NR (\d+) = (-?\d+)$', text)
        return (name, int(m.group(1)), int(m.group(2)) % (1 << 32)) if m else (name, text)
    if name.startswith('sys_enter_'):
        return (name,) + sys_args(text)
    if name.startswith('sys_exit_'):
        return (name, guest_trace.hexnum(text))
    if name == 'mmiotrace_rw':
        f = text.split()  # phys value pc map_id op width
        return (name, int(f[4]), int(f[5]), int(f[3]), int(f[0], 16), int(f[1], 16), int(f[2], 16))
    if name == 'mmiotrace_map':
        f = text.split()  # phys virt len map_id op
        if int(f[4]) == 5:
            return ('mmiotrace_unmap', 5, int(f[3]))
        return (name, int(f[4]), int(f[3]), int(f[0], 16), int(f[1], 16), int(f[2], 16))
    # a user event: "field=value ..."
    return (name,) + tuple((k, guest_trace.number(v)) for k, v in
                           (kv.split('=', 1) for kv in text.split()))


def trace_cmd_report(dat, *options):
    """The text of `trace-cmd report -t -O parent=1 OPTIONS dat`: nanosecond times, and the
    function plugin's parent function (as the guest prints "func <-parent")."""
    done = subprocess.run(['trace-cmd', 'report', '-t', '-O', 'parent=1', *options, dat],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors='replace')
    if done.returncode != 0:
        sys.exit(f'trace-cmd report {dat} failed: {done.stderr.strip()}')
    return done.stdout


def parse_report(text, latency_text):
    """trace-cmd report's events (irq flags from the latency-format report) and its
    dropped-event lines' total."""
    flags = [m.group('flags') for m in map(LATENCY.match, latency_text.split('\n')) if m]
    events, dropped, unknown_drop = [], 0, 0
    for line in text.replace('\r', '').split('\n'):
        m = DROPPED.match(line)
        if m:
            if m.group('n'):
                dropped += int(m.group('n'))
            else:
                unknown_drop += 1
            continue
        m = REPORT.match(line)
        if not m:
            continue
        events.append({'cpu': int(m.group('cpu')), 'ts': m.group('sec') + '.' + m.group('ns')[:6],
                       'pid': int(m.group('pid')), 'comm': m.group('comm'),
                       'flags': flags[len(events)] if len(events) < len(flags) else None,
                       'key': report_key(m.group('name'), m.group('rest'))})
    return events, dropped, unknown_drop


def compare_events(guest, other, tool):
    """Problems found between the guest's events and another tool's, as lines of text."""
    problems = []
    if len(guest) != len(other):
        problems.append(f'{tool}: {len(other)} events, the guest printed {len(guest)}')
    for i, (g, o) in enumerate(zip(guest, other)):
        diffs = [f'{f} {g[f]!r} vs {o[f]!r}' for f in ('cpu', 'ts', 'pid', 'comm', 'flags', 'key')
                 if g[f] is not None and g[f] != o[f]]
        if diffs:
            problems.append(f'{tool}: event {i + 1}: ' + '; '.join(diffs))
        if len(problems) > 8:
            problems.append('...')
            break
    return problems


def main():
    if len(sys.argv) != 4 or sys.argv[1] != 'tracecmd':
        sys.exit('usage: compare.py tracecmd GUEST_TRACE TRACE_DAT')
    guest, overwritten, lost = guest_trace.parse(open(sys.argv[2], errors='replace').read())
    other, dropped, unknown_drop = parse_report(trace_cmd_report(sys.argv[3]),
                                                trace_cmd_report(sys.argv[3], '-l'))
    problems = [f'guest: line not understood: {g["key"][1]}' for g in guest if g['key'][0] == '?'][:3]
    problems += compare_events(guest, other, 'trace-cmd')
    if overwritten + lost != dropped or unknown_drop:
        problems.append(f'trace-cmd: {dropped} events dropped ({unknown_drop} drops of unknown size); '
                        f'the guest overwrote {overwritten} and lost {lost}')
    for p in problems:
        print(p)
    names = sorted({g['key'][0] for g in guest})
    print(f'{len(guest)} events ({", ".join(names)}), {overwritten + lost} lost: '
          f'{"same" if not problems else "DIFFERENT"} in trace-cmd report')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
