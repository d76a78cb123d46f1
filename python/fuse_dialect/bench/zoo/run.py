"""The zoo comparison: one command, a Markdown table and a plot in docs/.

For every model of the zoo (python/fuse_dialect/bench/zoo/models.py,
exported by bench/zoo/export.py when missing; build products in build/zoo):
  * ONNX ops, TOSA ops after `fuse-import`,
  * kernels after plain TOSA -> linalg, after upstream
    `-linalg-fuse-elementwise-ops`, and after `fuse-opt --fuse-ops`
    (counted as bench/fusion.py counts them),
  * DNNFusion's published layer counts (PLDI'21, Table 5) where it has the
    model,
  * MB of intermediates between kernels, unfused -> ours; transposes before
    -> after,
  * fuse-opt --fuse-ops wall time and peak memory, and `--fuse-lower-to-cpu`
    wall time on the fused module,
  * IREE's dispatch count on the same ONNX file (`iree-import-onnx`, then
    `iree-compile --compile-to=flow` for llvm-cpu: its `flow.dispatch`
    ops), with --iree (installed into build/peers-venv like bench/peers),
  * the GPU kernels: `--fuse-lower-to-nvvm` on the fused module, each
    kernel assembled with `ptxas -arch=sm_90` (where ptxas is found):
    assembled / kernels, and those that spill,
  * numerics: the model at the reduced input size compiled by
    `fuse-compile` into a model library (build/zoo/NAME.small.so) and run
    through its C ABI (`fuse_dialect.load`, no mlir-runner) on the same
    input as PyTorch; max |ours - PyTorch| / max |PyTorch| (must be <=
    1e-3), with the time of compiling, loading and running; and the same
    through the GPU pipeline with every GPU thread a CPU thread
    (`--fuse-test-lower-to-cpu-via-gpu`, under mlir-runner),
and GPT-2 compile time at 12, 24 and 48 layers (weights elided).

GPT-2 is compiled with elided weights (`--elide-weights`: 124M parameters
would be a 1 GB text file); the numeric check uses a 4096-token
vocabulary. Writes docs/Zoo.md (and docs/zoo_kernels.svg where matplotlib
is installed).

Usage: bench/zoo/run.py [--models a,b] [--no-numerics] [--no-scaling]
                        [--iree] [--no-gpu] [--numerics-only]
Each model's row is kept in build/zoo/rows.json: the table shows every zoo
model with a row there, so that `--models a,b` reruns only those (after a
change that touches them) and keeps the others' rows.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

from ... import onnx_import, runner, runtime, toolchain
from .. import fusion  # kernel counting
from .. import peers  # the virtual environment IREE is installed into
from . import models

ROOT = toolchain.source_root()
FUSE_OPT = toolchain.fuse_opt()
ZOO_DIR = os.path.join(ROOT, "build", "zoo")
DNNFUSION = {  # Table 5 of the paper: layers before -> after fusion
    "efficientnet_b0": (309, 97), "vgg16": (51, 17), "unet": (292, 82),
    "gpt2": (2533, 254),
}
ELIDED = {"gpt2", "bert_base"}


def ensure_exported(name, small):
    path = os.path.join(ZOO_DIR, name + (".small" if small else "") + ".onnx")
    if not os.path.exists(path):
        flags = ["--no-full"] if small else ["--no-small"]
        subprocess.run(toolchain.module_command("fuse_dialect.bench.zoo.export")
                       + ["--out", ZOO_DIR] + flags + [name], check=True, capture_output=True,
                       env=toolchain.module_env())
    return path


def timed(cmd):
    """Runs cmd under /usr/bin/time: (stdout, seconds, peak MB)."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as tf:
        t0 = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf.name] + cmd,
                           capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if r.returncode != 0:
            raise RuntimeError(" ".join(cmd[:2]) + ": " + r.stderr[-1500:])
        peak = int(tf.read().strip().splitlines()[-1]) / 1024.0
    return r.stdout, dt, peak


def structure_row(name):
    onnx_path = ensure_exported(name, False)
    model = onnx.load(onnx_path, load_external_data=False)
    onnx_ops = sum(1 for n in model.graph.node if n.op_type not in ("Constant", "Identity"))
    mlir = os.path.join(ZOO_DIR, name + ".mlir")
    text = onnx_import.import_model(model, elide_weights=name in ELIDED)
    with open(mlir, "w") as f:
        f.write(text)
    linalg = fusion.run([fusion.MLIR_OPT, mlir, "--pass-pipeline=" + fusion.TO_LINALG])
    upstream = fusion.run([fusion.MLIR_OPT, mlir, "--pass-pipeline=" + fusion.UPSTREAM])
    fused = os.path.join(ZOO_DIR, name + ".fused.mlir")
    with tempfile.NamedTemporaryFile(suffix=".json") as rep:
        _, dt, peak = timed([FUSE_OPT, mlir, "--fuse-ops=report=" + rep.name, "-o", fused])
        report = json.load(open(rep.name))
    _, lower_dt, _ = timed([FUSE_OPT, fused, "--fuse-lower-to-cpu", "-o", os.devnull])
    t = report["totals"]
    return {
        "onnx_ops": onnx_ops, "tosa_ops": fusion.count_tosa(text),
        "linalg": fusion.count_kernels_linalg(linalg),
        "upstream": fusion.count_kernels_linalg(upstream),
        "ours": t["kernels_after"],
        "mb_before": fusion.unfused_intermediate_bytes(text) / 2 ** 20,
        "mb_after": t["bytes_between_kernels"] / 2 ** 20,
        "tr_before": t["transposes_before"], "tr_after": t["transposes_after"],
        "time": dt, "peak": peak, "lower": lower_dt,
    }


def iree_dispatches(name):
    """IREE's dispatch count for llvm-cpu on the model's ONNX file."""
    bindir = os.path.dirname(peers.venv_python())
    work = os.path.join(ZOO_DIR, "iree")
    os.makedirs(work, exist_ok=True)
    imported, flow = (os.path.join(work, name + ext) for ext in (".mlir", ".flow.mlir"))
    for cmd in ([os.path.join(bindir, "iree-import-onnx"), ensure_exported(name, False),
                 "-o", imported],
                [os.path.join(bindir, "iree-compile"), imported, "--compile-to=flow",
                 "--iree-hal-target-device=local",
                 "--iree-hal-local-target-device-backends=llvm-cpu",
                 "--iree-llvmcpu-target-cpu=host", "-o", flow]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            lines = r.stderr.strip().splitlines() or ["?"]
            error = next((l for l in lines if "error:" in l), lines[-1])
            return "failed: %s" % error[error.find("error:"):][:100]
    with open(flow) as f:
        return str(len(re.findall(r"\bflow\.dispatch @", f.read())))


def ptxas_path():
    cuda = "/usr/local/cuda/bin/ptxas"
    return shutil.which("ptxas") or (cuda if os.path.exists(cuda) else None)


def gpu_kernels(name, ptxas):
    """'assembled/kernels, spilling' for the sm_90 lowering of the fused
    module."""
    fused = os.path.join(ZOO_DIR, name + ".fused.mlir")
    nvvm = os.path.join(ZOO_DIR, name + ".nvvm.mlir")
    r = subprocess.run([FUSE_OPT, fused, "--fuse-lower-to-nvvm", "-o", nvvm],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "lowering failed: %s" % (r.stderr.strip().splitlines() or ["?"])[0][:60]
    r = subprocess.run(toolchain.module_command("fuse_dialect.tools.fuse_extract_ptx")
                       + ["--ptxas", ptxas, nvvm, os.path.join(ZOO_DIR, name + ".ptx")],
                       capture_output=True, text=True, env=toolchain.module_env())
    kernels = re.findall(r"^(\S+) \S+\.ptx$", r.stdout, re.M)
    failed = re.findall(r"^\S+ ptxas FAILED$", r.stdout, re.M)
    spills = [int(m) for m in re.findall(r"spill-stores (\d+)", r.stdout) if int(m)]
    return "%d/%d, %s" % (len(kernels) - len(failed), len(kernels),
                          "%d spill (max %d B)" % (len(spills), max(spills)) if spills
                          else "no spills")


def numerics(name, emulated=True):
    """{key: (max relative error or failure, seconds)} of the model at its
    reduced input against PyTorch's output: "err", the model library that
    fuse-compile writes (build/zoo/NAME.small.so: --fuse-ops,
    --fuse-lower-to-cpu, opt, llc, linked with the runtime) run through its
    C ABI (fuse_dialect.load), no mlir-runner; with `emulated`, "emu", the
    GPU pipeline with every GPU thread a CPU thread, under mlir-runner."""
    path = ensure_exported(name, True)
    ref = np.load(os.path.join(ZOO_DIR, name + ".small.npz"))
    x, y = ref["input"], ref["output"]
    scale = float(np.max(np.abs(y))) or 1.0

    def error(got):
        if len(got) != 1 or got[0].size != y.size:
            raise RuntimeError("%d outputs" % len(got))
        return "%.1e" % (float(np.max(np.abs(got[0].reshape(-1) - y.reshape(-1).astype(
            np.float64)))) / scale)

    def attempt(run):
        t0 = time.perf_counter()
        try:
            err = error(run())
        except Exception as e:  # reported in the table, not hidden
            err = "failed: %s" % str(e).strip().splitlines()[-1][:80]
        return err, time.perf_counter() - t0

    results = {"err": attempt(lambda: runtime.compile(
        path, output=os.path.join(ZOO_DIR, name + ".small.so"))(x))}
    if emulated:
        text = onnx_import.import_model(path)
        results["emu"] = attempt(lambda: runner.run_model(
            text, [x], [(y.shape, y.dtype)], FUSE_OPT,
            lower=("--fuse-test-lower-to-cpu-via-gpu",)))
    return results


def gpt2_scaling():
    times = {}
    for layers in (12, 24, 48):
        name = "gpt2_%d" % layers
        onnx_path = ensure_exported(name, False)
        text = onnx_import.import_model(onnx_path, elide_weights=True)
        mlir = os.path.join(ZOO_DIR, name + ".mlir")
        with open(mlir, "w") as f:
            f.write(text)
        _, dt, peak = timed([FUSE_OPT, mlir, "--fuse-ops", "-o", os.devnull])
        times[layers] = (dt, peak)
    return times


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = [n for n in rows if "refused" not in rows[n]]
    series = [("ONNX ops", "onnx_ops"), ("TOSA→linalg", "linalg"),
              ("upstream elementwise fusion", "upstream"), ("fuse-opt --fuse-ops", "ours")]
    fig, ax = plt.subplots(figsize=(max(11, 0.45 * len(names)), 4.5))
    w = 0.8 / (len(series) + 1)
    for k, (label, key) in enumerate(series):
        ax.bar([i + k * w for i in range(len(names))], [rows[n][key] for n in names], w, label=label)
    dnn = [DNNFUSION.get(n, (None, None))[1] for n in names]
    ax.bar([i + len(series) * w for i in range(len(names))], [d or 0 for d in dnn], w,
           label="DNNFusion (published, after)", hatch="//")
    ax.set_xticks([i + 0.4 for i in range(len(names))])
    ax.set_xticklabels(names, rotation=60, ha="right", fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("kernels (log)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    return True


def main():
    ap = argparse.ArgumentParser(prog="run.py", description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(models.ZOO))
    ap.add_argument("--no-numerics", action="store_true")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--iree", action="store_true",
                    help="IREE's dispatch counts (installs it into build/peers-venv)")
    ap.add_argument("--no-gpu", action="store_true", help="no sm_90 lowering and ptxas")
    ap.add_argument("--numerics-only", action="store_true",
                    help="rerun only the CPU numerics (the model library) of models "
                    "with a cached row, keeping the rest of the row")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "Zoo.md"))
    args = ap.parse_args()
    if args.iree:
        peers.ensure_venv([g for g in peers.PACKAGES if g[0].startswith("iree")])
    ptxas = None if args.no_gpu else ptxas_path()
    cache = os.path.join(ZOO_DIR, "rows.json")
    kept = json.load(open(cache)) if os.path.exists(cache) else {}
    for name in args.models.split(","):
        print("zoo: %s ..." % name, file=sys.stderr, flush=True)
        if args.numerics_only and "refused" not in kept.get(name, {"refused": ""}):
            row = kept[name]
            row["err"], row["err_time"] = numerics(name, emulated=False)["err"]
            kept[name] = row
            with open(cache, "w") as f:
                json.dump(kept, f, indent=1)
            print("zoo: %s %s (%.0f s)" % (name, row["err"], row["err_time"]),
                  file=sys.stderr, flush=True)
            continue
        try:
            row = structure_row(name)
        except Exception as e:  # a refusal is a row with its reason
            row = {"refused": str(e).strip().splitlines()[-1][:160]}
        if "refused" not in row:
            row["iree"] = iree_dispatches(name) if args.iree else "not run"
            row["gpu"] = gpu_kernels(name, ptxas) if ptxas else "no ptxas"
            if not args.no_numerics:
                for key, (err, seconds) in numerics(name).items():
                    row[key], row[key + "_time"] = err, seconds
        kept[name] = row
        with open(cache, "w") as f:
            json.dump(kept, f, indent=1)
        print("zoo: %s %s" % (name, row), file=sys.stderr, flush=True)
    rows = {n: kept[n] for n in models.ZOO if n in kept}
    lines = ["| model | ONNX ops | TOSA ops | kernels: TOSA→linalg | + upstream elementwise fusion | + fuse-opt --fuse-ops | IREE dispatches | DNNFusion (published) | intermediates MB: unfused → ours | transposes: before → after | fuse-opt time | peak memory | --fuse-lower-to-cpu time | GPU kernels assembled (sm_90) | max rel. error vs PyTorch, CPU: model library through its C ABI (reduced input; compile + load + run time) | same, emulated GPU |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        if "refused" in r:
            lines.append("| %s | refused: %s |%s" % (name, r["refused"].replace("|", "/"),
                                                     " |" * 14))
            continue
        d = DNNFUSION.get(name)
        timed_err = [("%s (%.0f s)" % (r[k], r[k + "_time"])) if k in r else "not run"
                     for k in ("err", "emu")]
        lines.append("| %s%s | %d | %d | %d | %d | **%d** | %s | %s | %.1f → %.1f | %d → %d | %.2f s | %.0f MB | %.1f s | %s | %s | %s |" % (
            name, " (weights elided)" if name in ELIDED else "", r["onnx_ops"], r["tosa_ops"],
            r["linalg"], r["upstream"], r["ours"], r["iree"], "%d → %d" % d if d else "—",
            r["mb_before"], r["mb_after"], r["tr_before"], r["tr_after"], r["time"], r["peak"],
            r["lower"], r["gpu"], *timed_err))
    table = "\n".join(lines)
    scaling = kept.get("gpt2 scaling", "")  # the last run's, with --no-scaling
    if not args.no_scaling:
        t = gpt2_scaling()
        scaling = ("\n\nGPT-2 compile time (`fuse-opt --fuse-ops`, weights elided): "
                   + ", ".join("%d layers %.2f s (%.0f MB)" % (k, v[0], v[1]) for k, v in t.items())
                   + "; 48/12 layers: %.2fx time for 4x the layers." % (t[48][0] / t[12][0]))
        kept["gpt2 scaling"] = scaling
        with open(cache, "w") as f:
            json.dump(kept, f, indent=1)
    svg = os.path.join(os.path.dirname(args.out), "zoo_kernels.svg")
    plotted = plot(rows, svg)
    with open(args.out, "w") as f:
        f.write(ZOO_HEADER + table + scaling + "\n" +
                ("\n![kernels per model](zoo_kernels.svg)\n" if plotted else "") + ZOO_FOOTER)
    print(table + scaling)
    return 0


ZOO_HEADER = """# The model zoo: kernels, memory traffic, compile cost, numerics

Generated by `bench/zoo/run.py` (do not edit): PyTorch models with seeded
random weights, exported to ONNX (opset 17; PyTorch folds BatchNorm into
the convolutions on export), imported with `fuse-import`, compiled with
`fuse-opt --fuse-ops`. Kernels are counted as `bench/fusion.py` counts
them: every linalg op (and pad) after plain TOSA→linalg, after upstream
elementwise fusion, and fuse.groups plus ops left outside them for ours.
IREE's column counts the `flow.dispatch` ops `iree-compile
--compile-to=flow` (llvm-cpu) makes of the same ONNX file, after
`iree-import-onnx`. DNNFusion's column is its published Table 5 (layers
before → after fusion, their own operator counts on their own exports),
for the models both have. The GPU column lowers the fused module with
`--fuse-lower-to-nvvm` (sm_90) and assembles every kernel with ptxas:
assembled / kernels, and the kernels that spill with the largest spill
(bytes of spill stores a thread). The numeric check runs each model at a
reduced input size (python/fuse_dialect/bench/zoo/models.py) and
compares with PyTorch on the same input: on the CPU, the model library
`fuse-compile` writes (`--fuse-ops`, `--fuse-lower-to-cpu`, opt, llc,
linked with its runtime) loaded and run through its C ABI
(`fuse_dialect.load`, no mlir-runner; the time is compile, load and run);
and through the GPU pipeline with each GPU thread a CPU thread, under
mlir-runner. A model the importer refuses is a row with the refusal.

"""
ZOO_FOOTER = """
DNNFusion also reports fusion rates over TVM of 1.3–8.1× and over TFLite
of 1.3–8.8× (fused layers); ours over upstream MLIR's elementwise fusion is
the ratio of the two kernel columns above.
"""

if __name__ == "__main__":
    sys.exit(main())
