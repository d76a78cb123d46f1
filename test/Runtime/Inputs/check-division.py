"""Runs Inputs/division.mlir's library on divisors of 0 and -1 with
dividends of the least value: prints each output (the process would die of
SIGFPE without --fuse-safe-integer-division)."""
import sys

import numpy as np

import fuse_dialect

m = fuse_dialect.load(sys.argv[1])
lo32, lo64 = np.iinfo(np.int32).min, np.iinfo(np.int64).min
a = np.array([[7, 4, lo32, 9], [8, lo32, 8, -6]], np.int32)
b = np.array([[0, 2, -1, -3]], np.int32)
s = np.array([9, 7, lo64, -9], np.int64)
t = np.array([0, 2, -1, 4], np.int64)
q, r, u = m(a, b, s, t)
print("intdiv:", q.tolist())
print("remsi:", r.tolist())
print("divui:", u.tolist())
