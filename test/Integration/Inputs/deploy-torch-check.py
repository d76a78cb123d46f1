"""The deploy example's model and image in PyTorch: the zoo model `NAME`
(seeded weights, as exported) on classify.py's preprocessed image, against
the compiled library's scores.
    deploy-torch-check.py NAME MODEL.so IMAGE.ppm CLASSIFY.py"""
import importlib.util
import sys

import numpy as np
import torch

import fuse_dialect
from fuse_dialect.bench.zoo import models

name, library, image, script = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("classify", script)
classify = importlib.util.module_from_spec(spec)
spec.loader.exec_module(classify)
model = fuse_dialect.load(library)
shape = model.inputs[0].shape
x = classify.preprocess(classify.read_ppm(image), shape[2], shape[3])
ours = model(x)[0].reshape(-1).astype(np.float64)
with torch.no_grad():
    theirs = models.build(name, small=True)(torch.from_numpy(x)).numpy().reshape(-1)
err = float(np.max(np.abs(ours - theirs)) / np.max(np.abs(theirs)))
print("scores match PyTorch:", err < 1e-4)
# The top class, where PyTorch's is ahead of its runner-up by more than the
# error (otherwise either order is right).
first, second = np.argsort(-theirs, kind="stable")[:2]
print("top class agrees:", int(np.argmax(ours)) == int(first) or
      theirs[first] - theirs[second] <= 4 * err * np.max(np.abs(theirs)))
