// REQUIRES: libomp
// A model library never writes its inputs (the ABI takes them as const,
// and one may be shared between threads): a scatter into an input and a
// slice inserted into one, which bufferization would do in place, work on
// copies (fuse-compile runs --fuse-read-only-arguments). Each output is
// checked against numpy, each input against its copy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %S/Inputs/scatter.mlir -o %t/scatter.so 2>/dev/null
// RUN: %fuse-compile %S/Inputs/insert.mlir -o %t/insert.so 2>/dev/null
// RUN: %python -c "import numpy as np, fuse_dialect; m = fuse_dialect.load('%t/scatter.so'); x = np.arange(32, dtype=np.float32).reshape(1, 8, 4); i = np.array([[1, 3]], np.int32); v = np.full((1, 2, 4), -5, np.float32); e = x.copy(); e[0, [1, 3]] = -5; y = m(x, i, v)[0]; print('scatter: input kept', np.array_equal(x, np.arange(32, dtype=np.float32).reshape(1, 8, 4)), 'output right', np.array_equal(y, e))" | FileCheck %s --check-prefix=SCATTER
// RUN: %python -c "import numpy as np, fuse_dialect; m = fuse_dialect.load('%t/insert.so'); x = -np.arange(32, dtype=np.float32).reshape(8, 4); v = np.full((2, 4), 7, np.float32); e = x.copy(); e[:2] = 7; y = m(x, v)[0]; print('insert: input kept', np.array_equal(x, -np.arange(32, dtype=np.float32).reshape(8, 4)), 'output right', np.array_equal(y, np.abs(e)))" | FileCheck %s --check-prefix=INSERT
// SCATTER: scatter: input kept True output right True
// INSERT: insert: input kept True output right True
