// A grouped convolution whose rows of pixels take a partial last tile
// (ResNeXt-50's last stage: 7 pixels a row, 32 groups of 32 channels, tiles
// of 4 pixels: 4 + 3) reads a padded window per tile, which tile-and-fuse
// computes in an `scf.if` (an empty window or a padded slice) whose result
// type stays dynamic after peeling although both branches yield the same
// static window (a `tensor.cast` of it). Peeling's clean-up makes that
// result static (populatePeeledTilePatterns), so both the whole and the
// partial tile are vectorized (VECTOR): the partial tile had stayed a
// scalar loop nest, and the convolution ran 72x slower (0.58 -> 41.9 ms,
// one thread, Zen 4). Numbers exact against the unfused program (EXACT).
//
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu --mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILED
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu --mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: %fuse-diff %s -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

func.func @model(%x: tensor<1x7x7x1024xf32>) -> tensor<1x7x7x1024xf32> {
  %w = "tosa.const"() <{values = dense<0.03> : tensor<32x32x3x3x32xf32>}> : () -> tensor<32x32x3x3x32xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s5 = tosa.const_shape {values = dense<[1, 7, 7, 32, 32]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %x5 = tosa.reshape %x, %s5 : (tensor<1x7x7x1024xf32>, !tosa.shape<5>) -> tensor<1x7x7x32x32xf32>
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0, 0, 0]> : tensor<10xindex>} : () -> !tosa.shape<10>
  %xp = tosa.pad %x5, %p, %zp : (tensor<1x7x7x32x32xf32>, !tosa.shape<10>, tensor<1xf32>) -> tensor<1x9x9x32x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x32x32xf32>) -> tensor<1x7x7x32x32xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xp, %w : tensor<1x9x9x32x32xf32>, tensor<32x32x3x3x32xf32>) outs(%f : tensor<1x7x7x32x32xf32>) -> tensor<1x7x7x32x32xf32>
  %s4 = tosa.const_shape {values = dense<[1, 7, 7, 1024]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c4 = tosa.reshape %c, %s4 : (tensor<1x7x7x32x32xf32>, !tosa.shape<4>) -> tensor<1x7x7x1024xf32>
  %r = tosa.clamp %c4 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x1024xf32>) -> tensor<1x7x7x1024xf32>
  return %r : tensor<1x7x7x1024xf32>
}

// TILED-LABEL: func.func @model
//       TILED:   scf.forall ({{.*}}) = (0, 0) to (7, 4) step (1, 4)
//       TILED:     scf.if {{.*}} -> (tensor<1x3x6x32x32xf32>)
//       TILED:   scf.forall ({{.*}}) = (0, 4) to (7, 7) step (1, 4)
//       TILED:     scf.if {{.*}} -> (tensor<1x3x5x32x32xf32>)

// VECTOR-LABEL: func.func @model
//       VECTOR:   scf.forall
//       VECTOR:     math.fma {{.*}} : vector<4x32xf32>
//       VECTOR:   scf.forall
//       VECTOR:     math.fma {{.*}} : vector<3x32xf32>

// EXACT: fuse-diff: OK 1 outputs
