// fuse-plan-buffers: a function's temporaries share one buffer, the arena,
// by liveness (docs/Codegen.md, "One buffer for a call's temporaries").
//
// @chain: %a (4 KB) is dead once %b is written, so %c takes its bytes; %b
// overlaps both. The arena holds the peak, 8 KB, not the 12 KB sum (PLAN;
// without the pass each temporary is its own allocation, freed at the end:
// NOPLAN). The result and a buffer yielded out of an scf.if (aliases
// leaving the body) and a dynamic one keep their own allocations (KEEP).
// RUN: fuse-opt %s --fuse-plan-buffers | FileCheck %s --check-prefixes=PLAN,KEEP
// RUN: fuse-opt %s | FileCheck %s --check-prefix=NOPLAN
// And the numbers: Inputs/plan-buffers-chain.mlir's TOSA ops, lowered one
// buffer each and planned by default, print what they print without the
// pass. Its reversed read
// of %b would see %c's writes if the two shared bytes (VALUES).
// RUN: fuse-opt %S/Inputs/plan-buffers-chain.mlir --fuse-lower-to-cpu | %run-cpu | FileCheck %s --check-prefix=VALUES
// RUN: fuse-opt %S/Inputs/plan-buffers-chain.mlir --fuse-lower-to-cpu=plan-buffers=false | %run-cpu | FileCheck %s --check-prefix=VALUES
// RUN: fuse-opt %S/Inputs/plan-buffers-chain.mlir --fuse-lower-to-cpu --mlir-print-ir-after=fuse-plan-buffers -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAIN
// RUN: fuse-opt %S/Inputs/plan-buffers-chain.mlir --fuse-lower-to-cpu=plan-buffers=false --mlir-print-ir-after=fuse-plan-buffers -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPASS --allow-empty
// MAIN-LABEL: func.func @main
// MAIN: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}xi8>
// MAIN: memref.view
// NOPASS-NOT: IR Dump After
// VALUES: [59,  18,  -23,  -64]

// PLAN-LABEL: func.func @chain
// PLAN: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
// PLAN: memref.view %[[ARENA]][%c0{{.*}}][] : memref<8192xi8> to memref<1024xf32>
// PLAN: memref.view %[[ARENA]][%c4096{{.*}}][] : memref<8192xi8> to memref<1024xf32>
// PLAN: memref.view %[[ARENA]][%c0{{.*}}][] : memref<8192xi8> to memref<1024xf32>
// PLAN-NOT: memref.dealloc %{{.*}} : memref<1024xf32>
// PLAN: memref.dealloc %[[ARENA]]
// PLAN-NEXT: return
// NOPLAN-LABEL: func.func @chain
// NOPLAN-COUNT-3: memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
func.func @chain(%x: memref<1024xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<1024xf32>) outs(%a : memref<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  }
  %b = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<1024xf32>) outs(%b : memref<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  }
  %c = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b, %x : memref<1024xf32>, memref<1024xf32>) outs(%c : memref<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %0 = arith.subf %in, %in2 : f32
    linalg.yield %0 : f32
  }
  %r = memref.load %c[%c0] : memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<1024xf32>
  return %r : f32
}

// KEEP-LABEL: func.func @escapes
// KEEP: memref.alloc() {alignment = 64 : i64} : memref<256xf32>
// KEEP: memref.alloc() {alignment = 64 : i64} : memref<256xf32>
// KEEP: memref.alloc(%{{.*}}) : memref<?xf32>
// KEEP-NOT: memref.view
// KEEP: return
func.func @escapes(%n: index, %p: i1) -> (memref<256xf32>, memref<256xf32>) {
  %r = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  %y = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %s = scf.if %p -> memref<256xf32> {
    scf.yield %y : memref<256xf32>
  } else {
    scf.yield %r : memref<256xf32>
  }
  memref.dealloc %d : memref<?xf32>
  return %r, %s : memref<256xf32>, memref<256xf32>
}
