#!/usr/bin/env python3
"""tkconvert_capture.py OUT [--damage] - writes a binary capture (uapi/trace_capture.h) for
tests/tools/test_tkconvert.sh: the guest's own format files (tests/tools/tkconvert_formats/,
copied from what tests/shell/event_formats.script printed), kallsyms, saved_cmdlines, and
two CPUs' ring-buffer pages holding a known session: a write(2) seen by raw_syscalls and
syscalls around a function_graph call with a leaf, a marker, an mmiotrace access, a
snapshot, a user event, function events, a getpid(2) seen by raw_syscalls only (named from
the other CPU's syscalls event), and 17 lost events. The pages are encoded here,
independently of the guest's and the converter's C code (Linux's layout, events/header_page).
--damage flips a byte inside the first page frame and cuts the capture's last frame short.
--hostile writes instead a capture whose format files try to break the CTF metadata: names
with quotes and braces, a field named twice, a sequence beside a field named like its
length, an event with no fields.
--backwards writes a capture whose pages' times go back (5000, 6000; then 2000; an empty
page at 1000; 7000), as a damaged or hostile capture may."""
import os
import re
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = os.path.join(HERE, "tkconvert_formats")


def frame(kind, cpu, payload):
    return struct.pack("<IHHII", 0x46434B54, kind, cpu, len(payload), zlib.crc32(payload)) + payload


def file_frame(path, data):
    return frame(2, 0, path.encode() + b"\0" + data)


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


def record(system, name, pid, **values):
    fid, fields, _, _ = FMT[(system, name)]
    size = max(o + s for o, s, _ in fields.values())
    tail = values.pop("_tail", b"")
    rec = bytearray(size)
    struct.pack_into("<HBBi", rec, 0, fid, 1, 0, pid)
    for key, value in values.items():
        off, sz, signed = fields[key]
        if isinstance(value, list):
            each = sz // len(value)
            for i, v in enumerate(value):
                rec[off + i * each:off + (i + 1) * each] = v.to_bytes(each, "little", signed=signed)
        else:
            rec[off:off + sz] = value.to_bytes(sz, "little", signed=signed)
    return bytes(rec) + tail


def page(stamp, events, missed=None):
    """events: [(ts, payload)] -> a 4096-byte page in Linux's layout."""
    data, last = b"", stamp
    for ts, payload in events:
        delta = ts - last
        last = ts
        if delta >= 1 << 27:
            data += struct.pack("<II", 30 | (delta & ((1 << 27) - 1)) << 5, delta >> 27)
            delta = 0
        body = payload + b"\0" * (-len(payload) % 4)
        if len(body) <= 112:
            data += struct.pack("<I", len(body) // 4 | delta << 5) + body
        else:
            data += struct.pack("<II", delta << 5, len(body) + 4) + body
    commit = len(data)
    if missed is not None:
        data += struct.pack("<I", missed)
        commit |= 3 << 30
    return (struct.pack("<QI", stamp, commit) + data).ljust(4096, b"\0")


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
    return [(0, page(1000, cpu0)), (0, page(5000 + (1 << 28), later, missed=17)), (1, page(1050, cpu1))]


def hostile():
    common = (b"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
              b"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n")
    cap = frame(1, 0, struct.pack("<IIII", 1, 1, 4096, 4))
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
    return cap + frame(3, 0, page(1000, [(1000, rec), (1003, dup), (1005, bare)])) + frame(4, 0, b"")


def backwards():
    cap = frame(1, 0, struct.pack("<IIII", 1, 1, 4096, 4))
    cap += file_frame("events/ftrace/print/format", FMT[("ftrace", "print")][3])
    mark = lambda ts, text: (ts, record("ftrace", "print", 1, ip=0, _tail=text + b"\0"))
    for stamp, events in ((5000, [mark(5000, b"a"), mark(6000, b"b")]), (2000, [mark(2000, b"c")]),
                          (1000, []), (7000, [mark(7000, b"d")])):
        cap += frame(3, 0, page(stamp, events))
    return cap + frame(4, 0, b"")


def main():
    out = sys.argv[1]
    if "--backwards" in sys.argv:
        open(out, "wb").write(backwards())
        return
    if "--hostile" in sys.argv:
        open(out, "wb").write(hostile())
        return
    damage = "--damage" in sys.argv
    cap = frame(1, 0, struct.pack("<IIII", 1, 2, 4096, 4))
    for key in sorted(FMT, key=str):
        _, _, path, text = FMT[key]
        cap += file_frame(path if isinstance(key, tuple) else "events/" + path, text)
    cap += file_frame("/proc/kallsyms", SYMS)
    cap += file_frame("saved_cmdlines", b"1 init\n7 sh\n")
    cap += file_frame("trace_clock", b"[local]\n")
    first_page = len(cap)
    for cpu, pg in session():
        cap += frame(3, cpu, pg)
    cap += file_frame("saved_cmdlines", b"1 init\n7 sh\n")
    cap += frame(4, 0, b"")
    if damage:
        cap = bytearray(cap)
        cap[first_page + 16 + 100] ^= 0xFF
        cap = bytes(cap[:-3])
    open(out, "wb").write(cap)


main()
