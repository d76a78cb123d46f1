// RUN: fuse-opt %s --fuse-pack-constant-tiles | FileCheck %s
// RUN: %fuse-diff %s --entry moved_dims -p "--fuse-pack-constant-tiles" | FileCheck %s --check-prefix=EXACT
// EXACT: fuse-diff: OK 1 outputs, 24 values, max abs err 0, max rel err 0

// A constant whose tiles also take one index of a dimension other than
// the columns (ViT's QKV weight, 1 x 768 x 3 x 768, read by tiles of one
// of Q, K and V and 64 columns: [0, 0, q, n] [1, 768, 1, 64]). That
// dimension goes before the tiles, so that each tile's block is
// contiguous: 1 x 2 x 3 x 4 in tiles of 2 columns becomes
// 3 x 2 x 1 x 2 x 2 (q, tile, then the rest), element [0, k, q, n] at
// [q, n / 2, 0, k, n mod 2], and a tile reads its block, shaped back into
// the slice's shape by an expand_shape. Before, such a constant was left
// as it was and every tile of ViT's QKV projection copied its 768 x 64
// block out of it.
// CHECK-LABEL: func.func @moved_dims
//       CHECK:   %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}{{\[}}0.000000e+00, 1.000000e+00], {{\[}}1.200000e+01, 1.300000e+01]]], {{\[}}{{\[}}{{\[}}2.000000e+00, 3.000000e+00], {{\[}}1.400000e+01, 1.500000e+01]]]], {{\[}}{{\[}}{{\[}}{{\[}}4.000000e+00, 5.000000e+00], {{\[}}1.600000e+01, 1.700000e+01]]], {{\[}}{{\[}}{{\[}}6.000000e+00, 7.000000e+00], {{\[}}1.800000e+01, 1.900000e+01]]]], {{\[}}{{\[}}{{\[}}{{\[}}8.000000e+00, 9.000000e+00], {{\[}}2.000000e+01, 2.100000e+01]]], {{\[}}{{\[}}{{\[}}1.000000e+01, 1.100000e+01], {{\[}}2.200000e+01, 2.300000e+01]]]]]> : tensor<3x2x1x2x2xf32>
//       CHECK:   scf.forall (%[[Q:.*]], %[[N:.*]]) = (0, 0) to (3, 4) step (1, 2)
//       CHECK:     %[[T:.*]] = arith.divui %[[N]], %{{.*}} : index
//       CHECK:     %[[B:.*]] = tensor.extract_slice %[[W]][%[[Q]], %[[T]], 0, 0, 0] [1, 1, 1, 2, 2] [1, 1, 1, 1, 1] : tensor<3x2x1x2x2xf32> to tensor<1x2x2xf32>
//       CHECK:     %[[S:.*]] = tensor.expand_shape %[[B]] {{.*}} output_shape [1, 2, 1, 2] : tensor<1x2x2xf32> into tensor<1x2x1x2xf32>
//       CHECK:     linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<1x2x1x2xf32>, tensor<1x1x2x2xf32>)
#in = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @moved_dims(%x: tensor<1x1x2x2xf32>) -> tensor<3x1x2x4xf32> {
  %r = fuse.group ins(%x : tensor<1x1x2x2xf32>) -> (tensor<3x1x2x4xf32>) {
  ^bb0(%a: tensor<1x1x2x2xf32>):
    %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]]> : tensor<1x2x3x4xf32>
    %e = tensor.empty() : tensor<3x1x2x4xf32>
    %t = scf.forall (%q, %n) = (0, 0) to (3, 4) step (1, 2) shared_outs(%o = %e) -> (tensor<3x1x2x4xf32>) {
      %s = tensor.extract_slice %w[0, 0, %q, %n] [1, 2, 1, 2] [1, 1, 1, 1] : tensor<1x2x3x4xf32> to tensor<1x2x1x2xf32>
      %os = tensor.extract_slice %o[%q, 0, 0, %n] [1, 1, 2, 2] [1, 1, 1, 1] : tensor<3x1x2x4xf32> to tensor<1x1x2x2xf32>
      %v = linalg.generic {indexing_maps = [#in, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %a : tensor<1x2x1x2xf32>, tensor<1x1x2x2xf32>) outs(%os : tensor<1x1x2x2xf32>) {
      ^bb0(%i: f32, %j: f32, %k: f32):
        %m = arith.addf %i, %j : f32
        linalg.yield %m : f32
      } -> tensor<1x1x2x2xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %v into %o[%q, 0, 0, %n] [1, 1, 2, 2] [1, 1, 1, 1] : tensor<1x1x2x2xf32> into tensor<3x1x2x4xf32>
      }
    }
    fuse.yield %t : tensor<3x1x2x4xf32>
  }
  return %r : tensor<3x1x2x4xf32>
}
