"""guest_trace.py - the guest's `cat trace` as a list of events, for tests/record/compare.py.

Each event becomes a dict: cpu, ts (microseconds as the guest prints them, "S.UUUUUU", or
None where the tracer prints no time), pid, comm, flags (None where not printed), and key:
a tuple naming the event and its fields (a function_graph return's duration as printed,
microseconds with 3 decimals), in the spelling compare.py also gives the other
tools' events (see compare.py). The header's "entries-in-buffer/entries-written: A/B" gives
the events the ring overwrote (B - A) and "CPU:N [LOST M EVENTS]" lines those it dropped.
"""
import re

STD = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<flags>\S{5})\s+'
                 r'(?P<ts>\d+\.\d{6}): (?P<rest>.*)$')
MMIO_RW = re.compile(r'^(?P<op>[RW]) (?P<width>\d+) (?P<ts>\d+\.\d{6}) (?P<map>\d+) 0x(?P<phys>[0-9a-f]+) '
                     r'0x(?P<value>[0-9a-f]+) 0x(?P<pc>[0-9a-f]+) \d+$')
MMIO_MAP = re.compile(r'^MAP (?P<ts>\d+\.\d{6}) (?P<map>\d+) 0x(?P<phys>[0-9a-f]+) 0x(?P<virt>[0-9a-f]+) '
                      r'0x(?P<len>[0-9a-f]+) 0x[0-9a-f]+ \d+$')
MMIO_UNMAP = re.compile(r'^UNMAP (?P<ts>\d+\.\d{6}) (?P<map>\d+) 0x[0-9a-f]+ \d+$')
MMIO_MARK = re.compile(r'^MARK (?P<ts>\d+\.\d{6}) (?P<text>.*)$')
# tracekern's extension of mmiotrace's log: ports, interrupts, DMA frames.
MMIO_PIO = re.compile(r'^(?P<op>IN|OUT) (?P<width>\d+) (?P<ts>\d+\.\d{6}) 0x(?P<port>[0-9a-f]+) '
                      r'0x(?P<value>[0-9a-f]+) 0x(?P<pc>[0-9a-f]+) \d+$')
MMIO_IRQ = re.compile(r'^(?P<op>IRQ|IRQ_SEEN) (?P<ts>\d+\.\d{6}) (?P<irq>\d+)(?: (?P<count>\d+) \d+)?$')
MMIO_DMA = re.compile(r'^DMA (?P<ts>\d+\.\d{6}) 0x(?P<phys>[0-9a-f]+) 0x(?P<len>[0-9a-f]+) '
                      r'0x(?P<virt>[0-9a-f]+) \d+$')
GRAPH = re.compile(r'^ ?(?P<cpu>\d+)\) (?P<dur>.{13,14}?)\|  (?P<indent> *)(?P<what>\S.*)$')
LOST = re.compile(r'^CPU:(?P<cpu>\d+) \[LOST (?P<n>\d+) EVENTS\]$')
ENTRIES = re.compile(r'^# entries-in-buffer/entries-written: (?P<kept>\d+)/(?P<written>\d+)')
SNAPSHOT_REGS = ('eax', 'ebx', 'ecx', 'edx', 'esi', 'edi', 'ebp', 'esp', 'eflags')


def number(text):
    """A field's value as an integer mod 2**32: the guest prints some in decimal, some in
    hex without 0x, and trace-cmd prints a 4-byte signed long unsigned (libtraceevent reads
    i386 fields without sign extension)."""
    return int(text, 16 if re.fullmatch(r'-?[0-9a-f]*[a-f][0-9a-f]*', text) else 0) % (1 << 32)


def hexnum(text):
    """A number printed in hex (with or without 0x), mod 2**32."""
    return int(text, 16) % (1 << 32)


def std_key(rest):
    """The key of a line in the common format, from the text after the timestamp."""
    m = re.match(r'^tracing_mark_write: (.*)$', rest)
    if m:
        return ('print', m.group(1))
    m = re.match(r'^snapshot #(\d+) \+(\d+) cycles at ([^+: ]+)(?:\+0x[0-9a-f]+)?: (.*)$', rest)
    if m:
        regs = dict(kv.split('=') for kv in m.group(4).split())
        return ('cpu_snapshot', int(m.group(1)), int(m.group(2)), m.group(3)) + \
            tuple(hexnum(regs[r]) for r in SNAPSHOT_REGS)
    m = re.match(r'^NR (\d+) \((.*)\)$', rest)
    if m:
        return ('sys_enter', int(m.group(1))) + tuple(hexnum(a) for a in m.group(2).split(', '))
    m = re.match(r'^NR (\d+) = (-?\d+)$', rest)
    if m:
        return ('sys_exit', int(m.group(1)), int(m.group(2)) % (1 << 32))
    m = re.match(r'^sys_(\w+)\((.*)\)$', rest)
    if m:
        args = [a.split(': ', 1) for a in m.group(2).split(', ')] if m.group(2) else []
        return ('sys_enter_' + m.group(1),) + tuple((k, hexnum(v)) for k, v in args)
    m = re.match(r'^sys_(\w+) -> (0x[0-9a-f]+)$', rest)
    if m:
        return ('sys_exit_' + m.group(1), hexnum(m.group(2)))
    m = re.match(r'^(\S+) <-(\S+)$', rest)
    if m:
        return ('function', m.group(1), m.group(2))
    m = re.match(r'^(\w+): (.*)$', rest)
    if m:  # a user event: "name: field=value ..."
        return (m.group(1),) + tuple((k, number(v)) for k, v in
                                     (kv.split('=', 1) for kv in m.group(2).split()))
    return ('?', rest)


def parse(text):
    """Returns (events, overwritten, dropped): the events of a `cat trace` text in order,
    the count the header says were overwritten, and the [LOST] lines' total."""
    events, overwritten, dropped = [], 0, 0
    for line in text.replace('\r', '').split('\n'):
        m = ENTRIES.match(line)
        if m:
            overwritten = int(m.group('written')) - int(m.group('kept'))
            continue
        if not line.strip() or line.startswith('#') or line.startswith('VERSION ') or \
                line.startswith('PCIDEV '):
            continue
        m = LOST.match(line)
        if m:
            dropped += int(m.group('n'))
            continue
        ev = {'cpu': None, 'ts': None, 'pid': None, 'comm': None, 'flags': None}
        m = STD.match(line)
        if m:
            ev.update(cpu=int(m.group('cpu')), ts=m.group('ts'), pid=int(m.group('pid')),
                      comm=m.group('comm'), flags=m.group('flags'), key=std_key(m.group('rest')))
            events.append(ev)
            continue
        m = MMIO_RW.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('mmiotrace_rw', 1 if m.group('op') == 'R' else 2,
                                             int(m.group('width')), int(m.group('map')),
                                             int(m.group('phys'), 16), int(m.group('value'), 16),
                                             int(m.group('pc'), 16)))
            events.append(ev)
            continue
        m = MMIO_MAP.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('mmiotrace_map', 4, int(m.group('map')),
                                             int(m.group('phys'), 16), int(m.group('virt'), 16),
                                             int(m.group('len'), 16)))
            events.append(ev)
            continue
        m = MMIO_UNMAP.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('mmiotrace_unmap', 5, int(m.group('map'))))
            events.append(ev)
            continue
        m = MMIO_PIO.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('mmiotrace_pio', 1 if m.group('op') == 'IN' else 2,
                                             int(m.group('width')), int(m.group('port'), 16),
                                             int(m.group('value'), 16), int(m.group('pc'), 16)))
            events.append(ev)
            continue
        m = MMIO_IRQ.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('mmiotrace_irq', 1 if m.group('op') == 'IRQ' else 2,
                                             int(m.group('irq')), int(m.group('count') or 0)))
            events.append(ev)
            continue
        m = MMIO_DMA.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('mmiotrace_dma', int(m.group('phys'), 16),
                                             int(m.group('len'), 16), int(m.group('virt'), 16)))
            events.append(ev)
            continue
        m = MMIO_MARK.match(line)
        if m:
            ev.update(ts=m.group('ts'), key=('print', m.group('text')))
            events.append(ev)
            continue
        m = GRAPH.match(line)
        if m:
            depth = len(m.group('indent')) // 2
            what = m.group('what')
            dur = re.search(r'(\d+\.\d{3}) us', m.group('dur'))
            dur = dur.group(1) if dur else None
            if what.endswith('() {'):
                key = ('funcgraph_entry', depth, what[:-4])
            elif what.endswith('();'):
                key = ('funcgraph_leaf', depth, what[:-3], dur)
            elif what == '}':
                key = ('funcgraph_exit', depth, dur)
            else:
                key = ('?', line)
            ev.update(cpu=int(m.group('cpu')), key=key)
            events.append(ev)
            continue
        events.append(dict(ev, key=('?', line)))
    return events, overwritten, dropped
