// REQUIRES: libomp
// What a program meets that loads a file that is not a good model library,
// and what fuse-compile does with models it cannot compile: an error that
// says what is wrong, never a crash, and no library written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %S/Inputs/outputs.mlir -o %t/outputs.so 2>/dev/null
// RUN: cc -O1 -I%fuse_include %S/Inputs/abi-check.c -ldl -o %t/abi-check
// A library cut short, a file of junk, a library that is not a model:
// RUN: head -c 5000 %t/outputs.so > %t/short.so
// RUN: %python -c "import sys; open(sys.argv[1], 'wb').write(bytes(range(256)) * 40)" %t/junk.so
// RUN: not %t/abi-check %t/short.so | FileCheck %s --check-prefix=SHORT
// RUN: not %t/abi-check %t/junk.so | FileCheck %s --check-prefix=JUNK
// RUN: not %t/abi-check %libomp | FileCheck %s --check-prefix=FOREIGN
// RUN: %python %S/Inputs/load-each.py %t/short.so %t/junk.so %libomp %t/missing.so | FileCheck %s --check-prefix=PYLOAD
// Thirty damaged copies, each refused by both loaders:
// RUN: %python %S/Inputs/mutate-library.py %t/outputs.so %t/abi-check %t 30 | FileCheck %s --check-prefix=DAMAGED
// The Python API's own checks:
// RUN: %python %S/Inputs/python-api.py %t/outputs.so | FileCheck %s --check-prefix=API
// fuse-bench on a damaged library, and on a model it compiles itself:
// RUN: not %fuse-bench %t/short.so 2>&1 | FileCheck %s --check-prefix=BENCH-SHORT
// RUN: %fuse-bench %examples/mlp_gelu.mlir --runs 3 --warmup 0 2>/dev/null | FileCheck %s --check-prefix=BENCH-MLIR
// RUN: not %fuse-bench %t/short.so --runs 0 2>&1 | FileCheck %s --check-prefix=BENCH-RUNS
// RUN: not %fuse-bench %t/short.so --threads 5000 2>&1 | FileCheck %s --check-prefix=BENCH-RUNS
// RUN: not %fuse-bench %t/short.so --batch -2 2>&1 | FileCheck %s --check-prefix=BENCH-RUNS
// RUN: not %fuse-compile %S/../../examples/mlp_gelu.mlir -o "" 2>&1 | FileCheck %s --check-prefix=EMPTY-OUT
// RUN: not %fuse-compile %S/../../examples/mlp_gelu.mlir -o %t/x.so --lower-options "vectorize=true out-params=false" 2>&1 | FileCheck %s --check-prefix=OUT-PARAMS
// Models fuse-compile refuses, nothing written:
// RUN: not %fuse-compile %S/Inputs/dynamic.mlir -o %t/dynamic.so 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not %fuse-compile %examples/mlp_gelu.mlir --target=cuda-ish -o %t/x.so 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not %fuse-compile %t/junk.so.onnx -o %t/nofile.so 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: cp %t/junk.so %t/junk.onnx
// RUN: not %fuse-compile %t/junk.onnx -o %t/junk-model.so 2>&1 | FileCheck %s --check-prefix=BADONNX
// RUN: test ! -e %t/dynamic.so && test ! -e %t/x.so && test ! -e %t/nofile.so && test ! -e %t/junk-model.so
// An output that is a folder, or would be its own weights file:
// RUN: mkdir -p %t/folder.so
// RUN: not %fuse-compile %examples/mlp_gelu.mlir --weights=external -o %t/folder.so 2>&1 | FileCheck %s --check-prefix=FOLDER
// RUN: test ! -e %t/folder.weights
// RUN: not %fuse-compile %examples/mlp_gelu.mlir --weights=external -o %t/self.weights 2>&1 | FileCheck %s --check-prefix=SELF
// A failed compile leaves the library already at the output as it was:
// RUN: cp %t/outputs.so %t/kept.so
// RUN: not %fuse-compile %S/Inputs/dynamic.mlir -o %t/kept.so 2>/dev/null
// RUN: cmp %t/outputs.so %t/kept.so
// A model compiled again to the same path, loaded again in one process,
// is the new model (dlopen alone would return the old one):
// RUN: %python -c "import fuse_dialect; a = fuse_dialect.compile('%S/Inputs/insert.mlir', output='%t/same.so'); b = fuse_dialect.compile('%S/Inputs/scatter.mlir', output='%t/same.so'); print('inputs:', len(a.inputs), len(b.inputs))" | FileCheck %s --check-prefix=RELOAD
// A path without a slash is the file in the current folder, for the
// check and for dlopen alike:
// RUN: cd %t && %t/abi-check outputs.so | FileCheck %s --check-prefix=RELATIVE

// SHORT: cannot load: {{.*}}short.so: not a model library written by fuse-compile (no trailer: cut short, changed since, or another file)
// JUNK: cannot load: {{.*}}junk.so: not a model library written by fuse-compile
// FOREIGN: cannot load: {{.*}}libomp.so: not a model library written by fuse-compile
// DAMAGED: C refused: 30
// DAMAGED-NEXT: Python refused: 30
// PYLOAD: short.so: FuseError: {{.*}}short.so: not a model library written by fuse-compile
// PYLOAD-NEXT: junk.so: FuseError: {{.*}}junk.so: not a model library written by fuse-compile
// PYLOAD-NEXT: libomp.so: FuseError: {{.*}}libomp.so: not a model library written by fuse-compile
// PYLOAD-NEXT: missing.so: FuseError: {{.*}}missing.so: no such file

// API: <fuse_dialect.Model outputs (cpu): [a: float32[2, 3], b: float32[1, 3], i: int64[3]] -> [output0: float32[2, 3], output1: float32[2, 1], output2: float32[2, 3], output3: float32[4], output4: int64[3]]>
// API-NEXT: float64 input: ValueError: input 0 ('a'): dtype float64, the model takes float32
// API-NEXT: int32 for int64: ValueError: input 2 ('i'): dtype int32, the model takes int64
// API-NEXT: wrong shape: ValueError: input 0 ('a'): shape [3, 2], the model takes [2, 3]
// API-NEXT: two inputs: ValueError: model 'outputs' takes 3 inputs (a, b, i), got 2
// API-NEXT: a list: ValueError: input 0 ('a'): a numpy array or torch tensor, not list
// API-NEXT: negative threads: ValueError: threads must be an int in [0, 1024], not -1
// API-NEXT: 2^32 + 1 threads: ValueError: threads must be an int in [0, 1024], not 4294967297
// API-NEXT: strided view: accepted
// API-NEXT: outputs: {{\[}}{{\[}}[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], {{\[}}[6.0], [15.0]], {{\[}}[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [1.0, 2.0, 3.0, 4.0], [2, 4, 6]]
// API-NEXT: threads agree: True
// API-NEXT: torch in, torch out: True
// API-NEXT: closed: FuseError: the model is closed
// API-NEXT: missing library: FuseError: {{.*}}.missing: no such file

// BENCH-SHORT: fuse-bench: {{.*}}short.so: not a model library written by fuse-compile
// BENCH-MLIR: model mlp_gelu (cpu): x: float32[4, 64] -> output0: float32[4, 32]
// BENCH-MLIR: | ours |
// BENCH-RUNS: error: --runs and --batch must be at least 1, --warmup at least 0, --threads in [0, 1024]
// EMPTY-OUT: fuse-compile: the output path is empty; -o names the library
// OUT-PARAMS: fuse-compile: --lower-options: out-params is the library's calling convention, not an option
// FOLDER: fuse-compile: {{.*}}folder.so is a folder; -o names the library
// SELF: fuse-compile: {{.*}}self.weights would be both the library and its weights file
// RELOAD: inputs: 2 3
// RELATIVE: run: status 0
// DYNAMIC: fuse-compile: {{.*}}dynamic.mlir: argument 0 of @model: dynamic shape in 'tensor<?x4xf32>' is not supported
// TARGET: invalid choice: 'cuda-ish'
// NOFILE: fuse-compile: {{.*}}junk.so.onnx: no such file
// BADONNX: fuse-compile: fuse-import: not an ONNX model: the file is truncated or corrupt
