// Pipeline and pass options are values checked before any work: out of
// range, unknown to the toolchain, or a pipeline anchored below
// builtin.module (an abort in the pass manager before) is a named error.
// RUN: not fuse-opt %s --fuse-ops=max-group-size=0 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=block-size=0 2>&1 | FileCheck %s --check-prefix=BLOCK0
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=block-size=1025 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=block-size=2147483647 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=block-size=-1 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=chip= 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=chip=sm_9999 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=features=+bogus 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=format=bogus 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=tile-elements=0 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not fuse-opt %s --fuse-lower-to-nvvm=contraction-tile=-4 2>&1 | FileCheck %s --check-prefix=CTILE
// RUN: not fuse-opt %s --fuse-lower-to-cpu=min-tile-elements=0 2>&1 | FileCheck %s --check-prefix=CPUTILE
// RUN: not fuse-opt %s --fuse-lower-to-cpu=l2-bytes=-1 2>&1 | FileCheck %s --check-prefix=L2
// RUN: not fuse-opt %s --fuse-lower-to-cpu=l2-bytes=1099511627777 2>&1 | FileCheck %s --check-prefix=L2
// RUN: not fuse-opt %s --fuse-lower-to-cpu=l2-bytes= 2>&1 | FileCheck %s --check-prefix=NOL2
// RUN: not fuse-opt %s --fuse-vectorize-tiles=l2-bytes=-1 2>&1 | FileCheck %s --check-prefix=PASSL2
// RUN: not fuse-opt %s --fuse-tile-groups=min-tile-elements=-3 2>&1 | FileCheck %s --check-prefix=PASSTILE
// RUN: not fuse-opt %s --fuse-tile-groups=wide-side-factor=0 2>&1 | FileCheck %s --check-prefix=PASSTILE
// RUN: not fuse-opt %s --fuse-tile-groups=transpose-block=65 2>&1 | FileCheck %s --check-prefix=PASSTILE
// RUN: not fuse-opt %s --fuse-tile-groups=transpose-block=-1 2>&1 | FileCheck %s --check-prefix=PASSTILE
// RUN: not fuse-opt %s --fuse-algebraic-simplify=max-iterations=0 2>&1 | FileCheck %s --check-prefix=ITER
// RUN: not fuse-opt %s --fuse-distribute-tiles=block-size=0 2>&1 | FileCheck %s --check-prefix=PASSBLOCK
// RUN: not fuse-opt %s --fuse-insert-chains-to-buffer=min-length=-1 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: not fuse-opt %s --fuse-insert-chains-to-buffer=min-length= 2>&1 | FileCheck %s --check-prefix=NOLENGTH
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-ops))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-lower-to-cpu))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-lower-to-nvvm))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// The toolchain's own spellings pass:
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-nvvm="chip=sm_80 features=+ptx81" -o /dev/null
// GROUP: error: 'fuse-ops': option 'max-group-size' must be in [1, 1048576], not 0
// BLOCK0: error: 'fuse-lower-to-nvvm': option 'block-size' must be in [1, 1024], not 0
// BLOCK: error: {{.*}}block-size
// CHIP: error: 'fuse-lower-to-nvvm': option 'chip': '{{.*}}' is not an NVIDIA chip LLVM knows
// FEATURE: error: 'fuse-lower-to-nvvm': option 'features': '+bogus' is not +/- an NVPTX feature
// FORMAT: error: 'fuse-lower-to-nvvm': option 'format' must be isa, bin or fatbin, not 'bogus'
// TILE: error: 'fuse-lower-to-nvvm': option 'tile-elements' must be in
// CTILE: error: 'fuse-lower-to-nvvm': option 'contraction-tile' must be in
// CPUTILE: error: 'fuse-lower-to-cpu': option 'min-tile-elements' must be in
// L2: error: 'fuse-lower-to-cpu': option 'l2-bytes' must be in [0, 1099511627776]
// NOL2: l2-bytes
// PASSL2: error: fuse-vectorize-tiles: {{.*}}reduction-chunk and l2-bytes at least 0
// PASSTILE: error: fuse-tile-groups: min-tile-elements, contraction-tiles and wide-side-factor must be at least 1, {{.*}} transpose-block from 0 to 64
// ITER: error: fuse-algebraic-simplify: max-iterations must be at least 1
// PASSBLOCK: error: fuse-distribute-tiles: block-size must be in [1, 1024], not 0
// CHAIN: error: fuse-insert-chains-to-buffer: min-length must be at least 1, not -1
// NOLENGTH: min-length
// ANCHOR: error: 'fuse-{{[a-z-]+}}' runs on builtin.module, not on 'func.func'

func.func @f(%x: tensor<4x8xf32>, %w: tensor<1x8x8xf32>) -> tensor<1x4x8xf32> {
  %s = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %x, %s : (tensor<4x8xf32>, !tosa.shape<3>) -> tensor<1x4x8xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %r, %w, %z, %z : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  return %m : tensor<1x4x8xf32>
}
