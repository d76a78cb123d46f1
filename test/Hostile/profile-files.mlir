// A profile (profile=FILE) is read only if it is a regular file of at most
// 64 MiB holding one JSON object: a FIFO (hung before), a device
// (/dev/zero: memory exhausted before), a folder, or JSON nested a million
// deep (a stack overflow in the parser before) is a named error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mkfifo %t/fifo
// RUN: not fuse-opt %s --fuse-ops=profile=%t/fifo 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not fuse-opt %s --fuse-ops=profile=/dev/zero 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not fuse-opt %s --fuse-ops=profile=%t 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not fuse-opt %s --fuse-ops=profile=%t/missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %python -c "print('[' * 1000000 + ']' * 1000000)" > %t/deep.json
// RUN: not fuse-opt %s --fuse-ops=profile=%t/deep.json 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: echo '{"x": 1}' > %t/number.json
// RUN: not fuse-opt %s --fuse-ops=profile=%t/number.json 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: echo '{}' > %t/empty.json
// RUN: fuse-opt %s --fuse-ops=profile=%t/empty.json -o /dev/null
// A path with a space and a comma is given quoted:
// RUN: echo '{}' > "%t/a b,c.json"
// RUN: fuse-opt %s "--fuse-ops=profile='%t/a b,c.json' max-group-size=8" -o /dev/null
// KIND: error: profile: '{{.*}}' is not a regular file
// MISSING: error: profile: cannot read '{{.*}}missing.json': No such file or directory
// DEEP: error: profile '{{.*}}deep.json' must be one JSON object of true/false decisions
// ENTRY: error: profile entry 'x' must be true or false

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
