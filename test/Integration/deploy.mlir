// REQUIRES: torch, onnx, libomp
// From an ONNX file to programs that call it (docs/UserGuide.md): a zoo
// model (SqueezeNet 1.1, seeded weights, 64x64 input) exported by PyTorch,
// compiled by fuse-compile, then examples/deploy's C++ program and Python
// script classify the shipped image through the model library's ABI (no
// mlir-runner): both print the same lines, and the scores match PyTorch's
// on the same preprocessed image. fuse-bench times the library.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -m fuse_dialect.bench.zoo.export --out %t --no-full squeezenet1_1 > /dev/null
// RUN: %fuse-compile %t/squeezenet1_1.small.onnx -o %t/squeezenet.so 2>/dev/null | FileCheck %s --check-prefix=COMPILE
// RUN: c++ -std=c++17 -O2 -I%fuse_include %fuse_src/examples/deploy/classify.cpp -ldl -o %t/classify
// RUN: %t/classify %t/squeezenet.so %fuse_src/examples/deploy/image.ppm > %t/cpp.txt
// RUN: %python %fuse_src/examples/deploy/classify.py %t/squeezenet.so %fuse_src/examples/deploy/image.ppm > %t/py.txt
// RUN: diff %t/cpp.txt %t/py.txt
// RUN: FileCheck %s --check-prefix=TOP5 < %t/cpp.txt
// RUN: %python %S/Inputs/deploy-torch-check.py squeezenet1_1 %t/squeezenet.so %fuse_src/examples/deploy/image.ppm %fuse_src/examples/deploy/classify.py | FileCheck %s --check-prefix=TORCH
// RUN: %python -c "import numpy as np, fuse_dialect; r = np.load('%t/squeezenet1_1.small.npz'); y = fuse_dialect.load('%t/squeezenet.so')(r['input'])[0]; print('zoo input matches PyTorch:', float(np.abs(y - r['output']).max() / np.abs(r['output']).max()) < 1e-4)" | FileCheck %s --check-prefix=ZOO
// RUN: not %t/classify %t/squeezenet.so %fuse_src/examples/deploy/classify.py 2>&1 | FileCheck %s --check-prefix=NOTPPM
// RUN: %fuse-bench %t/squeezenet.so --runs 20 --warmup 2 --threads 1 2>/dev/null | FileCheck %s --check-prefix=BENCH
// RUN: %fuse-bench %t/squeezenet.so --runs 5 --warmup 1 --source %t/squeezenet1_1.small.onnx --compare-torch --json 2>/dev/null | FileCheck %s --check-prefix=JSON

// COMPILE: fuse-compile: {{.*}}squeezenet1_1.small.onnx -> {{.*}}squeezenet.so (cpu; inputs: input f32[1, 3, 64, 64]; outputs: output f32[1, 1000])
// TOP5: model squeezenet1_1.small, image 96x80 -> 64x64
// TOP5-COUNT-5: {{^[0-9]+ 0\.[0-9]{4} $}}
// TORCH: scores match PyTorch: True
// TORCH-NEXT: top class agrees: True
// ZOO: zoo input matches PyTorch: True
// NOTPPM: classify: {{.*}}classify.py: not a binary PPM (P6) image

// BENCH: model squeezenet1_1.small (cpu): input: float32[1, 3, 64, 64] -> output: float32[1, 1000]
// BENCH-NEXT: 20 runs after 2 warm-up, threads 1
// BENCH-NEXT: | engine | p50 ms | p90 ms | p99 ms | mean ms | min ms | runs/s | time / ours |
// BENCH-NEXT: |---|---|---|---|---|---|---|---|
// BENCH-NEXT: {{^}}| ours | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | 1.00 |
// BENCH-NEXT: peak memory (process RSS): {{[0-9]+}} MB with the model loaded and run once, {{[0-9]+}} MB at the end
// BENCH-NEXT: per-kernel times: not available on this target

// JSON: {"model": "squeezenet1_1.small", {{.*}}"engines": {"ours": {"p50_ms": {{.*}}, "p90_ms": {{.*}}, "p99_ms": {{.*}}}, "torch": {"p50_ms": {{.*}}"peers": {"torch": "max rel. error vs ours {{.*}}e-0{{[5-9]}}"}}
