#!/usr/bin/env python3
"""compare.py - does a host tool show the same events as the guest's `cat trace`?

  compare.py tracecmd GUEST_TRACE TRACE_DAT
  compare.py ctf GUEST_TRACE CTF_DIR KALLSYMS   babeltrace2's text of CTF_DIR
  compare.py json GUEST_TRACE TRACE_JSON

Both sides become lists of events (guest_trace.py for the guest): the same count, and event
by event the same CPU, task, pid, irq flags, timestamp, event name and field values
(function names, callers, marker text, registers, addresses, function_graph depths and
durations; numbers compared mod 2**32, see guest_trace.number). The guest prints
microseconds to the nearest, as Linux's ns2usecs does, so the nanoseconds `trace-cmd report -t`
and babeltrace2 print are rounded the same way (usecs below); irq flags come from a second report in latency format (-l, which cuts task
names to 8 characters). Lines the guest prints without a time or task (function_graph,
mmiotrace's own log format) are compared on what they do print. Events the ring
overwrote or dropped must appear as trace-cmd's "[N EVENTS DROPPED]" lines.

babeltrace2 prints each field by name with its raw value: function addresses are named
through the capture's /proc/kallsyms, the task is only a pid, and the irq flags only a
number, so those are compared as far as they go; lost events must show as babeltrace2's
discarded-events warning and be counted in the packets' events_discarded. trace.json is
checked as Perfetto would load it (see compare_json). Prints what it found and exits with 0
when everything matched, 1 otherwise.
"""
import bisect
import json
import os
import re
import struct
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


def usecs(ns):
    """A time in ns as the guest's trace file prints it: "S.UUUUUU", microseconds to the
    nearest (Linux's ns2usecs adds 500 ns before dividing)."""
    us = (ns + 500) // 1000
    return f'{us // 10**6}.{us % 10**6:06d}'


def report_key(name, rest):
    """The key of a trace-cmd event, spelled as guest_trace.std_key spells the guest's."""
    text = rest.strip()
    if name == 'print':  # "%ps: %s": the writer is tracing_mark_write, as on Linux
        m = re.match(r'^tracing_mark_write: (.*)$', rest.lstrip())
        return ('print', m.group(1)) if m else ('print?', text)
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
    if name == 'mmiotrace_pio':
        f = text.split()  # IN|OUT width 0xport 0xvalue 0xpc
        return (name, 1 if f[0] == 'IN' else 2, int(f[1]), int(f[2], 16), int(f[3], 16), int(f[4], 16))
    if name == 'mmiotrace_irq':
        f = text.split()  # IRQ|IRQ_SEEN irq count
        return (name, 1 if f[0] == 'IRQ' else 2, int(f[1]), int(f[2]))
    if name == 'mmiotrace_dma':
        f = text.split()  # 0xphys 0xlen 0xvirt
        return (name, int(f[0], 16), int(f[1], 16), int(f[2], 16))
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
        events.append({'cpu': int(m.group('cpu')), 'ts': usecs(int(m.group('sec')) * 10**9 + int(m.group('ns'))),
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


CTF_LINE = re.compile(r'^\[(?P<sec>\d+)\.(?P<ns>\d{9})\] \(\S+\) (?P<system>\w+):(?P<name>\w+): '
                      r'\{ cpu_id = (?P<cpu>\d+) \}, \{ (?P<fields>.*) \}$')


def ctf_value(text):
    """One babeltrace2 field value: a number, a string or an array (a list)."""
    text = text.strip()
    if text.startswith('"'):
        return json.loads(text) if '\\' in text else text[1:-1]
    if text.startswith('['):
        return [ctf_value(v.split(' = ', 1)[1]) for v in split_fields(text[1:-1])]
    return int(text, 0)


def split_fields(text):
    """Splits "a = 1, b = [ [0] = 2 ], c = "x, y"" at its top-level commas."""
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == '\\':
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in '[{':
            depth += 1
        elif c in ']}':
            depth -= 1
        elif c == ',' and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def load_kallsyms(path):
    """Address -> name of /proc/kallsyms, and the sorted addresses, for symbol()."""
    syms = {}
    for line in open(path, errors='replace'):
        f = line.split()
        if len(f) >= 3:
            syms.setdefault(int(f[0], 16), f[2])
    return syms, sorted(syms)


def symbol(kallsyms, addr):
    """The function containing addr, as %ps prints it (no offset)."""
    syms, addrs = kallsyms
    i = bisect.bisect_right(addrs, addr) - 1
    return syms[addrs[i]] if i >= 0 else hex(addr)


def ctf_key(system, name, f, kallsyms):
    """The key of a babeltrace2 event, spelled as guest_trace.std_key spells the guest's."""
    def dur():
        ns = f['rettime'] - f['calltime']
        return f'{ns // 1000}.{ns % 1000:03d}'
    if name == 'print':
        writer = symbol(kallsyms, f['ip'])
        return ('print', f['buf'].rstrip('\n')) if writer == 'tracing_mark_write' else ('print?', writer)
    if name == 'function':
        return ('function', symbol(kallsyms, f['ip']), symbol(kallsyms, f['parent_ip']))
    if name == 'funcgraph_entry':
        return (name, f['depth'], symbol(kallsyms, f['func']))
    if name == 'funcgraph_exit':
        return (name, f['depth'], dur())
    if name == 'funcgraph_leaf':
        return (name, f['depth'], symbol(kallsyms, f['func']), dur())
    if name == 'cpu_snapshot':
        return (name, f['number'], f['delta'], symbol(kallsyms, f['eip'])) + \
            tuple(f[r] % (1 << 32) for r in guest_trace.SNAPSHOT_REGS)
    if name == 'sys_enter' and system == 'raw_syscalls':
        return (name, f['id']) + tuple(a % (1 << 32) for a in f['args'])
    if name == 'sys_exit' and system == 'raw_syscalls':
        return (name, f['id'], f['ret'] % (1 << 32))
    if name == 'mmiotrace_rw':
        return (name, f['op'], f['width'], f['map_id'], f['phys'], f['value'], f['pc'])
    if name == 'mmiotrace_map':
        if f['op'] == 5:
            return ('mmiotrace_unmap', 5, f['map_id'])
        return (name, f['op'], f['map_id'], f['phys'], f['virt'], f['len'])
    if name == 'mmiotrace_pio':
        return (name, f['op'], f['width'], f['port'], f['value'], f['pc'])
    if name == 'mmiotrace_irq':
        return (name, f['op'], f['irq'], f['count'])
    if name == 'mmiotrace_dma':
        return (name, f['phys'], f['len'], f['virt'])
    fields = [(k, v) for k, v in f.items() if not k.startswith('common_') and k != '__syscall_nr']
    if name.startswith('sys_exit_'):
        return (name, fields[0][1] % (1 << 32))
    return (name,) + tuple((k, v % (1 << 32) if isinstance(v, int) else v) for k, v in fields)


def babeltrace(ctf_dir):
    """babeltrace2's text of ctf_dir (times as seconds) and its warnings."""
    done = subprocess.run(['babeltrace2', '--clock-seconds', ctf_dir], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors='replace')
    if done.returncode != 0:
        sys.exit(f'babeltrace2 {ctf_dir} failed: {done.stderr.strip()[-500:]}')
    return done.stdout, done.stderr


def parse_ctf(text, kallsyms):
    """babeltrace2's events, keyed as the guest's are."""
    events = []
    for line in text.split('\n'):
        m = CTF_LINE.match(line)
        if not m:
            continue
        f = {}
        for part in split_fields(m.group('fields')):
            k, v = part.split(' = ', 1)
            f[k] = ctf_value(v)
        events.append({'cpu': int(m.group('cpu')), 'ts': usecs(int(m.group('sec')) * 10**9 + int(m.group('ns'))),
                       'pid': f.get('common_pid'), 'comm': None, 'flags': None,
                       'key': ctf_key(m.group('system'), m.group('name'), f, kallsyms)})
    return events


def compare_ctf(guest, lost, ctf_dir, kallsyms_path):
    """Problems between the guest's events and babeltrace2's of ctf_dir, and its count."""
    text, warnings = babeltrace(ctf_dir)
    other = parse_ctf(text, load_kallsyms(kallsyms_path))
    # The guest's own format has no task for mmiotrace lines and no time for function_graph;
    # babeltrace2 has no task names.
    for g in guest:
        g['comm'] = g['flags'] = None
    problems = compare_events(guest, other, 'babeltrace2')
    discarded = 'may have discarded events' in warnings
    if discarded != (lost > 0):
        problems.append(f'babeltrace2: {"a" if discarded else "no"} discarded-events warning; '
                        f'the guest lost {lost}')
    counted = ctf_events_discarded(ctf_dir)
    if counted != lost:
        problems.append(f'ctf/: the packets count {counted} events discarded; the guest lost {lost}')
    return problems, len(other)


def ctf_events_discarded(ctf_dir):
    """The events discarded, summed over the streams: each stream's last packet's
    events_discarded, which CTF counts from the stream's start. babeltrace2 cannot say how
    many went before a stream's first packet, so the packet contexts are read here, in the
    layout ctf/metadata declares (checked): magic, stream_id, then timestamp_begin,
    timestamp_end, content_size, packet_size, events_discarded (64 bits each), cpu_id."""
    with open(os.path.join(ctf_dir, 'metadata')) as f:
        metadata = f.read()
    layout = re.search(r'packet\.context := struct \{\s*clock_ns_t timestamp_begin;\s*'
                       r'clock_ns_t timestamp_end;\s*uint64_t content_size;\s*uint64_t packet_size;\s*'
                       r'uint64_t events_discarded;', metadata)
    if not layout:
        sys.exit(f'{ctf_dir}/metadata: not the packet context this test reads')
    total = 0
    for name in sorted(os.listdir(ctf_dir)):
        if name == 'metadata':
            continue
        data, at, last = open(os.path.join(ctf_dir, name), 'rb').read(), 0, 0
        while at + 48 <= len(data):
            magic, _sid, _tb, _te, _content, size, discarded = struct.unpack_from('<IIQQQQQ', data, at)
            if magic != 0xc1fc1fc1 or size < 8 * 48:
                sys.exit(f'{ctf_dir}/{name}: no packet header at byte {at}')
            last = discarded
            at += size // 8
        total += last
    return total


def guest_slices(guest):
    """What the guest's events should become in trace.json: function_graph calls as
    (name, duration) - a leaf, or an entry matched with its return by depth, or an entry
    never returned from (duration None) - syscalls as the names of their sys_enter_NAME
    events, and the rest as instants (time in microseconds, key)."""
    calls, syscalls, instants, open_calls = [], [], [], []
    for g in guest:
        kind = g['key'][0]
        if kind == 'funcgraph_entry':
            open_calls.append(g['key'][2])
        elif kind == 'funcgraph_exit':
            if open_calls:
                calls.append((open_calls.pop(), g['key'][2]))
        elif kind == 'funcgraph_leaf':
            calls.append((g['key'][2], g['key'][3]))
        elif kind.startswith('sys_enter_'):
            syscalls.append(kind[len('sys_enter_'):])
        elif kind.startswith('sys_exit_') or kind in ('sys_enter', 'sys_exit'):
            continue
        else:
            instants.append((g['ts'], g['key']))
    calls += [(name, None) for name in open_calls]
    return calls, syscalls, instants


def nesting_problems(slices):
    """Complete events of one track must nest: each begins after its parent began and ends
    no later than it (to the nanosecond: times are microseconds with 3 decimals)."""
    stack, problems = [], []
    for ts, end, name in sorted(slices, key=lambda s: (s[0], -s[1])):
        while stack and ts >= stack[-1][1] - 0.0005:
            stack.pop()
        if stack and end > stack[-1][1] + 0.0015:
            problems.append(f'slice {name} [{ts}, {end}] overlaps its parent {stack[-1][2]} '
                            f'[{stack[-1][0]}, {stack[-1][1]}]')
        stack.append((ts, end, name))
    return problems


def compare_json(guest, lost, path):
    """trace.json as Perfetto and chrome://tracing read it: valid JSON with a traceEvents
    list; complete ("X") slices that nest on every track; function_graph calls as slices
    with the guest's function names, those never returned from as "B" begin events; syscalls as slices of their names; every other event an instant at
    the guest's time (to the microsecond); lost events as an event of their own."""
    try:
        with open(path) as f:
            data = json.load(f)
        events = data['traceEvents']
    except (OSError, ValueError, KeyError, TypeError) as e:
        return [f'trace.json: not Trace Event Format JSON: {e}'], ''
    problems, tracks = [], {}
    for e in events:
        if e.get('ph') != 'M' and not all(isinstance(e.get(k), (int, float)) for k in ('ts', 'pid', 'tid')):
            problems.append(f'trace.json: an event without numeric ts, pid and tid: {e}')
            return problems, ''
        if e.get('ph') == 'X':
            tracks.setdefault((e['pid'], e['tid']), []).append((e['ts'], e['ts'] + e['dur'], e['name']))
    for track in tracks.values():
        problems += nesting_problems(track)[:3]
    calls, syscalls, instants = guest_slices(guest)
    by_cat = lambda cat, *phs: [e for e in events if e.get('cat') == cat and e.get('ph') in phs]
    # A call's slice runs from its calltime to its rettime: its length is the duration the
    # guest printed, to the nanosecond. Names, counts and durations must agree.
    order = lambda c: (c[0], c[1] or '')  # a call never returned from has no duration
    graph = sorted(((e['name'], f"{e['dur']:.3f}" if e['ph'] == 'X' else None)
                    for e in by_cat('function_graph', 'X', 'B')), key=order)
    want = sorted(calls, key=order)
    if graph != want:
        diff = [c for c in want if c not in graph][:3] + ['vs'] + [c for c in graph if c not in want][:3]
        problems.append(f'trace.json: {len(graph)} function_graph slices, the guest {len(want)} calls; '
                        f'differing (name, duration): {diff}')
    got_sys = sorted(e['name'] for e in by_cat('syscalls', 'X', 'B'))
    if got_sys != sorted(syscalls):
        problems.append(f'trace.json: syscall slices {got_sys[:8]}..., the guest {sorted(syscalls)[:8]}...')
    lost_events = [e for e in events if e.get('ph') in ('i', 'I') and 'lost' in (e.get('cat', '') + e.get('name', ''))]
    points = sorted((e for e in events if e.get('ph') in ('i', 'I') and e not in lost_events),
                    key=lambda e: e['ts'])
    if len(points) != len(instants):
        problems.append(f'trace.json: {len(points)} instant events, the guest {len(instants)} events '
                        'other than calls and syscalls')
    for (ts, key), e in zip(instants, points):
        if usecs(round(e['ts'] * 1000)) != ts:
            problems.append(f'trace.json: instant {e.get("name")} at {e["ts"]} us, the guest\'s '
                            f'{key[0]} at {ts} s')
            break
        if key[0] == 'print' and key[1] not in json.dumps(e):
            problems.append(f'trace.json: the marker "{key[1]}" is not in {e}')
            break
    # The lost events: a mark of their own exactly when the guest lost some, and the
    # count (in args) where the converter knows it, adding up to the guest's.
    counts = [v for e in lost_events for k, v in e.get('args', {}).items() if k == 'count']
    if bool(lost_events) != (lost > 0) or (counts and sum(counts) != lost):
        problems.append(f'trace.json: {len(lost_events)} lost-events marks counting {sum(counts)}; '
                        f'the guest lost {lost}')
    return problems, (f'{len(graph)} call slices, {len(got_sys)} syscall slices, {len(points)} instants, '
                      f'{len(lost_events)} lost-events marks; slices nest on {len(tracks)} tracks')


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ('tracecmd', 'ctf', 'json'):
        sys.exit('usage: compare.py tracecmd|ctf|json GUEST_TRACE FILE [KALLSYMS]')
    guest, overwritten, lost = guest_trace.parse(open(sys.argv[2], errors='replace').read())
    if sys.argv[1] == 'ctf':
        problems, count = compare_ctf(guest, overwritten + lost, sys.argv[3], sys.argv[4])
        report(problems, f'{count} events in babeltrace2, the guest\'s {len(guest)}, '
                         f'{overwritten + lost} lost')
    if sys.argv[1] == 'json':
        problems, summary = compare_json(guest, overwritten + lost, sys.argv[3])
        report(problems, summary)
    other, dropped, unknown_drop = parse_report(trace_cmd_report(sys.argv[3]),
                                                trace_cmd_report(sys.argv[3], '-l'))
    problems = [f'guest: line not understood: {g["key"][1]}' for g in guest if g['key'][0] == '?'][:3]
    problems += compare_events(guest, other, 'trace-cmd')
    if overwritten + lost != dropped or unknown_drop:
        problems.append(f'trace-cmd: {dropped} events dropped ({unknown_drop} drops of unknown size); '
                        f'the guest overwrote {overwritten} and lost {lost}')
    names = sorted({g['key'][0] for g in guest})
    report(problems, f'{len(guest)} events ({", ".join(names)}), {overwritten + lost} lost, in trace-cmd report')


def report(problems, summary):
    """Prints the problems and a last line; exits 1 if there were problems."""
    for p in problems:
        print(p)
    print(('DIFFERENT: ' if problems else 'same: ') + summary)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
