#!/usr/bin/env python3
"""tkconvert_capture.py OUT [--damage] - writes a binary capture (uapi/trace_capture.h,
format 2) for tests/tools/test_tkconvert.sh: the guest's own format files
(tests/tools/tkconvert_formats/, copied from what tests/shell/event_formats.script printed),
kallsyms, saved_cmdlines, a CLOCK frame, and two CPUs' EVENTS frames of ring-buffer records
holding a known session: a write(2) seen by raw_syscalls and syscalls around a
function_graph call with a leaf, a marker, an mmiotrace access, a snapshot, a user event,
function events, a getpid(2) seen by raw_syscalls only (named from the other CPU's syscalls
event), and 17 lost events. The records are encoded here, independently of the guest's and
the converter's C code (tracekern's ring format: 32-bit headers, deltas in cycles, time
extends), with a clock of two cycles per nanosecond from cycle 1000000, and function_graph's
calltime and rettime in cycles (the CLOCK frame lists them); the times the tests expect
below are the nanoseconds.
--damage flips a byte inside the first EVENTS frame and cuts the capture's last frame short.
--hostile writes instead a capture whose format files try to break the CTF metadata: names
with quotes and braces, a field named twice, a sequence beside a field named like its
length, an event with no fields.
--backwards writes a capture whose events' times go back from frame to frame (5000, 6000;
then 2000 after a loss; a frame of trailing losses at 1000; 7000), as a damaged or hostile
capture may."""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = os.path.join(HERE, "tkconvert_formats")


START, FILE, EVENTS, END, CLOCK, RETRACT = 1, 2, 3, 4, 5, 6
BOOT_CYCLES, MULT, SHIFT = 1000000, 1 << 21, 22  # ns = (cycles - BOOT_CYCLES) / 2


def frame_sum(payload):
    """The sum of the little-endian 32-bit words, modulo 2^32 (frame_sum.h)."""
    padded = payload + b"\0" * (-len(payload) % 4)
    return sum(w for (w,) in struct.iter_unpack("<I", padded)) & 0xFFFFFFFF


def frame(kind, cpu, payload):
    return struct.pack("<IHHII", 0x32434B54, kind, cpu, len(payload), frame_sum(payload)) + payload


def start_frame(nr_cpus):
    return frame(START, 0, struct.pack("<IIII", 2, nr_cpus, 4096, 4))


def cycles(ns):
    return BOOT_CYCLES + 2 * ns


def file_frame(path, data):
    return frame(FILE, 0, path.encode() + b"\0" + data)


def load_formats():
    """{(system, name): (id, {field: (offset, size, signed)}, path, text)}"""
    out = {}
    for root, _, files in os.walk(FORMATS):
        for f in files:
            path = os.path.join(root, f)
            rel = os.path.relpath(path, FORMATS)
            text = open(path, "rb").read()
            if f != "format":
                out[rel] = (None, None, rel, text)
                continue
            system, name = rel.split("/")[:2]
            fid = int(re.search(rb"^ID: (\d+)$", text, re.M).group(1))
            fields = {}
            for m in re.finditer(rb"field:([^;]*);\toffset:(\d+);\tsize:(\d+);\tsigned:(\d)", text):
                decl = m.group(1).decode().split()[-1].split("[")[0]
                fields[decl] = (int(m.group(2)), int(m.group(3)), m.group(4) == b"1")
            out[(system, name)] = (fid, fields, "events/" + rel, text)
    return out


FMT = load_formats()
# Fields that hold cycles in the ring and nanoseconds in Linux's pages (the CLOCK frame's).
CYCLE_FIELDS = {("ftrace", "funcgraph_entry"): ["calltime"],
                ("ftrace", "funcgraph_exit"): ["calltime", "rettime"],
                ("tracekern", "funcgraph_leaf"): ["calltime", "rettime"]}


def clock_frame():
    fields = [(FMT[key][0], FMT[key][1][name][0]) for key in sorted(CYCLE_FIELDS)
              for name in CYCLE_FIELDS[key]]
    payload = struct.pack("<QIIII", BOOT_CYCLES, MULT, SHIFT, len(fields), 0)
    return frame(CLOCK, 0, payload + b"".join(struct.pack("<HH", t, o) for t, o in fields))


def record(system, name, pid, **values):
    fid, fields, _, _ = FMT[(system, name)]
    size = max(o + s for o, s, _ in fields.values())
    tail = values.pop("_tail", b"")
    rec = bytearray(size)
    struct.pack_into("<HBBi", rec, 0, fid, 1, 0, pid)
    for key, value in values.items():
        off, sz, signed = fields[key]
        if key in CYCLE_FIELDS.get((system, name), []):
            value = cycles(value)  # the ring holds cycles; the pages will hold value
        if isinstance(value, list):
            each = sz // len(value)
            for i, v in enumerate(value):
                rec[off + i * each:off + (i + 1) * each] = v.to_bytes(each, "little", signed=signed)
        else:
            rec[off:off + sz] = value.to_bytes(sz, "little", signed=signed)
    return bytes(rec) + tail


def events_frame(cpu, events, lost_before=0, time=None):
    """events: [(ts in ns, payload)] -> an EVENTS frame of tracekern's ring records, their
    deltas in cycles from the frame's time (the first event's, unless given)."""
    if time is None:
        time = cycles(events[0][0])
    data, last = b"", time
    for ts, payload in events:
        delta = cycles(ts) - last
        last = cycles(ts)
        if delta >= 1 << 27:
            data += struct.pack("<II", 30 | (delta & ((1 << 27) - 1)) << 5, delta >> 27)
            delta = 0
        body = payload + b"\0" * (-len(payload) % 4)
        if 0 < len(body) <= 112:
            data += struct.pack("<I", len(body) // 4 | delta << 5) + body
        else:  # the ring's long event: the length word is the payload's (Linux's adds 4)
            data += struct.pack("<II", delta << 5, len(body)) + body
    return frame(EVENTS, cpu, struct.pack("<QQQ", time, 0, lost_before) + data)


SYMS = b"c0100000 T kmain\nc0100100 T do_work\nc0100200 t helper\nc0100300 T sys_write\n"


def session():
    cpu0 = [
        (1000, record("raw_syscalls", "sys_enter", 7, id=4, args=[1, 0x8000, 5, 0, 0, 0])),
        (1100, record("syscalls", "sys_enter_write", 7, __syscall_nr=4, fd=1, buf=0x8000, count=5)),
        (1200, record("ftrace", "funcgraph_entry", 7, func=0xC0100100, depth=0, calltime=1190)),
        (1300, record("tracekern", "funcgraph_leaf", 7, func=0xC0100204, depth=1,
                      calltime=1240, rettime=1290)),
        (1500, record("ftrace", "funcgraph_exit", 7, func=0xC0100100, depth=0,
                      calltime=1190, rettime=1490)),
        (1600, record("syscalls", "sys_exit_write", 7, __syscall_nr=4, ret=5)),
        (1700, record("raw_syscalls", "sys_exit", 7, id=4, ret=5)),
        (1800, record("ftrace", "print", 7, ip=0xC0100300, _tail=b'hello "world"\n\0')),
        (1900, record("ftrace", "mmiotrace_rw", 7, op=1, width=4, opcode=[0x8b, 0x40, 0x04],
                      map_id=3, value=0xDEADBEEF, pc=0xC0100210, phys=0xFEBF0004)),
        (2000, record("tracekern", "cpu_snapshot", 7, number=1, delta=99, eax=0x11, eip=0xC0100000,
                      cs=8)),
        (2100, record("user_events", "test", 7, count=42)),
        (2200, record("raw_syscalls", "sys_enter", 7, id=20, args=[0, 0, 0, 0, 0, 0])),
        (2300, record("raw_syscalls", "sys_exit", 7, id=20, ret=7)),
    ]
    later = [(5000 + (1 << 28), record("ftrace", "print", 1, ip=0xC0100000, _tail=b"after the loss\0"))]
    cpu1 = [
        (1050, record("ftrace", "function", 1, ip=0xC0100000, parent_ip=0xC0100100)),
        (1150, record("syscalls", "sys_enter_getpid", 1, __syscall_nr=20)),
        (1250, record("syscalls", "sys_exit_getpid", 1, __syscall_nr=20, ret=1)),
    ]
    # A page a writer recycled while the guest sent it: its frame (here: a marker no output
    # may show) is withdrawn by the RETRACT after it, its events counted in the next lost_before.
    torn = events_frame(0, [(1450, record("ftrace", "print", 7, ip=0, _tail=b"torn\0"))])
    return [events_frame(0, cpu0), torn + frame(RETRACT, 0, b""),
            events_frame(0, later, lost_before=17), events_frame(1, cpu1)]


def hostile():
    common = (b"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
              b"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n")
    cap = start_frame(1) + clock_frame()
    cap += file_frame('events/we"ird sys/ev"il\\x/format',
                      b'name: ev"il } event {\nID: 40\nformat:\n' + common +
                      b"\tfield:__data_loc u8[] buf;\toffset:8;\tsize:4;\tsigned:0;\n"
                      b"\tfield:int buf_length;\toffset:12;\tsize:4;\tsigned:1;\n")
    cap += file_frame("events/x/dup/format", b"name: dup\nID: 41\n" + common +
                      b"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
                      b"\tfield:int a;\toffset:12;\tsize:4;\tsigned:1;\n")
    cap += file_frame("events/x/bare/format", b"name: bare\nID: 42\n")
    rec = struct.pack("<HBBiIi", 40, 0, 0, 3, 16 | 3 << 16, -5) + b"\x01\x02\x03\x00"
    dup = struct.pack("<HBBiii", 41, 0, 0, 3, 1, 2)
    bare = struct.pack("<HBBi", 42, 0, 0, 3)
    return cap + events_frame(0, [(1000, rec), (1003, dup), (1005, bare)]) + frame(END, 0, b"")


def backwards():
    cap = start_frame(1) + clock_frame()
    cap += file_frame("events/ftrace/print/format", FMT[("ftrace", "print")][3])
    mark = lambda ts, text: (ts, record("ftrace", "print", 1, ip=0, _tail=text + b"\0"))
    # A loss before 2000 and the trailing losses at 1000 end pages: each time that goes
    # back does so from one page to the next.
    cap += events_frame(0, [mark(5000, b"a"), mark(6000, b"b")])
    cap += events_frame(0, [mark(2000, b"c")], lost_before=1)
    cap += frame(EVENTS, 0, struct.pack("<QQQ", cycles(1000), 0, 1))
    cap += events_frame(0, [mark(7000, b"d")])
    return cap + frame(END, 0, b"")


def main():
    out = sys.argv[1]
    if "--backwards" in sys.argv:
        open(out, "wb").write(backwards())
        return
    if "--hostile" in sys.argv:
        open(out, "wb").write(hostile())
        return
    damage = "--damage" in sys.argv
    cap = start_frame(2) + clock_frame()
    for key in sorted(FMT, key=str):
        _, _, path, text = FMT[key]
        cap += file_frame(path if isinstance(key, tuple) else "events/" + path, text)
    cap += file_frame("/proc/kallsyms", SYMS)
    cap += file_frame("saved_cmdlines", b"1 init\n7 sh\n")
    cap += file_frame("trace_clock", b"[local]\n")
    first_events = len(cap)
    for events in session():
        cap += events
    cap += file_frame("saved_cmdlines", b"1 init\n7 sh\n")
    cap += frame(END, 0, b"")
    if damage:
        cap = bytearray(cap)
        cap[first_events + 16 + 100] ^= 0xFF
        cap = bytes(cap[:-3])
    open(out, "wb").write(cap)


main()
