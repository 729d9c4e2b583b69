#!/usr/bin/env python3
"""guest_sections.py CONSOLE_LOG OUTDIR - writes what each `cat trace` of a boot script
printed on the console to OUTDIR/guest-N.txt, N from 1, and prints how many there were. A
section ends at the next prompt line ("tracekern> ...")."""
import os
import sys

sections, current = [], None
for line in open(sys.argv[1], errors='replace').read().replace('\r', '').split('\n'):
    if line.startswith('tracekern> '):
        if current is not None:
            sections.append(current)
        current = [] if line == 'tracekern> cat trace' else None
        continue
    if current is not None:
        current.append(line)
if current is not None:
    sections.append(current)
os.makedirs(sys.argv[2], exist_ok=True)
for i, lines in enumerate(sections, 1):
    with open(os.path.join(sys.argv[2], f'guest-{i}.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
print(len(sections))
