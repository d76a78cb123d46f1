"""Writes the PTX of every `gpu.binary` in a module (format=isa) to files.

usage: fuse-extract-ptx [--ptxas PTXAS [--arch sm_90]] MODULE.mlir OUTDIR
Prints one line per kernel module: `<name> <path>`. With --ptxas, also
assembles each with `ptxas -v -arch ARCH` and prints
`<name> registers R spill-stores S spill-loads L` (exit 1 if one fails).
Exit 1 if the module holds no PTX object.
"""

import os
import re
import subprocess
import sys


def unescape(text):
    # MLIR prints string attributes with \XX hex escapes (and \\, \").
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in '\\"':
                out.append(nxt)
                i += 2
                continue
            if i + 2 < len(text) and re.match(r"[0-9A-Fa-f]{2}", text[i + 1:i + 3]):
                out.append(chr(int(text[i + 1:i + 3], 16)))
                i += 3
                continue
        out.append(c)
        i += 1
    return "".join(out)


def assemble(ptxas, arch, path):
    r = subprocess.run([ptxas, "-v", "-arch=" + arch, path, "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        return None
    regs = sum(int(x) for x in re.findall(r"Used (\d+) registers", r.stderr))
    stores = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", r.stderr))
    loads = sum(int(x) for x in re.findall(r"(\d+) bytes spill loads", r.stderr))
    return regs, stores, loads


def main(argv):
    args = argv[1:]
    ptxas, arch = None, "sm_90"
    while args and args[0].startswith("--"):
        if args[0] == "--ptxas" and len(args) > 1:
            ptxas, args = args[1], args[2:]
        elif args[0] == "--arch" and len(args) > 1:
            arch, args = args[1], args[2:]
        else:
            sys.stderr.write(__doc__)
            return 2
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    argv = [argv[0]] + args
    text = open(argv[1]).read()
    os.makedirs(argv[2], exist_ok=True)
    failed = False
    found = 0
    pattern = re.compile(
        r'gpu\.binary @([\w$.]+)\s*(?:<[^>]*>\s*)?\[#gpu\.object<#nvvm\.target<[^>]*>'
        r'(?:, properties = \{[^}]*\})?, (?:assembly = )?"((?:[^"\\]|\\.)*)"')
    for m in pattern.finditer(text):
        ptx = unescape(m.group(2))
        if ".target" not in ptx:
            continue
        path = os.path.join(argv[2], m.group(1) + ".ptx")
        with open(path, "w") as f:
            f.write(ptx)
        print(m.group(1), path)
        found += 1
        if ptxas:
            info = assemble(ptxas, arch, path)
            if info is None:
                print(m.group(1), "ptxas FAILED")
                failed = True
            else:
                print("%s registers %d spill-stores %d spill-loads %d" % (
                    m.group(1), *info))
    return 0 if found and not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
