// Inside a LayerNorm+GELU tile (one row), the variance's reduction is a
// generic into which `(x - mean)^2` is fused (the reduce is generalized for
// it), and `x - mean`, read by the variance and by the normalization, is
// recomputed in both: no row-sized temporary is left besides the result.
// Numbers against the unfused program: on the CPU here, through the
// emulated GPU lowering in test/Integration/gpu-emulated.mlir.
// RUN: fuse-opt %fuse_src/bench/models/layernorm_gelu_256x2048.mlir --fuse-ops | fuse-opt --fuse-tile-groups | FileCheck %s
// RUN: %fuse-diff %fuse_src/bench/models/layernorm_gelu_256x2048.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK
//
// CHECK:      scf.forall
// CHECK:        linalg.reduce ins(%{{.*}} : tensor<1x2048xf32>)
// CHECK:        linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[ROW:[a-z0-9_]+]], %{{.*}} : tensor<1x2048xf32>, tensor<1x1xf32>)
// CHECK-NEXT:   ^bb0
// CHECK-NEXT:     arith.subf
// CHECK-NEXT:     arith.subf
// CHECK-NEXT:     arith.mulf
// CHECK-NEXT:     arith.addf
// CHECK:        linalg.generic {{.*}} ins(%[[ROW]], %{{.*}}, %{{.*}} : tensor<1x2048xf32>, tensor<1x1xf32>, tensor<1x1xf32>)
// CHECK-NEXT:   ^bb0
// CHECK-NEXT:     arith.subf
// CHECK-NOT:    -> tensor<1x2048xf32>
// CHECK:        -> tensor<1x2048xf32>
// CHECK-NOT:    -> tensor<1x2048xf32>
// CHECK:        scf.forall.in_parallel
