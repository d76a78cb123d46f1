"""Differential numeric harness: runs a module before and after a fuse-opt
pipeline on the CPU and compares every printed value.

Usage:
  fuse-diff INPUT.mlir -p "<fuse-opt args>" [--entry NAME] [--seed N]
            [--rtol R] [--atol A] [--fuse-opt PATH] [--mlir-opt PATH]
            [--mlir-runner PATH] [--lib-dir DIR] [--keep DIR] [-v]

Two modes:
  (a) INPUT has `func.func @main()` (no arguments, no results): it is run
      as it is, and whatever it prints is compared.
  (b) Otherwise the entry function (--entry, default `model`, else the single
      public func.func) must take and return ranked static tensors (or
      scalars); a `func.func @main()` is synthesized that feeds it seeded
      random constants and prints every result with printMemref*.

Reference: INPUT (+ main) -> mlir-opt REFERENCE_PIPELINE -> mlir-runner.
Test:      INPUT -> fuse-opt <-p args> -> (+ main, after the pipeline under
           test) -> fuse-opt --fuse-lower-to-cpu -> mlir-runner.
If FUSE_DIFF_LOWER_CMD is set, it replaces `fuse-opt --fuse-lower-to-cpu`
(split with shlex; reads the module on stdin, writes it on stdout).

--runner-args and --ref-runner-args pass more mlir-runner arguments to the
test and reference runs: -mattr=-avx512f JIT-compiles for an AVX2-only host
on any AVX512 machine. --exact compares every value as printed, with no
tolerance.

--ref-lower ARGS makes the reference the same program (after the pipeline
under test) lowered by `fuse-opt ARGS` instead of the unfused one: two
lowerings of one fused program, e.g. the one-thread and the OpenMP CPU
lowerings, which must agree exactly (--rtol 0 --atol 0; printed values
carry 6 significant digits). --threads N runs the test with
OMP_NUM_THREADS=N; --repeat K runs it K times, each compared (a race shows
as a run that differs).

Tolerance. An output of f32 or wider is compared within --rtol/--atol. An
f16 or bf16 output, or any float output of a module that computes in f16
or bf16 (cast back at the end: T is then the narrowest such type, bf16
before f16), whose two programs may round sums in another order or fuse a
multiply and an add (one rounding instead of two), is compared within
  |got - ref| <= atol + 2 ulp_T(ref) + sqrt(K) * u_T * max|ref|
where u_T is the unit roundoff of its type (f16 2^-11, bf16 2^-8), ulp_T
the spacing of the type at ref, and K the longest reduction of the input
module (a matmul's or convolution's summed length, a reduce_sum's axis;
--reduction-length overrides it): the probabilistic bound of Higham and
Mary (2019) on the error of a K-term dot product, scaled by the output's
largest magnitude. --rtol/--atol still apply on top.

Exit status: 0 all values match, 1 a mismatch, 2 a tool failed or bad input.
"""

import argparse
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from .. import mlirtext, toolchain
from ..mlirtext import blank_comments, insert_into_module, parse_funcs, parse_ttype
# The upstream lowering used for the reference run (mlir-opt).
from ..reference import REFERENCE_PIPELINE

EXIT_OK, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2
MAX_MISMATCHES_SHOWN = 10


class HarnessError(Exception):
    """Bad input or a failing tool: reported, exit status 2."""


VERBOSE = False


def log(msg):
    if VERBOSE:
        print("fuse-diff: " + msg, file=sys.stderr)


# ----------------------------------------------------------------------------
# Tools
# ----------------------------------------------------------------------------

def find_tool(name, explicit, extra_dirs=()):
    if explicit:
        return explicit
    found = shutil.which(name)
    if found:
        return found
    for d in list(extra_dirs) + [toolchain.bin_dir()]:
        cand = os.path.join(d, name)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return name  # Fails later with a clear "not found" message.


def run_tool(what, cmd, stdin_text=None, timeout=None, env=None):
    log("$ " + " ".join(shlex.quote(c) for c in cmd)
        + (" < (stdin)" if stdin_text is not None else ""))
    try:
        proc = subprocess.run(cmd, input=stdin_text, capture_output=True,
                              text=True, errors="replace", timeout=timeout, env=env)
    except FileNotFoundError:
        raise HarnessError("%s: cannot execute '%s' (not found)" % (what, cmd[0]))
    except subprocess.TimeoutExpired:
        raise HarnessError("%s: timed out after %ss: %s" % (what, timeout, " ".join(cmd)))
    if proc.returncode != 0:
        sig = ""
        if proc.returncode < 0:
            sig = " (signal %d)" % -proc.returncode
        raise HarnessError("%s failed with exit code %d%s\ncommand: %s\n%s" % (
            what, proc.returncode, sig,
            " ".join(shlex.quote(c) for c in cmd), proc.stderr.rstrip()))
    if proc.stderr.strip():
        log("%s stderr:\n%s" % (what, proc.stderr.rstrip()))
    return proc.stdout


# ----------------------------------------------------------------------------
# Inputs: seeded random constants
# ----------------------------------------------------------------------------

INPUT_RANGE = (-1.0, 1.0)


def random_scalar(rng, elt):
    lo, hi = INPUT_RANGE
    if elt == "f32" or elt == "f64":
        return "%.4f" % rng.uniform(lo, hi)              # exact decimal text
    if elt == "f16":
        return repr(round(rng.uniform(lo, hi) * 256) / 256.0)  # exact in f16
    if elt == "bf16":
        return repr(round(rng.uniform(lo, hi) * 128) / 128.0)  # exact in bf16
    if elt == "i1":
        return "true" if rng.random() < 0.5 else "false"
    return str(rng.randint(-10, 10))


def synthesize_main(funcs, seed, existing_text):
    """Returns (main function text, private declarations text) for a @main
    that calls every function of `funcs` in order, each on its own seeded
    random inputs, and prints every result."""
    if not isinstance(funcs, list):
        funcs = [funcs]
    rng = random.Random(seed)
    calls = []
    for func in funcs:
        arg_types, _ = mlirtext.call_types(func)
        inputs = []
        for t in arg_types:
            vals = [random_scalar(rng, t.elt) for _ in range(t.numel)]
            if not t.is_tensor:
                lit = vals[0]
            elif t.numel == 0:
                lit = "dense<>"
            else:
                lit = "dense<%s>" % mlirtext.nested_literal(vals, t.shape)
            inputs.append(mlirtext.arith_constant(lit, t.text))
        calls.append((func, inputs))
    return mlirtext.synthesize_main(calls, existing_text)


# ----------------------------------------------------------------------------
# mlir-runner output
# ----------------------------------------------------------------------------

def parse_run(text, what):
    """The printed memrefs, then the numbers printed outside them (as one
    more output) if any."""
    outputs, extra = mlirtext.parse_memrefs(text, what)
    if extra:
        outputs.append(mlirtext.Memref("other printed numbers", [len(extra)], extra))
    return outputs


# Unit roundoff (2^-p for p significand bits) of the low-precision types.
UNIT_ROUNDOFF = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8}
TENSOR_DIMS_RE = re.compile(r"tensor<((?:\d+x)+)[a-z]")


def _dims(type_text):
    m = TENSOR_DIMS_RE.search(type_text)
    return [int(d) for d in m.group(1).split("x") if d] if m else None


def reduction_length(text):
    """The longest reduction of the module: a matmul's or convolution's
    summed length, a pooling window, a reduce_sum's axis (1 if none)."""
    longest = 1
    for line in text.splitlines():
        if line.lstrip().startswith("//"):
            continue
        m = re.search(r"(tosa\.(?:matmul|conv2d|conv3d|depthwise_conv2d|reduce_sum|"
                      r"avg_pool2d)|linalg\.(?:batch_)?matmul)\b", line)
        if not m:
            continue
        op = m.group(1)
        types = [_dims(t) for t in re.findall(r"tensor<[^>]*>", line)]
        types = [t for t in types if t]
        k = 1
        try:
            if op in ("tosa.matmul", "linalg.matmul", "linalg.batch_matmul"):
                k = types[0][-1]
            elif op in ("tosa.conv2d", "tosa.conv3d"):
                k = 1
                for d in types[1][1:]:
                    k *= d
            elif op == "tosa.depthwise_conv2d":
                k = types[1][0] * types[1][1]
            elif op == "tosa.reduce_sum":
                axis = int(re.search(r"axis = (\d+)", line).group(1))
                k = types[0][axis]
            elif op == "tosa.avg_pool2d":
                kernel = re.search(r"kernel = array<i64: (\d+), (\d+)>", line)
                k = int(kernel.group(1)) * int(kernel.group(2))
        except (IndexError, AttributeError, ValueError):
            k = 1
        longest = max(longest, k)
    return longest


def ulp(x, elt):
    """The spacing of `elt` (f16 or bf16) at |x| (normal range; the
    smallest subnormal step below it)."""
    bits = {"f16": (11, -14), "bf16": (8, -126)}[elt]
    p, emin = bits
    e = max(math.frexp(abs(x))[1] - 1, emin) if x != 0 else emin
    return 2.0 ** (e - p + 1)


def narrowest_half(text):
    """bf16 if the module computes in bf16, else f16 if in f16, else None."""
    code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
    for elt in ("bf16", "f16"):
        if re.search(r"x%s>|: %s\b" % (elt, elt), code):
            return elt
    return None


def compare(ref, got, rtol, atol, elts=(), k=1, module_low=None):
    problems, mismatches = [], []
    total, max_abs, max_rel = 0, 0.0, 0.0
    if len(ref) != len(got):
        problems.append("number of outputs differs: reference %d, test %d" % (len(ref), len(got)))
    for k_out, (r, g) in enumerate(zip(ref, got)):
        if r.sizes != g.sizes or r.label != g.label:
            problems.append("output %d: sizes differ: reference %s %s, test %s %s"
                            % (k_out, r.label, r.sizes, g.label, g.sizes))
            continue
        elt = elts[k_out] if k_out < len(elts) else None
        if elt not in UNIT_ROUNDOFF and elt in ("f32", "f64", None) and module_low:
            elt = module_low  # computed through the module's half types
        low = UNIT_ROUNDOFF.get(elt)
        if low:
            finite = [abs(v) for v in r.values if not (math.isnan(v) or math.isinf(v))]
            scale = math.sqrt(k) * low * (max(finite) if finite else 0.0)
        for idx, (b, a) in enumerate(zip(r.values, g.values)):
            total += 1
            if math.isnan(b) or math.isnan(a):
                ok = math.isnan(a) and math.isnan(b)
            elif math.isinf(b) or math.isinf(a):
                ok = a == b
            else:
                err = abs(a - b)
                bound = atol + rtol * abs(b)
                if low:
                    bound += 2 * ulp(b, elt) + scale
                ok = err <= bound
                max_abs = max(max_abs, err)
                if b != 0.0:
                    max_rel = max(max_rel, err / abs(b))
            if not ok:
                mismatches.append((k_out, idx, b, a))
    return problems, mismatches, total, max_abs, max_rel


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

def fix_argv(argv):
    """Lets `-p "--canonicalize"` through argparse (values starting with -)."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("-p", "--pipeline", "--passes") and i + 1 < len(argv):
            out.append("--pipeline=" + argv[i + 1])
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def main(argv):
    global VERBOSE
    ap = argparse.ArgumentParser(
        prog="fuse-diff",
        description="Compare the CPU results of a module before and after a fuse-opt pipeline.")
    ap.add_argument("input")
    ap.add_argument("-p", "--pipeline", "--passes", dest="pipeline", required=True,
                    help="fuse-opt arguments of the pipeline under test (shell-split)")
    ap.add_argument("--entry", default=None,
                    help="entry function (default: model); 'all' calls every public "
                         "function; F,G,... calls those")
    ap.add_argument("--input-range", dest="input_range", default="-1,1",
                    help="LO,HI: range of random float inputs (default -1,1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--fuse-opt", dest="fuse_opt", default=None)
    ap.add_argument("--mlir-opt", dest="mlir_opt", default=None)
    ap.add_argument("--mlir-runner", dest="mlir_runner", default=None)
    ap.add_argument("--lib-dir", dest="lib_dir", default=toolchain.lib_dir())
    ap.add_argument("--lower", default=None,
                    help="fuse-opt arguments of the test lowering (default "
                         "--fuse-lower-to-cpu; e.g. --fuse-lower-to-nvvm)")
    ap.add_argument("--extra-libs", dest="extra_libs", default="",
                    help="more shared libraries for the test run (e.g. "
                         "the CUDA runtime for --lower=--fuse-lower-to-nvvm)")
    ap.add_argument("--ref-lower", dest="ref_lower", default=None,
                    help="reference: the program after the pipeline lowered by "
                         "fuse-opt with these arguments (not the unfused one)")
    ap.add_argument("--runner-args", dest="runner_args", default="",
                    help="more mlir-runner arguments for the test run (e.g. "
                         "-mattr=-avx512f: code for an AVX2-only host)")
    ap.add_argument("--ref-runner-args", dest="ref_runner_args", default="",
                    help="more mlir-runner arguments for the reference run")
    ap.add_argument("--exact", action="store_true",
                    help="every value equal as printed: no tolerance at all, "
                         "not even for f16/bf16")
    ap.add_argument("--threads", type=int, default=None,
                    help="OMP_NUM_THREADS for the test run")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run the test program this many times, each compared")
    ap.add_argument("--reduction-length", dest="reduction_length", type=int,
                    default=None,
                    help="K of the f16/bf16 tolerance (default: the input's "
                         "longest reduction)")
    ap.add_argument("--keep", default=None, help="save intermediate files in DIR")
    ap.add_argument("--timeout", type=float, default=600, help="per tool, seconds")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(fix_argv(argv))
    VERBOSE = args.verbose
    for name in ("threads", "repeat", "reduction_length"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise HarnessError("--%s wants a positive count, got %d"
                               % (name.replace("_", "-"), value))
    global INPUT_RANGE
    try:
        lo, hi = (float(x) for x in args.input_range.split(","))
    except ValueError:
        raise HarnessError("--input-range wants LO,HI, got '%s'" % args.input_range)
    INPUT_RANGE = (lo, hi)

    fuse_opt = find_tool("fuse-opt", args.fuse_opt, [os.path.dirname(toolchain.fuse_opt())])
    mlir_opt = find_tool("mlir-opt", args.mlir_opt)
    mlir_runner = find_tool("mlir-runner", args.mlir_runner)
    libs = toolchain.runner_libs(args.lib_dir)
    test_libs = libs + ("," + args.extra_libs if args.extra_libs else "")
    lower_env = os.environ.get("FUSE_DIFF_LOWER_CMD")
    if lower_env:
        lower_cmd = shlex.split(lower_env)
    else:
        lower_cmd = [fuse_opt] + shlex.split(args.lower or "--fuse-lower-to-cpu")

    try:
        with open(args.input) as f:
            source = f.read()
    except OSError as e:
        raise HarnessError("cannot read %s: %s" % (args.input, e))

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        workdir = args.keep
        tmp = None
    else:
        tmp = tempfile.TemporaryDirectory(prefix="fuse-diff-")
        workdir = tmp.name

    def save(name, text):
        path = os.path.join(workdir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    try:
        funcs = parse_funcs(source)
        mains = [f for f in funcs if f.plain_name == "main" and f.has_body]
        if mains:
            if args.entry and args.entry != "main":
                raise HarnessError("%s already has @main; --entry %s conflicts with it"
                                   % (args.input, args.entry))
            m = mains[0]
            if m.args or m.results:
                raise HarnessError("@main must take no arguments and return nothing "
                                   "(found (%s) -> (%s))" % (", ".join(m.args), ", ".join(m.results)))
            mode_a = True
            log("mode (a): running @main as it is")
        else:
            mode_a = False
            name = args.entry or "model"
            cands = [f for f in funcs if f.plain_name == name and f.has_body]
            if args.entry == "all" or (args.entry and "," in args.entry):
                cands = [None]
            if not cands and args.entry is None:
                cands = [f for f in funcs if f.has_body and f.visibility == "public"]
                if len(cands) > 1:
                    raise HarnessError("no @model and %d public functions (%s): use --entry"
                                       % (len(cands), ", ".join("@" + f.plain_name for f in cands)))
            if not cands:
                raise HarnessError("entry function @%s not found in %s" % (name, args.input))
            if args.entry == "all":
                cands = [f for f in funcs if f.has_body and f.visibility == "public"]
                if not cands:
                    raise HarnessError("no public function with a body in %s" % args.input)
                entry = cands
            elif args.entry and "," in args.entry:
                entry = []
                for n in args.entry.split(","):
                    found = [f for f in funcs if f.plain_name == n and f.has_body]
                    if not found:
                        raise HarnessError("entry function @%s not found in %s" % (n, args.input))
                    entry.append(found[0])
            else:
                entry = cands[0]
            for e in (entry if isinstance(entry, list) else [entry]):
                log("mode (b): entry @%s (%s) -> (%s)" % (e.plain_name, ", ".join(e.args),
                                                           ", ".join(e.results)))
            # Validate the signature up front (exit 2 on dynamic shapes).
            synthesize_main(entry, args.seed, source)

        save("input.mlir", source)
        run = lambda what, f, l=libs, env=None, extra="": run_tool(
            what, [mlir_runner, f, "-e", "main", "-entry-point-result=void",
                   "-shared-libs=" + l] + shlex.split(extra),
            timeout=args.timeout, env=env)
        # The element type of each printed output (mode (b)), for the
        # tolerance of low-precision outputs.
        elts = []
        if not mode_a:
            for e in (entry if isinstance(entry, list) else [entry]):
                elts.extend(parse_ttype(t, "result").elt for t in e.results)
        k = args.reduction_length or reduction_length(source)
        module_low = narrowest_half(source)
        if args.exact:
            args.rtol, args.atol, module_low, elts = 0.0, 0.0, None, []
        test_env = None
        if args.threads:
            test_env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))

        # Test program: the pipeline under test sees exactly the user's module.
        test_cmd = [fuse_opt, args.input] + shlex.split(args.pipeline)
        piped = run_tool("fuse-opt (pipeline under test)", test_cmd, timeout=args.timeout)
        save("test.pipeline.mlir", piped)
        if mode_a:
            test_main = piped
        else:
            body, decls = synthesize_main(entry, args.seed, piped)
            test_main = insert_into_module(piped, body + decls)
        save("test.main.mlir", test_main)

        # Reference run: the test program under another lowering, or the
        # unfused program. An input that already holds fuse.group ops (which
        # upstream mlir-opt cannot parse) is first dissolved by
        # `fuse-opt --fuse-inline-groups`, itself FileCheck-tested.
        if args.ref_lower is not None:
            ref_llvm = run_tool("reference lowering (fuse-opt %s)" % args.ref_lower,
                                [fuse_opt] + shlex.split(args.ref_lower),
                                stdin_text=test_main, timeout=args.timeout)
        else:
            reference_source = source
            if "fuse.group" in blank_comments(source):
                reference_source = run_tool(
                    "fuse-opt --fuse-inline-groups (reference input)",
                    [fuse_opt, args.input, "--fuse-inline-groups"], timeout=args.timeout)
            if mode_a:
                ref_main = reference_source
            else:
                printed = run_tool("mlir-opt (parse input)", [mlir_opt, "-"],
                                   stdin_text=reference_source, timeout=args.timeout)
                body, decls = synthesize_main(entry, args.seed, printed)
                ref_main = insert_into_module(printed, body + decls)
            ref_main_path = save("ref.main.mlir", ref_main)
            ref_llvm = run_tool("mlir-opt (reference pipeline)",
                                [mlir_opt, ref_main_path,
                                 "--pass-pipeline=" + REFERENCE_PIPELINE],
                                timeout=args.timeout)
        ref_llvm_path = save("ref.llvm.mlir", ref_llvm)
        ref_out = run("mlir-runner (reference)", ref_llvm_path, test_libs,
                      extra=args.ref_runner_args)
        save("ref.out", ref_out)

        # Test run(s).
        test_llvm = run_tool("lowering (%s)" % " ".join(lower_cmd), lower_cmd,
                             stdin_text=test_main, timeout=args.timeout)
        test_llvm_path = save("test.llvm.mlir", test_llvm)
        test_outs = []
        for i in range(max(1, args.repeat)):
            test_outs.append(run("mlir-runner (test)", test_llvm_path, test_libs,
                                 test_env, args.runner_args))
            save("test.out" if i == 0 else "test.%d.out" % i, test_outs[-1])

        ref = parse_run(ref_out, "reference output")
        gots = [parse_run(out, "test output") for out in test_outs]
    finally:
        if tmp is not None:
            tmp.cleanup()

    if not ref:
        raise HarnessError("the reference run printed no values: nothing to compare")
    for run_index, got in enumerate(gots):
        problems, mismatches, total, max_abs, max_rel = compare(
            ref, got, args.rtol, args.atol, elts, k, module_low)
        if problems or mismatches:
            break
    if problems or mismatches:
        if len(gots) > 1:
            print("fuse-diff: MISMATCH in run %d of %d" % (run_index + 1, len(gots)))
        for p in problems:
            print("fuse-diff: MISMATCH " + p)
        if mismatches:
            print("fuse-diff: MISMATCH %d of %d values differ (rtol %g, atol %g); first %d:"
                  % (len(mismatches), total, args.rtol, args.atol,
                     min(len(mismatches), MAX_MISMATCHES_SHOWN)))
            for k, idx, b, a in mismatches[:MAX_MISMATCHES_SHOWN]:
                print("  output %d [%d]: ref %r, got %r, abs err %.3g"
                      % (k, idx, b, a, abs(a - b) if not (math.isnan(a) or math.isnan(b)) else float("nan")))
        return EXIT_MISMATCH
    print("fuse-diff: OK %d outputs, %d values, max abs err %.3g, max rel err %.3g"
          % (len(ref), total, max_abs, max_rel))
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (HarnessError, mlirtext.TextError) as e:
        print("fuse-diff: error: %s" % e, file=sys.stderr)
        if "--keep" not in " ".join(sys.argv):
            print("fuse-diff: (rerun with --keep DIR to inspect the intermediate files)",
                  file=sys.stderr)
        sys.exit(EXIT_ERROR)
