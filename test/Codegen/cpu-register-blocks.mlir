// The CPU's register blocks (fuse-vectorize-tiles under --fuse-lower-to-cpu):
//  * a matmul tile's B (a slice of a wider weight, rows not contiguous) is
//    copied into a contiguous tile before the blocks read it (PACK; not with
//    pack=false, NOPACK), and each reduction step is one fused multiply-add
//    (the pipeline's default fma=true);
//  * a depthwise convolution's blocks are pixels by channels, reading one
//    row of channels of the filter per step (a vector load, broadcast) with
//    the accumulators loop-carried, and its bias and ReLU applied to each
//    block's accumulators before its store (DW);
//  * a padded window's copy into its tile is a loop nest, not a call to the
//    runtime's element-by-element memrefCopy (COPY);
//  * rows with no divisor up to block-rows (the 7 pixels of a 7x7 output
//    row) are blocked 7 at a time by one vector of columns instead of one
//    row by two (SEVEN);
//  * columns are whole vectors where the range has such a divisor: 88
//    filters (8 x 11) in blocks of 8, not 11, a vector and a remainder per
//    multiply-add, the rows then 7 by one vector as above (WHOLE);
//  * columns with no such divisor are split into whole vectors and powers
//    of two below one vector: 20 filters as 16 + 4, 12 depthwise channels
//    as 8 + 4, never a vector of 20 or 12 lanes (SPLIT);
//  * a single row (a matrix-vector product) spends the accumulators of
//    block-rows rows on columns, in a power of two of vectors: a tile of
//    100 columns as blocks of 64, 32 and 4, not 6 of 16 and one of 4 (GEMV);
//  * a reduction longer than reduction-chunk runs in chunks outside the
//    blocks, each block's pass reading a panel of B that stays in L1, the
//    last chunk peeled so that its blocks take the epilogue (256 steps as 2
//    x 128, checked with PACK);
//  * a convolution's filter that is a slice of a constant is a constant
//    (SLICE).
// Values: against the unfused program (NUM), and bit for bit without fused
// multiply-adds (EXACT).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu="block-cols=16 block-rows=4 reduction-chunk=128" -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefixes=PACK,DW,SEVEN,WHOLE,SPLIT,GEMV,EPI,SLICE
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu="block-cols=16 block-rows=4 reduction-chunk=128 pack=false" -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPACK
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu | FileCheck %s --check-prefix=COPY
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul,depthwise,seven,whole,split,gemv,epilogue,two_convs -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul,depthwise,seven,whole,split,gemv,epilogue,two_convs -p "--fuse-ops" --lower="--fuse-lower-to-cpu='fma=false reassociate=false approximate-math=false'" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT
// NUM: fuse-diff: OK 10 outputs
// EXACT: fuse-diff: OK 10 outputs, {{[0-9]+}} values, max abs err 0, max rel err 0

// PACK-LABEL: func.func @matmul
//       PACK:   scf.forall
//       PACK:     %[[PACKED:.*]] = scf.for {{.*}} -> (tensor<1x256x64xf32>)
//       PACK:       vector.transfer_read %{{.*}} : tensor<1x256x512xf32>, vector<1x1x32xf32>
//       PACK:       vector.transfer_write %{{.*}} : vector<1x1x32xf32>, tensor<1x256x64xf32>
// The first chunk of 128 steps (its loop of one iteration folded), then the
// last, peeled, whose blocks take the clamp before their store:
//       PACK:     %[[FIRST:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c4
//       PACK:       scf.for %{{.*}} = %c0 to %c64 step %c16
//       PACK:         scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       PACK:           vector.transfer_read %[[PACKED]]{{.*}} : tensor<1x256x64xf32>, vector<16xf32>
//       PACK:           math.fma %{{.*}}, %{{.*}}, %[[ACC]] : vector<4x16xf32>
//   PACK-NOT:         arith.minimumf
//       PACK:     scf.for %{{.*}} = %c0 to %c64 step %c4
//       PACK:       scf.for %{{.*}} = %c0 to %c64 step %c16
//       PACK:         vector.transfer_read %[[FIRST]]
//       PACK:         scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%[[ACC2:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       PACK:           math.fma %{{.*}}, %{{.*}}, %[[ACC2]] : vector<4x16xf32>
//       PACK:         arith.minimumf
//       PACK:         vector.transfer_write
// NOPACK-LABEL: func.func @matmul
//   NOPACK-NOT:   tensor<1x256x64xf32>
//       NOPACK:   vector.transfer_read %{{.*}} : tensor<1x256x512xf32>, vector<16xf32>
//       NOPACK:   math.fma
func.func @matmul(%a: tensor<1x128x256xf32>, %b: tensor<1x256x512xf32>) -> tensor<1x128x512xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x128x256xf32>, tensor<1x256x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x128x512xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x128x512xf32>) -> tensor<1x128x512xf32>
  return %r : tensor<1x128x512xf32>
}

// -----

// DW-LABEL: func.func @depthwise
//       DW:   scf.forall
//       DW:     scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
//       DW:       scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       DW:         %[[IN:.*]] = vector.transfer_read %{{.*}} : tensor<1x6x18x48xf32>, vector<4x16xf32>
//       DW:         %[[W:.*]] = vector.transfer_read %{{.*}} : tensor<3x3x48xf32>, vector<16xf32>
//       DW:         %[[WB:.*]] = vector.broadcast %[[W]] : vector<16xf32> to vector<4x16xf32>
//       DW:         math.fma %[[IN]], %[[WB]], %[[ACC]] : vector<4x16xf32>
// The bias and ReLU on the block's accumulators, not in a nest of their own:
//   DW-NOT:     scf.for
//       DW:     arith.addf
//   DW-NOT:     scf.for
//       DW:     arith.maximumf %{{.*}} : vector<
//   DW-NOT:     linalg.generic
//       DW:   fuse.yield
// COPY-LABEL: llvm.func @depthwise
//   COPY-NOT:   memrefCopy
//       COPY:   llvm.return
func.func @depthwise(%x: tensor<1x16x16x48xf32>, %w: tensor<3x3x48x1xf32>, %b: tensor<48xf32>) -> tensor<1x16x16x48xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x48xf32>, tensor<3x3x48x1xf32>, tensor<48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x48xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x48xf32>) -> tensor<1x16x16x48xf32>
  return %r : tensor<1x16x16x48xf32>
}

// -----

// SEVEN-LABEL: func.func @seven
//       SEVEN:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<7x8xf32>
//   SEVEN-NOT:   vector<1x16xf32>
//       SEVEN:   fuse.yield
func.func @seven(%x: tensor<1x7x7x16xf32>, %w: tensor<32x3x3x16xf32>, %b: tensor<32xf32>) -> tensor<1x7x7x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x32xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

// WHOLE-LABEL: func.func @whole
//       WHOLE:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<7x8xf32>
//   WHOLE-NOT:   vector<1x11xf32>
//       WHOLE:   fuse.yield
func.func @whole(%x: tensor<1x7x7x16xf32>, %w: tensor<88x3x3x16xf32>, %b: tensor<88xf32>) -> tensor<1x7x7x88xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x16xf32>, tensor<88x3x3x16xf32>, tensor<88xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x88xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x88xf32>) -> tensor<1x7x7x88xf32>
  return %r : tensor<1x7x7x88xf32>
}

// -----

// SPLIT-LABEL: func.func @split
//   SPLIT-NOT:   math.fma {{.*}} : vector<{{[0-9]+}}x{{20|12}}xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x16xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<{{[0-9]+}}x4xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x8xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<{{[0-9]+}}x4xf32>
//   SPLIT-NOT:   math.fma {{.*}} : vector<{{[0-9]+}}x{{20|12}}xf32>
//       SPLIT:   fuse.yield
func.func @split(%x: tensor<1x8x8x16xf32>, %w: tensor<20x1x1x16xf32>, %b: tensor<20xf32>, %y: tensor<1x8x8x12xf32>, %dw: tensor<3x3x12x1xf32>, %db: tensor<12xf32>) -> (tensor<1x8x8x20xf32>, tensor<1x8x8x12xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<20x1x1x16xf32>, tensor<20xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x20xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x20xf32>) -> tensor<1x8x8x20xf32>
  %d = tosa.depthwise_conv2d %y, %dw, %db, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x12xf32>, tensor<3x3x12x1xf32>, tensor<12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x12xf32>
  return %r, %d : tensor<1x8x8x20xf32>, tensor<1x8x8x12xf32>
}

// -----

// GEMV-LABEL: func.func @gemv
//   GEMV-NOT:   math.fma {{.*}} : vector<16xf32>
//       GEMV:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<64xf32>
//       GEMV:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<32xf32>
//       GEMV:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
//   GEMV-NOT:   math.fma {{.*}} : vector<16xf32>
//       GEMV:   fuse.yield
func.func @gemv(%a: tensor<1x1x64xf32>, %b: tensor<1x64x200xf32>) -> tensor<1x1x200xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x200xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x200xf32>
  return %p : tensor<1x1x200xf32>
}

// -----

// A 1x1 convolution's bias, residual add and ReLU on its register blocks:
// each block's accumulators start from the bias, and after the reduction
// the residual add and the clamp apply to them before the block's one
// store; no pass over the tile before or after the blocks (EPI).
// EPI-LABEL: func.func @epilogue
//       EPI:   scf.forall
//       EPI:     scf.for %{{.*}} = %c0 to %c8 step %c4
//   EPI-NEXT:       scf.for %{{.*}} = %c0 to %c32 step %c16
//       EPI:         %[[BIAS:.*]] = vector.transfer_read %{{.*}} : tensor<32xf32>, vector<16xf32>
//       EPI:         %[[ROWS:.*]] = vector.broadcast %[[BIAS]] : vector<16xf32> to vector<1x1x4x16xf32>
//       EPI:         %[[INIT:.*]] = vector.shape_cast %[[ROWS]] : vector<1x1x4x16xf32> to vector<4x16xf32>
//       EPI:         %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c24 step %c1 iter_args(%{{.*}} = %[[INIT]]) -> (vector<4x16xf32>)
//       EPI:           math.fma
//       EPI:         %[[BLOCK:.*]] = vector.broadcast %[[SUM]] : vector<4x16xf32> to vector<1x1x4x16xf32>
//       EPI:         %[[RES:.*]] = vector.transfer_read %{{.*}} : tensor<1x8x8x32xf32>, vector<1x1x4x16xf32>
//       EPI:         %[[ADD:.*]] = arith.addf %[[BLOCK]], %[[RES]] : vector<1x1x4x16xf32>
//       EPI:         %[[MIN:.*]] = arith.minimumf %[[ADD]]
//       EPI:         %[[MAX:.*]] = arith.maximumf %[[MIN]]
//       EPI:         vector.transfer_write %[[MAX]], %{{.*}} {in_bounds = [true, true, true, true]}
//  EPI-NEXT:         scf.yield
//  EPI-NEXT:       }
//  EPI-NEXT:       scf.yield
//  EPI-NEXT:     }
//  EPI-NEXT:     scf.forall.in_parallel
func.func @epilogue(%x: tensor<1x8x8x24xf32>, %w: tensor<32x1x1x24xf32>, %b: tensor<32xf32>, %res: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x24xf32>, tensor<32x1x1x24xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
  %s = tosa.add %c, %res : (tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

// -----

// Two 1x1 convolutions of one input, merged side by side and split again
// by the slices of their results: each filter is a slice of the merged
// constant, folded to a constant of its own and so laid out at compile
// time, never transposed tile by tile (SLICE).
// SLICE-LABEL: func.func @two_convs
//       SLICE:   scf.forall
//   SLICE-NOT:   vector.transpose
//       SLICE:   fuse.yield
func.func @two_convs(%x: tensor<1x8x8x16xf32>) -> (tensor<1x8x8x32xf32>, tensor<1x8x8x16xf32>) {
  %w1 = "tosa.const"() <{values = dense<"0x218D0D3D7444A83DD758073D7C7105BEB96AB93DC4D5363DA1EF5BBDA6066E3D3054153D0EF4F03C9C443A3B03EF5F3D67D396BDB17485BCE07945BD9449753D5229823BA094EFBC8622A0BD1FB1D2BC4071553A1EC6E1BC1B83043E592DCE3DC0CF8ABE596F41BE5D2C8FBCE0ED2CBD2F04AF3CB607B23CDFDD583EEABDE3BDC1AA1ABD082E513EDD71843D9ECB873D798952BD4DC328BEE72F893CD39B323C985CFBBDC1EC8BBD9E12ECBB327CC1BD690121BC7C701C3CCC37693B87604FBDFF32733DD082B63D626B033DD492A7BDA7D7953DCC634DBD560DB43D8780DBBD6B48BB3DE47C03BB68BEFFBDBF9200BD4848B13B7E78DF3CF226C9BD3DCAE2BDE97FA33C3F2E3FBD1BEDC03CB28C9B3DF9D528BE0E65D03CC5CEFA3DE7BBF3BC090EA6BD3E0F9A3D969FCF3C137AB73D7E660DBDFABC17BEDC3D34BC789C36BD4CC99E3DC09F9E3CBCFF26BEF7C4F4BD0000B53D44378B3D311F83BDD6F2DBB8C681363DC1DB3F3D5474B33DEF1CD23CE35D1BBC600CD4BC5437D83DCB7C66BE422C63BCFD44583BABF411BE0952083DE26185BDF2A0B03D23C54DBCE70A893D829EF93D14D91C3D0259B3BDF4101BBEEA8B333E545736BCA2048DBDCF596C3CDECD9CBCCC84AE3D0B5A5E3BF237B43A8F5892BDC955403D64BCD3BDC95F883D1C0D1C3EBB201CBEB88A7CBE6DAC7C3DCE73823E4AFDCCBD3D1200BEDE3D713D062EACBD9E444FBDC3960EBD76E8593D080326BD41A4E33CB59D90BC18FDACBD370003BD50A4C2BD54C92A3AF52AE6BD24D3DFBD6131153E2846AEBB4CA0B0BB7B86513D0E622CBD5737BBBC13242E3DE55AE73C896CEDBD27ABAA3D97D771BDF448D8BDD46AB8BDA6F71FBDB3A2263EF0BFF0BD5922833CC8E95ABE0B4E24B9303BB83DE5DFC1BC53E480BD64A7BD3C1E648F3DC5EA873D38FB493E9959AB3CB4A672BD81674EBC3090EDBBC427323C50CA44BB4D838E3C55182BBE73E8A93DC8696BBD4D43F0BD879C823DE9E4063EC0F1493D8F05843C31EBBEBD3506933EE746B43DDA53E9BD7BAB9FBDBE810E3C58341FBE5C248A3C24093CBDE523FB3D9D0CC53D5CD18ABEAAA6883BF1A025BEFD40E33D5BB6893C7BA0603D3623DABD343B3B3E03DB4E3EAB10DABD80B4183D70E489BDCB771ABBEA9901BE19323F3EEB7CC6BD478DF2BC4C684D3DD49E84BD740BC4BCECDD66BD7FA95ABC25BAEFBD616633BD977CA9BCB5B108BDFBC2B93BFE1BF0BCF8419A3D8D6104BDFFE25FBCB02588BD15A957BDEB7B01BE8B7E543DD9FCE9BD5BC098BD8825133DE1E4243D13E323BDD7C54EBE043E2C3D67A2D43CBAA010BE10C39D3DD2958FBDB1A4E6BD5FD81C3CF63392BC55FDA53CB96D24BE8692393E56D976BD3FA91DBE4F7A7D3DE95311BDE20F053D861A0BBDD9C1C3BB4D56C93C1DEA98BD81018B3D997840BDA71CB2BD7B6BFC3BF649363D6CA9BBBCE1A4B0BD3ADD7D3DF74134BEF81ED3BD3482813B5B5F0BBE9576373B85C6B3BBD90FB83D5C59BBBD872F80BDA278083D8EA77BBEE0B89E3E6B158FBD607895BDE25BB03D5F8582BBA73636BE0D65803D6F2EAF3D494C38BDE0AFE6BC2E0F473D421EBABD5F90333DED43A33CE8398ABD1E8D0EBEF9D0B8BC5749B3BDBD16CD3DC9116C3CC12BA03D88905C3C5C5ED73CB25BA0BDEDD0883DCBC0363E30B2FDBCEACC72BDC14C81BCE52145BDB8A98FBD9E6A623CD451EEBC3557133E7F26A937A2AC043D5DF9C23D1361F6BC301F133E669381BDA78BA5BDE10516BDF6F33BBCB77E0FBE47FF65BB29C02ABE138E0E3E95B404BC137983BD1407BABD75761DBD28BFB6BC75EAD5BDC15FBCBD725599BC225055BDD159C03D2E09E93D3DFED13A84FC413D29B908BE0C8B823D8C6E48BB2885463D60E0233E518F69BECDC4D53C7E19E1BD5390723DB97B06BE69EA4ABD5A14A63C1F4B7B3DD415F53B2D5FA2BD0FBA62BD6D25B53D4C2B10BA2F6C2CBE39C8AC3DD17E2A3D21E0B23DF3E109BD419BA93D5C4ED9BDD078693D1ADC48BD731B8A3DB7F4CD3D15BB96BD67DEA7BB054B7F3BB3A4F33DB585913D42B5F9BDB46F3B3D2298983D4C7A593EE3F12BBE9DB05BBD8789083E5BC20ABE47A6F5BDFFCB533DF291D03D1EF288BD703C5D3D989E3F3C18851B3E4E381FB97ACDCA3D63F5B8BDE87397BCCA701EBC104AE93DD5686D3D84F599BDC0AA8B3D46D39D3D9CEB36BCB413D3BC7DC39EBC35912DBE479E9A3C8F2AC03C9F42B1BD910D983D81970CBEC50562BD55A642BD61854B3EA7C123BE0F74663D65F2C03D65B71A3DC608F23D555CCDBD9C7F69BE570B9D3DD6E7F4BD82B105BD7B6DF1BD0585D73DCA2EB13D137893BDFE08B93D5FB3463CEA5F64BC9624BC3B9F17A6BCFAE77B3D9A3CFE3C49240FBDC814CE3DDE757ABD590EEB3C33EA2C3D0A6E173E5E074FBDDC7D323E7850903CE8E79EBCF0B889BD5225703DDC59A03BE904E2BDC5FDE6BD698A63BD2F728ABD3F4BDF3DE9DA0C3E8AE1B13D4695123D08682FBDD487B23B2030B53D29365A3E36F6BA3DB0B6E5BC7E33793B80A645BD383CA0BD59EE96BC603FA03C0FFF3B3E0080AA3B54FE0A3EAAFD343E6B1E013C7CA3243E356B923DC0052BBD483CD93C9CEE153B0755BEBC72D7A2BCC4456C3C31D7313D4B39B5BD891776BAA0E31BBEC8A4D53C256D7F3DD24F863CC02BEA3C05A4713D703688BD2ED4C3BC0F46513DAB2FCD3D83C2213DD7B4823E67AF15BCFFBACC3D82B6013E242B5BBC810AA8BD7432F2BDF4EF843C4663E33DFE8CDE3C8C9A8D3C75531BBD3BCC653D88B55ABE345CBE3C1E54383BA6520CBEFFC75E3E35120EBE1BADDCBDD0EFF5BD4067E33D39E1B5BDDAF0883DE8A4703DD5B8D43C66E505BE01B87ABD"> : tensor<32x1x1x16xf32>}> : () -> tensor<32x1x1x16xf32>
  %b1 = "tosa.const"() <{values = dense<"0xB4532B3E5A2C04BEAC52AABD90E984BC61AEA53D9024CE3C7CF8973DF594DABD817DC13DFF12693D8E4823BEFBAF1D3ED6BD6A3E97679DBDF75CB63B98180F3ED3AD17BEFFC24BBE9DCE04BE434568BD10EE6CBDF8C4783D29FCDB3C5632FFBD1A66683DEBE73F3E1F28F53D93FACA3DF23C043B9D72C93D2FDDC5BDCCCE993D"> : tensor<32xf32>}> : () -> tensor<32xf32>
  %w2 = "tosa.const"() <{values = dense<"0xA4F20EBC079CE73DBFE03E3D1735DFBD23B4513CE47DF93D6144E7BD110665BD9A6C9DBD762719BE24DEC43D023F063E4ED9A33DAFB6C63C177FAABBB019C43C99D295BD410FB73DE81DD63D23FCBE3DF57959BD2A75003CC2CE87BC6A26373E0635933C5CB940BE593A233D7BBE403EF1528C3D111EB43DC4546C3BCBDE49BED25E39BE8C2BFFBD36CD4FBC66F3FD3C28318D3D9D730BBDA7FAC33D912BE5BC8A4790BD8E6AAE3D4147BBBDA9BA8BBE4314D9BD60451A3C82B49DBEA34812BD330608BDB01112BEF0CE17BEA66C3DBD9C1760BD0204013E3D8B193D2DE121BE5A08AFBDB969903DE525423E694F1E3D2589FE3C828A3E3E5F9414BB2B37FDBC78B710BEA32152BDA6195F3E199611BE23B1923A753610BEA27E523C47CAB53DF798C7BC3B93953DFAA0933DF319373D69BE2F3E85819F3DA8D2F9BCC36E8BBD661EADBD51EA423DB19804BDBDBB8B3EA9AA3C3EF2BCAFBCEACF06BDF7122D3E26DB40BE8FF438BD0CB7C23D2ECCBABD3F4F43BDD2D30FBD6655873DF552613CECB1243D06D4733D0334443BA771E33D704A95BD100F13BEA1F335BECCFD25BEC27D61BD1FF4D23D6BAD8E3C292A75BD3F1BDBBDAEA158BD7D5725BDF77667BD4AB112BE11E442BD3A4FD03D12AE5EBE4C1BC5BCE03959BEDEF3953CF91599BD0D9355BE8FFD243C311A3A3E6B68323C55EFED3D3D4EEABBF3EF5CBEECE6483DC4532BBDAEB715BE0CBCA03D64FEEA3C323557BDD7C7B13DB099B2BD63C6833D379BC0BD37B55A3DE56EE1BD2D7E183E2654D03CF6B9123EDB6FA8BDF40243BD9EF6AB3D737A8CBE907ADABD3A98D33D3F823E3DB473C83D91C1FDBC9F03673D4AAD95BD1E7D0CBE098C2DBEF1FA61BDAED860BD80E580BDE6B2B5BE32A84CBE912A5ABDC01FEB3CCE126DBDAB96B3BD3E636CBE62004F3EF181E1BD3C612C3E72D01F3E1767E03C738A6ABD379F583C9B24ECBD1297D53C0FC79A39EAE4593D43A6C23D5271313EDE0D1FBD9AAFD53D4922A2BDF734B7BDEA277DBD481BC9BD15C2C83D6D14BD3DE448023EE9CE25BBFEC5E03C78EC6CBD84B7EBBD4019373DECD9DB3C61B7E2BD8FC06F3D565A32BEB4A292BC991681BDA2CA58BD64E4DDBD1F12C33DF9CF673D4E5DF23D8ECE553CB3EB04BE313D1BBDD905F4BDDE01373DB77EF53D7B78013D79E37ABDC3021DBD43049C3C658A15BE3B885C3C4B52963CB97965BDE5C731BD1F0F7C3C7AAEABBD7520ACBD5CA49B3DEE99A63CDFD8293E146FCEBD3D6B38BE792ABC3D1250BF3D5B189CBD5ADE18BEDB8DECBBB90E36BEBF2017BDBD6562BE4D80DBBC5B4C5CBEC03BDCBC9203183E5C54F6BCAD93963D52AA8ABD4027BEBD29311DBED445CD3D3FE41EBC8607223E9FD1F9BDE829D9BC5B276D3BCD190C3E47F5353EB2408EBDDFB8F1BD70AA36BE1BF7033E1DD05EBC"> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %b2 = "tosa.const"() <{values = dense<"0xE1D78EBD063326BC7C9385BE5EED35BEB100B53D6EEA0C3D85B1203C8ACBD7BDFF465B3D93BB303ED2CA02BE1B1B7ABBC6F547BDE1FEFB3C443081BB0E59A4BC"> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
  %c = tosa.conv2d %x, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %a, %r : tensor<1x8x8x32xf32>, tensor<1x8x8x16xf32>
}
