// The checked-in catalogue must be what the rule declarations generate
// (regenerate with `ninja -C build fuse-rules-doc`), and the catalogue must
// hold at least DNNFusion's 45 associative, 38 distributive and 66
// commutative rules.
//
// RUN: fuse-opt --fuse-print-algebraic-rules %s -o /dev/null > %t.md
// RUN: diff -u %S/../../../docs/AlgebraicRules.md %t.md
// RUN: FileCheck %s < %t.md
// RUN: grep -c '^| associative |' %t.md | FileCheck %s --check-prefix=ASSOC
// RUN: grep -c '^| distributive |' %t.md | FileCheck %s --check-prefix=DISTR
// RUN: grep -c '^| commutative |' %t.md | FileCheck %s --check-prefix=COMM
//
// CHECK: Rules: 205 (associative 56, distributive 55, commutative 94).
// CHECK: | family | rule | pattern | exactness | cost before → after | test |
// CHECK: | distributive | `factor_mul_over_add` | `a * b + a * c` → `a * (b + c)` | reassociates (rounding) |
// ASSOC: {{^(4[5-9]|[5-9][0-9])$}}
// DISTR: {{^(3[8-9]|[4-9][0-9])$}}
// COMM: {{^(6[6-9]|[7-9][0-9])$}}
module {}
