// fuse-fill-halos: a padded window is filled only outside the box its source
// is copied into (HALO): rows above and below the box (dynamic), then the
// first and last column beside it; dimension 0 and the channels, which the
// box spans, get no slab. Without the pass the whole window is filled and
// then copied over (NOPASS). A fill that something reads before the copy
// stays whole, as does one whose copy reads a view of the buffer itself
// (KEEP).
// RUN: fuse-opt %s --fuse-fill-halos | FileCheck %s --check-prefixes=HALO,KEEP
// RUN: fuse-opt %s | FileCheck %s --check-prefix=NOPASS
// Values: the CPU lowering's convolution tests compare padded convolutions
// with the unfused program (test/Integration/*.mlir through fuse-diff).

// HALO-LABEL: func.func @window
// HALO-NOT: linalg.map
// HALO: %[[W:.*]] = memref.alloc() : memref<1x10x114x32xf32>
// HALO: %[[BOX:.*]] = memref.subview %[[W]][0, %[[R:.*]], 1, 0] [1, %[[N:.*]], 112, 32] [1, 1, 1, 1]
// HALO: %[[ABOVE:.*]] = memref.subview %[[W]][0, 0, 0, 0] [1, %[[R]], 114, 32] [1, 1, 1, 1]
// HALO: linalg.fill ins(%[[Z:.*]] : f32) outs(%[[ABOVE]]
// HALO: %[[END:.*]] = affine.apply #{{.*}}()[%[[R]], %[[N]]]
// HALO: %[[REST:.*]] = affine.apply #{{.*}}()[%[[R]], %[[N]]]
// HALO: %[[BELOW:.*]] = memref.subview %[[W]][0, %[[END]], 0, 0] [1, %[[REST]], 114, 32] [1, 1, 1, 1]
// HALO: linalg.fill ins(%[[Z]] : f32) outs(%[[BELOW]]
// HALO: %[[LEFT:.*]] = memref.subview %[[W]][0, %[[R]], 0, 0] [1, %[[N]], 1, 32] [1, 1, 1, 1]
// HALO: linalg.fill ins(%[[Z]] : f32) outs(%[[LEFT]]
// HALO: %[[RIGHT:.*]] = memref.subview %[[W]][0, %[[R]], 113, 0] [1, %[[N]], 1, 32] [1, 1, 1, 1]
// HALO: linalg.fill ins(%[[Z]] : f32) outs(%[[RIGHT]]
// HALO-NOT: linalg.fill
// HALO: linalg.copy ins(%{{.*}}) outs(%[[BOX]]
// NOPASS-LABEL: func.func @window
// NOPASS: linalg.map outs(%{{.*}} : memref<1x10x114x32xf32>)
func.func @window(%src: memref<1x?x112x32xf32>, %r: index, %n: index) -> memref<1x10x114x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.alloc() : memref<1x10x114x32xf32>
  linalg.map outs(%w : memref<1x10x114x32xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %box = memref.subview %w[0, %r, 1, 0] [1, %n, 112, 32] [1, 1, 1, 1] : memref<1x10x114x32xf32> to memref<1x?x112x32xf32, strided<[36480, 3648, 32, 1], offset: ?>>
  linalg.copy ins(%src : memref<1x?x112x32xf32>) outs(%box : memref<1x?x112x32xf32, strided<[36480, 3648, 32, 1], offset: ?>>)
  return %w : memref<1x10x114x32xf32>
}

// KEEP-LABEL: func.func @read_between
// KEEP: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x8xf32>)
// KEEP: memref.load
// KEEP: memref.copy
func.func @read_between(%src: memref<4x4xf32>) -> (memref<8x8xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %w = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%w : memref<8x8xf32>)
  %v = memref.load %w[%c0, %c0] : memref<8x8xf32>
  %box = memref.subview %w[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  memref.copy %src, %box : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  return %w, %v : memref<8x8xf32>, f32
}

// KEEP-LABEL: func.func @copy_from_itself
// KEEP: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x8xf32>)
// KEEP-NOT: linalg.fill
// KEEP: memref.copy
func.func @copy_from_itself() -> memref<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = memref.alloc() : memref<8x8xf32>
  %from = memref.subview %w[1, 1] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 9>>
  linalg.fill ins(%zero : f32) outs(%w : memref<8x8xf32>)
  %box = memref.subview %w[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  memref.copy %from, %box : memref<4x4xf32, strided<[8, 1], offset: 9>> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  return %w : memref<8x8xf32>
}
