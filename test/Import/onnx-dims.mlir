// REQUIRES: onnx, libomp
// Symbolic input dimensions (ONNX dim_params) sized at import: `--dim
// batch=N` (fuse-import, fuse-compile, fuse_dialect.compile(dims=...)); one
// compile per size. Without a size, or with a size for a dimension no
// input has, fuse-import names the error; fuse-compile compiles a symbolic
// first dimension once for every size.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make-symbolic.py %t/sym.onnx
// RUN: %fuse-import %t/sym.onnx --dim batch=5 | FileCheck %s --check-prefix=FIVE
// RUN: not %fuse-import %t/sym.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %fuse-import %t/sym.onnx --dim batch=2 --dim seq=4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %fuse-import %t/sym.onnx --dim batch=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %fuse-import %t/sym.onnx --dim batch 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: test ! -e %t/none.mlir
// RUN: %fuse-compile %t/sym.onnx --dim batch=7 -o %t/sym7.so 2>/dev/null | FileCheck %s --check-prefix=COMPILE
// Without a size, the batch is compiled once for every size (Runtime/dynamic-batch.mlir);
// fuse-bench draws inputs of --batch samples, and refuses what cannot be allocated.
// RUN: %fuse-compile %t/sym.onnx -o %t/sym.so 2>/dev/null | FileCheck %s --check-prefix=ANY
// RUN: %fuse-bench %t/sym.so --batch 5 --runs 2 --warmup 0 | FileCheck %s --check-prefix=BENCH5
// RUN: not %fuse-bench %t/sym.so --batch 100000000000000 --runs 2 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %python -c "import numpy as np, fuse_dialect; p = np.load('%t/sym.onnx.npz'); x = np.arange(28, dtype=np.float32).reshape(7, 4) / 10; print('batch 7 matches numpy:', np.allclose(fuse_dialect.load('%t/sym7.so')(x)[0], np.maximum(x @ p['w'] + p['b'], 0), rtol=1e-5, atol=1e-6))" | FileCheck %s --check-prefix=RUN7
// RUN: %python -c "import numpy as np, fuse_dialect; p = np.load('%t/sym.onnx.npz'); m = fuse_dialect.compile('%t/sym.onnx', dims={'batch': 2}); x = np.ones((2, 4), np.float32); print(m.inputs[0].shape, np.allclose(m(x)[0], np.maximum(x @ p['w'] + p['b'], 0), rtol=1e-5))" | FileCheck %s --check-prefix=PYTHON

// FIVE: func.func @model(%arg0: tensor<5x4xf32>) -> (tensor<5x3xf32>)
// MISSING: error: graph input 'x' has a symbolic dimension batch: give its size (--dim batch=N)
// UNKNOWN: error: no graph input has a dimension named 'seq' (--dim)
// ZERO: error: the size of 'batch' must be an int in [1, {{[0-9]+}}], not 0
// MALFORMED: error: --dim takes NAME=SIZE, not 'batch'
// ANY: fuse-compile: {{.*}}sym.onnx -> {{.*}}sym.so (cpu; inputs: x f32[?, 4]; outputs: y f32[?, 3])
// BENCH5: runs after
// HUGE: fuse-bench: the inputs (--batch 100000000000000) do not fit in memory
// COMPILE: fuse-compile: {{.*}}sym.onnx -> {{.*}}sym7.so (cpu; inputs: x f32[7, 4]; outputs: y f32[7, 3])
// RUN7: batch 7 matches numpy: True
// PYTHON: (2, 4) True
