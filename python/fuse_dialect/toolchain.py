"""Where the tools are: the LLVM/MLIR install, this project's build, and
how to run this package's own commands.

The one place that knows these paths:

* the LLVM/MLIR install: $FUSE_LLVM_DIR, else /usr/lib/llvm-22 (Debian's
  llvm-22 packages), else the prefix that `llvm-config` on PATH reports;
  its tools (`tool("mlir-opt")`, mlir-runner, mlir-translate, llc,
  FileCheck) and libraries (the runner utilities, libomp);
* this project's `fuse-opt`: build/bin/fuse-opt in the source tree (or
  bin/fuse-opt of an installed prefix);
* `module_command()` and `module_env()`: a command that runs one of this
  package's modules (`python3 -m fuse_dialect...`) with the package on
  PYTHONPATH.

For shell scripts: `python3 -m fuse_dialect.toolchain KEY` prints one of
llvm-dir, bin-dir, lib-dir, runner-libs, libomp, fuse-opt, or the path of
an LLVM tool (e.g. mlir-opt).
"""

import functools
import os
import shutil
import subprocess
import sys

DEFAULT_LLVM_DIR = "/usr/lib/llvm-22"
RUNNER_UTILS = ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# The folder that holds the package: python/ of the source tree, or
# lib/python of an installed prefix.
PYTHON_DIR = os.path.dirname(PACKAGE_DIR)


@functools.lru_cache(maxsize=None)
def llvm_dir():
    """The LLVM/MLIR install prefix."""
    env = os.environ.get("FUSE_LLVM_DIR")
    if env:
        return env
    if os.path.isdir(DEFAULT_LLVM_DIR):
        return DEFAULT_LLVM_DIR
    config = shutil.which("llvm-config")
    if config:
        try:
            r = subprocess.run([config, "--prefix"], capture_output=True, text=True,
                               timeout=60)
            if r.returncode == 0 and r.stdout.strip():
                return r.stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            pass
    return DEFAULT_LLVM_DIR  # missing: the tools fail naming this path


def bin_dir():
    return os.path.join(llvm_dir(), "bin")


def lib_dir():
    return os.path.join(llvm_dir(), "lib")


def tool(name):
    """The path of an LLVM/MLIR tool (mlir-opt, mlir-runner, llc, ...)."""
    return os.path.join(bin_dir(), name)


def runner_libs(lib=None):
    """-shared-libs of mlir-runner for printMemref* and friends: the two
    runner utility libraries of `lib` (default: the install's lib/), and
    its OpenMP runtime where there is one (`--fuse-lower-to-cpu` runs tile
    loops on all cores by default), comma-separated."""
    lib = lib or lib_dir()
    names = RUNNER_UTILS + (("libomp.so",) if os.path.exists(
        os.path.join(lib, "libomp.so")) else ())
    return ",".join(os.path.join(lib, name) for name in names)


def libomp():
    """LLVM's OpenMP runtime (Debian libomp-22-dev), which may be absent."""
    return os.path.join(lib_dir(), "libomp.so")


def source_root():
    """The source tree this package is in (python/fuse_dialect beside
    utils/), or None for an installed package (lib/python/fuse_dialect)."""
    root = os.path.dirname(PYTHON_DIR)
    if os.path.basename(PYTHON_DIR) == "python" and os.path.isdir(os.path.join(root, "utils")):
        return root
    return None


def fuse_opt():
    """This project's fuse-opt: build/bin/fuse-opt of the source tree, else
    bin/fuse-opt of the installed prefix, else the one on PATH."""
    root = source_root()
    if root:
        return os.path.join(root, "build", "bin", "fuse-opt")
    installed = os.path.join(PYTHON_DIR, "..", "..", "bin", "fuse-opt")
    if os.path.exists(installed):
        return os.path.abspath(installed)
    return shutil.which("fuse-opt") or "fuse-opt"


def build_or_prefix(*parts):
    """`parts` under build/ of the source tree, else under the installed
    prefix (lib/python/fuse_dialect is two levels below it)."""
    root = source_root()
    base = os.path.join(root, "build") if root else os.path.join(PYTHON_DIR, "..", "..")
    return os.path.abspath(os.path.join(base, *parts))


def runtime_library(target):
    """The runtime a compiled model links (lib/Runtime): the session's C ABI
    for `target` (cpu or cuda), a static library."""
    return build_or_prefix("lib", "libfuse_runtime_%s.a" % target)


def runtime_include():
    """The folder that holds FuseDialect-runtime/ (the ABI's headers)."""
    root = source_root()
    return os.path.join(root, "include") if root else build_or_prefix("include")


def cxx():
    """The C++ compiler that links a model library: $CXX, else c++."""
    return os.environ.get("CXX") or shutil.which("c++") or "c++"


def cuda_stubs():
    """The CUDA driver's link stub (libcuda.so) of the toolkit."""
    home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    for sub in ("lib64/stubs", "targets/x86_64-linux/lib/stubs"):
        if os.path.exists(os.path.join(home, sub, "libcuda.so")):
            return os.path.join(home, sub)
    return os.path.join(home, "lib64", "stubs")


def launcher(name):
    """The command `name` (fuse-import, fuse-diff, ...): utils/NAME of the
    source tree, else bin/NAME of the installed prefix."""
    root = source_root()
    if root:
        return os.path.join(root, "utils", name)
    return os.path.abspath(os.path.join(PYTHON_DIR, "..", "..", "bin", name))


def module_env(env=None):
    """`env` (default: this process's) with this package's folder first on
    PYTHONPATH."""
    env = dict(os.environ if env is None else env)
    rest = env.get("PYTHONPATH")
    env["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + rest if rest else "")
    return env


def keep_freed_memory(env):
    """`env` with glibc's malloc keeping the memory programs free (trim and
    mmap thresholds of 1 GiB, unless GLIBC_TUNABLES is already set): the
    benches time every column under it. Otherwise glibc returns each large
    freed buffer to the system and faults its pages in again on the next
    call, which is the kernel's time only in the measurement (a third of our
    MobileNetV2 and three quarters of a 56x56x256 convolution's before
    fuse-plan-buffers gave each call one arena; still so for a column whose
    runtime allocates each op's result, PyTorch eager's)."""
    env = dict(env)
    env.setdefault("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=%d:"
                   "glibc.malloc.mmap_threshold=%d" % (1 << 30, 1 << 30))
    return env


def module_command(module):
    """argv that runs `module` of this package (`fuse_dialect.tools.X`) with
    this interpreter; run it with env=module_env()."""
    # -P: the current folder does not shadow installed modules (3.11+).
    return [sys.executable] + (["-P"] if sys.version_info >= (3, 11) else []) + \
        ["-m", module]


def main(argv):
    keys = {"llvm-dir": llvm_dir, "bin-dir": bin_dir, "lib-dir": lib_dir,
            "runner-libs": runner_libs, "libomp": libomp, "fuse-opt": fuse_opt}
    if len(argv) != 2:
        sys.stderr.write("usage: python3 -m fuse_dialect.toolchain {%s|TOOL}\n"
                         % "|".join(keys))
        return 2
    key = argv[1]
    print(keys[key]() if key in keys else tool(key))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
