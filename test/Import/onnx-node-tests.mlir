// REQUIRES: onnx, onnx-testdata
// ONNX's own node tests (Debian libonnx-testdata) for every op fuse-import
// supports: imported, fused, lowered to the CPU, run, and compared with the
// expected outputs. Refusals (unsupported attributes, types or modes) are
// counted; any numeric or tool failure fails this test.
// RUN: %fuse-onnx-node-tests | FileCheck %s
// CHECK: onnx node tests: {{[0-9]+}} of the {{[0-9]+}} using supported ops pass, 0 fail
