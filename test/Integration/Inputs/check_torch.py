"""Checks utils/fuse-to-torch: for each model given, the generated PyTorch
program and our unfused CPU lowering agree on the same random inputs.
Prints "MODEL: OK (max rel err E)" or "MODEL: MISMATCH ..." and exits 1 on
any mismatch. Usage: check_torch.py FUSE_OPT WORKDIR MODEL.mlir..."""
import os
import subprocess
import sys

import numpy as np

from fuse_dialect import mlirtext, runner  # python/ on PYTHONPATH (test/lit.cfg.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

fuse_opt, work, models = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(work, exist_ok=True)
bad = 0
for model in models:
    name = os.path.splitext(os.path.basename(model))[0]
    prog = os.path.join(work, name + "_torch.py")
    subprocess.run([sys.executable, os.path.join(ROOT, "utils", "fuse-to-torch"), model,
                    "-o", prog, "--fuse-opt", fuse_opt], check=True)
    text = open(model).read()
    sig = mlirtext.find_func(text, "model")
    ins = [tuple(mlirtext.parse_ttype(t, "argument").shape) for t in sig.args]
    outs = [tuple(mlirtext.parse_ttype(t, "result").shape) for t in sig.results]
    rng = np.random.default_rng(0)
    xs = [rng.uniform(-1, 1, s).astype(np.float32) for s in ins]
    npz_in, npz_out = os.path.join(work, name + "_in.npz"), os.path.join(work, name + "_out.npz")
    np.savez(npz_in, **{"arg%d" % i: x for i, x in enumerate(xs)})
    subprocess.run([sys.executable, prog, "--calls", "1", "--device", "cpu", "--no-compile",
                    "--inputs", npz_in, "--save-outputs", npz_out], check=True,
                   capture_output=True)
    torch_out = np.load(npz_out)
    ours = runner.run_model(text, xs, [(s, np.float32) for s in outs], fuse_opt, passes=())
    err = max(float(np.max(np.abs(torch_out["arr_%d" % i].reshape(-1) - o)))
              / (1.0 + float(np.max(np.abs(o)))) for i, o in enumerate(ours))
    ok = err <= 1e-4
    bad += not ok
    print("%s: %s (max rel err %.1e)" % (name, "OK" if ok else "MISMATCH", err))
sys.exit(1 if bad else 0)
