#!/usr/bin/env bash
# Builds what is needed and runs every test: the lit suite (FileCheck and
# differential numeric tests) and the check that the checked-in generated
# docs are current. Ends with one line "check-fuse: N passed, N failed, N skipped".
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# FUSE_SANITIZE=1 scripts/test.sh: the suite against an ASan+UBSan build
# (clang, build-asan/); a sanitizer report fails the test that triggers it.
if [[ "${FUSE_SANITIZE:-0}" == 1 ]]; then
  BUILD="${FUSE_BUILD_DIR:-$ROOT/build-asan}"
  # allow_user_poisoning=0: inline LLVM allocator code in our instrumented
  # objects poisons memory that uninstrumented libMLIR.so then reuses (false
  # reports); leaks off: MLIR's registries live for the process.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:allow_user_poisoning=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
else
  BUILD="${FUSE_BUILD_DIR:-$ROOT/build}"
fi
"$ROOT/scripts/bootstrap.sh" || exit 1

failed_extra=0
# Generated reference docs must match the checked-in copy.
if ! diff -ru "$BUILD/docs/Fuse" "$ROOT/docs/reference" >/tmp/fuse-doc-diff.$$ 2>&1; then
  echo "FAIL: docs/reference is stale; run 'ninja -C build fuse-doc' and commit:"
  head -40 /tmp/fuse-doc-diff.$$
  failed_extra=1
fi
rm -f /tmp/fuse-doc-diff.$$

log="$BUILD/lit-results.txt"
"${FUSE_LLVM_DIR:-/usr/lib/llvm-22}/bin/lit" -sv "$BUILD/test" "$@" | tee "$log"
lit_rc=${PIPESTATUS[0]}

count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -1; }
passed=$(( $(count Passed || true) + 0 ))
xfail=$(( $(count "Expectedly Failed" || true) + 0 ))
failed=$(( $(count Failed || true) + $(count "Unexpectedly Passed" || true) + 0 ))
skipped=$(( $(count Unsupported || true) + $(count Skipped || true) + 0 ))
if ((failed_extra)); then failed=$((failed + 1)); else passed=$((passed + 1)); fi
echo "check-fuse: $((passed + xfail)) passed, $failed failed, $skipped skipped"
if ((lit_rc != 0 || failed_extra != 0)); then exit 1; fi
