"""Damaged copies of a model library, loaded by a C program (FuseLoader.h)
and by fuse_dialect.load: each must be refused with an error, never kill
the process.
    mutate-library.py MODEL.so ABI-CHECK WORK-DIR [COUNT]
Copies cut short at random, with random bytes in the ELF header, and with
random bytes anywhere in the first 4 KB (dynamic section, hash tables:
glibc's loader crashes on many of these). Prints a count per outcome."""
import os
import random
import subprocess
import sys

import fuse_dialect
from fuse_dialect import runtime


def main(library, abi_check, work, count=30):
    data = open(library, "rb").read()
    rng = random.Random(7)
    outcomes = {}
    for k in range(int(count)):
        d = bytearray(data)
        if k % 3 == 0:
            d = d[:rng.randrange(len(d))]
        else:
            for _ in range(4 if k % 3 == 1 else 8):
                d[rng.randrange(64 if k % 3 == 1 else 4096)] ^= rng.randrange(1, 256)
        path = os.path.join(work, "damaged%d.so" % k)
        with open(path, "wb") as f:
            f.write(d)
        c = subprocess.run([abi_check, path], capture_output=True, text=True)
        c_outcome = ("C refused" if c.returncode == 1 and "cannot load" in c.stdout
                     else "C exit %d" % c.returncode)
        try:
            fuse_dialect.load(path)
            py_outcome = "Python loaded"
        except runtime.FuseError:
            py_outcome = "Python refused"
        for o in (c_outcome, py_outcome):
            outcomes[o] = outcomes.get(o, 0) + 1
        os.unlink(path)
    for o in sorted(outcomes):
        print("%s: %d" % (o, outcomes[o]))


if __name__ == "__main__":
    main(*sys.argv[1:])
