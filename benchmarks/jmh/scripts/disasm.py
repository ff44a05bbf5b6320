#!/usr/bin/env python3
"""Disassembles a C2-compiled method from a HotSpot -XX:CompileCommand=print log without hsdis.

Without the hsdis plugin HotSpot prints a compiled method's code as hex words, with its debug notes
(which Java method each address belongs to) between them. This joins the hex of one nmethod's main
code, runs objdump over it, and prints each instruction with the Java frames HotSpot noted there.

  ./bench jmh '\\.HitPathBenchmark\\.read' --quick --threads 1 -p pages=256 -p side=ratatosk -wi 3 -i 2 \\
      -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=print,io.ratatosk.bench.jmh.PageOps::read" \\
      > /tmp/asm.txt
  python3 benchmarks/jmh/scripts/disasm.py /tmp/asm.txt        # the last C2 compile in the log
  python3 benchmarks/jmh/scripts/disasm.py /tmp/asm.txt 0      # the first

Needs objdump (binutils) and an x86-64 log.
"""
import re
import subprocess
import sys
import tempfile


def fail(message):
    """One line naming what is wrong, status 1: not a traceback."""
    sys.exit('disasm.py: ' + message)


def main():
    if len(sys.argv) < 2 or len(sys.argv) > 3:
        sys.exit(__doc__)
    try:
        with open(sys.argv[1], errors='replace') as log:
            lines = log.read().split('\n')
    except OSError as e:
        fail('cannot read ' + sys.argv[1] + ': ' + (e.strerror or str(e)))
    starts = [i for i, line in enumerate(lines) if line.startswith('Compiled method (c2)')]
    if not starts:
        fail(sys.argv[1] + ': no "Compiled method (c2)" in it; was -XX:CompileCommand=print given?')
    index = -1
    if len(sys.argv) > 2:
        try:
            index = int(sys.argv[2])
        except ValueError:
            fail('the index must be a whole number (0 the first compile, -1 the last), not ' + sys.argv[2])
    if not -len(starts) <= index < len(starts):
        fail('%s has %d C2 compile(s): the index must be from %d to %d, not %s'
             % (sys.argv[1], len(starts), -len(starts), len(starts) - 1, sys.argv[2]))
    start = starts[index]
    print(lines[start])
    code, base, notes, pending, in_code = bytearray(), None, {}, [], False
    for number, line in enumerate(lines[start:], start + 1):
        if line.startswith('[Verified Entry Point]') or line.startswith('[Entry Point]'):
            in_code = True
            continue
        if line.startswith(('[Stub Code]', '[/MachCode]', '[Exception Handler]')):
            break
        if not in_code:
            continue
        m = re.match(r'\s+0x([0-9a-f]+): (.*)$', line)
        if m:
            address, rest = int(m.group(1), 16), m.group(2)
            if rest.startswith(';'):
                pending.append(rest.strip())
                continue
            if base is None:
                base = address
            if pending:
                notes.setdefault(address, []).extend(pending)
                pending = []
            words = [w for w in rest.replace('|', ' ').split() if re.fullmatch(r'[0-9a-f]+', w)]
            odd = [w for w in words if len(w) % 2]
            if odd:
                # bytes.fromhex failed with a traceback ("non-hexadecimal number found") on a line cut mid-word
                fail('%s:%d: %s is not whole bytes (was the log cut short?)' % (sys.argv[1], number, odd[0]))
            code += bytes.fromhex(''.join(words))
        elif line.strip().startswith(';'):
            pending.append(line.strip())
    if not code:
        fail('%s: compile %d has no code (was the log cut short?)' % (sys.argv[1], index))
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(code)
        f.flush()
        try:
            run = subprocess.run(['objdump', '-D', '-b', 'binary', '-mi386:x86-64', '-M', 'intel',
                                  '--adjust-vma=%#x' % base, f.name], capture_output=True, text=True)
        except FileNotFoundError:
            fail('objdump not found: install binutils')
        if run.returncode != 0:
            fail('objdump failed (status %d): %s' % (run.returncode, run.stderr.strip()))
        out = run.stdout
    for line in out.split('\n'):
        m = re.match(r'\s*([0-9a-f]+):', line)
        if m:
            for note in notes.get(int(m.group(1), 16), []):
                if ' - ' in note or note.startswith(';*'):
                    print('        ' + note[:150])
            print(line)


if __name__ == '__main__':
    main()
