// Few long rows: each block reduces two or more rows, every row split
// across the block's threads and combined with gpu.all_reduce (a sum and
// a max), whose lowering reuses one shared buffer from row to row.
func.func @rows(%x: tensor<4x8192xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>) {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x8192xf32>) -> tensor<4x1xf32>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x8192xf32>) -> tensor<4x1xf32>
  return %s, %m : tensor<4x1xf32>, tensor<4x1xf32>
}
