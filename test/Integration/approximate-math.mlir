// RUN: fuse-opt %s --fuse-lower-to-cpu | %run-cpu | FileCheck %s
// RUN: fuse-opt %s --fuse-lower-to-cpu=approximate-math=false | %run-cpu | FileCheck %s --check-prefix=LIBM

// The error of fuse-approximate-math's polynomial approximations against
// glibc's libm, in units in the last place: the largest distance over every
// 65521st f32 bit pattern (all signs and exponents, NaN included) and a list
// of special values (zeros, infinities, NaN, the overflow and underflow
// thresholds, tiny and huge arguments). Results that libm returns as
// subnormals are not counted: exp flushes them to zero (an absolute error
// below 2^-126). The bounds are those of all 2^32 bit patterns (step 1, a
// six-minute run): exp and expm1 6 ulp, erf and tanh 5, log1p 2. The
// sigmoid 1 / (1 + exp(-x)) is rewritten as a whole (no division): at most
// 4 ulp from the same expression with libm's exp and a true division. Without the
// approximations (LIBM) exp, erf and tanh are libm's own: distance 0.
// expm1 and log1p are not: upstream convert-math-to-llvm expands them as
// exp(x) - 1 and log(1 + x), which loses all precision near 0 (billions of
// ulps on tiny arguments); their approximations keep it.
// CHECK: exp {{[0-6]$}}
// CHECK: expm1 {{[0-6]$}}
// CHECK: log1p {{[0-2]$}}
// CHECK: erf {{[0-5]$}}
// CHECK: tanh {{[0-5]$}}
// CHECK: sigmoid {{[0-4]$}}
// LIBM: exp 0
// LIBM: erf 0
// LIBM: tanh 0
// LIBM: sigmoid 0

// Distance between two f32 values on a line that orders all floats (+0 and
// -0 meet); 0 when both are NaN, 2^40 when only one is.
func.func @ulps(%a: f32, %b: f32) -> i64 {
  %c0 = arith.constant 0 : i64
  %big = arith.constant 1099511627776 : i64
  %mag = arith.constant 2147483647 : i64
  %an = arith.cmpf uno, %a, %a : f32
  %bn = arith.cmpf uno, %b, %b : f32
  %ia = arith.bitcast %a : f32 to i32
  %ib = arith.bitcast %b : f32 to i32
  %la = arith.extsi %ia : i32 to i64
  %lb = arith.extsi %ib : i32 to i64
  %ma = arith.andi %la, %mag : i64
  %mb = arith.andi %lb, %mag : i64
  %na = arith.subi %c0, %ma : i64
  %nb = arith.subi %c0, %mb : i64
  %sa = arith.cmpi slt, %la, %c0 : i64
  %sb = arith.cmpi slt, %lb, %c0 : i64
  %ka = arith.select %sa, %na, %ma : i64
  %kb = arith.select %sb, %nb, %mb : i64
  %d = arith.subi %ka, %kb : i64
  %nd = arith.subi %c0, %d : i64
  %neg = arith.cmpi slt, %d, %c0 : i64
  %abs = arith.select %neg, %nd, %d : i64
  %one = arith.xori %an, %bn : i1
  %both = arith.andi %an, %bn : i1
  %r0 = arith.select %both, %c0, %abs : i64
  %r = arith.select %one, %big, %r0 : i64
  return %r : i64
}

func.func @is_subnormal(%x: f32) -> i1 {
  %tiny = arith.constant 1.17549435E-38 : f32
  %zero = arith.constant 0.0 : f32
  %a = math.absf %x : f32
  %lt = arith.cmpf olt, %a, %tiny : f32
  %nz = arith.cmpf one, %a, %zero : f32
  %r = arith.andi %lt, %nz : i1
  return %r : i1
}

func.func private @expf(f32) -> f32
func.func @error_exp(%x: f32) -> i64 {
  %got = math.exp %x : f32
  %want = func.call @expf(%x) : (f32) -> f32
  %u = func.call @ulps(%got, %want) : (f32, f32) -> i64
  %c0 = arith.constant 0 : i64
  %sub = func.call @is_subnormal(%want) : (f32) -> i1
  %r = arith.select %sub, %c0, %u : i64
  return %r : i64
}

func.func private @expm1f(f32) -> f32
func.func @error_expm1(%x: f32) -> i64 {
  %got = math.expm1 %x : f32
  %want = func.call @expm1f(%x) : (f32) -> f32
  %u = func.call @ulps(%got, %want) : (f32, f32) -> i64
  %c0 = arith.constant 0 : i64
  %sub = func.call @is_subnormal(%want) : (f32) -> i1
  %r = arith.select %sub, %c0, %u : i64
  return %r : i64
}

func.func private @log1pf(f32) -> f32
func.func @error_log1p(%x: f32) -> i64 {
  %got = math.log1p %x : f32
  %want = func.call @log1pf(%x) : (f32) -> f32
  %u = func.call @ulps(%got, %want) : (f32, f32) -> i64
  %c0 = arith.constant 0 : i64
  %sub = func.call @is_subnormal(%want) : (f32) -> i1
  %r = arith.select %sub, %c0, %u : i64
  return %r : i64
}

func.func private @erff(f32) -> f32
func.func @error_erf(%x: f32) -> i64 {
  %got = math.erf %x : f32
  %want = func.call @erff(%x) : (f32) -> f32
  %u = func.call @ulps(%got, %want) : (f32, f32) -> i64
  %c0 = arith.constant 0 : i64
  %sub = func.call @is_subnormal(%want) : (f32) -> i1
  %r = arith.select %sub, %c0, %u : i64
  return %r : i64
}

func.func private @tanhf(f32) -> f32
func.func @error_tanh(%x: f32) -> i64 {
  %got = math.tanh %x : f32
  %want = func.call @tanhf(%x) : (f32) -> f32
  %u = func.call @ulps(%got, %want) : (f32, f32) -> i64
  %c0 = arith.constant 0 : i64
  %sub = func.call @is_subnormal(%want) : (f32) -> i1
  %r = arith.select %sub, %c0, %u : i64
  return %r : i64
}

func.func @error_sigmoid(%x: f32) -> i64 {
  %one = arith.constant 1.0 : f32
  %n = arith.negf %x : f32
  %e = math.exp %n : f32
  %d = arith.addf %e, %one : f32
  %got = arith.divf %one, %d : f32
  %en = func.call @expf(%n) : (f32) -> f32
  %dn = arith.addf %one, %en : f32
  %want = arith.divf %one, %dn : f32
  %u = func.call @ulps(%got, %want) : (f32, f32) -> i64
  %c0 = arith.constant 0 : i64
  %sub = func.call @is_subnormal(%want) : (f32) -> i1
  %r = arith.select %sub, %c0, %u : i64
  return %r : i64
}

func.func @main() {
  %c0 = arith.constant 0 : i64
  %step = arith.constant 65521 : i64
  %end = arith.constant 4294967296 : i64
  %k0 = arith.constant 0 : index
  %k1 = arith.constant 1 : index
  %nspecial = arith.constant 32 : index
  %special = arith.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 1.0, -1.0, 88.72, 88.73, 89.0, -87.33, -88.0, -103.9, -104.0, -200.0, 1.0e-7, -1.0e-7, 0.5, -0.5, 9.0, -9.0, 1.0e+30, -1.0e+30, 3.40282347E+38, -3.40282347E+38, 1.17549435E-38, -0.9999999, 0.9999999, 20.0, -20.0, 2.0e-3]> : vector<32xf32>
  %exp_sampled = scf.for %i = %c0 to %end step %step iter_args(%acc = %c0) -> i64 : i64 {
    %t = arith.trunci %i : i64 to i32
    %x = arith.bitcast %t : i32 to f32
    %u = func.call @error_exp(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  %exp_max = scf.for %i = %k0 to %nspecial step %k1 iter_args(%acc = %exp_sampled) -> i64 {
    %x = vector.extract %special[%i] : f32 from vector<32xf32>
    %u = func.call @error_exp(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  vector.print str "exp "
  vector.print %exp_max : i64
  %expm1_sampled = scf.for %i = %c0 to %end step %step iter_args(%acc = %c0) -> i64 : i64 {
    %t = arith.trunci %i : i64 to i32
    %x = arith.bitcast %t : i32 to f32
    %u = func.call @error_expm1(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  %expm1_max = scf.for %i = %k0 to %nspecial step %k1 iter_args(%acc = %expm1_sampled) -> i64 {
    %x = vector.extract %special[%i] : f32 from vector<32xf32>
    %u = func.call @error_expm1(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  vector.print str "expm1 "
  vector.print %expm1_max : i64
  %log1p_sampled = scf.for %i = %c0 to %end step %step iter_args(%acc = %c0) -> i64 : i64 {
    %t = arith.trunci %i : i64 to i32
    %x = arith.bitcast %t : i32 to f32
    %u = func.call @error_log1p(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  %log1p_max = scf.for %i = %k0 to %nspecial step %k1 iter_args(%acc = %log1p_sampled) -> i64 {
    %x = vector.extract %special[%i] : f32 from vector<32xf32>
    %u = func.call @error_log1p(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  vector.print str "log1p "
  vector.print %log1p_max : i64
  %erf_sampled = scf.for %i = %c0 to %end step %step iter_args(%acc = %c0) -> i64 : i64 {
    %t = arith.trunci %i : i64 to i32
    %x = arith.bitcast %t : i32 to f32
    %u = func.call @error_erf(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  %erf_max = scf.for %i = %k0 to %nspecial step %k1 iter_args(%acc = %erf_sampled) -> i64 {
    %x = vector.extract %special[%i] : f32 from vector<32xf32>
    %u = func.call @error_erf(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  vector.print str "erf "
  vector.print %erf_max : i64
  %tanh_sampled = scf.for %i = %c0 to %end step %step iter_args(%acc = %c0) -> i64 : i64 {
    %t = arith.trunci %i : i64 to i32
    %x = arith.bitcast %t : i32 to f32
    %u = func.call @error_tanh(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  %tanh_max = scf.for %i = %k0 to %nspecial step %k1 iter_args(%acc = %tanh_sampled) -> i64 {
    %x = vector.extract %special[%i] : f32 from vector<32xf32>
    %u = func.call @error_tanh(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  vector.print str "tanh "
  vector.print %tanh_max : i64
  %sigmoid_sampled = scf.for %i = %c0 to %end step %step iter_args(%acc = %c0) -> i64 : i64 {
    %t = arith.trunci %i : i64 to i32
    %x = arith.bitcast %t : i32 to f32
    %u = func.call @error_sigmoid(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  %sigmoid_max = scf.for %i = %k0 to %nspecial step %k1 iter_args(%acc = %sigmoid_sampled) -> i64 {
    %x = vector.extract %special[%i] : f32 from vector<32xf32>
    %u = func.call @error_sigmoid(%x) : (f32) -> i64
    %m = arith.maxsi %acc, %u : i64
    scf.yield %m : i64
  }
  vector.print str "sigmoid "
  vector.print %sigmoid_max : i64
  return
}
