// The report and picture go only where the user's options say, and a
// target that cannot take them is an error, not an abort: `report=-` is
// stderr (never mixed with the IR on stdout), a full device (/dev/full) or
// a folder that does not exist is a diagnostic and exit 1.
// RUN: fuse-opt %s --fuse-ops=report=- 2>/dev/null | fuse-opt --verify-diagnostics -o /dev/null
// RUN: fuse-opt %s --fuse-ops=report=- -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not fuse-opt %s --fuse-ops=report=/dev/full -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not fuse-opt %s --fuse-ops=dot=/dev/full -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not fuse-opt %s --fuse-ops=report=%t/no/such/dir/r.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// JSON: "kernels_after": 1
// FULL: error: cannot write '/dev/full': No space left on device
// DIR: error: cannot write '{{.*}}r.json'

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
