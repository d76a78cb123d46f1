#!/usr/bin/env bash
# Fuzzes parse -> verify -> --fuse-ops -> verify with libFuzzer (tools/fuse-fuzz),
# the project's code built with clang, ASan, UBSan and fuzzer coverage in
# build-fuzz/. Seed corpus: every function of the lit tests and examples.
# Usage: scripts/fuzz.sh [RUNS (default 1000000)] [extra libFuzzer flags]
# Crashes are written as build-fuzz/crash-*; add each as a lit regression test.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-1000000}"; shift || true
BUILD="$ROOT/build-fuzz"
LLVM_PREFIX="${FUSE_LLVM_DIR:-/usr/lib/llvm-22}"
for pkg in clang-22 libclang-rt-22-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || {
    SUDO=""; [[ "$(id -u)" -ne 0 ]] && SUDO=sudo
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$pkg"; }
done
if [[ ! -f "$BUILD/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang" -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DMLIR_LINK_MLIR_DYLIB=ON -DLLVM_USE_LINKER=lld -DFUSE_ENABLE_FUZZER=ON >/dev/null
fi
ninja -C "$BUILD" fuse-fuzz
CORPUS="$BUILD/corpus"
if [[ ! -d "$CORPUS" ]]; then
  mkdir -p "$CORPUS"
  /usr/bin/python3 - "$ROOT" "$CORPUS" <<'PY'
import glob, hashlib, os, sys
root, out = sys.argv[1], sys.argv[2]
files = glob.glob(os.path.join(root, "test", "**", "*.mlir"), recursive=True) + \
        glob.glob(os.path.join(root, "examples", "*.mlir"))
n = 0
for f in files:
    for chunk in open(f).read().split("// -----"):
        text = "\n".join(l for l in chunk.splitlines() if not l.lstrip().startswith("//"))
        if "func.func" not in text or len(text) > 20000:
            continue
        open(os.path.join(out, hashlib.sha1(text.encode()).hexdigest()), "w").write(text)
        n += 1
print("fuzz: %d seed inputs" % n)
PY
fi
cd "$BUILD"
# No leak checking: MLIR's context and the pass registry are process-lived.
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 ./bin/fuse-fuzz "$CORPUS" -runs="$RUNS" -max_len=20000 \
  -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 "$@"
