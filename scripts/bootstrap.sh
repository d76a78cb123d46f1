#!/usr/bin/env bash
# Installs what is missing on Debian 12, configures and builds FuseDialect.
# Idempotent: a second run only rebuilds what changed.
#
#   scripts/bootstrap.sh            # build fuse-opt and the test passes
#   FUSE_BUILD_DIR=... scripts/bootstrap.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# FUSE_SANITIZE=1: the project built with clang, ASan and UBSan, in build-asan.
if [[ "${FUSE_SANITIZE:-0}" == 1 ]]; then
  BUILD="${FUSE_BUILD_DIR:-$ROOT/build-asan}"
else
  BUILD="${FUSE_BUILD_DIR:-$ROOT/build}"
fi
LLVM_PREFIX="${FUSE_LLVM_DIR:-/usr/lib/llvm-22}"  # as python/fuse_dialect/toolchain.py

PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          ninja-build ccache cmake g++ lld python3
          libomp-22-dev   # OpenMP runtime: --fuse-lower-to-cpu=parallel=true
          python3-onnx python3-numpy  # fuse-import (the ONNX importer)
          python3-torch  # fuse-to-torch check (the GPU bench's PyTorch columns)
          python3-torchvision  # bench/zoo (the model zoo: torchvision models)
          libonnx-testdata)  # ONNX's node tests, run against the importer
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$pkg")
done
if [[ "${FUSE_SANITIZE:-0}" == 1 ]]; then
  for pkg in clang-22 libclang-rt-22-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" \
      || missing+=("$pkg")
  done
fi
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  [[ "$(id -u)" -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

SANITIZE_ARGS=()
if [[ "${FUSE_SANITIZE:-0}" == 1 ]]; then
  SANITIZE_ARGS=(-DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang"
                 -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" -DFUSE_SANITIZE=ON)
fi
if [[ ! -f "$BUILD/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DMLIR_LINK_MLIR_DYLIB=ON \
    -DLLVM_USE_LINKER=lld "${SANITIZE_ARGS[@]}" >/dev/null
fi
TARGETS=(fuse-opt mlir-doc fuse_gpu_emulator fuse_runtime_cpu)
# What fuse-compile links into a CUDA model library (built when the CUDA
# toolkit is found).
if ninja -C "$BUILD" -t query fuse_runtime_cuda >/dev/null 2>&1; then
  TARGETS+=(fuse_runtime_cuda)
fi
# The C API (a shared library) is not part of the sanitizer build.
[[ "${FUSE_SANITIZE:-0}" == 1 ]] || TARGETS+=(FuseDialectCAPI fuse-capi-hostile)
ninja -C "$BUILD" -j"$(nproc)" "${TARGETS[@]}"
