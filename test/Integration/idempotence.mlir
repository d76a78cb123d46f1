// Running --fuse-ops on its own output changes nothing.
//
// RUN: fuse-opt %examples/inception_block.mlir --fuse-ops -o %t.1.mlir
// RUN: fuse-opt %t.1.mlir --fuse-ops -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: fuse-opt %examples/transformer_block.mlir --fuse-ops -o %t.3.mlir
// RUN: fuse-opt %t.3.mlir --fuse-ops -o %t.4.mlir
// RUN: diff %t.3.mlir %t.4.mlir
// RUN: fuse-opt %examples/resnet_bottleneck.mlir --fuse-ops -o %t.5.mlir
// RUN: fuse-opt %t.5.mlir --fuse-ops -o %t.6.mlir
// RUN: diff %t.5.mlir %t.6.mlir
// RUN: grep -c fuse.group %t.1.mlir | FileCheck %s
// The whole line: 15, 25 or 50 groups must fail too.
// CHECK: {{^}}5{{$}}
