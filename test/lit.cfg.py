# -*- Python -*-
"""lit configuration for the FuseDialect regression tests."""

import os
import subprocess
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FUSE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lib", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fuse_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS"])
llvm_config.use_default_substitutions()

# Tools: ours first, then LLVM's.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.fuse_tools_dir, append_path=True)
tools = [
    "fuse-opt",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.fuse_tools_dir, config.llvm_tools_dir])

# Running lowered code on the CPU: the runner utilities, and the OpenMP
# runtime that --fuse-lower-to-cpu's tile loops call by default. One OpenMP
# thread per test (lit already runs a test per core); cpu-parallel.mlir sets
# its own thread counts.
libomp = os.path.join(config.llvm_lib_dir, "libomp.so")
runner_libs = ",".join(
    [os.path.join(config.llvm_lib_dir, lib)
     for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")] +
    ([libomp] if os.path.exists(libomp) else []))
config.environment["OMP_NUM_THREADS"] = "1"
config.substitutions.append(("%mlir_runner_libs", runner_libs))
config.substitutions.append((
    "%run-cpu",
    "mlir-runner -e main -entry-point-result=void -shared-libs=" + runner_libs))

# The Python toolkit (python/fuse_dialect): importable by the tests' own
# scripts (%python ... -c 'import fuse_dialect'); utils/ and bench/ commands
# are launchers that put it on PYTHONPATH themselves.
config.environment["PYTHONPATH"] = os.pathsep.join(
    p for p in (os.path.join(config.fuse_src_root, "python"),
                config.environment.get("PYTHONPATH")) if p)

# The differential harness: the unfused program vs. the program after a
# fuse-opt pipeline, both run on the CPU.
python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else config.python_executable
config.substitutions.append((
    "%fuse-diff",
    "%s %s --fuse-opt %s --mlir-opt %s --mlir-runner %s --lib-dir %s" % (
        python,
        os.path.join(config.fuse_src_root, "utils", "fuse-diff"),
        os.path.join(config.fuse_tools_dir, "fuse-opt"),
        os.path.join(config.llvm_tools_dir, "mlir-opt"),
        os.path.join(config.llvm_tools_dir, "mlir-runner"),
        config.llvm_lib_dir)))
config.substitutions.append(("%python", python))
config.substitutions.append(("%fuse_opt", os.path.join(config.fuse_tools_dir, "fuse-opt")))
config.substitutions.append(("%fuse_src", config.fuse_src_root))
config.substitutions.append(("%fuse_obj", config.fuse_obj_root))
config.substitutions.append(("%mlir_cmake_dir", os.path.join(os.path.dirname(config.llvm_lib_dir), "lib", "cmake", "mlir")))
config.substitutions.append(("%examples", os.path.join(config.fuse_src_root, "examples")))

# Compiled model libraries (include/FuseDialect-runtime): fuse-compile and
# fuse-bench, the ABI's headers for the tests' C programs.
for tool in ("fuse-compile", "fuse-bench"):
    config.substitutions.append((
        "%" + tool, "%s %s" % (python, os.path.join(config.fuse_src_root, "utils", tool))))
config.substitutions.append(("%fuse_include", os.path.join(config.fuse_src_root, "include")))

# Optional features: tests that need them are skipped, never faked.
if os.path.exists(libomp):
    config.available_features.add("libomp")
    config.substitutions.append(("%libomp", libomp))
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
config.substitutions.append((
    "%fuse-extract-ptx",
    "%s %s" % (python, os.path.join(config.fuse_src_root, "utils", "fuse-extract-ptx"))))
# The ONNX importer needs Debian's python3-onnx; the node tests need
# libonnx-testdata.
if subprocess.run([python, "-c", "import onnx, numpy"],
                  capture_output=True).returncode == 0:
    config.available_features.add("onnx")
    config.substitutions.append((
        "%fuse-import", "%s %s" % (python, os.path.join(config.fuse_src_root, "utils", "fuse-import"))))
    config.substitutions.append((
        "%fuse-onnx-node-tests", "%s %s --fuse-opt %s" % (
            python, os.path.join(config.fuse_src_root, "utils", "fuse-onnx-node-tests"),
            os.path.join(config.fuse_tools_dir, "fuse-opt"))))
if subprocess.run([python, "-c", "import torch"], capture_output=True).returncode == 0:
    config.available_features.add("torch")
if os.path.isdir("/usr/share/libonnx-testdata/data/node"):
    config.available_features.add("onnx-testdata")
# The C API library (not in sanitizer builds).
if os.path.exists(os.path.join(config.fuse_obj_root, "lib", "libFuseDialectCAPI.so")):
    config.available_features.add("capi")
# Every GPU thread as a CPU thread (fuse-test-emulate-gpu): the emulator's
# runtime and the OpenMP runtime (a block's threads are an OpenMP team).
gpu_emulator = os.path.join(config.fuse_obj_root, "lib", "libfuse_gpu_emulator.so")
if os.path.exists(libomp) and os.path.exists(gpu_emulator):
    config.available_features.add("gpu-emulator")
    config.substitutions.append(("%gpu_emulator_libs", libomp + "," + gpu_emulator))
# The CUDA target's model library links here when the toolkit is found (its
# runtime library is built then); running it needs a GPU.
if os.path.exists(os.path.join(config.fuse_obj_root, "lib", "libfuse_runtime_cuda.a")):
    config.available_features.add("cuda-toolkit")
# Running kernels needs a GPU and the runtime library (built when the CUDA
# toolkit is found).
cuda_runtime = os.path.join(config.fuse_obj_root, "lib", "libfuse_cuda_runtime.so")
if (os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")) and \
        os.path.exists(cuda_runtime):
    config.available_features.add("cuda-gpu")
    config.substitutions.append(("%cuda_runtime", cuda_runtime))
