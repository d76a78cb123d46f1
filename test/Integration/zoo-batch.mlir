// REQUIRES: torch, onnx, libomp
// Zoo models exported with a symbolic batch (dynamic_axes), each compiled
// once for every batch size and run at batches 1, 3 and 16 against
// PyTorch: SqueezeNet (concats of branches) and MobileNetV2 (depthwise
// convolutions, residuals). bench/zoo/batch.py runs the whole zoo.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -m fuse_dialect.bench.zoo.batch --out %t --batches 1,3,16 squeezenet1_1 mobilenet_v2 2>/dev/null | FileCheck %s
// CHECK: squeezenet1_1: compiled once ({{.*}}) for input: float32[None, 3, 64, 64]: batch 1 True ({{.*}}), batch 3 True ({{.*}}), batch 16 True ({{.*}})
// CHECK: mobilenet_v2: compiled once ({{.*}}) for input: float32[None, 3, 64, 64]: batch 1 True ({{.*}}), batch 3 True ({{.*}}), batch 16 True ({{.*}})
