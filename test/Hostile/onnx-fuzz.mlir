// REQUIRES: onnx
// A short run of the importer's mutation fuzzer (utils/fuse-fuzz-onnx; the
// long runs are in docs/Reliability.md): every mutated model is imported
// into IR that verifies or refused with one error line.
// RUN: %python %fuse_src/utils/fuse-fuzz-onnx --count 200 --seed 7 --fuse-opt %fuse_opt | FileCheck %s
// CHECK: onnx fuzz: 200 cases in {{[0-9]+}} s, {{[0-9]+}} imported, {{[0-9]+}} refused, 0 failed
