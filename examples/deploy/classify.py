"""Classify an image with a compiled model, from Python: classify.cpp's
steps, one for one, so that both print the same lines.

    fuse-compile resnet50.onnx -o resnet50.so
    python3 classify.py resnet50.so image.ppm [labels.txt]

Needs numpy and fuse_dialect (python/ of the source tree or lib/python of
an installed prefix on PYTHONPATH)."""
import sys

import numpy as np

import fuse_dialect

MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def read_ppm(path):
    """A binary PPM (P6, 8 bits per channel) as an H x W x 3 uint8 array."""
    data = open(path, "rb").read()
    fields, at = [], 0
    while len(fields) < 4:
        while at < len(data) and data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at) + 1
            continue
        end = at
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise SystemExit("classify: %s: need a binary 8-bit PPM (P6)" % path)
    width, height = int(fields[1]), int(fields[2])
    pixels = np.frombuffer(data, np.uint8, width * height * 3, at + 1)
    return pixels.reshape(height, width, 3)


def preprocess(image, h, w):
    """Nearest pixel, then (x / 255 - mean) / std per channel: 1x3xHxW."""
    ys = np.arange(h) * image.shape[0] // h
    xs = np.arange(w) * image.shape[1] // w
    x = image[ys][:, xs].astype(np.float32) / np.float32(255)
    return ((x - MEAN) / STD).transpose(2, 0, 1)[None].copy()


def main(library, image_path, labels_path=None):
    model = fuse_dialect.load(library)
    shape = model.inputs[0].shape
    image = read_ppm(image_path)
    [scores] = model(preprocess(image, shape[2], shape[3]))[:1]
    scores = scores.reshape(-1)
    labels = open(labels_path).read().splitlines() if labels_path else []
    top = float(scores.max())
    p = np.exp(scores.astype(np.float64) - top)
    p /= p.sum()
    order = sorted(range(len(scores)), key=lambda c: (-scores[c], c))[:5]
    print("model %s, image %dx%d -> %dx%d" % (model.name, image.shape[1], image.shape[0],
                                               shape[2], shape[3]))
    for c in order:
        print("%d %.4f %s" % (c, p[c], labels[c] if c < len(labels) else ""))


if __name__ == "__main__":
    main(*sys.argv[1:])
