// The GPU lowering's kernels, checked in numbers on the CPU: every example
// model goes through --fuse-lower-to-nvvm's own steps up to its launches
// (tiles of up to 1024 results, one block per tile, ops shared among 256
// threads, temporaries in shared memory or scratch, split row reductions),
// then each launch runs as host loops (fuse-test-serialize-launches: a
// block of cooperating threads as one thread through the same code) and is
// compared with the unfused program. The threads of a block interleaving,
// barriers, shared-memory races and tensor cores are gpu-threads.mlir's
// (every thread a thread); timing and real hardware are gpu-examples.mlir's,
// under the cuda-gpu feature.
//
// RUN: %fuse-diff %examples/conv_bn_relu.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %examples/mlp_gelu.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %examples/inception_block.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %examples/resnet_bottleneck.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %examples/nchw_resnet_stage.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %examples/mha_block.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %fuse_src/bench/models/softmax_512x1024.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %fuse_src/bench/models/layernorm_gelu_256x2048.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %fuse_src/bench/models/layernorm_gelu_256x2048.mlir -p "--fuse-ops" --lower="--fuse-test-lower-to-cpu-via-gpu=stage-inputs=false" | FileCheck %s
// RUN: fuse-opt %fuse_src/bench/models/layernorm_gelu_256x2048.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWSTAGE
// RUN: %fuse-diff %fuse_src/bench/models/tokens197_mlp_gelu.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %fuse_src/bench/models/tokens197_mlp_gelu.mlir -p "--fuse-ops" | FileCheck %s
//
// Matmuls register-tiled with their operands staged in shared memory
// (square tiles; 32x32 here: 96 tiles of 64x64 would be too few for 132
// SMs), the epilogue applied to the accumulators: a bias and clamp; a
// second operand read transposed, with some threads idle (48x64 tiles,
// 4x4 micro-tiles); a batch without epilogue (64x64 tiles):
// RUN: %fuse-diff %S/Inputs/gemm-bias-clamp.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: fuse-opt %S/Inputs/gemm-bias-clamp.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGED
// RUN: %fuse-diff %S/Inputs/matmul-transposed-b.mlir -p "--fuse-ops" --lower="--fuse-test-lower-to-cpu-via-gpu=contraction-tiles=1" | FileCheck %s
// RUN: %fuse-diff %S/Inputs/batch-matmul.mlir -p "--fuse-ops" --lower="--fuse-test-lower-to-cpu-via-gpu=contraction-tiles=1" | FileCheck %s
// RUN: fuse-opt %S/Inputs/batch-matmul.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm=contraction-tiles=1 --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGED64
// Mixed precision (f16 and bf16 matmuls into f32 and f16, an f16 3x3
// convolution summed in f32): the emulation runs the scalar path of the
// matmuls that take tensor cores on a GPU (a block runs as one thread, a
// warp's mma.sync cannot), so it checks their tiling, staging and
// epilogues, not the fragments (FileCheck in distribute-tiles.mlir; ptxas
// in nvvm-ptxas.mlir). The kernels' half arithmetic is what the PTX
// computes (fuse-emulate-gpu-float-arith: a contracted f16 multiply-add is
// one fma.rn.f16, every f16/bf16 op rounds once), on any host: compared
// with the unfused program within the f16/bf16 bound of fuse-diff (its
// header), both JIT-compiled natively and for an AVX2-only host
// (-mattr=-avx512f), and the two emulations equal value for value; so are
// the CPU lowering's.
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s --check-prefix=MIXED
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu --runner-args=-mattr=-avx512f --ref-runner-args=-mattr=-avx512f | FileCheck %s --check-prefix=MIXED
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu --ref-lower=--fuse-test-lower-to-cpu-via-gpu --ref-runner-args=-mattr=-avx512f --exact | FileCheck %s --check-prefix=MIXED
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=MIXED
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" --runner-args=-mattr=-avx512f --exact | FileCheck %s --check-prefix=MIXED
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" --ref-lower=--fuse-lower-to-cpu --ref-runner-args=-mattr=-avx512f --exact | FileCheck %s --check-prefix=MIXED
// MIXED: fuse-diff: OK 4 outputs
// No host decides the half arithmetic: compiled for a host with
// AVX512-FP16 (llc, on any machine), the emulated kernels hold native f16
// conversions but no f16 fused multiply-add (without the pass LLVM makes
// the contracted f16 pairs vfmadd231sh there, and mul-then-add elsewhere:
// 4782 of the 21632 values then differ by an f16 ulp between such hosts).
// RUN: fuse-opt %S/Inputs/mixed-precision.mlir --fuse-ops | fuse-opt --fuse-test-lower-to-cpu-via-gpu | mlir-translate --mlir-to-llvmir | llc -O2 -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512fp16,+avx512vl,+fma -o %t.fp16.s
// RUN: FileCheck %s --check-prefix=FP16ISA < %t.fp16.s
// RUN: not grep -E "vf(n)?m(add|sub)[0-9]*[sp]h" %t.fp16.s
// FP16ISA: vcvtss2sh
// On the GPU the three matmuls and the convolution take tensor cores
// (fuse-distribute-tiles with its default tensor-cores=true). The
// convolution's tile is a row of 10 pixels by 32 filters: one 16-row piece
// by 4 columns of 8, so warps 4-7 skip their slot (piece < 4), rows 10-15
// read row 9 (clamped) and are not stored; the f32 sums are rounded to
// f16 once, at the store, before the cast back to f32.
// RUN: fuse-opt %S/Inputs/mixed-precision.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXEDIR
// MIXEDIR-COUNT-2: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>)
// MIXEDIR: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>)
// MIXEDIR: %[[VALID:[a-z0-9_]+]] = arith.cmpi ult, %{{.*}}, %c4{{(_[0-9]+)?}} : index
// MIXEDIR: %[[ROWIN:[a-z0-9_]+]] = arith.cmpi ult, %{{.*}}, %c10{{(_[0-9]+)?}} : index
// MIXEDIR: arith.minui %{{.*}}, %c9{{(_[0-9]+)?}} : index
// MIXEDIR: scf.for
// MIXEDIR: gpu.barrier
// MIXEDIR: scf.if %[[VALID]] -> (vector<2x2xf32>)
// MIXEDIR: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>)
// MIXEDIR: gpu.barrier
// MIXEDIR: %[[STORE:[a-z0-9_]+]] = arith.andi %[[VALID]], %[[ROWIN]]
// MIXEDIR: scf.if %[[STORE]] {
// MIXEDIR: arith.truncf %{{.*}} : f32 to f16
// MIXEDIR: memref.store
// A 1x1 convolution as a contraction: staged (pixels x channels, filter
// 32x33 padded), register-tiled over 14 pixels x 32 filters, its bias
// initialization and ReLU6 absorbed (no temporary); the strided 1x1
// convolution next to it stays a convolution. Also on the CPU path.
// RUN: %fuse-diff %S/Inputs/conv1x1.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/conv1x1.mlir -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %S/Inputs/conv1x1.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONV1
// 3x3 convolutions as implicit GEMMs: tiled like matmuls, output columns
// by filters (a row of 12 pixels by 32 filters, 12 blocks; 6 by 24), and
// register-tiled: per window point (kh, kw) and chunk of 16 channels the
// image's pixels and the filter's slice are staged (1x2 and 1x1
// micro-tiles); one padded, the other with stride 2. With fma=false the
// results equal the unfused program's exactly: each point's reduction
// keeps its order. With implicit-gemm=false the convolutions keep the
// plain path (nothing staged).
// RUN: %fuse-diff %S/Inputs/conv3x3.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/conv3x3.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu=fma=false | FileCheck %s --check-prefix=EXACT
// RUN: fuse-opt %S/Inputs/conv3x3.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONV3
// RUN: fuse-opt %S/Inputs/conv3x3.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm=implicit-gemm=false --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOIGEMM
// RUN: %fuse-diff %S/Inputs/conv3x3.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu=implicit-gemm=false | FileCheck %s
// A group whose two tile loops are independent (horizontally fused 1x1
// convolutions, one result NCHW) is one launch: the first loop's blocks,
// then the second's, each block branching on its index.
// RUN: %fuse-diff %S/Inputs/horizontal-branches.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s --check-prefix=HORIZ-NUM
// HORIZ-NUM: fuse-diff: OK 3 outputs
// RUN: fuse-opt %S/Inputs/horizontal-branches.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-merge-group-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=HORIZ
// HORIZ:       gpu.launch blocks(%[[BX:[^,]*]],
// HORIZ:         arith.cmpi ult, %[[BX]]
// HORIZ-NEXT:    scf.if
// HORIZ:         } else {
// HORIZ:           arith.subi %[[BX]]
// HORIZ:       } {fuse.group_nest =
// HORIZ-NOT:   gpu.launch blocks
// ViT's embedding (Inputs/patch-embedding.mlir): one group, one launch,
// nothing on the host. The launch copies the folded class-token row into
// row 0 of the result and writes the convolution's tiles, flattened to
// tokens, into rows 1-4; before, the group was two launches with the
// concat built by copies on the host between them.
// RUN: %fuse-diff %S/Inputs/patch-embedding.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/patch-embedding.mlir -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %S/Inputs/patch-embedding.mlir --fuse-ops | fuse-opt --fuse-test-lower-to-cpu-via-gpu --mlir-print-ir-before=fuse-test-serialize-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMBED
// EMBED-LABEL: func.func @model
//       EMBED:   %[[OUT:.*]] = memref.alloc() {{.*}} : memref<1x5x16xf32>
//   EMBED-DAG:   %[[ROW0:.*]] = memref.subview %[[OUT]][0, 0, 0] [1, 1, 16]
//   EMBED-DAG:   %[[ROWS:.*]] = memref.subview %[[OUT]][0, 1, 0] [1, 4, 16]
//   EMBED-NOT:   scf.for
//       EMBED:   gpu.launch
//       EMBED:     store {{.*}}, %[[ROW0]]
//       EMBED:     memref.subview %[[ROWS]]
//       EMBED:   } {fuse.group_nest = 0 : i64}
//   EMBED-NOT:   scf.for
//   EMBED-NOT:   gpu.launch
//       EMBED:   return %[[OUT]]
// Concat parts written in place by the kernels that compute them
// (Inputs/concat-parts.mlir): Inception-v3's first block and a U-Net
// encoder stage whose ReLU output is both pooled and a part of the skip
// concat. 7 groups (6 and 1), none of them a copy kernel (there were 8, and
// 9 launches with host copies between them), 7 launches, nothing on the
// host.
// RUN: %fuse-diff %S/Inputs/concat-parts.mlir --entry inception_a,skip -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s --check-prefix=PARTS-NUM
// RUN: %fuse-diff %S/Inputs/concat-parts.mlir --entry inception_a,skip -p "--fuse-ops" | FileCheck %s --check-prefix=PARTS-NUM
// PARTS-NUM: fuse-diff: OK 3 outputs
// RUN: fuse-opt %S/Inputs/concat-parts.mlir --fuse-ops | FileCheck %s --check-prefix=PARTS-GROUPS
// PARTS-GROUPS-COUNT-7: fuse.group
// PARTS-GROUPS-NOT: fuse.group
// RUN: fuse-opt %S/Inputs/concat-parts.mlir --fuse-ops | fuse-opt --fuse-test-lower-to-cpu-via-gpu --mlir-print-ir-before=fuse-test-serialize-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTS
// PARTS-LABEL: func.func @inception_a
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS-LABEL: func.func @skip
// PARTS-NOT: scf.for
// PARTS: gpu.launch blocks
// PARTS: gpu.terminator
// PARTS-NOT: scf.for
// PARTS: return
// Groups whose nests read one another before this: a fused QKV projection
// (ViT) whose Q is split into heads, and two ShuffleNetV2 units (concat and
// channel shuffle). Each group is now one launch: 4 groups, 4 launches;
// 3 groups, 3 launches (the first a copy kernel of the input's halves).
// Numbers against the unfused program, emulated GPU and CPU.
// RUN: %fuse-diff %S/Inputs/qkv-heads.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/qkv-heads.mlir -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %S/Inputs/qkv-heads.mlir --fuse-ops | FileCheck %s --check-prefix=GROUPS4
// RUN: fuse-opt %S/Inputs/qkv-heads.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm | FileCheck %s --check-prefix=LAUNCH4
// GROUPS4-COUNT-4: fuse.group ins
// GROUPS4-NOT:     fuse.group ins
// LAUNCH4-COUNT-4: gpu.launch_func
// LAUNCH4-NOT:     gpu.launch_func
// RUN: %fuse-diff %S/Inputs/channel-shuffle.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/channel-shuffle.mlir -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %S/Inputs/channel-shuffle.mlir --fuse-ops | FileCheck %s --check-prefix=GROUPS3
// RUN: fuse-opt %S/Inputs/channel-shuffle.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm | FileCheck %s --check-prefix=LAUNCH3
// GROUPS3-COUNT-3: fuse.group ins
// GROUPS3-NOT:     fuse.group ins
// LAUNCH3-COUNT-3: gpu.launch_func
// LAUNCH3-NOT:     gpu.launch_func
//
// A group of one tile is one launch of one block, not host loops:
// RUN: %fuse-diff %S/Inputs/one-tile-softmax.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/one-tile-softmax.mlir -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %S/Inputs/one-tile-softmax.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-merge-group-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONETILE
//
// Two branches concatenated in one group: one launch, no copy on the host.
// RUN: %fuse-diff %S/Inputs/concat-branches.mlir -p "--canonicalize" --lower=--fuse-test-lower-to-cpu-via-gpu=tile-elements=256 | FileCheck %s
// RUN: fuse-opt %S/Inputs/concat-branches.mlir --fuse-lower-to-nvvm=tile-elements=256 --mlir-print-ir-after=fuse-merge-group-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONCAT
// CONCAT:      func.func @model
// CONCAT-NOT:  {{linalg\.|memref.copy}}
// CONCAT:      gpu.launch blocks
// CONCAT-NOT:  {{linalg\.|memref.copy|gpu.launch blocks}}
// CONCAT:      return
// ONETILE:      gpu.launch blocks(%{{.*}}) in (%{{[^ ]*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// ONETILE:        math.exp
// ONETILE-NOT:  linalg.
//
// Rows without a divisor (197): 32x32 tiles, the last row of tiles partial
// (5 rows). The whole tiles (6 x 24) and the partial ones (24) are nests
// writing disjoint rows of the result, one launch of 168 blocks; the whole
// tiles are register-tiled (4 outputs per thread). Without partial tiles:
// 1x256 tiles, one output per thread.
// RUN: %fuse-diff %S/Inputs/matmul-thin-rows.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: fuse-opt %S/Inputs/matmul-thin-rows.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-merge-group-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: fuse-opt %S/Inputs/matmul-thin-rows.mlir --fuse-ops | fuse-opt --fuse-tile-groups="contraction-tile=64 contraction-tiles=132 partial-tiles=false" | FileCheck %s --check-prefix=THIN
//
// A conv's activation returned along with the exactly tiling pool over it:
// one loop nest (the pool's tiles partition the activation, which the nest
// yields), on the CPU and through the GPU launches.
// RUN: fuse-opt %S/Inputs/conv-relu-pool.mlir --fuse-ops | fuse-opt --fuse-tile-groups=report-nests=true 2>&1 | FileCheck %s --check-prefix=POOL
// RUN: %fuse-diff %S/Inputs/conv-relu-pool.mlir -p "--fuse-ops" | FileCheck %s
// RUN: %fuse-diff %S/Inputs/conv-relu-pool.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
//
// A split reduction into a non-neutral initial value (a bias), and the
// thread-per-tile mapping (distribute=false) through the same emulation,
// every thread of every block:
// RUN: %fuse-diff %S/Inputs/row-sum-bias.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %S/Inputs/row-sum-bias.mlir -p "--fuse-ops" --lower="--fuse-test-lower-to-cpu-via-gpu=distribute=false" | FileCheck %s
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops" --lower="--fuse-test-lower-to-cpu-via-gpu=distribute=false" | FileCheck %s
//
// The split reduction is there:
// RUN: fuse-opt %S/Inputs/row-sum-bias.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-distribute-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
//
// CHECK: fuse-diff: OK
// SPLIT: gpu.all_reduce
// POOL-NOT: lowers to
// POOL: scf.forall {{.*}} -> (tensor<1x8x8x8xf32>, tensor<1x16x16x8xf32>)
// POOL-NOT: scf.forall (
// POOL-NOT: lowers to
// The LayerNorm row (2048 floats) the mean, the variance and the result
// read is copied to shared memory once, with 16-byte loads, and read there:
// ROWSTAGE: gpu.launch {{.*}} workgroup({{.*}}, %[[ROW:[a-z0-9_]+]] : memref<1x2048xf32, #gpu.address_space<workgroup>>) {
// ROWSTAGE: %[[V:[0-9]+]] = vector.load {{.*}} : memref<1x2048xf32, strided<[2048, 1], offset: ?>>, vector<4xf32>
// ROWSTAGE: vector.store %[[V]], %[[ROW]]
// ROWSTAGE: gpu.all_reduce
// ROWSTAGE-NOT: memref<1x2048xf32, strided
// ROWSTAGE: gpu.all_reduce
// ROWSTAGE-NOT: = {{(memref|vector).load}} %{{.*}} : memref<1x2048xf32, strided
// ROWSTAGE: gpu.terminator
//
// STAGED: gpu.launch blocks({{.*}}) in ({{.*}} = %c96,{{.*}} workgroup({{.*}} : memref<1x32x33xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1x32x32xf32, #gpu.address_space<workgroup>>) {
// STAGED: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// EXACT: fuse-diff: OK 2 outputs, 5472 values, max abs err 0, max rel err 0
// CONV3: gpu.launch blocks({{.*}}) in ({{.*}} = %c12,{{.*}} workgroup({{.*}} : memref<1x3x14x16xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1x1x12x17xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<32x1x1x17xf32, #gpu.address_space<workgroup>>) {
// CONV3: scf.for {{.*}} to %c144{{[_0-9]*}} step %c16{{[_0-9]*}} iter_args({{.*}}) -> (f32, f32) {
// CONV3-NOT: linalg.conv_2d
// CONV3: gpu.launch blocks({{.*}}) in ({{.*}} = %c6,{{.*}} workgroup({{.*}} : memref<1x1x6x17xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<24x1x1x17xf32, #gpu.address_space<workgroup>>) {
// CONV3: scf.for {{.*}} to %c144{{[_0-9]*}} step %c16{{[_0-9]*}} iter_args({{.*}}) -> (f32) {
// CONV3-NOT: linalg.conv_2d
// NOIGEMM: gpu.launch blocks({{.*}}) in ({{.*}} = %c12,{{.*}} workgroup({{.*}} : memref<1x3x14x16xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1x1x12x32xf32, #gpu.address_space<workgroup>>) {
// NOIGEMM-NOT: x17xf32
// NOIGEMM: gpu.launch blocks({{.*}}) in ({{.*}} = %c6,{{.*}} workgroup({{.*}} : memref<1x3x13x16xf32, #gpu.address_space<workgroup>>) {
// NOIGEMM-NOT: x17xf32
// CONV1: gpu.launch blocks({{.*}}) in ({{.*}} = %c28,{{.*}} workgroup({{.*}} : memref<1x1x14x33xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>) {
// CONV1: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32) {
// PARTIAL: %[[WHOLE:.*]] = memref.subview %[[OUT:.*]][0, 0, 0] [1, 192, 768]
// PARTIAL: %[[LAST:.*]] = memref.subview %[[OUT]][0, 192, 0] [1, 5, 768]
// PARTIAL: gpu.launch blocks({{.*}}) in ({{.*}} = %c168,
// PARTIAL: arith.cmpi ult, %{{.*}}, %c144
// PARTIAL: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32) {
// PARTIAL-NOT: gpu.launch
// THIN: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (197, 768) step (1, 256)
// STAGED64: gpu.launch blocks({{.*}}) in ({{.*}} = %c4,{{.*}} workgroup({{.*}} : memref<1x64x25xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1x24x64xf32, #gpu.address_space<workgroup>>) {
// STAGED64: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
