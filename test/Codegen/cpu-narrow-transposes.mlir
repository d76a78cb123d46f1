// A narrow transpose: the rows of its result shorter than a 16 x 16 block
// (an NCHW image's 3 channels moved innermost, in every tile of the first
// convolution; here stride 2, so a tile of 16 outputs reads 33 columns).
// fuse-vectorize-tiles cuts the tile's transpose after its last whole 16
// columns (32 and 1) and reads each chunk as the image's 3 rows of 16
// contiguous floats (CHUNKS), where it had gathered 3 x 3 values a column.
// fuse-flatten-narrow-rows then writes a chunk whose rows lie end to end
// as one flat vector of 48, and its transpose as one shuffle (FLAT; on
// AVX-512, 6 two-source permutes; test/Codegen/flatten-narrow-rows.mlir
// has the pass alone). Values against the unfused program within fuse-diff's
// tolerance (NUM; the convolution's multiply-adds round once, the moves
// themselves are exact, and the zoo's libraries give the same bits as
// before).
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHUNKS
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-flatten-narrow-rows -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAT
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry stem -p "--fuse-ops" | FileCheck %s --check-prefix=NUM

// CHUNKS-LABEL: func.func @stem
//       CHUNKS:   scf.forall
//       CHUNKS:     scf.for %{{.*}} = %c0 to %c3 step %c1
//       CHUNKS:       scf.for %[[COL:.*]] = %c0 to %c32 step %c16
//       CHUNKS:         %[[SRC:.*]] = vector.transfer_read %arg1[%c0, %c0, %{{.*}}, %[[COL]]]{{.*}} : tensor<1x3x33x33xf32>, vector<1x3x1x16xf32>
//       CHUNKS:         %[[T:.*]] = vector.transpose %[[SRC]], [0, 2, 3, 1] : vector<1x3x1x16xf32> to vector<1x1x16x3xf32>
//       CHUNKS:         vector.transfer_write %[[T]], %{{.*}}[%c0, %{{.*}}, %[[COL]], %c0]
//       CHUNKS:     vector.transfer_read %arg1[%c0, %c0, %{{.*}}, %c32]{{.*}} : tensor<1x3x33x33xf32>, vector<1x3x3x1xf32>

// FLAT-LABEL: func.func @stem
//       FLAT:   %[[SRC:.*]] = vector.transfer_read {{.*}} : memref<1x3x33x33xf32>, vector<1x3x1x16xf32>
//       FLAT:   %[[FLAT:.*]] = vector.shape_cast %[[SRC]] : vector<1x3x1x16xf32> to vector<48xf32>
//       FLAT:   %[[T:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [0, 16, 32, 1, 17, 33, 2,
//       FLAT:   %[[VIEW:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]]
//       FLAT:   vector.transfer_write %[[T]], %[[VIEW]][{{.*}}] {in_bounds = [true]} : vector<48xf32>

// NUM: fuse-diff: OK

func.func @stem(%x: tensor<1x3x33x33xf32>) -> tensor<1x16x16x8xf32> {
  %w = "tosa.const"() <{values = dense<"0x583954BFF0A706BF355E1A3F9EEF273E3BDF4FBF4C3709BE31082CBD04562EBFC520F03E54E345BF643B5FBE022B073D04560EBE0E2D323E46B6F33E5EBA693F1B2FDDBE6210983E39B4C83EE17AD4BE643B7FBF986E723F0456CEBEC976BEBEB072483F7B142E3ED57869BD31080C3F4E6270BFCFF7D33E250681BE736851BF1D5AA43E91ED5C3F190416BFB81E853E17D9CEBED9CEF73EF853E33EC52010BFC3F5283FAE47A13E5A64BB3E0AD7233F986E12BE1D5A043FC1CA413F1F854BBF3333333F871659BE9EEF27BDF4FD34BF9643CB3EF4FDD4BEB6F33D3F54E3E5BEB6F3FD3DF2D24DBE8B6C673E5A641BBF819523BF91EDFC3E2506013F4C37093E508D573F2B8716BF46B6333FD57829BFF2D26D3F91ED7C3ED1225B3E60E5703FAAF1123FE17A143F1D5A64BFCBA185BEE17A54BF91ED1CBF986E12BF508D373FDBF93EBF3BDFCFBE426065BCAAF1323F7B146E3FF4FDD43E21B012BFEC51B83DAAF1D23E426065BFEC51B83EF0A786BEC74B373E6891AD3E560EAD3E7F6A3C3D643BDF3DBE9F1ABF0AD723BC77BE3FBF77BE1FBDBC74933DBA490C3FAC1C5ABE190476BFAE47613D3D0A17BFC74BF73E1D5A64BE6ABC74BEFCA9513FD1225BBEBE9F9ABEE3A59BBEE3A51BBDC52050BFC976BE3DD9CE573F2506013E23DBF93E2FDD643FA01A2F3F23DBF93E8941203F0AD7233F6DE7FBBEBC7413BDAE47A1BE5839F4BE986E123E355EBABE21B0723EC3F5283EFA7E4ABF1F85EBBDAE4761BEBC74D33EAAF152BFD57829BFCDCCCC3C819543BED578A93E0C02ABBED1221BBF1B2F5D3F6F1203BF6ABC34BFAE47E1BE1D5AA4BECDCC0CBF0681953D77BE5F3FEE7C3FBF7B142EBE3108AC3E2FDD443F0000803F2B8736BF9A99993D6F12433F2FDD64BF7D3F353E79E926BF4C37093F0000603F2DB29D3D5A647BBFDBF95EBF560E2DBE85EB313FF0A706BF560EAD3E378941BED7A3F0BE60E5D03E9318C4BE6F1283BE9EEF073F0AD723BC7368113F022B073D7B142EBF8B6CE7BDDBF93E3FB81E053E7B146E3FEE7C7FBFF853A3BE5EBA093FC976BE3E23DBF93D8B6CA73E9CC4403F6DE7BB3E1283C03D0000003EFA7EAA3E5839B4BE6891AD3E1F856B3E986E123F0AD723BD0E2D72BF508D973D3D0A373F295C8F3EAAF1923E643B5FBEAAF192BE8941E03E621058BFE3A53B3F9CC4403FCDCC6C3FBE9F3ABF2FDD44BF"> : tensor<8x3x3x3xf32>}> : () -> tensor<8x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<"0x5EBA493F83C04ABE0C02EBBEFCA971BEF853A33EDF4F2DBFF4FDD4BC0AD7A33E"> : tensor<8xf32>}> : () -> tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x33x33xf32>) -> tensor<1x33x33x3xf32>
  %c = tosa.conv2d %t, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x33x33x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  return %c : tensor<1x16x16x8xf32>
}

