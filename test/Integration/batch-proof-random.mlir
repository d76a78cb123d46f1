// REQUIRES: libomp
// --fuse-prove-batch-separable against random graphs
// (utils/fuse-random-test --batch-proof): of the graphs whose first
// argument has a batch, each the proof accepts is compiled into a model
// library and run with its samples reversed and with one sample changed;
// its results must follow (reversed alike, the other samples unchanged).
// A proof that accepted a graph mixing samples fails here (checked: with
// every tensor taken as uniform along the batch, 4 of 200 graphs fail).
// RUN: %python %fuse_src/utils/fuse-random-test --batch-proof --start 0 --count 400 --jobs 2 --fuse-opt %fuse_opt | FileCheck %s
// CHECK: batch proof on random graphs: {{[0-9]+}} with a batch, {{[1-9][0-9]*}} accepted and checked, {{[0-9]+}} refused, 0 failed
