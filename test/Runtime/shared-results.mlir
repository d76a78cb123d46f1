// REQUIRES: libomp
// Results that are views of one buffer (a value and its transpose across a
// unit dimension, which lowers to a reshape of the same memory): the
// session copies every result out before it frees any buffer.
// The buffer is 1 MB, which glibc (its mmap threshold fixed at 64 KB) maps
// on its own and unmaps when freed: a result copied after its buffer was
// freed reads unmapped memory, SIGSEGV (checked with the runtime before; a
// random graph, seed 22 of fuse-random-test --batch-proof, read a buffer
// another thread's allocation had reused).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %s -o %t/shared.so > /dev/null 2>&1
// RUN: env GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536 %python -c "import numpy as np, fuse_dialect; x = np.linspace(-1, 1, 262144, dtype=np.float32).reshape(4, 64, 1, 1024); a, t = fuse_dialect.load('%t/shared.so')(x); e = np.exp(x); print('value', np.allclose(a, e, rtol=1e-6), 'transpose', np.allclose(t, e.transpose(0, 1, 3, 2), rtol=1e-6))" | FileCheck %s
// CHECK: value True transpose True

func.func @model(%x: tensor<4x64x1x1024xf32>) -> (tensor<4x64x1x1024xf32>, tensor<4x64x1024x1xf32>) {
  %e = tosa.exp %x : (tensor<4x64x1x1024xf32>) -> tensor<4x64x1x1024xf32>
  %t = tosa.transpose %e {perms = array<i32: 0, 1, 3, 2>} : (tensor<4x64x1x1024xf32>) -> tensor<4x64x1024x1xf32>
  return %e, %t : tensor<4x64x1x1024xf32>, tensor<4x64x1024x1xf32>
}
