// A row softmax of 16 values: one group of one tile (a row is never cut).
// Its tile loop has one iteration, which canonicalization would fold
// away, leaving the group's ops outside any nest (host loops on the GPU
// path): fuse-tile-groups marks it so that it stays, one block.
func.func @model(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %e = tosa.exp %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<1x16xf32>) -> tensor<1x1xf32>
  %r = tosa.reciprocal %s : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %o = tosa.mul %e, %r, %sh : (tensor<1x16xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x16xf32>
  return %o : tensor<1x16xf32>
}
