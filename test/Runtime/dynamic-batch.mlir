// REQUIRES: torch, onnx, libomp
// A model whose inputs keep a symbolic first dimension (a batch) is
// compiled once, for one sample, after the importer and
// --fuse-prove-batch-separable prove that it keeps the samples apart; the
// library runs it once per sample, for any batch (FUSE_DYNAMIC_DIM).
// Checked against PyTorch at batches 1, 3 and 16 (two samples at a time on
// two threads, the rest on both; the same bits as one sample at a time on
// one thread): a CNN whose flatten is
// `view(x.size(0), -1)` (Shape, Gather, Concat, Reshape), attention with
// the batch merged into the heads, an input without a batch. Refused, each
// with its reason: a mean over the batch, the batch size read as data (a
// scalar, or a tensor the same for every sample), a result whose batch is
// not its first dimension.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/dynamic-batch.py %t 2>/dev/null | FileCheck %s

// CHECK: cnn: inputs [x: float32[None, 3, 8, 8]]; batch 1 True, batch 3 True, batch 16 True
// CHECK: attention: inputs [x: float32[None, 6, 8]]; batch 1 True, batch 3 True, batch 16 True
// CHECK: two_inputs: inputs [x: float32[None, 4], scale: float32[4]]; batch 1 True, batch 3 True, batch 16 True
// CHECK: batch_mean: refused: {{.*}}batch_mean.onnx: batch is not a batch this model keeps apart; give its size (--dim batch=N): the batch proof failed: batch-3.mlir:{{.*}}: error: reduces over the batch (loop dimension d0): samples would mix
// CHECK: batch_as_data: refused: fuse-import: node '/Div' (Div): input 1 ('/Cast_output_0') depends on the batch size and is read as data
// CHECK: batch_fill: refused: fuse-import: node {{.*}}: input {{[0-9]}} ({{.*}}) depends on the batch size and is read as data
// CHECK: transposed: refused: {{.*}}: error: result 0 does not hold the batch as its first dimension
// CHECK: empty batch: (0, 4)
// CHECK: declared: [-1, 4]
// CHECK: huge batch: status 1: fuseSessionRun: input 0 ('x'): a batch of 4611686018427387904 is more bytes than memory has
// CHECK: batches differ: status 1: fuseSessionRun: output 0 ('y') has a batch of 2, another tensor 1
