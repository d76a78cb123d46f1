"""Compile a model ahead of time into a library a program calls.

usage: fuse-compile MODEL.onnx|MODEL.mlir -o model.so [--target cpu|cuda]
                    [--weights embedded|external] [--lower-options OPTS]
                    [--fuse-options OPTS] [--cpu native] [--chip sm_90] [--dim NAME=SIZE]...
                    [--fuse-opt PATH]
       fuse-compile MODEL.mlir --bundle -o DIR [--unfused] [--tf32] ...

The first form writes one shared library with the C ABI of
include/FuseDialect-runtime/FuseRuntime.h (fuse_dialect.aot gives the
steps): `--target cpu` (default) for this machine's CPU (`--cpu` names
another, as LLVM's -mcpu does), `--target cuda` the host code with its
kernels embedded (sm_90 by default) and the CUDA runtime, linked against the
driver. The weights are in the library's read-only data, or with
`--weights=external` in `model.weights` beside it (read once per process
when a session is created). `--lower-options` adds options of
`--fuse-lower-to-cpu` / `--fuse-lower-to-nvvm` (space-separated
key=value), `--fuse-options` options of `--fuse-ops` (on the CPU,
`winograd=false` keeps 3x3 convolutions direct). `--dim batch=8` compiles an ONNX model whose inputs have
symbolic dimensions (dim_params) at that size (one library per size).
`fuse_dialect.load("model.so")` runs it from Python; fuse-bench times it.

With --bundle: the GPU bench's bundle (bench/gpu), a folder a machine with
the CUDA driver, a C++ compiler and CMake builds without MLIR:
  model_gpu.o      host code (x86-64 object): @model as `_mlir_ciface_<entry>`,
                   its kernels embedded as PTX (sm_90 by default), calling
                   the mgpu* runtime
  model_ref.o      the unfused program lowered for the CPU
                   (`_mlir_ciface_<entry>_ref`), the numeric reference
  CudaRuntime.cpp  the mgpu* runtime (lib/Runtime), built there
  driver.cpp       allocates seeded random inputs (managed memory), checks
                   the GPU result against the CPU reference, then times N
                   calls; prints one JSON line
  CMakeLists.txt   `cmake -S DIR -B DIR/build && cmake --build DIR/build`
With --unfused the GPU program is the unfused one with one kernel per op
(each op its own group), the baseline for bench/gpu. With --tf32 f32
matmul tiles run on tensor cores with TF32 inputs (`--fuse-lower-to-nvvm`
option `tf32`); the driver then accepts 1e-2 instead of 1e-3 (relative to
the result's magnitude) against the IEEE f32 CPU reference.
--lower-options adds `--fuse-lower-to-nvvm` options (space-separated
key=value, e.g. "stage-inputs=false"), so that two lowerings of one model
can be timed side by side.
Only f32 tensors with static shapes are supported at a bundle's boundary.
"""


import argparse
import json
import os
import re
import shutil
import subprocess
import sys

from .. import aot, mlirtext, toolchain
from ..reference import REFERENCE_PIPELINE_C_WRAPPERS as REFERENCE


def run(cmd, stdin=None, with_stderr=False):
    """stdout (and stderr with `with_stderr`) of a tool that must succeed."""
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("fuse-compile: %s failed:\n%s\n" % (cmd[0], r.stderr[-4000:]))
        sys.exit(2)
    return (r.stdout, r.stderr) if with_stderr else r.stdout


def signature(text, entry):
    func = mlirtext.find_func(text, entry)
    if func is None:
        sys.exit("fuse-compile: no @%s" % entry)
    shapes = []
    for group in (func.args, func.results):
        types = [m for t in group for m in re.findall(r"tensor<([^>]*)>", t)]
        out = []
        for t in types:
            parts = t.split("x")
            if parts[-1] != "f32" or any(not p.isdigit() for p in parts[:-1]):
                sys.exit("fuse-compile: only static f32 tensors at the boundary (got tensor<%s>)" % t)
            out.append([int(p) for p in parts[:-1]])
        shapes.append(out)
    return shapes


MEMREF = re.compile(r"(%[\w#]+) : memref<([0-9x]+)x(f32|f16|i32|i8|i64|i1)(?:,[^>]*)?>")
ELT_BYTES = {"f32": 4, "f16": 2, "i32": 4, "i8": 1, "i64": 8, "i1": 1}
COMPUTE = re.compile(r"tosa\.(conv2d|depthwise_conv2d|matmul|transpose_conv2d)|linalg\.(matmul|batch_matmul|conv)")


def launch_table(planned, before_llvm):
    """Per kernel launch, in order: the kernel, the bytes of the buffers it
    is passed (each read or written once: its minimum traffic), and whether
    it is memory-bound (its group has no convolution or matmul; None when
    the launches cannot be matched one to one with the groups)."""
    groups = []
    for m in re.finditer(r"fuse\.group ins\(", planned):
        # The group's region: from the "{" that ends its line (after any
        # attribute dictionary) to the matching "}".
        depth, i = 0, planned.index("{\n", m.end())
        j = i
        while True:
            if planned[j] == "{":
                depth += 1
            elif planned[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        body = planned[i:j]
        matmul_like = bool(COMPUTE.search(body)) or (
            '"reduction"' in body and "arith.mulf" in body and "arith.addf" in body)
        groups.append(not matmul_like)
    launches = []
    for line in before_llvm.splitlines():
        if "gpu.launch_func" not in line:
            continue
        kernel = re.search(r"@([\w]+)::@[\w]+", line)
        seen, total = set(), 0
        for name, dims, elt in MEMREF.findall(line):
            if name in seen:
                continue
            seen.add(name)
            n = 1
            for d in dims.split("x"):
                n *= int(d)
            total += n * ELT_BYTES[elt]
        launches.append({"kernel": kernel.group(1) if kernel else "?", "bytes": total})
    # gpu-to-llvm runs once per module: keep the last dump's launches.
    matched = len(launches) == len(groups)
    for k, entry in enumerate(launches):
        entry["memory_bound"] = groups[k] if matched else None
    return launches


def to_object(llvm_dialect, path, llc_args=()):
    ll = run([toolchain.tool("mlir-translate"), "--mlir-to-llvmir", "-"], stdin=llvm_dialect)
    run([toolchain.tool("llc"), "-O2", "-filetype=obj", "-relocation-model=pic",
         *llc_args, "-o", path, "-"], stdin=ll)


DRIVER = r'''// Generated by utils/fuse-compile: runs @@ENTRY@ on the GPU, checks it
// against the CPU reference, times it.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

template <int N> struct MemRef {
  float *allocated, *aligned;
  int64_t offset, sizes[N > 0 ? N : 1], strides[N > 0 ? N : 1];
};
@RESULT_STRUCT@
extern "C" {
void *mgpuMemAlloc(uint64_t, void *, bool);
void fuseProfileBegin();
int32_t fuseProfileEnd(double *, int32_t);
void mgpuMemFree(void *, void *);
void _mlir_ciface_@ENTRY@(@PARAMS@);
void _mlir_ciface_@ENTRY@_ref(@PARAMS@);
// The CPU reference may copy buffers through the runner utilities' entry.
struct Unranked { int64_t rank; void *descriptor; };
void memrefCopy(int64_t elementBytes, Unranked *src, Unranked *dst) {
  auto *s = static_cast<int64_t *>(src->descriptor);
  auto *d = static_cast<int64_t *>(dst->descriptor);
  int64_t rank = src->rank, count = 1;
  for (int64_t i = 0; i < rank; ++i) count *= s[3 + i];
  char *sp = reinterpret_cast<char **>(s)[1], *dp = reinterpret_cast<char **>(d)[1];
  std::vector<int64_t> idx(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t so = s[2], doff = d[2];
    for (int64_t i = 0; i < rank; ++i) { so += idx[i] * s[3 + rank + i]; doff += idx[i] * d[3 + rank + i]; }
    std::memcpy(dp + doff * elementBytes, sp + so * elementBytes, elementBytes);
    for (int64_t i = rank - 1; i >= 0; --i) { if (++idx[i] < s[3 + i]) break; idx[i] = 0; }
  }
}
}

template <int N> MemRef<N> make(const int64_t (&shape)[N > 0 ? N : 1], bool gpu, uint32_t seed) {
  MemRef<N> m{};
  int64_t count = 1;
  for (int i = 0; i < N; ++i) count *= shape[i];
  size_t bytes = sizeof(float) * (count > 0 ? count : 1);
  m.allocated = static_cast<float *>(gpu ? mgpuMemAlloc(bytes, nullptr, true) : std::malloc(bytes));
  m.aligned = m.allocated;
  int64_t stride = 1;
  for (int i = N - 1; i >= 0; --i) { m.sizes[i] = shape[i]; m.strides[i] = stride; stride *= shape[i]; }
  for (int64_t i = 0; i < count; ++i) {
    seed = seed * 1664525u + 1013904223u;
    m.aligned[i] = (seed >> 8) / 8388608.0f - 1.0f;
  }
  return m;
}

template <int N> int64_t count(const MemRef<N> &m) {
  int64_t c = 1;
  for (int i = 0; i < N; ++i) c *= m.sizes[i];
  return c;
}

int main(int argc, char **argv) {
  int calls = argc > 1 ? std::atoi(argv[1]) : 100;
@MAKE_INPUTS@
  @RESULT_DECL@ gpuOut, refOut;
  _mlir_ciface_@ENTRY@_ref(@REF_ARGS@);
  _mlir_ciface_@ENTRY@(@GPU_ARGS@);
  double maxErr = 0, maxRef = 0;
@COMPARE@
  @FREE_GPU@
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    _mlir_ciface_@ENTRY@(@GPU_ARGS@);
    @FREE_GPU@
  }
  auto t1 = std::chrono::steady_clock::now();
  double us = std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
  bool ok = maxErr <= @TOLERANCE@ * (1.0 + maxRef);
  // One more call with every kernel launch timed (CUDA events).
  fuseProfileBegin();
  _mlir_ciface_@ENTRY@(@GPU_ARGS@);
  @FREE_GPU@
  double launchUs[4096];
  int32_t launched = fuseProfileEnd(launchUs, 4096);
  std::printf("{\"model\": \"@NAME@\", \"variant\": \"@VARIANT@\", \"us_per_call\": %.3f, "
              "\"max_abs_err\": %.3g, \"match\": %s, \"launch_us\": [",
              us, maxErr, ok ? "true" : "false");
  for (int32_t i = 0; i < launched && i < 4096; ++i)
    std::printf("%s%.3f", i ? ", " : "", launchUs[i]);
  std::printf("]}\n");
  std::fflush(stdout);
  return ok ? 0 : 1;
}
'''

CMAKE = r'''cmake_minimum_required(VERSION 3.18)
project(fuse_bundle_@NAME@ LANGUAGES C CXX)
find_package(CUDAToolkit REQUIRED)
add_executable(driver driver.cpp CudaRuntime.cpp model_gpu.o model_ref.o)
target_link_libraries(driver PRIVATE CUDA::cuda_driver m)
set_target_properties(driver PROPERTIES LINKER_LANGUAGE CXX)
'''


def main(argv):
    ap = argparse.ArgumentParser(prog="fuse-compile", description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--target", choices=sorted(aot.TARGETS), default="cpu")
    ap.add_argument("--weights", choices=["embedded", "external"], default="embedded")
    ap.add_argument("--cpu", default="native", help="the CPU the code is for (LLVM's -mcpu)")
    ap.add_argument("--dim", action="append", default=[],
                    help="NAME=SIZE: the size of an ONNX model's symbolic input dimension")
    ap.add_argument("--bundle", action="store_true",
                    help="the GPU bench's bundle (a folder) instead of a library")
    ap.add_argument("--entry", default="model")
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--unfused", action="store_true")
    ap.add_argument("--tf32", action="store_true",
                    help="f32 matmuls on tensor cores, inputs rounded to TF32")
    ap.add_argument("--lower-options", dest="lower_options", default="",
                    help="more --fuse-lower-to-cpu / --fuse-lower-to-nvvm options, key=value ...")
    ap.add_argument("--fuse-options", dest="fuse_options", default="",
                    help="more --fuse-ops options, key=value ... (winograd=false: "
                    "3x3 convolutions direct on the CPU)")
    ap.add_argument("--fuse-opt", dest="fuse_opt",
                    default=toolchain.fuse_opt())
    args = ap.parse_args(argv[1:])
    if not args.bundle:
        try:
            dims = aot.parse_dims(args.dim)
            inputs, outputs = aot.compile_library(
                args.model, args.out, args.target, args.weights, args.lower_options,
                args.cpu, args.chip, args.fuse_opt,
                log=lambda msg: print("fuse-compile: " + msg, file=sys.stderr, flush=True),
                dims=dims, fuse_options=args.fuse_options)
        except aot.CompileError as e:
            sys.stderr.write("fuse-compile: %s\n" % e)
            return 1
        show = lambda side: ", ".join(map(str, side))
        print("fuse-compile: %s -> %s (%s; inputs: %s; outputs: %s)" % (
            args.model, args.out, args.target, show(inputs), show(outputs)))
        return 0
    fuse_opt = args.fuse_opt
    os.makedirs(args.out, exist_ok=True)
    source = run([toolchain.tool("mlir-opt"), args.model])
    ins, outs = signature(source, args.entry)
    name = os.path.splitext(os.path.basename(args.model))[0]

    # GPU program: fused (--fuse-ops), or one kernel per op.
    plan = ["--fuse-ops"] if not args.unfused else \
        ["--fuse-annotate-mapping", "--fuse-form-groups=max-group-size=1"]
    planned = run([fuse_opt, args.model] + plan)
    gpu, before_llvm = run([fuse_opt, "-", "--llvm-request-c-wrappers",
                            "--fuse-lower-to-nvvm=chip=%s%s%s" % (
                                args.chip, " tf32=true" if args.tf32 else "",
                                " " + args.lower_options
                                if args.lower_options else ""),
                            "--mlir-print-ir-before=gpu-to-llvm"], stdin=planned,
                           with_stderr=True)
    with open(os.path.join(args.out, "kernels.json"), "w") as f:
        json.dump(launch_table(planned, before_llvm), f, indent=1)
    to_object(gpu, os.path.join(args.out, "model_gpu.o"))

    # CPU reference: the unfused program, entry renamed.
    ref = re.sub(r"@%s\b" % re.escape(args.entry), "@%s_ref" % args.entry, source)
    ref_llvm = run([toolchain.tool("mlir-opt"), "-", "--pass-pipeline=" + REFERENCE], stdin=ref)
    to_object(ref_llvm, os.path.join(args.out, "model_ref.o"))
    shutil.copy(os.path.join(toolchain.source_root(), "lib", "Runtime", "CudaRuntime.cpp"),
                args.out)

    # Driver.
    rank = lambda s: len(s)
    params, make_inputs, gpu_args, ref_args = [], [], [], []
    if len(outs) == 1:
        result_struct = ""
        result_decl = "MemRef<%d>" % rank(outs[0])
        params.append("MemRef<%d> *" % rank(outs[0]))
        results = ["gpuOut"], ["refOut"]
        out_fields = [("", outs[0])]
    else:
        fields = "".join("  MemRef<%d> r%d;\n" % (rank(o), i) for i, o in enumerate(outs))
        result_struct = "struct Results {\n%s};" % fields
        result_decl = "Results"
        params.append("Results *")
        out_fields = [(".r%d" % i, o) for i, o in enumerate(outs)]
    gpu_args.append("&gpuOut")
    ref_args.append("&refOut")
    for i, shape in enumerate(ins):
        params.append("MemRef<%d> *" % rank(shape))
        dims = ", ".join(map(str, shape)) or "1"
        make_inputs.append("  const int64_t s%d[] = {%s};" % (i, dims))
        make_inputs.append("  auto g%d = make<%d>(s%d, true, %d);" % (i, rank(shape), i, 1234 + i))
        make_inputs.append("  auto c%d = make<%d>(s%d, false, %d);" % (i, rank(shape), i, 1234 + i))
        gpu_args.append("&g%d" % i)
        ref_args.append("&c%d" % i)
    compare, free_gpu = [], []
    for field, shape in out_fields:
        compare.append("  for (int64_t i = 0; i < count(gpuOut%s); ++i) {\n"
                       "    double d = std::fabs(double(gpuOut%s.aligned[i]) - refOut%s.aligned[i]);\n"
                       "    if (!(d <= maxErr)) maxErr = d;\n"
                       "    maxRef = std::fmax(maxRef, std::fabs(double(refOut%s.aligned[i])));\n"
                       "  }" % (field, field, field, field))
        free_gpu.append("mgpuMemFree(gpuOut%s.allocated, nullptr);" % field)
    driver = (DRIVER.replace("@ENTRY@", args.entry).replace("@NAME@", name)
              .replace("@VARIANT@", "unfused" if args.unfused else "fused")
              .replace("@TOLERANCE@", "1e-2" if args.tf32 else "1e-3")
              .replace("@RESULT_STRUCT@", result_struct)
              .replace("@RESULT_DECL@", result_decl)
              .replace("@PARAMS@", ", ".join(params))
              .replace("@MAKE_INPUTS@", "\n".join(make_inputs))
              .replace("@GPU_ARGS@", ", ".join(gpu_args))
              .replace("@REF_ARGS@", ", ".join(ref_args))
              .replace("@COMPARE@", "\n".join(compare))
              .replace("@FREE_GPU@", " ".join(free_gpu)))
    open(os.path.join(args.out, "driver.cpp"), "w").write(driver)
    open(os.path.join(args.out, "CMakeLists.txt"), "w").write(CMAKE.replace("@NAME@", re.sub(r"\W", "_", name)))
    kernels = gpu.count("gpu.launch_func")
    print("fuse-compile: %s -> %s (%d kernel launches, %s)" % (
        args.model, args.out, kernels, "unfused" if args.unfused else "fused"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
