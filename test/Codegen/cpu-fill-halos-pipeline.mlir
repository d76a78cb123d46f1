// Under --fuse-lower-to-cpu, a tile's padded window (a max pool's -FLT_MAX
// border, a convolution's zeros) is filled only outside the box its input
// is copied into: fuse-fill-halos runs while that copy is still one
// memref.copy, before fuse-copies-to-linalg turns it into vector loops it
// no longer recognizes (HALO, the window's slabs filled, the copy after
// them; with the passes the other way round, the whole 15 x 113 x 64
// window of each tile was filled, element by element, and then copied
// over). The same values (NUM, exact against fill-halos=false).
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-fill-halos -o /dev/null 2>&1 | FileCheck %s --check-prefix=HALO
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt -p "--fuse-ops" --exact --ref-lower=--fuse-lower-to-cpu=fill-halos=false | FileCheck %s --check-prefix=NUM

// NUM: fuse-diff: OK

// HALO-LABEL: func.func @model
//       HALO:   scf.if
//       HALO:   } else {
//   HALO-NOT:   linalg.map
//       HALO:   linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<1x?x1x64xf32
//   HALO-NOT:   linalg.map
//       HALO:   memref.copy
func.func @model(%x: tensor<1x112x112x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x112x112x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}
