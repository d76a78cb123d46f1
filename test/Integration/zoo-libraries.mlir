// REQUIRES: torch, onnx, libomp
// Five zoo families as model libraries, run through the C ABI from Python
// and compared with PyTorch (no mlir-runner): 1-D convolutions (M5), 3-D
// convolutions (R3D-18), a segmentation model with hardswish and
// squeeze-excitation (LRASPP), a transformer encoder on int64 tokens
// (BERT); SqueezeNet is in deploy.mlir. bench/zoo/run.py runs all 28.
// LRASPP's 13 MB of weights are in a weights file (read in 1 MB chunks).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/zoo-libraries.py %t audio_m5 r3d_18 lraspp_mobilenet_v3_large:external bert_base 2>/dev/null | FileCheck %s
// CHECK: audio_m5: float32 [1, 1, 8000] -> {{.*}}, matches PyTorch: True
// CHECK: r3d_18: float32 [1, 3, 8, 32, 32] -> [1, 400], matches PyTorch: True
// CHECK: lraspp_mobilenet_v3_large: float32 [1, 3, 64, 64] -> [1, 21, 64, 64], matches PyTorch: True
// CHECK: bert_base: int64 [1, 16] -> {{.*}}, matches PyTorch: True
// RUN: test -s %t/lraspp_mobilenet_v3_large.weights
