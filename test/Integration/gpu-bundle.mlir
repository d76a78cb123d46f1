// utils/fuse-compile's bundle for the GPU bench: one launch per group, each
// with the bytes of the buffers it is passed and whether its group is
// memory-bound (kernels.json, for the HBM bandwidth column), and a driver
// that times every launch (CUDA events, fuseProfileBegin/End of the
// runtime). The softmax is one memory-bound kernel moving its 2 MiB input and
// output; the attention block's four groups all hold a matmul.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %fuse_src/utils/fuse-compile %fuse_src/bench/models/softmax_512x1024.mlir --bundle -o %t/softmax --fuse-opt %fuse_opt | FileCheck %s --check-prefix=SOFTMAX
// RUN: FileCheck %s --check-prefix=SOFTMAX-KERNELS < %t/softmax/kernels.json
// RUN: %python %fuse_src/utils/fuse-compile %examples/mha_block.mlir --bundle -o %t/mha --fuse-opt %fuse_opt | FileCheck %s --check-prefix=MHA
// RUN: FileCheck %s --check-prefix=MHA-KERNELS < %t/mha/kernels.json
// RUN: FileCheck %s --check-prefix=DRIVER < %t/mha/driver.cpp
// The conv's padded windows at the border have tile-dependent sizes: they
// live in a device scratch buffer allocated around the launch.
// RUN: %python %fuse_src/utils/fuse-compile %examples/conv_bn_relu.mlir --bundle -o %t/conv --fuse-opt %fuse_opt | FileCheck %s --check-prefix=CONV
// CONV: (1 kernel launches, fused)
// SOFTMAX: (1 kernel launches, fused)
// SOFTMAX-KERNELS: "bytes": 4194304,
// SOFTMAX-KERNELS-NEXT: "memory_bound": true
// MHA: (4 kernel launches, fused)
// MHA-KERNELS-COUNT-4: "memory_bound": false
// DRIVER: fuseProfileBegin();
// DRIVER: fuseProfileEnd(launchUs, 4096)
// DRIVER: launch_us
