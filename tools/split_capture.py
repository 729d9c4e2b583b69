#!/usr/bin/env python3
"""tools/split_capture.py CAPTURE OUTDIR - writes each session of a capture (a CAPTURE_START and
the frames after it, uapi/trace_capture.h) to OUTDIR/session-N.tkc, N from 1, and prints
how many. tkconvert converts the last session of a file; tests/record and
make-pictures.sh convert others this way.
Frames are walked by their headers' lengths, so the capture must be undamaged (check it
first with tkconvert --check: "damage found: 0")."""
import os
import struct
import sys

MAGIC, HEADER, START = 0x46434b54, 16, 1

data = open(sys.argv[1], 'rb').read()
sessions, at = [], 0
while at + HEADER <= len(data):
    magic, ftype, _cpu, length, _crc = struct.unpack_from('<IHHII', data, at)
    if magic != MAGIC:
        sys.exit(f'{sys.argv[1]}: no frame at byte {at}')
    if ftype == START:
        sessions.append(bytearray())
    if sessions:
        sessions[-1] += data[at:at + HEADER + length]
    at += HEADER + length
os.makedirs(sys.argv[2], exist_ok=True)
for i, s in enumerate(sessions, 1):
    open(os.path.join(sys.argv[2], f'session-{i}.tkc'), 'wb').write(s)
print(len(sessions))
