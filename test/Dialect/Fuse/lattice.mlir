// RUN: fuse-opt %s --fuse-test-print-lattice -o /dev/null | FileCheck %s
//
// All 25 cells of the DNNFusion fusion lattice (Table 3): profitability class
// and, where fusion is allowed, the mapping type of the fused op.

// One-to-One fuses with anything and takes the other type.
// CHECK: one_to_one -> one_to_one: always one_to_one
// CHECK: one_to_one -> shuffle: always shuffle
// CHECK: one_to_one -> reorganize: always reorganize
// CHECK: one_to_one -> one_to_many: always one_to_many
// CHECK: one_to_one -> many_to_many: always many_to_many
// Index remappings compose; expanding or reducing consumers need a cost model.
// CHECK: shuffle -> one_to_one: always shuffle
// CHECK: shuffle -> shuffle: always shuffle
// CHECK: shuffle -> reorganize: always reorganize
// CHECK: shuffle -> one_to_many: maybe one_to_many
// CHECK: shuffle -> many_to_many: maybe many_to_many
// CHECK: reorganize -> one_to_one: always reorganize
// CHECK: reorganize -> shuffle: always reorganize
// CHECK: reorganize -> reorganize: always reorganize
// CHECK: reorganize -> one_to_many: maybe one_to_many
// CHECK: reorganize -> many_to_many: maybe many_to_many
// One-to-Many feeding Many-to-Many never fuses.
// CHECK: one_to_many -> one_to_one: always one_to_many
// CHECK: one_to_many -> shuffle: maybe one_to_many
// CHECK: one_to_many -> reorganize: maybe one_to_many
// CHECK: one_to_many -> one_to_many: maybe one_to_many
// CHECK: one_to_many -> many_to_many: never{{$}}
// Many-to-Many feeding Many-to-Many never fuses.
// CHECK: many_to_many -> one_to_one: always many_to_many
// CHECK: many_to_many -> shuffle: maybe many_to_many
// CHECK: many_to_many -> reorganize: maybe many_to_many
// CHECK: many_to_many -> one_to_many: maybe many_to_many
// CHECK: many_to_many -> many_to_many: never{{$}}
module {}
