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


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lines = open(sys.argv[1]).read().split('\n')
    starts = [i for i, line in enumerate(lines) if line.startswith('Compiled method (c2)')]
    if not starts:
        sys.exit(sys.argv[1] + ': no "Compiled method (c2)" in it; was -XX:CompileCommand=print given?')
    start = starts[int(sys.argv[2]) if len(sys.argv) > 2 else -1]
    print(lines[start])
    code, base, notes, pending, in_code = bytearray(), None, {}, [], False
    for line in lines[start:]:
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
            code += bytes.fromhex(''.join(w for w in rest.replace('|', ' ').split() if re.fullmatch(r'[0-9a-f]+', w)))
        elif line.strip().startswith(';'):
            pending.append(line.strip())
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(code)
        f.flush()
        out = subprocess.run(['objdump', '-D', '-b', 'binary', '-mi386:x86-64', '-M', 'intel',
                              '--adjust-vma=%#x' % base, f.name], capture_output=True, text=True, check=True).stdout
    for line in out.split('\n'):
        m = re.match(r'\s*([0-9a-f]+):', line)
        if m:
            for note in notes.get(int(m.group(1), 16), []):
                if ' - ' in note or note.startswith(';*'):
                    print('        ' + note[:150])
            print(line)


if __name__ == '__main__':
    main()
