// A grouped convolution (fuse-import's form: the input viewed as
// [N, H, W, G, C/G] and padded, linalg.conv_2d_nhwgc_gfhwc, bias, the result
// viewed back, ReLU) is one loop nest on the CPU: the pad and the epilogue
// on its tiles. Its constant filter, [G, F/G, KH, KW, C/G], is laid out at
// compile time as [KH, KW, C/G, G, F/G] for a generic with the named op's
// loops: a register block reads its filter row as one contiguous run per
// reduction step (no permutation map: not a gather). The block is pixels
// by the filters of one group (12 x 16 here), which all share that row,
// its accumulators carried in registers across the window (VECTOR); it was
// groups by filters (4 x 16), a filter row per group and multiply-add,
// and a grouped 3x3 14x14 512 -> 512 in 32 groups ran at half the speed
// (bench/roofline).
// Numbers: test/Import/onnx-import.mlir (GROUPED, against numpy).
//
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu --mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILED
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu --mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s --check-prefix=NUM

func.func @model(%x: tensor<1x12x12x64xf32>) -> tensor<1x12x12x64xf32> {
  %w = "tosa.const"() <{values = dense<0.03> : tensor<4x16x3x3x16xf32>}> : () -> tensor<4x16x3x3x16xf32>
  %b = "tosa.const"() <{values = dense<-0.5> : tensor<1x1x1x4x16xf32>}> : () -> tensor<1x1x1x4x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s5 = tosa.const_shape {values = dense<[1, 12, 12, 4, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %x5 = tosa.reshape %x, %s5 : (tensor<1x12x12x64xf32>, !tosa.shape<5>) -> tensor<1x12x12x4x16xf32>
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0, 0, 0]> : tensor<10xindex>} : () -> !tosa.shape<10>
  %xp = tosa.pad %x5, %p, %zp : (tensor<1x12x12x4x16xf32>, !tosa.shape<10>, tensor<1xf32>) -> tensor<1x14x14x4x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x12x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x12x4x16xf32>) -> tensor<1x12x12x4x16xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xp, %w : tensor<1x14x14x4x16xf32>, tensor<4x16x3x3x16xf32>) outs(%f : tensor<1x12x12x4x16xf32>) -> tensor<1x12x12x4x16xf32>
  %a = tosa.add %c, %b : (tensor<1x12x12x4x16xf32>, tensor<1x1x1x4x16xf32>) -> tensor<1x12x12x4x16xf32>
  %s4 = tosa.const_shape {values = dense<[1, 12, 12, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %a4 = tosa.reshape %a, %s4 : (tensor<1x12x12x4x16xf32>, !tosa.shape<4>) -> tensor<1x12x12x64xf32>
  %r = tosa.clamp %a4 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x12x12x64xf32>) -> tensor<1x12x12x64xf32>
  return %r : tensor<1x12x12x64xf32>
}

// TILED-LABEL: func.func @model
//   TILED-NOT:   linalg.conv_2d_nhwgc_gfhwc
//       TILED:   arith.constant dense<{{.*}}> : tensor<3x3x16x4x16xf32>
//       TILED:   scf.forall
//       TILED:   tensor.pad
//       TILED:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} ins({{.*}} : tensor<1x{{[0-9]+}}x14x4x16xf32>, tensor<3x3x16x4x16xf32>)
//       TILED:   scf.forall.in_parallel
//   TILED-NOT:   scf.forall

// VECTOR-LABEL: func.func @model
//       VECTOR:   scf.for {{.*}} iter_args({{.*}}) -> (vector<12x1x16xf32>)
//       VECTOR:   vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<3x3x16x4x16xf32>, vector<16xf32>
//       VECTOR:   math.fma {{.*}} : vector<12x16xf32>
//       VECTOR:   arith.maximumf

// NUM: fuse-diff: OK 1 outputs
