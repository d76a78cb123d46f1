// RUN: fuse-opt %s --fuse-vectorize-tiles="block-cols=32 block-rows=4 fma=true" | FileCheck %s
// Without fused multiply-adds the blocks compute the unfused program's values
// bit for bit (the sums in the scalar loop's order):
// RUN: %fuse-diff %s --entry attention_values -p "--fuse-vectorize-tiles='block-cols=32 block-rows=4 fma=false'" | FileCheck %s --check-prefix=EXACT
// EXACT: fuse-diff: OK 1 outputs, 512 values, max abs err 0, max rel err 0

// A contraction inside a tile whose result has unit dims between its rows
// and columns and whose first operand reads a unit dim at index 0 (ViT's
// attention probabilities times V, per head: fuse-tile-groups folded the
// reshape of the probabilities into the map, (0, d1, d2, d4)). The read at
// 0 is collapsed first, which makes the op a contraction; then its unit
// loops are written first, so that a register block's accumulators are
// read and written without a transpose over unit dims: they are carried
// through the reduction loop in registers (vector<4x32xf32>), loaded once
// before it and stored once after. In the other order the op was not yet a
// contraction when its unit loops were looked at, and every reduction step
// loaded and stored its accumulators (37 GFLOP/s in ViT-B/16).
// CHECK-LABEL: func.func @attention_values
//       CHECK:   scf.forall
//       CHECK:     scf.for %{{.*}} = %c0 to %c8 step %c4 iter_args(%{{.*}}) -> (tensor<1x1x8x32xf32>)
//       CHECK:       %[[INIT:.*]] = vector.transfer_read %{{.*}} : tensor<1x1x8x32xf32>, vector<4x32xf32>
//       CHECK:       %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4x32xf32>)
//       CHECK:         math.fma %{{.*}}, %{{.*}}, %[[ACC]] : vector<4x32xf32>
//   CHECK-NOT:         vector.transfer_write
//       CHECK:       vector.transfer_write %[[SUM]], %{{.*}} : vector<4x32xf32>, tensor<1x1x8x32xf32>
#lhs = affine_map<(d0, d1, d2, d3, d4) -> (0, d1, d2, d4)>
#rhs = affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d1, d3)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d1, d3)>
func.func @attention_values(%p: tensor<1x2x8x16xf32>, %v: tensor<16x1x2x32xf32>) -> tensor<8x1x2x32xf32> {
  %r = fuse.group ins(%p, %v : tensor<1x2x8x16xf32>, tensor<16x1x2x32xf32>) -> (tensor<8x1x2x32xf32>) {
  ^bb0(%a: tensor<1x2x8x16xf32>, %b: tensor<16x1x2x32xf32>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x1x2x32xf32>
    %t = scf.forall (%h) in (2) shared_outs(%o = %e) -> (tensor<8x1x2x32xf32>) {
      %ph = tensor.extract_slice %a[0, %h, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<1x2x8x16xf32> to tensor<1x1x8x16xf32>
      %vh = tensor.extract_slice %b[0, 0, %h, 0] [16, 1, 1, 32] [1, 1, 1, 1] : tensor<16x1x2x32xf32> to tensor<16x1x1x32xf32>
      %oh = tensor.extract_slice %o[0, 0, %h, 0] [8, 1, 1, 32] [1, 1, 1, 1] : tensor<8x1x2x32xf32> to tensor<8x1x1x32xf32>
      %z = linalg.fill ins(%cst : f32) outs(%oh : tensor<8x1x1x32xf32>) -> tensor<8x1x1x32xf32>
      %m = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ph, %vh : tensor<1x1x8x16xf32>, tensor<16x1x1x32xf32>) outs(%z : tensor<8x1x1x32xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %mul = arith.mulf %x, %y : f32
        %add = arith.addf %acc, %mul : f32
        linalg.yield %add : f32
      } -> tensor<8x1x1x32xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %m into %o[0, 0, %h, 0] [8, 1, 1, 32] [1, 1, 1, 1] : tensor<8x1x1x32xf32> into tensor<8x1x2x32xf32>
      }
    }
    fuse.yield %t : tensor<8x1x2x32xf32>
  }
  return %r : tensor<8x1x2x32xf32>
}
