#!/usr/bin/env bash
# The long random-graph run (utils/fuse-random-test): COUNT graphs from
# seed START, fused vs unfused on the CPU and idempotence, failures
# minimized into test/Regression. Prints the summary line recorded in
# docs/Reliability.md. Usage: bench/random-graphs.sh [COUNT (10000)] [START (100000)]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
COUNT="${1:-10000}"
START="${2:-100000}"
exec /usr/bin/python3 "$ROOT/utils/fuse-random-test" --start "$START" --count "$COUNT" \
  --jobs "$(nproc)" --batch 10 --save-dir "$ROOT/test/Regression"
