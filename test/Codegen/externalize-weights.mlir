// --fuse-externalize-weights on a lowered module: which constants leave it,
// what replaces them, and the bytes in the file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuse-opt %s --fuse-externalize-weights="file=%t/w.bin min-bytes=16" | FileCheck %s --check-prefix=LOAD
// RUN: wc -c < %t/w.bin | FileCheck %s --check-prefix=SIZE
// RUN: od -A d -t f4 -j 2112 -N 32 -v %t/w.bin | FileCheck %s --check-prefix=BYTES
// RUN: fuse-opt %s --fuse-externalize-weights="file=%t/l.bin min-bytes=16 link=true" | FileCheck %s --check-prefix=LINK
// RUN: cmp %t/w.bin %t/l.bin
// RUN: not fuse-opt %s --fuse-externalize-weights 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: fuse-opt %s --fuse-externalize-weights="file=%t/w.bin" | not fuse-opt --fuse-externalize-weights="file=%t/w2.bin" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not fuse-opt %s --fuse-externalize-weights="file=%t/none/w.bin" 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: fuse-opt %s --fuse-externalize-weights="file=%t/l.bin link=true" | not fuse-opt --fuse-externalize-weights="file=%t/l2.bin link=true" 2>&1 | FileCheck %s --check-prefix=TWICE-LINK

module {
  // 2048 bytes, a splat: moved (written out element by element).
  llvm.mlir.global private constant @big(dense<1.5> : tensor<512xf32>) {alignment = 64 : i64} : !llvm.array<512 x f32>
  // 32 bytes: moved at offset 2048; aligned to 128 in link mode, as the
  // global asks.
  llvm.mlir.global private constant @eight(dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>) {alignment = 128 : i64} : !llvm.array<8 x f32>
  // Under min-bytes, not constant, and bits (i1 is packed in the
  // attribute, one byte per element in memory): all stay.
  llvm.mlir.global private constant @small(dense<2.0> : tensor<2xf32>) : !llvm.array<2 x f32>
  llvm.mlir.global private @mutable(dense<0.0> : tensor<512xf32>) : !llvm.array<512 x f32>
  llvm.mlir.global private constant @bits(dense<true> : tensor<1024xi1>) : !llvm.array<1024 x i1>
  llvm.func @use() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @big : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}

// The moved globals become writable zeros the runtime fills; the table
// lists them with their offsets and sizes.
// LOAD-LABEL: module
// LOAD: llvm.mlir.global private @big(dense<0.000000e+00> : tensor<512xf32>)
// LOAD: llvm.mlir.global private @eight(dense<0.000000e+00> : tensor<8xf32>)
// LOAD: llvm.mlir.global private constant @small(dense<2.000000e+00>
// LOAD: llvm.mlir.global private @mutable(
// LOAD: llvm.mlir.global private constant @bits(dense<true>
// LOAD: llvm.mlir.global external hidden constant @__fuse_weights_header()
// (magic "FUSEWTS1", count, data bytes, digest)
// LOAD: llvm.mlir.constant(3554277264727430470 : i64)
// LOAD-NEXT: llvm.insertvalue
// LOAD-NEXT: llvm.mlir.constant(2 : i64)
// LOAD-NEXT: llvm.insertvalue
// LOAD-NEXT: llvm.mlir.constant(2080 : i64)
// LOAD: llvm.mlir.global external hidden constant @__fuse_weights() {{.*}} : !llvm.array<2 x struct<(ptr, i64, i64)>>
// LOAD: %[[BIG:.*]] = llvm.mlir.addressof @big
// LOAD-NEXT: %[[OFF0:.*]] = llvm.mlir.constant(0 : i64)
// LOAD-NEXT: %[[LEN0:.*]] = llvm.mlir.constant(2048 : i64)
// LOAD-NEXT: llvm.insertvalue %[[BIG]], %{{.*}}[0, 0]
// LOAD-NEXT: llvm.insertvalue %[[OFF0]], %{{.*}}[0, 1]
// LOAD-NEXT: llvm.insertvalue %[[LEN0]], %{{.*}}[0, 2]
// LOAD-NEXT: %[[EIGHT:.*]] = llvm.mlir.addressof @eight
// LOAD-NEXT: %[[OFF1:.*]] = llvm.mlir.constant(2048 : i64)
// LOAD-NEXT: %[[LEN1:.*]] = llvm.mlir.constant(32 : i64)
// LOAD-NEXT: llvm.insertvalue %[[EIGHT]], %{{.*}}[1, 0]
// LOAD-NEXT: llvm.insertvalue %[[OFF1]], %{{.*}}[1, 1]
// LOAD-NEXT: llvm.insertvalue %[[LEN1]], %{{.*}}[1, 2]

// 64-byte header, 2048 + 32 bytes of data.
// SIZE: 2144
// BYTES: 1 2 3 4
// BYTES-NEXT: 5 6 7 8

// With link: declarations, defined by the module's assembly from the file
// (offsets past the header); no table.
// LINK: module attributes {llvm.module_asm = [".section .rodata.big,\22a\22,@progbits", ".p2align 6", ".globl big", ".hidden big", ".type big,@object", ".size big, 2048", "big:", ".incbin \22{{.*}}l.bin\22, 64, 2048", ".section .rodata.eight,\22a\22,@progbits", ".p2align 7", {{.*}} ".incbin \22{{.*}}l.bin\22, 2112, 32", ".text"]}
// LINK: llvm.mlir.global external hidden constant @big() {{.*}} : !llvm.array<512 x f32>
// LINK: llvm.mlir.global external hidden constant @eight()
// LINK: llvm.mlir.global private constant @small(dense<2.000000e+00>
// LINK-NOT: __fuse_weights

// NOFILE: error: --fuse-externalize-weights needs file=PATH
// TWICE: error: the module already has @__fuse_weights_header (externalized twice?)
// UNWRITABLE: error: cannot write the weights file: {{.*}}
// TWICE-LINK: error: the module's assembly already includes a weights file (externalized twice?)
