// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles --canonicalize | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles="cooperative-reductions=false" --canonicalize | FileCheck %s --check-prefix=SEQ
// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles="tf32=true" --canonicalize | FileCheck %s --check-prefix=TF32
// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles --canonicalize --cse | FileCheck %s --check-prefix=MMA16
// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles="tensor-cores=false" --canonicalize | FileCheck %s --check-prefix=NOMMA16
// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles="fma=false" --canonicalize | FileCheck %s --check-prefix=NOFMA
// RUN: fuse-opt %s --split-input-file --fuse-distribute-tiles="stage-inputs=false" --canonicalize | FileCheck %s --check-prefix=NOSTAGE

// A softmax-style row tile: one block per row (512 tiles), the row's
// temporaries in shared memory, every op a loop strided by the block size
// with a barrier after it; the row maximum is split among the threads:
// each starts from the neutral element (-inf), gpu.all_reduce combines,
// thread 0 combines the total with the output's initial value. Each thread
// takes its 4 elements of the row (1024 / 256) in one iteration, into 4
// accumulators, so that the 4 loads are in flight together; a step past
// the row's end rereads the first step's element and keeps its
// accumulator. The row is read twice (the maximum, the exponential) but
// not staged in shared memory: %out, a function argument like %x, may be
// the same buffer (see @staged_rows).
// CHECK-LABEL: func.func @row_tile
//   CHECK-DAG:   %[[C512:[a-z0-9_]+]] = arith.constant 512 : index
//   CHECK-DAG:   %[[C256:[a-z0-9_]+]] = arith.constant 256 : index
//   CHECK-DAG:   %[[NEG:[a-z0-9_]+]] = arith.constant 0xFF800000 : f32
//       CHECK:   gpu.launch blocks(%[[B:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C512]], {{.*}} threads(%[[T:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[BS:[a-z0-9_]+]] = %[[C256]], {{.*}} workgroup(%[[MAX:[a-z0-9_]+]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[EXP:[a-z0-9_]+]] : memref<1x1024xf32, #gpu.address_space<workgroup>>)
//       CHECK:     %[[ROW:[a-z0-9_]+]] = memref.subview %{{.*}}[%[[B]], 0] [1, 1024]
//       CHECK:     scf.for %{{.*}} = %[[T]] to %{{.*}} step %[[BS]]
//       CHECK:       memref.store {{.*}}, %[[MAX]]
//       CHECK:     gpu.barrier
//       CHECK:     %[[STRIDE:[a-z0-9_]+]] = arith.muli %[[BS]], %c4
//       CHECK:     %[[PARTS:[a-z0-9_]+]]:4 = scf.for %[[I:[a-z0-9_]+]] = %[[T]] to %c1024 step %[[STRIDE]] iter_args(%[[A0:[a-z0-9_]+]] = %[[NEG]], %[[A1:[a-z0-9_]+]] = %[[NEG]], %{{.*}} = %[[NEG]], %{{.*}} = %[[NEG]]) -> (f32, f32, f32, f32)
//       CHECK:       %[[I1:[a-z0-9_]+]] = arith.addi %[[I]], %[[BS]]
//       CHECK:       %[[IN1:[a-z0-9_]+]] = arith.cmpi slt, %[[I1]], %c1024
//       CHECK:       %[[J1:[a-z0-9_]+]] = arith.select %[[IN1]], %[[I1]], %[[I]]
//       CHECK:       %[[V0:[a-z0-9_]+]] = memref.load %[[ROW]][%{{.*}}, %[[I]]]
//       CHECK:       %[[M0:[a-z0-9_]+]] = arith.maximumf %[[V0]], %[[A0]]
//       CHECK:       %[[V1:[a-z0-9_]+]] = memref.load %[[ROW]][%{{.*}}, %[[J1]]]
//       CHECK:       %[[M1:[a-z0-9_]+]] = arith.maximumf %[[V1]], %[[A1]]
//       CHECK:       %[[K1:[a-z0-9_]+]] = arith.select %[[IN1]], %[[M1]], %[[A1]]
//       CHECK:       scf.yield %[[M0]], %[[K1]], %{{.*}}, %{{.*}} : f32, f32, f32, f32
//       CHECK:     %[[C01:[a-z0-9_]+]] = arith.maximumf %[[PARTS]]#1, %[[PARTS]]#0
//       CHECK:     %[[C012:[a-z0-9_]+]] = arith.maximumf %[[PARTS]]#2, %[[C01]]
//       CHECK:     %[[PART:[a-z0-9_]+]] = arith.maximumf %[[PARTS]]#3, %[[C012]]
//       CHECK:     %[[TOTAL:[a-z0-9_]+]] = gpu.all_reduce %[[PART]] uniform {
//       CHECK:       arith.maximumf
//       CHECK:     scf.if
//       CHECK:       %[[INIT:[a-z0-9_]+]] = memref.load %[[MAX]]
//       CHECK:       %[[NEW:[a-z0-9_]+]] = arith.maximumf %[[TOTAL]], %[[INIT]]
//       CHECK:       memref.store %[[NEW]], %[[MAX]]
//       CHECK:     gpu.barrier
// Elementwise ops take vectors of 4 (16-byte accesses) when every buffer's
// address and row stride allow, scalars otherwise.
//       CHECK:     scf.if %{{.*}} {
//       CHECK:       scf.for %{{.*}} = %[[T]] to %[[C256]] step %[[BS]]
//       CHECK:         vector.load %[[ROW]]{{.*}} {alignment = 16 : i64} {{.*}} vector<4xf32>
//       CHECK:         math.exp %{{.*}} : vector<4xf32>
//       CHECK:         vector.store %{{.*}}, %[[EXP]]{{.*}} {alignment = 16 : i64}
//       CHECK:     } else {
//       CHECK:       scf.for %{{.*}} = %[[T]] to %{{.*}} step %[[BS]]
//       CHECK:         math.exp %{{.*}} : f32
//       CHECK:         memref.store {{.*}}, %[[EXP]]
//       CHECK:     gpu.barrier
//       CHECK:     scf.for %{{.*}} = %[[T]] to %{{.*}} step %[[BS]]
//       CHECK:       memref.load %[[EXP]]
//       CHECK:       memref.store
//   CHECK-NOT:     gpu.barrier
//       CHECK:     gpu.terminator
//   CHECK-NOT:   memref.dealloc
//   CHECK-NOT:   scf.forall
// With cooperative-reductions=false each thread reduces its own rows, in
// order: no block reduction.
// SEQ-LABEL: func.func @row_tile
//   SEQ-NOT:   gpu.all_reduce
//       SEQ:   scf.for %{{.*}} = %c0 to %c1024 step %c1 iter_args
#row = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0)>
func.func @row_tile(%x: memref<512x1024xf32>, %out: memref<512x1024xf32>) {
  %lowest = arith.constant -3.40282347E+38 : f32
  scf.forall (%i) in (512) {
    %row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<512x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %max = memref.alloc() : memref<1xf32>
    linalg.fill ins(%lowest : f32) outs(%max : memref<1xf32>)
    linalg.reduce ins(%row : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%max : memref<1xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %m = arith.maximumf %in, %init : f32
        linalg.yield %m : f32
      }
    %exp = memref.alloc() : memref<1x1024xf32>
    linalg.generic {indexing_maps = [#row, #bcast, #row], iterator_types = ["parallel", "parallel"]} ins(%row, %max : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, memref<1xf32>) outs(%exp : memref<1x1024xf32>) {
    ^bb0(%in: f32, %m: f32, %o: f32):
      %d = arith.subf %in, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    %dst = memref.subview %out[%i, 0] [1, 1024] [1, 1] : memref<512x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.copy ins(%exp : memref<1x1024xf32>) outs(%dst : memref<1x1024xf32, strided<[1024, 1], offset: ?>>)
    memref.dealloc %max : memref<1xf32>
    memref.dealloc %exp : memref<1x1024xf32>
  }
  return
}

// -----

// A temporary whose size depends on the tile (a padded window at the border)
// has no static shape: it lives in a device scratch buffer, one 64-byte
// aligned slice per block, bounded by the largest tile (here 3 rows of 16
// floats: 192 bytes; 4 tiles), freed after the launch.
// CHECK-LABEL: func.func @dynamic_temporary
//   CHECK-DAG:   %[[C4:[a-z0-9_]+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C192:[a-z0-9_]+]] = arith.constant 192 : index
//   CHECK-DAG:   %[[C768:[a-z0-9_]+]] = arith.constant 768 : index
//       CHECK:   %[[SCRATCH:[a-z0-9_]+]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[C768]]) : memref<?xi8>
//       CHECK:   gpu.launch blocks(%[[B:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]],
//       CHECK:     %[[AT:[a-z0-9_]+]] = arith.muli %[[B]], %[[C192]]
//       CHECK:     memref.view %[[SCRATCH]][%[[AT]]][%{{.*}}] : memref<?xi8> to memref<?x16xf32>
//       CHECK:   gpu.dealloc async [%{{.*}}] %[[SCRATCH]]
#window = affine_map<(d0) -> (-d0 + 10, 3)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_temporary(%x: memref<10x16xf32>, %out: memref<10x16xf32>) {
  scf.forall (%i) = (0) to (10) step (3) {
    %n = affine.min #window(%i)
    %src = memref.subview %x[%i, 0] [%n, 16] [1, 1] : memref<10x16xf32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    %tmp = memref.alloc(%n) : memref<?x16xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%src : memref<?x16xf32, strided<[16, 1], offset: ?>>) outs(%tmp : memref<?x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    }
    %dst = memref.subview %out[%i, 0] [%n, 16] [1, 1] : memref<10x16xf32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    linalg.copy ins(%tmp : memref<?x16xf32>) outs(%dst : memref<?x16xf32, strided<[16, 1], offset: ?>>)
    memref.dealloc %tmp : memref<?x16xf32>
  }
  return
}

// -----

// A tile body that writes memory other than through structured ops cannot
// run on all threads of a block: the loop is left for the thread-per-tile
// mapping.
// CHECK-LABEL: func.func @side_effect
//   CHECK-NOT:   gpu.launch
//       CHECK:   scf.forall
func.func @side_effect(%out: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (8) {
    memref.store %one, %out[%i] : memref<8xf32>
  }
  return
}

// -----

// A matmul tile (32x32 of a 64x64x64 matmul) is register-tiled: thread t
// keeps the 2x2 outputs (y, x), (y, x + 16), (y + 16, x), (y + 16, x + 16)
// (y = t / 16, x = t % 16) in registers over the whole reduction. For each
// chunk of 32 steps the block copies both operands' slices to shared memory
// (consecutive threads, consecutive elements; each thread loads its 4
// elements before storing any); A's rows run along the reduction, so its
// buffer is padded to 33 columns. Per step a thread reads 2 elements of A
// and 2 of B for its 4 multiply-adds (contractible into fma). The fill of
// the temporary becomes the accumulators' initial value and the copy out of
// it their only store: the temporary is gone.
// CHECK-LABEL: func.func @staged_matmul
//   CHECK-DAG:   %[[ZERO:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C32:[a-z0-9_]+]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C64:[a-z0-9_]+]] = arith.constant 64 : index
//   CHECK-DAG:   %[[C16:[a-z0-9_]+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C256:[a-z0-9_]+]] = arith.constant 256 : index
//   CHECK-DAG:   %[[C1024:[a-z0-9_]+]] = arith.constant 1024 : index
//       CHECK:   gpu.launch {{.*}} threads(%[[T:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[BS:[a-z0-9_]+]] = {{.*}} workgroup(%[[SA:[a-z0-9_]+]] : memref<32x33xf32, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9_]+]] : memref<32x32xf32, #gpu.address_space<workgroup>>) {
//   CHECK-NOT:     memref.alloc
//       CHECK:     %[[A:[a-z0-9_]+]] = memref.subview %{{.*}} : memref<64x64xf32> to memref<32x64xf32
//       CHECK:     %[[B:[a-z0-9_]+]] = memref.subview %{{.*}} : memref<64x64xf32> to memref<64x32xf32
//       CHECK:     %[[DST:[a-z0-9_]+]] = memref.subview %{{.*}} : memref<64x64xf32> to memref<32x32xf32
//       CHECK:     %[[SAV:[a-z0-9_]+]] = memref.subview %[[SA]][0, 0] [32, 32] [1, 1]
//       CHECK:     scf.for %[[MT:[a-z0-9_]+]] = %[[T]] to %[[C256]] step %[[BS]] {
//       CHECK:       %[[Y:[a-z0-9_]+]] = arith.divui %[[MT]], %[[C16]]
//       CHECK:       %[[X:[a-z0-9_]+]] = arith.remui %[[MT]], %[[C16]]
//       CHECK:       %[[Y1:[a-z0-9_]+]] = arith.addi %[[Y]], %[[C16]]
//       CHECK:       %[[X1:[a-z0-9_]+]] = arith.addi %[[X]], %[[C16]]
//       CHECK:       %[[ACC:[a-z0-9_]+]]:4 = scf.for %[[K0:[a-z0-9_]+]] = %{{.*}} to %[[C64]] step %[[C32]] iter_args(%[[I0:[a-z0-9_]+]] = %[[ZERO]], %[[I1:[a-z0-9_]+]] = %[[ZERO]], %[[I2:[a-z0-9_]+]] = %[[ZERO]], %[[I3:[a-z0-9_]+]] = %[[ZERO]])
//       CHECK:         %[[STEP:[a-z0-9_]+]] = arith.muli %[[BS]], %c4
//       CHECK:         scf.for %[[E:[a-z0-9_]+]] = %[[T]] to %[[C1024]] step %[[STEP]] {
//       CHECK:           %[[E1:[a-z0-9_]+]] = arith.addi %[[E]], %[[BS]]
//       CHECK:           %[[IN1:[a-z0-9_]+]] = arith.cmpi slt, %[[E1]], %[[C1024]]
//       CHECK:           arith.select %[[IN1]], %[[E1]], %[[E]]
//       CHECK:           %[[AK:[a-z0-9_]+]] = arith.addi %{{.*}}, %[[K0]]
//       CHECK:           %[[VA:[a-z0-9_]+]] = memref.load %[[A]][%{{.*}}, %[[AK]]]
//       CHECK:           memref.load %[[A]]
//       CHECK:           memref.load %[[A]]
//       CHECK:           memref.load %[[A]]
//   CHECK-NOT:           memref.load
//       CHECK:           memref.store %[[VA]], %[[SAV]]
//       CHECK:           memref.store {{.*}}, %[[SAV]]
//       CHECK:           memref.store {{.*}}, %[[SAV]]
//       CHECK:           memref.store {{.*}}, %[[SAV]]
//       CHECK:         scf.for %{{.*}} = %[[T]] to %[[C1024]] step %{{.*}} {
//       CHECK:           %[[BK:[a-z0-9_]+]] = arith.addi %{{.*}}, %[[K0]]
//       CHECK:           %[[VB:[a-z0-9_]+]] = memref.load %[[B]][%[[BK]], %{{.*}}]
//       CHECK:           memref.store %[[VB]], %[[SB]]
//       CHECK:         gpu.barrier
//       CHECK:         %[[S:[a-z0-9_]+]]:4 = scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %[[C32]] step %{{.*}} iter_args(%[[P0:[a-z0-9_]+]] = %[[I0]], %[[P1:[a-z0-9_]+]] = %[[I1]], %[[P2:[a-z0-9_]+]] = %[[I2]], %[[P3:[a-z0-9_]+]] = %[[I3]])
//       CHECK:           %[[A0:[a-z0-9_]+]] = memref.load %[[SAV]][%[[Y]], %[[K]]]
//       CHECK:           %[[A1:[a-z0-9_]+]] = memref.load %[[SAV]][%[[Y1]], %[[K]]]
//       CHECK:           %[[B0:[a-z0-9_]+]] = memref.load %[[SB]][%[[K]], %[[X]]]
//       CHECK:           %[[B1:[a-z0-9_]+]] = memref.load %[[SB]][%[[K]], %[[X1]]]
//       CHECK:           %[[M0:[a-z0-9_]+]] = arith.mulf %[[A0]], %[[B0]] fastmath<contract>
//       CHECK:           %[[R0:[a-z0-9_]+]] = arith.addf %[[P0]], %[[M0]] fastmath<contract>
//       CHECK:           %[[M1:[a-z0-9_]+]] = arith.mulf %[[A0]], %[[B1]] fastmath<contract>
//       CHECK:           %[[R1:[a-z0-9_]+]] = arith.addf %[[P1]], %[[M1]] fastmath<contract>
//       CHECK:           %[[M2:[a-z0-9_]+]] = arith.mulf %[[A1]], %[[B0]] fastmath<contract>
//       CHECK:           %[[R2:[a-z0-9_]+]] = arith.addf %[[P2]], %[[M2]] fastmath<contract>
//       CHECK:           %[[M3:[a-z0-9_]+]] = arith.mulf %[[A1]], %[[B1]] fastmath<contract>
//       CHECK:           %[[R3:[a-z0-9_]+]] = arith.addf %[[P3]], %[[M3]] fastmath<contract>
//       CHECK:           scf.yield %[[R0]], %[[R1]], %[[R2]], %[[R3]]
//       CHECK:         gpu.barrier
//       CHECK:         scf.yield %[[S]]#0, %[[S]]#1, %[[S]]#2, %[[S]]#3
//       CHECK:       memref.store %[[ACC]]#0, %[[DST]][%[[Y]], %[[X]]]
//       CHECK:       memref.store %[[ACC]]#1, %[[DST]][%[[Y]], %[[X1]]]
//       CHECK:       memref.store %[[ACC]]#2, %[[DST]][%[[Y1]], %[[X]]]
//       CHECK:       memref.store %[[ACC]]#3, %[[DST]][%[[Y1]], %[[X1]]]
//       CHECK:     gpu.terminator
// With fma=false the multiplies and adds stay apart.
// NOFMA-LABEL: func.func @staged_matmul
//   NOFMA-NOT:   fastmath<contract>
//       NOFMA:   gpu.terminator
// With tf32=true the matmul runs on tensor cores, register-tiled by warps:
// the 32x32 tile is 8 pieces of 16x8, warp w takes piece w (rows 16 (w/4)
// .., columns 8 (w%4) ..); each lane keeps its accumulator fragment
// (rows l/4 and l/4 + 8, columns 2(l%4) and 2(l%4) + 1) in registers across
// the chunks, starting from the absorbed fill (zeros); per chunk the
// slices are staged as for the scalar path, then per 8 steps each lane
// reads its A fragment (rows l/4, l/4 + 8; steps l%4, l%4 + 4) and B
// fragment (steps l%4, l%4 + 4; column l/4) for one m16n8k8 TF32
// mma.sync. The fragment goes straight to the output (the absorbed copy).
// TF32-LABEL: func.func @staged_matmul
//       TF32:   gpu.launch {{.*}} threads(%[[T:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in (%[[BS:[a-z0-9_]+]] = {{.*}} workgroup(%[[SAP:[a-z0-9_]+]] : memref<32x33xf32, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9_]+]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
//       TF32:       %[[DST:[a-z0-9_]+]] = memref.subview %arg2
//       TF32:       %[[SA:[a-z0-9_]+]] = memref.subview %[[SAP]][0, 0] [32, 32]
//       TF32:       %[[LANE:[a-z0-9_]+]] = arith.remui %[[T]], %c32
//       TF32:       %[[WARP:[a-z0-9_]+]] = arith.divui %[[T]], %c32
//       TF32:       %[[G:[a-z0-9_]+]] = arith.divui %[[LANE]], %c4
//       TF32:       %[[TG:[a-z0-9_]+]] = arith.remui %[[LANE]], %c4
//       TF32:       %[[T2:[a-z0-9_]+]] = arith.muli %[[TG]], %c2
//       TF32:       %[[PM:[a-z0-9_]+]] = arith.divui %[[WARP]], %c4
//       TF32:       %[[M0:[a-z0-9_]+]] = arith.muli %[[PM]], %c16
//       TF32:       %[[PN:[a-z0-9_]+]] = arith.remui %[[WARP]], %c4
//       TF32:       %[[N0:[a-z0-9_]+]] = arith.muli %[[PN]], %c8
//       TF32:       %[[ROW:[a-z0-9_]+]] = arith.addi %[[M0]], %[[G]]
//       TF32:       %[[ROW8:[a-z0-9_]+]] = arith.addi %[[ROW]], %c8
//       TF32:       %[[COL:[a-z0-9_]+]] = arith.addi %[[N0]], %[[T2]]
//       TF32:       %[[COL1:[a-z0-9_]+]] = arith.addi %[[COL]], %c1
//       TF32:       %[[BN:[a-z0-9_]+]] = arith.addi %[[N0]], %[[G]]
//       TF32:       %[[ACC:[a-z0-9_]+]] = scf.for %[[C:[a-z0-9_]+]] = %c0 to %c64 step %c32 iter_args(%[[CA:[a-z0-9_]+]] = %cst) -> (vector<2x2xf32>)
//       TF32:         gpu.barrier
//       TF32:         %[[D:[a-z0-9_]+]] = scf.for %[[K:[a-z0-9_]+]] = %c0 to %c32 step %c8 iter_args(%[[CI:[a-z0-9_]+]] = %[[CA]])
//       TF32:           %[[KT:[a-z0-9_]+]] = arith.addi %[[K]], %[[TG]]
//       TF32:           %[[KT4:[a-z0-9_]+]] = arith.addi %[[KT]], %c4
//       TF32:           %[[A0:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW]], %[[KT]]]
//       TF32:           %[[A1:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW8]], %[[KT]]]
//       TF32:           %[[A2:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW]], %[[KT4]]]
//       TF32:           %[[A3:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW8]], %[[KT4]]]
//       TF32:           %[[B0:[a-z0-9_]+]] = memref.load %[[SB]][%[[KT]], %[[BN]]]
//       TF32:           %[[B1:[a-z0-9_]+]] = memref.load %[[SB]][%[[KT4]], %[[BN]]]
//       TF32:           %[[AF:[a-z0-9_]+]] = vector.from_elements %[[A0]], %[[A1]], %[[A2]], %[[A3]] : vector<4x1xf32>
//       TF32:           %[[BF:[a-z0-9_]+]] = vector.from_elements %[[B0]], %[[B1]] : vector<2x1xf32>
//       TF32:           %[[MMA:[a-z0-9_]+]] = nvgpu.mma.sync(%[[AF]], %[[BF]], %[[CI]]) {mmaShape = [16, 8, 8], tf32Enabled}
//       TF32:           scf.yield %[[MMA]]
//       TF32:         gpu.barrier
//       TF32:         scf.yield %[[D]]
//       TF32:       %[[D0:[a-z0-9_]+]] = vector.extract %[[ACC]][0, 0]
//       TF32:       memref.store %[[D0]], %[[DST]][%[[ROW]], %[[COL]]]
//       TF32:       %[[D1:[a-z0-9_]+]] = vector.extract %[[ACC]][0, 1]
//       TF32:       memref.store %[[D1]], %[[DST]][%[[ROW]], %[[COL1]]]
//       TF32:       %[[D2:[a-z0-9_]+]] = vector.extract %[[ACC]][1, 0]
//       TF32:       memref.store %[[D2]], %[[DST]][%[[ROW8]], %[[COL]]]
//       TF32:       %[[D3:[a-z0-9_]+]] = vector.extract %[[ACC]][1, 1]
//       TF32:       memref.store %[[D3]], %[[DST]][%[[ROW8]], %[[COL1]]]
//       TF32:     gpu.terminator
func.func @staged_matmul(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (32, 32) {
    %sa = memref.subview %a[%i, 0] [32, 64] [1, 1] : memref<64x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [64, 32] [1, 1] : memref<64x64xf32> to memref<64x32xf32, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    linalg.matmul ins(%sa, %sb : memref<32x64xf32, strided<[64, 1], offset: ?>>, memref<64x32xf32, strided<[64, 1], offset: ?>>) outs(%acc : memref<32x32xf32>)
    %dst = memref.subview %out[%i, %j] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<32x32xf32>) outs(%dst : memref<32x32xf32, strided<[64, 1], offset: ?>>)
    memref.dealloc %acc : memref<32x32xf32>
  }
  return
}

// -----

// f16 operands run on tensor cores by default (tensor-cores=true): the
// same warp pieces as TF32, but m16n8k16, two f16 elements per 32-bit
// register (lane l, g = l/4, t = l%4): A at rows g, g + 8 and steps 2t,
// 2t + 1, then 2t + 8, 2t + 9; B at steps 2t, 2t + 1, 2t + 8, 2t + 9 of
// column g. The f16 accumulator is summed in f32 across the chunks and
// rounded once, at the store. With tensor-cores=false the scalar path stays.
// MMA16-LABEL: func.func @staged_matmul_f16
//       MMA16:   gpu.launch {{.*}} threads(%[[T:[a-z0-9_]+]], %{{.*}}, %{{.*}}) in {{.*}} workgroup(%[[SAP:[a-z0-9_]+]] : memref<32x33xf16, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9_]+]] : memref<32x32xf16, #gpu.address_space<workgroup>>)
//       MMA16:       %[[DST:[a-z0-9_]+]] = memref.subview %arg2
//       MMA16:       %[[SA:[a-z0-9_]+]] = memref.subview %[[SAP]][0, 0] [32, 32]
//       MMA16:       %[[LANE:[a-z0-9_]+]] = arith.remui %[[T]], %c32
//       MMA16:       %[[G:[a-z0-9_]+]] = arith.divui %[[LANE]], %c4
//       MMA16:       %[[TG:[a-z0-9_]+]] = arith.remui %[[LANE]], %c4
//       MMA16:       %[[T2:[a-z0-9_]+]] = arith.muli %[[TG]], %c2
//       MMA16:       %[[M0:[a-z0-9_]+]] = arith.muli %{{.*}}, %c16
//       MMA16:       %[[N0:[a-z0-9_]+]] = arith.muli %{{.*}}, %c8
//       MMA16:       %[[ROW:[a-z0-9_]+]] = arith.addi %[[M0]], %[[G]]
//       MMA16:       %[[ROW8:[a-z0-9_]+]] = arith.addi %[[ROW]], %c8
//       MMA16:       %[[COL:[a-z0-9_]+]] = arith.addi %[[N0]], %[[T2]]
//       MMA16:       %[[BN:[a-z0-9_]+]] = arith.addi %[[N0]], %[[G]]
//       MMA16:       %[[ACC:[a-z0-9_]+]] = scf.for %{{.*}} = %c0 to %c64 step %c32 iter_args(%[[CA:[a-z0-9_]+]] = %cst) -> (vector<2x2xf32>)
//       MMA16:         gpu.barrier
//       MMA16:         %[[D:[a-z0-9_]+]] = scf.for %[[K:[a-z0-9_]+]] = %c0 to %c32 step %c16 iter_args(%[[CI:[a-z0-9_]+]] = %[[CA]])
//       MMA16:           %[[KT:[a-z0-9_]+]] = arith.addi %[[K]], %[[T2]]
//       MMA16:           %[[KT1:[a-z0-9_]+]] = arith.addi %[[KT]], %c1
//       MMA16:           %[[KT8:[a-z0-9_]+]] = arith.addi %[[KT]], %c8
//       MMA16:           %[[KT9:[a-z0-9_]+]] = arith.addi %[[KT]], %c9
//       MMA16:           %[[A0:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW]], %[[KT]]]
//       MMA16:           %[[A1:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW]], %[[KT1]]]
//       MMA16:           %[[A2:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW8]], %[[KT]]]
//       MMA16:           %[[A3:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW8]], %[[KT1]]]
//       MMA16:           %[[A4:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW]], %[[KT8]]]
//       MMA16:           %[[A5:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW]], %[[KT9]]]
//       MMA16:           %[[A6:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW8]], %[[KT8]]]
//       MMA16:           %[[A7:[a-z0-9_]+]] = memref.load %[[SA]][%[[ROW8]], %[[KT9]]]
//       MMA16:           %[[B0:[a-z0-9_]+]] = memref.load %[[SB]][%[[KT]], %[[BN]]]
//       MMA16:           %[[B1:[a-z0-9_]+]] = memref.load %[[SB]][%[[KT1]], %[[BN]]]
//       MMA16:           %[[B2:[a-z0-9_]+]] = memref.load %[[SB]][%[[KT8]], %[[BN]]]
//       MMA16:           %[[B3:[a-z0-9_]+]] = memref.load %[[SB]][%[[KT9]], %[[BN]]]
//       MMA16:           %[[AF:[a-z0-9_]+]] = vector.from_elements %[[A0]], %[[A1]], %[[A2]], %[[A3]], %[[A4]], %[[A5]], %[[A6]], %[[A7]] : vector<4x2xf16>
//       MMA16:           %[[BF:[a-z0-9_]+]] = vector.from_elements %[[B0]], %[[B1]], %[[B2]], %[[B3]] : vector<2x2xf16>
//       MMA16:           %[[MMA:[a-z0-9_]+]] = nvgpu.mma.sync(%[[AF]], %[[BF]], %[[CI]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
//       MMA16:           scf.yield %[[MMA]]
//       MMA16:         gpu.barrier
//       MMA16:       %[[D0:[a-z0-9_]+]] = vector.extract %[[ACC]][0, 0]
//       MMA16:       %[[R0:[a-z0-9_]+]] = arith.truncf %[[D0]] : f32 to f16
//       MMA16:       memref.store %[[R0]], %[[DST]][%[[ROW]], %[[COL]]]
//       MMA16:     gpu.terminator
// NOMMA16-LABEL: func.func @staged_matmul_f16
//   NOMMA16-NOT:   nvgpu.mma.sync
//       NOMMA16:   arith.mulf
//   NOMMA16-NOT:   nvgpu.mma.sync
//       NOMMA16:   return
func.func @staged_matmul_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64xf16>) {
  %zero = arith.constant 0.0 : f16
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (32, 32) {
    %sa = memref.subview %a[%i, 0] [32, 64] [1, 1] : memref<64x64xf16> to memref<32x64xf16, strided<[64, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [64, 32] [1, 1] : memref<64x64xf16> to memref<64x32xf16, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf16>
    linalg.fill ins(%zero : f16) outs(%acc : memref<32x32xf16>)
    linalg.matmul ins(%sa, %sb : memref<32x64xf16, strided<[64, 1], offset: ?>>, memref<64x32xf16, strided<[64, 1], offset: ?>>) outs(%acc : memref<32x32xf16>)
    %dst = memref.subview %out[%i, %j] [32, 32] [1, 1] : memref<64x64xf16> to memref<32x32xf16, strided<[64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<32x32xf16>) outs(%dst : memref<32x32xf16, strided<[64, 1], offset: ?>>)
    memref.dealloc %acc : memref<32x32xf16>
  }
  return
}

// -----

// A reduction of 48 steps is staged in chunks of 24 for the scalar path
// but of 16 for tensor cores (a multiple of k = 16). With fma=false the
// scalar path stays (tensor cores do not round each addition on its own).
// MMA16-LABEL: func.func @mma_chunks
//       MMA16:   scf.for %{{.*}} = %c0 to %c48 step %c16 iter_args
//       MMA16:     nvgpu.mma.sync
// NOMMA16-LABEL: func.func @mma_chunks
//       NOMMA16:   scf.for %{{.*}} = %c0 to %c48 step %c24 iter_args
//   NOMMA16-NOT:   nvgpu.mma.sync
//       NOMMA16:   return
// NOFMA-LABEL: func.func @mma_chunks
//   NOFMA-NOT:   nvgpu.mma.sync
//       NOFMA:   return
func.func @mma_chunks(%a: memref<64x48xf16>, %b: memref<48x64xf16>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (32, 32) {
    %sa = memref.subview %a[%i, 0] [32, 48] [1, 1] : memref<64x48xf16> to memref<32x48xf16, strided<[48, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [48, 32] [1, 1] : memref<48x64xf16> to memref<48x32xf16, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    linalg.matmul ins(%sa, %sb : memref<32x48xf16, strided<[48, 1], offset: ?>>, memref<48x32xf16, strided<[64, 1], offset: ?>>) outs(%acc : memref<32x32xf32>)
    %dst = memref.subview %out[%i, %j] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<32x32xf32>) outs(%dst : memref<32x32xf32, strided<[64, 1], offset: ?>>)
    memref.dealloc %acc : memref<32x32xf32>
  }
  return
}

// -----

// A product rounded to f16 before its extension to the f32 accumulator is
// not mma.sync's exact product: the scalar path stays.
// MMA16-LABEL: func.func @staged_matmul_rounded_product
//   MMA16-NOT:   nvgpu.mma.sync
//       MMA16:   arith.mulf {{.*}} : f16
//   MMA16-NOT:   nvgpu.mma.sync
//       MMA16:   return
func.func @staged_matmul_rounded_product(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (32, 32) {
    %sa = memref.subview %a[%i, 0] [32, 64] [1, 1] : memref<64x64xf16> to memref<32x64xf16, strided<[64, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [64, 32] [1, 1] : memref<64x64xf16> to memref<64x32xf16, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sa, %sb : memref<32x64xf16, strided<[64, 1], offset: ?>>, memref<64x32xf16, strided<[64, 1], offset: ?>>) outs(%acc : memref<32x32xf32>) {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %p = arith.mulf %x, %y : f16
      %e = arith.extf %p : f16 to f32
      %s = arith.addf %o, %e : f32
      linalg.yield %s : f32
    }
    %dst = memref.subview %out[%i, %j] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<32x32xf32>) outs(%dst : memref<32x32xf32, strided<[64, 1], offset: ?>>)
    memref.dealloc %acc : memref<32x32xf32>
  }
  return
}

// -----

// A contraction whose body is not exactly out + a * b (here the product is
// negated) keeps the exact path even with tf32=true: mma.sync would drop
// the negation.
// TF32-LABEL: func.func @staged_matmul_negated
//   TF32-NOT:   nvgpu.mma.sync
//       TF32:   arith.negf
//   TF32-NOT:   nvgpu.mma.sync
//       TF32:   return
func.func @staged_matmul_negated(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (32, 32) {
    %sa = memref.subview %a[%i, 0] [32, 64] [1, 1] : memref<64x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
    %sb = memref.subview %b[0, %j] [64, 32] [1, 1] : memref<64x64xf32> to memref<64x32xf32, strided<[64, 1], offset: ?>>
    %acc = memref.alloc() : memref<32x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32>)
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sa, %sb : memref<32x64xf32, strided<[64, 1], offset: ?>>, memref<64x32xf32, strided<[64, 1], offset: ?>>) outs(%acc : memref<32x32xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %p = arith.mulf %x, %y : f32
      %n = arith.negf %p : f32
      %s = arith.addf %o, %n : f32
      linalg.yield %s : f32
    }
    %dst = memref.subview %out[%i, %j] [32, 32] [1, 1] : memref<64x64xf32> to memref<32x32xf32, strided<[64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<32x32xf32>) outs(%dst : memref<32x32xf32, strided<[64, 1], offset: ?>>)
    memref.dealloc %acc : memref<32x32xf32>
  }
  return
}

// -----

// A tile over a batch of two matmuls has three non-unit parallel loops: it
// is not register-tiled. Its operands are staged (unpadded) chunk by chunk
// and each thread steps 4 of its points together, their accumulators
// loaded from the temporary and stored back every chunk. The chunk loop
// (two chunks) ends with a barrier, so none is needed after it.
// CHECK-LABEL: func.func @staged_batch_matmul
//       CHECK:   gpu.launch {{.*}} workgroup(%[[ACC:[a-z0-9_]+]] : memref<2x16x32xf32, #gpu.address_space<workgroup>>, %[[SA:[a-z0-9_]+]] : memref<2x16x32xf32, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9_]+]] : memref<2x32x32xf32, #gpu.address_space<workgroup>>)
//       CHECK:     scf.for %[[K0:[a-z0-9_]+]] = %{{.*}} to %c64 step %c32 {
//       CHECK:       memref.store {{.*}}, %[[SA]]
//       CHECK:       memref.store {{.*}}, %[[SB]]
//       CHECK:       gpu.barrier
//       CHECK:       scf.for
//       CHECK:         %[[INIT:[a-z0-9_]+]] = memref.load %[[ACC]]
//       CHECK:         memref.load %[[ACC]]
//       CHECK:         memref.load %[[ACC]]
//       CHECK:         memref.load %[[ACC]]
//       CHECK:         %[[SUMS:[a-z0-9_]+]]:4 = scf.for %{{.*}} = %{{.*}} to %c32 step %{{.*}} iter_args(%[[S0:[a-z0-9_]+]] = %[[INIT]],
//       CHECK:           memref.load %[[SA]]
//       CHECK:           memref.load %[[SB]]
//       CHECK:           arith.mulf {{.*}} fastmath<contract>
//       CHECK:           arith.addf %[[S0]], {{.*}} fastmath<contract>
//       CHECK:         memref.store %[[SUMS]]#0, %[[ACC]]
//       CHECK:         memref.store %[[SUMS]]#3, %[[ACC]]
//       CHECK:       gpu.barrier
//  CHECK-NEXT:     }
//   CHECK-NOT:     gpu.barrier
//       CHECK:     scf.for
//       CHECK:       memref.load %[[ACC]]
//       CHECK:     gpu.terminator
func.func @staged_batch_matmul(%a: memref<2x64x64xf32>, %b: memref<2x64x64xf32>, %out: memref<2x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (16, 32) {
    %sa = memref.subview %a[0, %i, 0] [2, 16, 64] [1, 1, 1] : memref<2x64x64xf32> to memref<2x16x64xf32, strided<[4096, 64, 1], offset: ?>>
    %sb = memref.subview %b[0, 0, %j] [2, 64, 32] [1, 1, 1] : memref<2x64x64xf32> to memref<2x64x32xf32, strided<[4096, 64, 1], offset: ?>>
    %acc = memref.alloc() : memref<2x16x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<2x16x32xf32>)
    linalg.batch_matmul ins(%sa, %sb : memref<2x16x64xf32, strided<[4096, 64, 1], offset: ?>>, memref<2x64x32xf32, strided<[4096, 64, 1], offset: ?>>) outs(%acc : memref<2x16x32xf32>)
    %dst = memref.subview %out[0, %i, %j] [2, 16, 32] [1, 1, 1] : memref<2x64x64xf32> to memref<2x16x32xf32, strided<[4096, 64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<2x16x32xf32>) outs(%dst : memref<2x16x32xf32, strided<[4096, 64, 1], offset: ?>>)
    memref.dealloc %acc : memref<2x16x32xf32>
  }
  return
}

// -----

// Ops inside a branch of the tile body (its condition is the same on every
// thread) get their barriers inside the branch: the second op reads what
// other threads of the first wrote. A load every thread does on its own is
// followed by a barrier before an op writes what it read.
// CHECK-LABEL: func.func @in_branch
//       CHECK:   gpu.launch
//       CHECK:     scf.if
//       CHECK:       scf.for
//       CHECK:         scf.for {{.*}} iter_args
//       CHECK:       gpu.barrier
//       CHECK:       scf.for
//       CHECK:         math.exp
//       CHECK:     }
//       CHECK:     gpu.barrier
//       CHECK:     memref.load %[[TMP:[a-z0-9_]+]]
//       CHECK:     gpu.barrier
//       CHECK:     scf.for
//       CHECK:       memref.store %{{.*}}, %[[TMP]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @in_branch(%x: memref<8x8x3xf32>, %out: memref<8x8xf32>, %flag: i1) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (8) {
    %src = memref.subview %x[%i, 0, 0] [1, 8, 3] [1, 1, 1] : memref<8x8x3xf32> to memref<8x3xf32, strided<[3, 1], offset: ?>>
    %tmp = memref.alloc() : memref<8xf32>
    scf.if %flag {
      linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]} ins(%src : memref<8x3xf32, strided<[3, 1], offset: ?>>) outs(%tmp : memref<8xf32>) {
      ^bb0(%in: f32, %acc: f32):
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
      linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%tmp : memref<8xf32>) {
      ^bb0(%o: f32):
        %e = math.exp %o : f32
        linalg.yield %e : f32
      }
    }
    %first = memref.load %tmp[%c0] : memref<8xf32>
    linalg.fill ins(%first : f32) outs(%tmp : memref<8xf32>)
    %dst = memref.subview %out[%i, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.copy ins(%tmp : memref<8xf32>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>)
    memref.dealloc %tmp : memref<8xf32>
  }
  return
}

// -----

// Several rows per tile, each split among the threads: a barrier ends each
// row, because the next row's gpu.all_reduce reuses the shared buffer its
// lowering allocates.
// CHECK-LABEL: func.func @rows_split
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %c4 step %c1 {
//       CHECK:     gpu.all_reduce
//       CHECK:     scf.if
//       CHECK:       memref.store
//       CHECK:     }
//  CHECK-NEXT:     gpu.barrier
//  CHECK-NEXT:   }
#rows = affine_map<(d0, d1) -> (d0, d1)>
#rsum = affine_map<(d0, d1) -> (d0)>
func.func @rows_split(%x: memref<16x1024xf32>, %out: memref<16xf32>) {
  scf.forall (%i) = (0) to (16) step (4) {
    %src = memref.subview %x[%i, 0] [4, 1024] [1, 1] : memref<16x1024xf32> to memref<4x1024xf32, strided<[1024, 1], offset: ?>>
    %dst = memref.subview %out[%i] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [#rows, #rsum], iterator_types = ["parallel", "reduction"]} ins(%src : memref<4x1024xf32, strided<[1024, 1], offset: ?>>) outs(%dst : memref<4xf32, strided<[1], offset: ?>>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// A padded window as tiling a pad leaves it: one branch fills a temporary
// with the padding value (a tile entirely in the border), the other copies
// the window into one; the branch result is that temporary. Only one branch
// runs, so both temporaries become one shared-memory buffer and the
// branch's result (and its metadata) move to shared memory with them; both
// branches then yield the same buffer, which canonicalization forwards.
// CHECK-LABEL: func.func @branch_window
//       CHECK:   gpu.launch {{.*}} workgroup(%[[WIN:[a-z0-9_]+]] : memref<6x8xf32, #gpu.address_space<workgroup>>)
//       CHECK:     scf.if
//       CHECK:       memref.store %{{.*}}, %[[WIN]]
//       CHECK:     } else {
//       CHECK:       memref.store %{{.*}}, %[[WIN]]
//       CHECK:     memref.load %[[WIN]]
//   CHECK-NOT:   memref.view
//   CHECK-NOT:   gpu.alloc
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#sum3 = affine_map<(d0, d1) -> (d1)>
func.func @branch_window(%x: memref<16x8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (4) {
    %border = arith.cmpi eq, %i, %c0 : index
    %win = scf.if %border -> (memref<6x8xf32>) {
      %t = memref.alloc() : memref<6x8xf32>
      linalg.fill ins(%zero : f32) outs(%t : memref<6x8xf32>)
      scf.yield %t : memref<6x8xf32>
    } else {
      %t = memref.alloc() : memref<6x8xf32>
      %r = arith.muli %i, %c0 : index
      %src = memref.subview %x[%r, 0] [6, 8] [1, 1] : memref<16x8xf32> to memref<6x8xf32, strided<[8, 1], offset: ?>>
      linalg.copy ins(%src : memref<6x8xf32, strided<[8, 1], offset: ?>>) outs(%t : memref<6x8xf32>)
      scf.yield %t : memref<6x8xf32>
    }
    %dst = memref.subview %out[%i, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [#id3, #sum3], iterator_types = ["reduction", "parallel"]} ins(%win : memref<6x8xf32>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
    %v = memref.load %win[%c0, %c0] : memref<6x8xf32>
    %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %win : memref<6x8xf32> -> memref<f32>, index, index, index, index, index
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// A temporary defined before a branch and yielded by one branch is alive
// while the other branch runs (here the other branch reads it): the two do
// not share a buffer. Neither can go to shared memory alone (the branch
// result would hold two memory spaces): each gets its own 64-byte slice of
// the scratch buffer, 128 bytes per block, 4 blocks.
// CHECK-LABEL: func.func @outer_temporary
//       CHECK:   gpu.alloc async [%{{.*}}] (%c512) : memref<?xi8>
//   CHECK-NOT:   workgroup(
//       CHECK:   memref.view
//       CHECK:   scf.if
//       CHECK:     memref.view
func.func @outer_temporary(%x: memref<4x8xf32>, %out: memref<4x8xf32>, %flag: i1) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    %src = memref.subview %x[%i, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %a = memref.alloc() : memref<8xf32>
    linalg.copy ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%a : memref<8xf32>)
    %r = scf.if %flag -> (memref<8xf32>) {
      scf.yield %a : memref<8xf32>
    } else {
      %b = memref.alloc() : memref<8xf32>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (7 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
      ^bb0(%in: f32, %o: f32):
        linalg.yield %in : f32
      }
      scf.yield %b : memref<8xf32>
    }
    %dst = memref.subview %out[%i, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.copy ins(%r : memref<8xf32>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// Two chained matmuls in one tile: the second (64x64) is register-tiled and
// its staged slices (64x33 and 32x64, 16.6 KB) are reserved first; the
// first (64x256, 1024 points: no micro-tile fits 256 threads) would need
// 40 KB of staged slices, more than the 48 KB left beside the reservation,
// so it is not staged (its 64 KB output goes to scratch). The launch asks
// for the second matmul's slices only.
// CHECK-LABEL: func.func @shared_budget
//       CHECK:   gpu.alloc
//       CHECK:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<64x33xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x64xf32, #gpu.address_space<workgroup>>) {
func.func @shared_budget(%x: memref<128x256xf32>, %w1: memref<256x256xf32>, %w2: memref<256x64xf32>, %out: memref<128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) = (0) to (128) step (64) {
    %sx = memref.subview %x[%i, 0] [64, 256] [1, 1] : memref<128x256xf32> to memref<64x256xf32, strided<[256, 1], offset: ?>>
    %h = memref.alloc() : memref<64x256xf32>
    linalg.fill ins(%zero : f32) outs(%h : memref<64x256xf32>)
    linalg.matmul ins(%sx, %w1 : memref<64x256xf32, strided<[256, 1], offset: ?>>, memref<256x256xf32>) outs(%h : memref<64x256xf32>)
    %acc = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32>)
    linalg.matmul ins(%h, %w2 : memref<64x256xf32>, memref<256x64xf32>) outs(%acc : memref<64x64xf32>)
    %dst = memref.subview %out[%i, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
    linalg.copy ins(%acc : memref<64x64xf32>) outs(%dst : memref<64x64xf32, strided<[64, 1], offset: ?>>)
    memref.dealloc %acc : memref<64x64xf32>
    memref.dealloc %h : memref<64x256xf32>
  }
  return
}

// -----

// A LayerNorm-like tile of two rows reads its input three times: the sum,
// the sum of squares, the normalization. Staged: the block copies the rows
// to shared memory once (16-byte loads where aligned), after the
// temporaries' initialization and before the first reader, and all three
// ops read them there. The output is a fresh buffer, so nothing the tile
// writes can alias %x.
// CHECK-LABEL: func.func @staged_rows
//       CHECK:   gpu.launch {{.*}} workgroup(%[[SUM:[a-z0-9_]+]] : memref<2xf32, #gpu.address_space<workgroup>>, %[[SQ:[a-z0-9_]+]] : memref<2xf32, #gpu.address_space<workgroup>>, %[[ROWS:[a-z0-9_]+]] : memref<2x1024xf32, #gpu.address_space<workgroup>>)
//       CHECK:     %[[X:[a-z0-9_]+]] = memref.subview %{{.*}} [2, 1024]
//       CHECK:     memref.store {{.*}}, %[[SUM]]
//       CHECK:     memref.store {{.*}}, %[[SQ]]
//       CHECK:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       scf.for
//       CHECK:         %[[V:[a-z0-9_]+]] = vector.load %[[X]]{{.*}} vector<4xf32>
//       CHECK:         vector.store %[[V]], %[[ROWS]]
//       CHECK:     } else {
//       CHECK:         memref.load %[[X]]
//       CHECK:         memref.store {{.*}}, %[[ROWS]]
//       CHECK:     gpu.barrier
//   CHECK-NOT:     %[[X]]{{(\[| )}}
//       CHECK:     memref.load %[[ROWS]]
//   CHECK-NOT:     %[[X]]{{(\[| )}}
//       CHECK:     gpu.all_reduce
//   CHECK-NOT:     %[[X]]{{(\[| )}}
//       CHECK:     memref.load %[[ROWS]]
//   CHECK-NOT:     %[[X]]{{(\[| )}}
//       CHECK:     gpu.all_reduce
//   CHECK-NOT:     %[[X]]{{(\[| )}}
//       CHECK:     vector.load %[[ROWS]]
//   CHECK-NOT:     %[[X]]{{(\[| )}}
//       CHECK:     gpu.terminator
// Without staging each op reads %x on its own.
// NOSTAGE-LABEL: func.func @staged_rows
//       NOSTAGE:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<2xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<2xf32, #gpu.address_space<workgroup>>)
//   NOSTAGE-NOT:   linalg.copy
//       NOSTAGE:   gpu.all_reduce
#row = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0)>
func.func @staged_rows(%x: memref<512x1024xf32>) -> memref<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<512x1024xf32>
  scf.forall (%i) = (0) to (512) step (2) {
    %rows = memref.subview %x[%i, 0] [2, 1024] [1, 1] : memref<512x1024xf32> to memref<2x1024xf32, strided<[1024, 1], offset: ?>>
    %sum = memref.alloc() : memref<2xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<2xf32>)
    %sq = memref.alloc() : memref<2xf32>
    linalg.fill ins(%zero : f32) outs(%sq : memref<2xf32>)
    linalg.reduce ins(%rows : memref<2x1024xf32, strided<[1024, 1], offset: ?>>) outs(%sum : memref<2xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %a = arith.addf %in, %init : f32
        linalg.yield %a : f32
      }
    linalg.generic {indexing_maps = [#row, #bcast], iterator_types = ["parallel", "reduction"]} ins(%rows : memref<2x1024xf32, strided<[1024, 1], offset: ?>>) outs(%sq : memref<2xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %p = arith.mulf %in, %in : f32
      %a = arith.addf %p, %acc : f32
      linalg.yield %a : f32
    }
    %dst = memref.subview %out[%i, 0] [2, 1024] [1, 1] : memref<512x1024xf32> to memref<2x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.generic {indexing_maps = [#row, #bcast, #bcast, #row], iterator_types = ["parallel", "parallel"]} ins(%rows, %sum, %sq : memref<2x1024xf32, strided<[1024, 1], offset: ?>>, memref<2xf32>, memref<2xf32>) outs(%dst : memref<2x1024xf32, strided<[1024, 1], offset: ?>>) {
    ^bb0(%in: f32, %s: f32, %q: f32, %o: f32):
      %d = arith.subf %in, %s : f32
      %r = arith.mulf %d, %q : f32
      linalg.yield %r : f32
    }
    memref.dealloc %sum : memref<2xf32>
    memref.dealloc %sq : memref<2xf32>
  }
  return %out : memref<512x1024xf32>
}

// -----

// Not staged: only elementwise ops read %x (the second read follows the
// first within each thread's own elements); and a row of 16384 floats
// (64 KiB) does not fit in shared memory.
// CHECK-LABEL: func.func @not_staged
//       CHECK:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<1x1024xf32, #gpu.address_space<workgroup>>)
//   CHECK-NOT:   linalg.copy
//       CHECK:   gpu.launch
//   CHECK-NOT:     workgroup
//       CHECK:     gpu.all_reduce
#row = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0)>
func.func @not_staged(%x: memref<4x1024xf32>, %y: memref<2x16384xf32>) -> (memref<4x1024xf32>, memref<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<4x1024xf32>
  scf.forall (%i) in (4) {
    %row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %t = memref.alloc() : memref<1x1024xf32>
    linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]} ins(%row : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%t : memref<1x1024xf32>) {
    ^bb0(%in: f32, %o: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    }
    %dst = memref.subview %out[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.generic {indexing_maps = [#row, #row, #row], iterator_types = ["parallel", "parallel"]} ins(%row, %t : memref<1x1024xf32, strided<[1024, 1], offset: ?>>, memref<1x1024xf32>) outs(%dst : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) {
    ^bb0(%in: f32, %e: f32, %o: f32):
      %m = arith.mulf %in, %e : f32
      linalg.yield %m : f32
    }
    memref.dealloc %t : memref<1x1024xf32>
  }
  %sums = memref.alloc() : memref<2xf32>
  scf.forall (%i) in (2) {
    %row = memref.subview %y[%i, 0] [1, 16384] [1, 1] : memref<2x16384xf32> to memref<1x16384xf32, strided<[16384, 1], offset: ?>>
    %s = memref.subview %sums[%i] [1] [1] : memref<2xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%s : memref<1xf32, strided<[1], offset: ?>>)
    linalg.reduce ins(%row : memref<1x16384xf32, strided<[16384, 1], offset: ?>>) outs(%s : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
      (%in: f32, %init: f32) {
        %a = arith.addf %in, %init : f32
        linalg.yield %a : f32
      }
    linalg.reduce ins(%row : memref<1x16384xf32, strided<[16384, 1], offset: ?>>) outs(%s : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
      (%in: f32, %init: f32) {
        %a = arith.addf %in, %init : f32
        linalg.yield %a : f32
      }
  }
  return %out, %sums : memref<4x1024xf32>, memref<2xf32>
}

// -----

// A 3x3 convolution, stride 2, as an implicit GEMM: M = the tile's 2x8
// output pixels, N = 16 filters, K = 3 x 3 x 8 taken as 9 window points
// (kh, kw) of one chunk of 8 channels each. Per chunk the block stages
// the image's pixels at (2 oh + kh, 2 ow + kw) and the filter's slice at
// (kh, kw) in shared memory (rows padded to 9), then each thread
// accumulates its output point from them; the order of each point's
// reduction (kh, kw, c) is unchanged.
// CHECK-LABEL: func.func @conv_register_tiled
//       CHECK:   gpu.launch {{.*}} workgroup(%[[A:[a-z0-9_]+]] : memref<1x2x8x9xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9_]+]] : memref<16x1x1x9xf32, #gpu.address_space<workgroup>>)
//       CHECK:     %[[WIN:[a-z0-9_]+]] = memref.subview %{{.*}} [1, 5, 17, 8]
//       CHECK:     %[[AS:[a-z0-9_]+]] = memref.subview %[[A]][0, 0, 0, 0] [1, 2, 8, 8]
//       CHECK:     %[[BS:[a-z0-9_]+]] = memref.subview %[[B]][0, 0, 0, 0] [16, 1, 1, 8]
//       CHECK:     scf.for %[[J:[a-z0-9_]+]] = %c0 to %c72 step %c8 iter_args
//       CHECK:       %[[WP:[a-z0-9_]+]] = arith.divui %[[J]], %c8
//       CHECK:       %[[KW:[a-z0-9_]+]] = arith.remui %[[WP]], %c3
//       CHECK:       %[[KH:[a-z0-9_]+]] = arith.divui %[[WP]], %c3
//       CHECK:       %[[C0:[a-z0-9_]+]] = arith.remui %[[J]], %c8
//       CHECK:       scf.for
//       CHECK:         %[[C:[a-z0-9_]+]] = arith.addi %{{.*}}, %[[C0]]
//       CHECK:         %[[OH2:[a-z0-9_]+]] = arith.muli %[[OH:[a-z0-9_]+]], %c2
//       CHECK:         %[[H:[a-z0-9_]+]] = arith.addi %[[OH2]], %[[KH]]
//       CHECK:         %[[OW2:[a-z0-9_]+]] = arith.muli %[[OW:[a-z0-9_]+]], %c2
//       CHECK:         %[[W:[a-z0-9_]+]] = arith.addi %[[OW2]], %[[KW]]
//       CHECK:         %[[V:[a-z0-9_]+]] = memref.load %[[WIN]][%c0, %[[H]], %[[W]], %[[C]]]
//       CHECK:         memref.store %[[V]], %[[AS]][%c0, %[[OH]], %[[OW]], %{{.*}}]
//       CHECK:       scf.for
//       CHECK:         memref.load %{{.*}}[%{{.*}}, %[[KH]], %[[KW]], %{{.*}}] : memref<16x3x3x8xf32>
//       CHECK:         memref.store %{{.*}}, %[[BS]]
//       CHECK:       gpu.barrier
//       CHECK:       scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
//       CHECK:         memref.load %[[AS]]
//       CHECK:         memref.load %[[BS]]
//       CHECK:         arith.mulf
//       CHECK:         arith.addf
//       CHECK:       gpu.barrier
//   CHECK-NOT:   linalg.conv_2d_nhwc_fhwc
func.func @conv_register_tiled(%x: memref<1x17x17x8xf32>, %w: memref<16x3x3x8xf32>) -> memref<1x8x8x16xf32> {
  %out = memref.alloc() : memref<1x8x8x16xf32>
  scf.forall (%i) = (0) to (8) step (2) {
    %r = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %win = memref.subview %x[0, %r, 0, 0] [1, 5, 17, 8] [1, 1, 1, 1] : memref<1x17x17x8xf32> to memref<1x5x17x8xf32, strided<[2312, 136, 8, 1], offset: ?>>
    %dst = memref.subview %out[0, %i, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<1x8x8x16xf32> to memref<1x2x8x16xf32, strided<[1024, 128, 16, 1], offset: ?>>
    linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%win, %w : memref<1x5x17x8xf32, strided<[2312, 136, 8, 1], offset: ?>>, memref<16x3x3x8xf32>) outs(%dst : memref<1x2x8x16xf32, strided<[1024, 128, 16, 1], offset: ?>>)
  }
  return %out : memref<1x8x8x16xf32>
}

