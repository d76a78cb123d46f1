// S1: an input module that names a report file writes nothing. The report
// is owned by the pipeline (FusionReport.h), the dialect knows no
// `fuse.report_*` attribute, so such a module is refused at parsing, with
// or without a report option, and a JSON of any shape there crashes nothing.
// RUN: rm -f %t.pwned.json
// RUN: sed -e 's|@PATH@|%t.pwned.json|' %s | not fuse-opt --fuse-ops -o /dev/null 2>&1 | FileCheck %s
// RUN: sed -e 's|@PATH@|%t.pwned.json|' %s | not fuse-opt --fuse-ops=report=%t.report.json -o /dev/null 2>&1 | FileCheck %s
// RUN: not test -e %t.pwned.json
// RUN: not test -e %t.report.json
// CHECK: error: 'builtin.module' op unknown fuse dialect attribute 'fuse.report_

module attributes {fuse.report_pending = "[1, 2, 3]", fuse.report_path = "@PATH@"} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
