// The architecture's invariants (docs/Architecture.md), checked on every run.

// The CPU back end and the target-neutral tiling reference nothing of NVVM or
// NVGPU: a CPU-only embedder links no GPU code. The GPU library does (the
// check can see them).
// RUN: llvm-nm -u -C %fuse_obj/lib/libFuseCodegenCPU.a %fuse_obj/lib/libFuseCodegenCommon.a %fuse_obj/lib/libFuseUtils.a %fuse_obj/lib/libFuseTransforms.a > %t.cpu-syms
// RUN: not grep -i -E "NVVM|nvgpu" %t.cpu-syms
// RUN: llvm-nm -u -C %fuse_obj/lib/libFuseCodegenGPU.a > %t.gpu-syms
// RUN: grep -q -E "NVVM|nvgpu" %t.gpu-syms

// No implementation file over 1,200 lines: one concept, one room.
// RUN: wc -l %fuse_src/lib/*/*.cpp %fuse_src/lib/*/*/*.cpp %fuse_src/lib/*/*/*/*.cpp \
// RUN:   | awk '$2 != "total" && $1 > 1200 { print "too long: " $2; bad = 1 } END { exit bad }'

// No global command-line options in the libraries: options travel in
// options structs.
// RUN: not grep -rn "cl::opt<" %fuse_src/lib

// The Python toolkit is imported, never spliced into sys.path.
// RUN: not grep -rn -E "sys\.path\.(insert|append)" %fuse_src/utils %fuse_src/bench %fuse_src/python
