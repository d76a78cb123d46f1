// REQUIRES: libomp
// --weights=external: the library holds the code, model.weights the
// weights, read once when a session is created and checked; the numbers
// are those of the library with its weights inside. A weights file that
// is corrupted, truncated, missing or another model's is refused with a
// message, and so is a weights file given to a model that has none.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %examples/mlp_gelu.mlir -o %t/embedded.so 2>/dev/null
// RUN: %fuse-compile %examples/mlp_gelu.mlir --weights=external -o %t/mlp.so 2>/dev/null
// RUN: %fuse-compile %S/Inputs/outputs.mlir --weights=external -o %t/other.so 2>/dev/null
// RUN: cc -O1 -I%fuse_include %S/Inputs/abi-check.c -ldl -o %t/abi-check
// RUN: %python -c "import os, sys; e, x, w = (os.path.getsize(sys.argv[i]) for i in (1, 2, 3)); print('weights moved:', w > 40000 and e - x > 40000)" %t/embedded.so %t/mlp.so %t/mlp.weights | FileCheck %s --check-prefix=SIZES
// RUN: %t/abi-check %t/mlp.so %t/external.bin | FileCheck %s --check-prefix=RAN
// RUN: %t/abi-check %t/embedded.so %t/embedded.bin | FileCheck %s --check-prefix=RAN
// RUN: cmp %t/external.bin %t/embedded.bin
// RUN: %python %S/Inputs/check-artifact.py %examples/mlp_gelu.mlir %t/mlp.so %t/external.bin | FileCheck %s --check-prefix=SAME
// A byte flipped, the file cut short, no file, another model's file, and
// a weights file for a model whose weights are inside it:
// RUN: cp %t/mlp.weights %t/flipped.weights
// RUN: printf '\001' | dd of=%t/flipped.weights bs=1 seek=5000 conv=notrunc 2>/dev/null
// RUN: head -c 20000 %t/mlp.weights > %t/short.weights
// RUN: not %t/abi-check %t/mlp.so %t/x.bin %t/flipped.weights | FileCheck %s --check-prefix=FLIPPED
// RUN: not %t/abi-check %t/mlp.so %t/x.bin %t/short.weights | FileCheck %s --check-prefix=SHORT
// RUN: not %t/abi-check %t/mlp.so %t/x.bin %t/none.weights | FileCheck %s --check-prefix=MISSING
// RUN: not %t/abi-check %t/mlp.so %t/x.bin %t/other.weights | FileCheck %s --check-prefix=OTHER
// RUN: not %t/abi-check %t/embedded.so %t/x.bin %t/mlp.weights | FileCheck %s --check-prefix=INSIDE
// RUN: not %python -c "import fuse_dialect; fuse_dialect.load('%t/mlp.so', weights='%t/flipped.weights')" 2>&1 | FileCheck %s --check-prefix=PYTHON

// Weights are loaded once per process: a later session naming the same
// file is fine, one naming another file (even a copy) is refused.
// RUN: cp %t/mlp.weights %t/copy.weights
// RUN: not %python -c "import fuse_dialect; fuse_dialect.load('%t/mlp.so'); fuse_dialect.load('%t/mlp.so', weights='%t/mlp.weights'); print('same file: ok', flush=True); fuse_dialect.load('%t/mlp.so', weights='%t/copy.weights')" 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: same file: ok
// ONCE: FuseError: the weights are already loaded from another file than '{{.*}}copy.weights' (a process loads a model's weights once)
// SIZES: weights moved: True
// RAN: run: status 0
// SAME: output 0 (output0): C ABI == Python, vs JIT max rel. error ok
// FLIPPED: session: status 2: '{{.*}}flipped.weights' is corrupted (its digest does not match)
// SHORT: session: status 2: '{{.*}}short.weights' is not a FuseDialect weights file or is truncated or extended
// MISSING: session: status 2: cannot open the weights file '{{.*}}none.weights': No such file or directory
// OTHER: session: status 2: '{{.*}}other.weights' holds the weights of another model
// INSIDE: session: status 1: fuseSessionCreate: the model's weights are in the library; it takes no weights file
// PYTHON: fuse_dialect.runtime.FuseError: '{{.*}}flipped.weights' is corrupted (its digest does not match)
