"""Bench: the zoo side by side with the peers a user would pick.

For every zoo model (fuse_dialect.bench.zoo.models; the CNNs and ViT at
their full input size, GPT-2 and BERT as the zoo's reduced exports: 16 tokens, a
4,096-word vocabulary), one run times, interleaved, at one thread and at
two (bench/models/, TOSA files with no PyTorch original, are not here):

  * ours: the ONNX file through `fuse-import`, `fuse-opt --fuse-ops` and
    `--fuse-lower-to-cpu` (the default lowering: tile loops on the cores
    through OpenMP, whose thread count is set per column), compiled ahead
    of time (mlir-translate, then
    LLVM's opt -O3 and llc -O3 for the host CPU) into a shared library and
    called through its C interface (`_mlir_ciface_model`) from this process;
  * PyTorch eager on the original `nn.Module` (not a translation);
  * ONNX Runtime's CPU provider, all graph optimizations, on the same ONNX
    file;
  * IREE's `llvm-cpu` backend on the same ONNX file (`iree-import-onnx`,
    `iree-compile` for the host CPU; the `local-sync` driver at one thread,
    `local-task` with two workers at two);
  * TorchInductor (`torch.compile` of the same module);
  * with `--baseline FUSE_OPT`, ours again as another fuse-opt (an older
    build) compiles it, in a column of its own: a change timed against the
    build before it in the same interleaved run, with the peers beside.

The peers come from the package index, into a virtual environment under the
build folder (build/peers-venv) that this script creates and fills on its
first run; a peer that does not install or refuses a model gets its reason
in the table, never a silent gap. The ONNX files are exported from the
environment's PyTorch with the module that is timed (build/peers/).

Per model and thread count the table gives each column's median ms per call
(every column timed `--rounds` times, interleaved: one block of `--calls`
calls per column per round, a pause between blocks so that no runtime's
spinning threads steal the next one's cores), the peer's time over ours
(> 1: we are faster), our achieved GFLOP/s (convolutions and matrix
products counted from the ONNX graph), and every output checked against
PyTorch eager (max |out - PyTorch| / max |PyTorch|, at most 1e-3, else the
column is marked). The process runs with OPENBLAS_NUM_THREADS=1 (numpy only
moves arrays) and glibc's malloc keeping freed memory (GLIBC_TUNABLES:
trim and mmap thresholds of 1 GiB), the same for every column;
`--malloc-defaults` times them under glibc's defaults instead, as a
user's process runs (PyTorch eager's per-op tensors then come from fresh
pages; ONNX Runtime and ours reuse one arena per call).
docs/Performance.md holds the latest table; bench/README.md says how to
rerun it.

Usage: bench/peers.py [--models a,b] [--threads 1,2] [--rounds N]
                      [--calls N] [--peers ours,torch,ort,iree,inductor]
                      [--lower-options OPTS] [--baseline FUSE_OPT]
                      [--malloc-defaults]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

from .. import aot, runtime, toolchain
from ..aot import run_tool

ROOT = toolchain.source_root() or os.getcwd()
BUILD = os.path.join(ROOT, "build")
VENV = os.path.join(BUILD, "peers-venv")
WORK = os.path.join(BUILD, "peers")
# The interpreter the environment is made from: Debian's, whose venv module
# is there (another Python may come first on PATH).
BASE_PYTHON = "/usr/bin/python3"
# Each group installed on its own, so that one that fails leaves the others.
# torch from the package index is its CUDA build (its CUDA libraries, about
# 4 GB, are needed to import it even on a CPU).
PACKAGES = [
    ["numpy<3", "onnx"],
    ["torch", "torchvision"],
    ["onnxruntime"],
    ["iree-base-compiler", "iree-base-runtime"],
]
TOLERANCE = 1e-3
PEERS = ["ours", "torch", "ort", "iree", "inductor"]
TITLES = {"ours": "ours", "torch": "PyTorch eager", "ort": "ONNX Runtime",
          "iree": "IREE llvm-cpu", "inductor": "TorchInductor",
          "baseline": "ours, baseline"}


# -- the environment ----------------------------------------------------------

def venv_python():
    return os.path.join(VENV, "bin", "python3")


def ensure_venv(groups=None):
    """Creates build/peers-venv and installs the peers that are missing
    (those of PACKAGES, or only the given groups of it); a package that
    fails to install is reported, not fatal."""
    py = venv_python()
    if not os.path.exists(py):
        print("peers: creating %s" % VENV, flush=True)
        subprocess.run([BASE_PYTHON, "-m", "venv", VENV], check=True)
    for names in groups or PACKAGES:
        missing = [n for n in names if subprocess.run(
            [py, "-m", "pip", "show", "-q", re.split("[<>=]", n)[0]],
            capture_output=True).returncode != 0]
        if not missing:
            continue
        print("peers: pip install %s" % " ".join(missing), flush=True)
        r = subprocess.run([py, "-m", "pip", "install", "-q"] + missing,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("peers: could not install %s: %s" % (
                " ".join(missing), r.stderr.strip().splitlines()[-1:]), flush=True)


def in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(VENV)


# -- counting work ------------------------------------------------------------

def gflop(onnx_path):
    """GFLOP of one call: 2 x the multiply-adds of every Conv, Gemm and
    MatMul, from ONNX's shape inference (elementwise work not counted)."""
    import onnx
    from onnx import shape_inference
    model = shape_inference.infer_shapes(onnx.load(onnx_path))
    g = model.graph
    shapes = {}
    for v in list(g.value_info) + list(g.input) + list(g.output):
        dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
        shapes[v.name] = dims
    for t in g.initializer:
        shapes[t.name] = list(t.dims)
    flops = 0.0
    for n in g.node:
        out = shapes.get(n.output[0])
        if not out or not all(out):
            continue
        size = 1
        for d in out:
            size *= d
        if n.op_type == "Conv":
            w = shapes.get(n.input[1])
            if w:
                k = 1
                for d in w[1:]:
                    k *= d
                flops += 2.0 * size * k
        elif n.op_type in ("MatMul", "Gemm"):
            a = shapes.get(n.input[0])
            if a:
                trans_a = any(at.name == "transA" and at.i for at in n.attribute)
                flops += 2.0 * size * (a[-2] if trans_a else a[-1])
    return flops * 1e-9


# -- ours: an ahead-of-time shared library ------------------------------------

def ours_model(onnx_path, work, out_dir, lower_options="", fuse_opt=None):
    """@model of an ONNX file (`fuse-import`) compiled by our pipeline into a
    model library (fuse_dialect.aot) and loaded through its C ABI
    (fuse_dialect.runtime), as a user's program runs it."""
    os.makedirs(work, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)
    imported = os.path.join(work, "model.mlir")
    if not os.path.exists(imported):
        run_tool([toolchain.launcher("fuse-import"), onnx_path, "-o", imported],
                 "fuse-import")
    library = os.path.join(out_dir, "ours.so")
    aot.compile_library(imported, library, lower_options=lower_options, fuse_opt=fuse_opt)
    return runtime.Model(library)


# -- the peers ----------------------------------------------------------------

def export(name, module, example, path):
    import torch
    if not os.path.exists(path):
        torch.onnx.export(module, (example,), path, opset_version=17,
                          do_constant_folding=True, input_names=["input"],
                          output_names=["output"], dynamo=False)
    return path


def prepare(peer, name, module, example, onnx_path, threads, args):
    """{threads: (set_threads, call)} for `peer`, or raises with the reason."""
    import torch
    x = example.numpy()
    work = os.path.join(WORK, name)
    if peer in ("ours", "baseline"):
        # The baseline's library in a folder of its own: a second dlopen of
        # the same path would return the first library.
        ours = (ours_model(onnx_path, work, work, args.lower_options) if peer == "ours"
                else ours_model(onnx_path, work, os.path.join(work, "baseline"),
                                args.lower_options, args.baseline))
        return {t: ((lambda t=t: ours.set_threads(t)), lambda: ours(x))
                for t in threads}
    if peer == "torch":
        def call():
            with torch.no_grad():
                return module(example).numpy()
        return {t: ((lambda t=t: torch.set_num_threads(t)), call) for t in threads}
    if peer == "inductor":
        import copy
        out = {}
        for t in threads:
            torch.set_num_threads(t)
            compiled = torch.compile(copy.deepcopy(module))
            with torch.no_grad():
                compiled(example)  # compiles for this thread count

            def call(c=compiled):
                with torch.no_grad():
                    return c(example).numpy()
            out[t] = ((lambda t=t: torch.set_num_threads(t)), call)
        return out
    if peer == "ort":
        import onnxruntime as ort
        out = {}
        for t in threads:
            so = ort.SessionOptions()
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            so.intra_op_num_threads = t
            so.inter_op_num_threads = 1
            s = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
            iname = s.get_inputs()[0].name
            out[t] = ((lambda: None), (lambda s=s, i=iname: s.run(None, {i: x})[0]))
        return out
    if peer == "iree":
        return prepare_iree(onnx_path, work, x, threads)
    raise ValueError(peer)


def prepare_iree(onnx_path, work, x, threads):
    import iree.runtime as rt
    os.makedirs(work, exist_ok=True)
    bindir = os.path.dirname(sys.executable)
    imported = os.path.join(work, "iree.mlir")
    vmfb = os.path.join(work, "iree.vmfb")
    run_tool([os.path.join(bindir, "iree-import-onnx"), onnx_path, "-o", imported],
             "iree-import-onnx")
    run_tool([os.path.join(bindir, "iree-compile"), imported,
              "--iree-hal-target-device=local",
              "--iree-hal-local-target-device-backends=llvm-cpu",
              "--iree-llvmcpu-target-cpu=host", "-o", vmfb], "iree-compile")
    os.unlink(imported)
    out = {}
    for t in threads:
        if t == 1:
            device = rt.get_driver("local-sync").create_default_device()
        else:
            # The task driver's worker count comes from a flag read when the
            # device is created.
            rt.flags.parse_flags("--task_topology_max_group_count=%d" % t)
            device = rt.get_driver("local-task").create_default_device()
        config = rt.Config(device=device)
        ctx = rt.SystemContext(config=config)
        ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, vmfb))
        fn = ctx.modules.module["main_graph"]
        out[t] = ((lambda: None), (lambda fn=fn: fn(x).to_host()))
    return out


# -- the run ------------------------------------------------------------------

def check(out, ref):
    import numpy as np
    out = np.asarray(out, dtype=np.float64).reshape(ref.shape)
    return float(np.max(np.abs(out - ref)) / max(np.max(np.abs(ref)), 1e-30))


def bench_model(name, args, threads):
    import torch
    from .zoo import models
    full, small = models.ZOO[name]
    # GPT-2 (and BERT) at its full vocabulary is a 0.5 GB text file for the
    # importer: the zoo's reduced export (16 tokens, 4,096 words) is what is
    # timed.
    reduced = name in ("gpt2", "bert_base")
    module = models.build(name, small=reduced)
    example = models.example_input(name, small if reduced else full)
    os.makedirs(WORK, exist_ok=True)
    onnx_path = export(name, module, example, os.path.join(WORK, name + ".onnx"))
    with torch.no_grad():
        torch.set_num_threads(1)
        ref = module(example).numpy().astype("float64")
    work = gflop(onnx_path)
    ready, why = {}, {}
    for peer in args.peers:
        start = time.time()
        try:
            ready[peer] = prepare(peer, name, module, example, onnx_path, threads, args)
            errors = []
            for t in threads:
                ready[peer][t][0]()
                errors.append(check(ready[peer][t][1](), ref))
            err = max(errors)
            why[peer] = None if err <= TOLERANCE else "error %.1e" % err
            print("  %s: ready in %.0f s, max rel. error %.1e" % (
                peer, time.time() - start, err), file=sys.stderr, flush=True)
        except Exception as e:  # a peer's refusal is a table entry
            ready.pop(peer, None)
            why[peer] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1][:160]
                                    if str(e).strip() else "")
            print("  %s: %s" % (peer, why[peer]), file=sys.stderr, flush=True)
    times = {(p, t): [] for p in ready for t in threads}
    for r in range(args.rounds):
        for t in threads:
            for p in ready:
                set_threads, call = ready[p][t]
                set_threads()
                call()
                start = time.perf_counter()
                for _ in range(args.calls):
                    call()
                times[(p, t)].append((time.perf_counter() - start) / args.calls)
                time.sleep(args.pause)
    rows = []
    for t in threads:
        med = {p: statistics.median(times[(p, t)]) for p in ready}
        rows.append((name, work, t, med, why))
    return rows


def table(rows, peers):
    lines = []
    head = "| model | GFLOP | threads | " + " | ".join(
        "%s (ms)" % TITLES[p] for p in peers) + " | ours GFLOP/s | " + " | ".join(
        "%s / ours" % TITLES[p] for p in peers if p != "ours") + " |"
    lines.append(head)
    lines.append("|" + "---|" * (head.count("|") - 1))
    for name, work, t, med, why in rows:
        cells = [name, "%.2f" % work, str(t)]
        for p in peers:
            if p in med:
                cells.append("%.2f" % (med[p] * 1e3) + (" (%s)" % why[p] if why.get(p) else ""))
            else:
                cells.append("— (%s)" % why.get(p, "not run"))
        ours = med.get("ours")
        cells.append("%.1f" % (work / ours) if ours else "—")
        for p in peers:
            if p == "ours":
                continue
            cells.append("%.2f" % (med[p] / ours) if ours and p in med else "—")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv):
    from .zoo import models
    ap = argparse.ArgumentParser(prog="peers.py", description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(models.ZOO))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--pause", type=float, default=0.5,
                    help="seconds between timed blocks (spinning threads sleep)")
    ap.add_argument("--peers", default=",".join(PEERS))
    ap.add_argument("--lower-options", default="",
                    help="more --fuse-lower-to-cpu options for ours")
    ap.add_argument("--baseline", metavar="FUSE_OPT",
                    help="another fuse-opt (an older build): ours compiled "
                    "by it is timed in the same run, interleaved, as a "
                    "column of its own")
    ap.add_argument("--malloc-defaults", action="store_true",
                    help="time every column under glibc's default malloc "
                    "settings (a user's process) instead of keeping freed "
                    "memory")
    args = ap.parse_args(argv[1:])
    args.peers = [p for p in args.peers.split(",") if p]
    for p in args.peers:
        if p not in PEERS:
            ap.error("unknown peer %r (one of %s)" % (p, ",".join(PEERS)))
    if args.baseline is not None:
        if not (os.path.isfile(args.baseline) and os.access(args.baseline, os.X_OK)):
            ap.error("--baseline: %r is not an executable file" % args.baseline)
        args.peers.append("baseline")
    names = [m for m in args.models.split(",") if m]
    for n in names:
        if n not in models.ZOO:
            ap.error("unknown model %r (one of %s)" % (n, ",".join(models.ZOO)))
    if args.rounds < 1 or args.calls < 1 or args.pause < 0:
        ap.error("--rounds and --calls must be at least 1, --pause not negative")
    try:
        threads = sorted({int(t) for t in args.threads.split(",")})
    except ValueError:
        threads = []
    if not threads or threads[0] < 1 or threads[-1] > (os.cpu_count() or 1) * 4:
        ap.error("--threads: positive thread counts, comma-separated "
                 "(e.g. 1,2), not %r" % args.threads)
    if not names:
        ap.error("--models: no model given")
    rows = []
    for n in names:
        print("%s:" % n, file=sys.stderr, flush=True)
        rows += bench_model(n, args, threads)
    print(table(rows, args.peers))
    return 0


def entry(argv):
    """Outside the environment: make it, then run there."""
    if in_venv():
        return main(argv)
    ensure_venv()
    env = toolchain.module_env()
    env.pop("PYTHONHOME", None)
    # numpy only moves arrays here: its BLAS threads must not spin beside
    # the peer being timed.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Every column runs in this process, under the same allocator settings
    # (glibc reads them at start-up: decided here, before the exec; parsed
    # as main() parses it, abbreviations included).
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--malloc-defaults", action="store_true")
    if not early.parse_known_args(argv[1:])[0].malloc_defaults:
        env = toolchain.keep_freed_memory(env)
    os.execve(venv_python(), [venv_python()] + toolchain.module_command(
        "fuse_dialect.bench.peers")[1:] + argv[1:], env)


if __name__ == "__main__":
    sys.exit(entry(sys.argv))
