"""Prints a DenseNet-style dense block of argv[1] layers (NHWC TOSA): layer
k reads the concatenation of the block's input and every earlier layer's
output through BatchNorm (a per-channel multiply-add), ReLU and a 1x1
convolution to 4 channels; the block returns the last concatenation. The
groups of the last layers read dozens of buffers."""
import sys

n = int(sys.argv[1])
c0, g, hw = 8, 4, 6


def t(c):
    return "tensor<1x%dx%dx%dxf32>" % (hw, hw, c)


print("func.func @model(%%x: %s) -> %s {" % (t(c0), t(c0 + n * g)))
print('  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>')
print('  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>')
parts = ["%x"]
for k in range(n + 1):
    c = c0 + k * g
    print("  %%c%d = tosa.concat %s {axis = 3 : i32} : (%s) -> %s" % (
        k, ", ".join(parts), ", ".join([t(c0)] + [t(g)] * k), t(c)))
    if k == n:
        break
    # Per-channel constants that differ by layer and channel.
    scale = ", ".join("%.3f" % (0.5 + 0.01 * ((k * 7 + i) % 50)) for i in range(c))
    shift = ", ".join("%.3f" % (0.02 * ((k + i) % 9) - 0.08) for i in range(c))
    weights = ", ".join("%.3f" % (0.05 * ((k * 3 + i * 5) % 11) - 0.25) for i in range(g * c))
    print('  %%s%d = "tosa.const"() <{values = dense<[[[[%s]]]]> : tensor<1x1x1x%dxf32>}> : () -> tensor<1x1x1x%dxf32>' % (k, scale, c, c))
    print('  %%b%d = "tosa.const"() <{values = dense<[[[[%s]]]]> : tensor<1x1x1x%dxf32>}> : () -> tensor<1x1x1x%dxf32>' % (k, shift, c, c))
    print('  %%w%d = "tosa.const"() <{values = dense<[%s]> : tensor<%dxf32>}> : () -> tensor<%dxf32>' % (k, weights, g * c, g * c))
    print('  %%ws%d = tosa.const_shape {values = dense<[%d, 1, 1, %d]> : tensor<4xindex>} : () -> !tosa.shape<4>' % (k, g, c))
    print('  %%wr%d = tosa.reshape %%w%d, %%ws%d : (tensor<%dxf32>, !tosa.shape<4>) -> tensor<%dx1x1x%dxf32>' % (k, k, k, g * c, g, c))
    print('  %%m%d = tosa.mul %%c%d, %%s%d, %%sh : (%s, tensor<1x1x1x%dxf32>, tensor<1xi8>) -> %s' % (k, k, k, t(c), c, t(c)))
    print('  %%a%d = tosa.add %%m%d, %%b%d : (%s, tensor<1x1x1x%dxf32>) -> %s' % (k, k, k, t(c), c, t(c)))
    print('  %%r%d = tosa.clamp %%a%d {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (%s) -> %s' % (k, k, t(c), t(c)))
    print('  %%bias%d = "tosa.const"() <{values = dense<0.01> : tensor<%dxf32>}> : () -> tensor<%dxf32>' % (k, g, g))
    print('  %%y%d = tosa.conv2d %%r%d, %%wr%d, %%bias%d, %%z, %%z {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (%s, tensor<%dx1x1x%dxf32>, tensor<%dxf32>, tensor<1xf32>, tensor<1xf32>) -> %s' % (k, k, k, k, t(c), g, c, g, t(g)))
    parts.append("%%y%d" % k)
print("  return %%c%d : %s" % (n, t(c0 + n * g)))
print("}")
