#!/bin/sh
# A deliberately wrong "optimizer" for harness.mlir: runs fuse-opt, then
# changes the constant 1.25 to 1.5.
fuse-opt "$@" | sed 's/1.250000e+00/1.500000e+00/'
