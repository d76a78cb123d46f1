// RUN: fuse-opt %s --fuse-lower-bf16-mma --split-input-file | FileCheck %s

// A bf16 m16n8k16 mma.sync (which upstream's convert-nvgpu-to-nvvm cannot
// type) becomes nvvm.mma.sync on .bf16 multiplicands: each register's two
// elements bitcast to one i32 (A's four, B's two), the four f32
// accumulators passed and read back in fragment order.
// CHECK-LABEL: func.func @bf16
//  CHECK-SAME:   (%[[A:[a-z0-9_]+]]: vector<4x2xbf16>, %[[B:[a-z0-9_]+]]: vector<2x2xbf16>, %[[C:[a-z0-9_]+]]: vector<2x2xf32>)
//       CHECK:   %[[A0:[a-z0-9_]+]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
//       CHECK:   %[[A0I:[a-z0-9_]+]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
//       CHECK:   %[[R0:[a-z0-9_]+]] = vector.extract %[[A0I]][0] : i32 from vector<1xi32>
//       CHECK:   %[[A3:[a-z0-9_]+]] = vector.extract %[[A]][3] : vector<2xbf16> from vector<4x2xbf16>
//       CHECK:   %[[B1:[a-z0-9_]+]] = vector.extract %[[B]][1] : vector<2xbf16> from vector<2x2xbf16>
//       CHECK:   %[[C0:[a-z0-9_]+]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
//       CHECK:   %[[C1:[a-z0-9_]+]] = vector.extract %[[C]][0, 1] : f32 from vector<2x2xf32>
//       CHECK:   %[[C2:[a-z0-9_]+]] = vector.extract %[[C]][1, 0] : f32 from vector<2x2xf32>
//       CHECK:   %[[C3:[a-z0-9_]+]] = vector.extract %[[C]][1, 1] : f32 from vector<2x2xf32>
//       CHECK:   %[[D:[a-z0-9_]+]] = nvvm.mma.sync A[%[[R0]], %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]]
//  CHECK-SAME:     multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
//  CHECK-SAME:     : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//       CHECK:   %[[D0:[a-z0-9_]+]] = llvm.extractvalue %[[D]][0]
//       CHECK:   %[[D3:[a-z0-9_]+]] = llvm.extractvalue %[[D]][3]
//       CHECK:   %[[R:[a-z0-9_]+]] = vector.from_elements %[[D0]], %{{.*}}, %{{.*}}, %[[D3]] : vector<2x2xf32>
//       CHECK:   return %[[R]]
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// f16 and TF32 are left to upstream's lowering.
// CHECK-LABEL: func.func @f16
//       CHECK:   nvgpu.mma.sync
//   CHECK-NOT:   nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
