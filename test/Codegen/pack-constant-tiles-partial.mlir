// RUN: fuse-opt %s --fuse-pack-constant-tiles | FileCheck %s
// RUN: %fuse-diff %s --entry partial_last,first_columns -p "--fuse-pack-constant-tiles" | FileCheck %s --check-prefix=EXACT
// EXACT: fuse-diff: OK 2 outputs, 18 values, max abs err 0, max rel err 0

// fuse-pack-constant-tiles with a partial last tile and with a tile at
// offset 0 that is the whole of what is read.
//
// @partial_last: 5 columns in tiles of 2 (a loop over the first 4) and
// the partial last tile of 1 column, peeled into its own nest at a
// constant offset. The constant becomes 3 blocks of 2 x 2, the third
// holding column 4 and a column of zeros, which the partial tile's slice
// (its block's first column) never reads.
// CHECK-LABEL: func.func @partial_last
//       CHECK:   %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 1.000000e+00], [5.000000e+00, 6.000000e+00]], {{\[}}[2.000000e+00, 3.000000e+00], [7.000000e+00, 8.000000e+00]], {{\[}}[4.000000e+00, 0.000000e+00], [9.000000e+00, 0.000000e+00]]]> : tensor<3x2x2xf32>
//       CHECK:   scf.forall (%[[N:.*]]) = (0) to (4) step (2)
//       CHECK:     %[[T:.*]] = arith.divui %[[N]], %{{.*}} : index
//       CHECK:     tensor.extract_slice %[[W]][%[[T]], 0, 0] [1, 2, 2] [1, 1, 1] : tensor<3x2x2xf32> to tensor<2x2xf32>
//       CHECK:   tensor.extract_slice %[[W]][2, 0, 0] [1, 2, 1] [1, 1, 1] : tensor<3x2x2xf32> to tensor<2x1xf32>
//
// @first_columns: rows of 4 columns and 2 of padding, read whole by one
// op through a slice of the first 4 columns, the constant's only use: a
// view without the padding (a permuted filter's, whose padding keeps its
// rows off multiples of 4 KB for L1), not a tile. The constant keeps its
// layout. (6320ba6 packed it as two tiles of 4, the second the padding
// and zeros: U-Net's padded 3x3 filters, 11 MB more library; with one
// tile, it dropped the padding that the register blocks' rows need where
// the panels do not lay them out again.)
// CHECK-LABEL: func.func @first_columns
//       CHECK:   %[[P:.*]] = arith.constant dense<{{.*}}> : tensor<2x6xf32>
//       CHECK:   tensor.extract_slice %[[P]][0, 0] [2, 4] [1, 1] : tensor<2x6xf32> to tensor<2x4xf32>

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @partial_last(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = fuse.group ins(%x : tensor<2x5xf32>) -> (tensor<2x5xf32>) {
  ^bb0(%a: tensor<2x5xf32>):
    %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0]]> : tensor<2x5xf32>
    %e = tensor.empty() : tensor<2x5xf32>
    %head = tensor.extract_slice %e[0, 0] [2, 4] [1, 1] : tensor<2x5xf32> to tensor<2x4xf32>
    %t = scf.forall (%n) = (0) to (4) step (2) shared_outs(%o = %head) -> (tensor<2x4xf32>) {
      %s = tensor.extract_slice %w[0, %n] [2, 2] [1, 1] : tensor<2x5xf32> to tensor<2x2xf32>
      %as = tensor.extract_slice %a[0, %n] [2, 2] [1, 1] : tensor<2x5xf32> to tensor<2x2xf32>
      %os = tensor.extract_slice %o[0, %n] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
      %v = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %as : tensor<2x2xf32>, tensor<2x2xf32>) outs(%os : tensor<2x2xf32>) {
      ^bb0(%i: f32, %j: f32, %k: f32):
        %m = arith.addf %i, %j : f32
        linalg.yield %m : f32
      } -> tensor<2x2xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %v into %o[0, %n] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<2x4xf32>
      }
    }
    %ls = tensor.extract_slice %w[0, 4] [2, 1] [1, 1] : tensor<2x5xf32> to tensor<2x1xf32>
    %la = tensor.extract_slice %a[0, 4] [2, 1] [1, 1] : tensor<2x5xf32> to tensor<2x1xf32>
    %le = tensor.empty() : tensor<2x1xf32>
    %l = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%ls, %la : tensor<2x1xf32>, tensor<2x1xf32>) outs(%le : tensor<2x1xf32>) {
    ^bb0(%i: f32, %j: f32, %k: f32):
      %m = arith.addf %i, %j : f32
      linalg.yield %m : f32
    } -> tensor<2x1xf32>
    %r0 = tensor.insert_slice %t into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x5xf32>
    %r1 = tensor.insert_slice %l into %r0[0, 4] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x5xf32>
    fuse.yield %r1 : tensor<2x5xf32>
  }
  return %r : tensor<2x5xf32>
}

func.func @first_columns(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = fuse.group ins(%x : tensor<2x4xf32>) -> (tensor<2x4xf32>) {
  ^bb0(%a: tensor<2x4xf32>):
    %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]]> : tensor<2x6xf32>
    %s = tensor.extract_slice %w[0, 0] [2, 4] [1, 1] : tensor<2x6xf32> to tensor<2x4xf32>
    %e = tensor.empty() : tensor<2x4xf32>
    %v = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %a : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
    ^bb0(%i: f32, %j: f32, %k: f32):
      %m = arith.addf %i, %j : f32
      linalg.yield %m : f32
    } -> tensor<2x4xf32>
    fuse.yield %v : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}
