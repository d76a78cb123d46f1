"""Prints a before/after summary of a fuse-opt run.

Usage: fuse-summary BEFORE.mlir AFTER.mlir

Counts, in each file: compute ops (ops other than constants, shape values,
returns, yields and function ops), kernels (`fuse.group`s plus compute ops
outside any group), and ops per mapping type (`fuse.mapping` annotations).
Textual on purpose: it reads what fuse-opt printed, with no MLIR bindings.
"""

import re
import sys
from collections import Counter

OP_RE = re.compile(r'^\s*(?:%[\w#:, %]+=\s*)?"?([a-z_]+\.[a-z_0-9.]+)"?[\s({<]')
MAPPING_RE = re.compile(r'fuse\.mapping = #fuse\.mapping<(\w+)>')
NOT_COMPUTE = {
    "func.func", "func.return", "func.call", "tosa.const", "tosa.const_shape",
    "arith.constant", "tensor.empty", "fuse.yield", "linalg.yield",
    "tensor.yield", "scf.yield", "module", "builtin.module",
}


def summarize(path):
    ops = Counter()
    mappings = Counter()
    groups = 0
    outside = 0
    depth_in_group = 0
    brace_depth = 0
    group_depths = []
    for line in open(path):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        m = OP_RE.match(line)
        name = m.group(1) if m else None
        if name == "fuse.group":
            groups += 1
            group_depths.append(brace_depth)
        elif name and name not in NOT_COMPUTE:
            ops[name] += 1
            if not group_depths:
                outside += 1
        for mm in MAPPING_RE.finditer(line):
            mappings[mm.group(1)] += 1
        brace_depth += line.count("{") - line.count("}")
        while group_depths and brace_depth <= group_depths[-1]:
            group_depths.pop()
    return {
        "compute ops": sum(ops.values()),
        "kernels": groups + outside,
        "fuse.group": groups,
        "mapping": mappings,
        "ops": ops,
    }


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    before, after = summarize(sys.argv[1]), summarize(sys.argv[2])
    print(f"{'':28}{'before':>10}{'after':>10}")
    for key in ("compute ops", "kernels", "fuse.group"):
        print(f"{key:28}{before[key]:>10}{after[key]:>10}")
    for kind in ("one_to_one", "shuffle", "reorganize", "one_to_many",
                 "many_to_many"):
        print(f"{'  ' + kind:28}{before['mapping'][kind]:>10}"
              f"{after['mapping'][kind]:>10}")
    print("ops after:", ", ".join(f"{k} x{v}" for k, v in
                                  sorted(after["ops"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
