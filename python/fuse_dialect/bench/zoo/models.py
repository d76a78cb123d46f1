"""The model zoo: PyTorch definitions with seeded random weights.

Every entry maps a name to (constructor, input shapes at full size,
input shapes for the numeric check). Torchvision provides the CNNs and
ViT; U-Net and GPT-2 are written here in plain PyTorch (GPT-2 small: 12
layers, 768 wide, 12 heads, GELU with tanh, causal attention).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    """The U-Net of Ronneberger et al. (2015) with padded convolutions,
    BatchNorm and bilinear upsampling (as in the common PyTorch port)."""

    def __init__(self, cin=3, classes=2, width=64):
        super().__init__()
        w = [width * 2 ** i for i in range(5)]
        self.inc = DoubleConv(cin, w[0])
        self.downs = nn.ModuleList(DoubleConv(w[i], w[i + 1]) for i in range(3))
        self.bottom = DoubleConv(w[3], w[4] // 2)
        ups = []
        for i in range(3, -1, -1):
            ups.append(DoubleConv(w[i] * 2, (w[i] // 2) if i else w[0]))
        self.ups = nn.ModuleList(ups)
        self.out = nn.Conv2d(w[0], classes, 1)

    def forward(self, x):
        skips = [self.inc(x)]
        for d in self.downs:
            skips.append(d(F.max_pool2d(skips[-1], 2)))
        y = self.bottom(F.max_pool2d(skips[-1], 2))
        for up, skip in zip(self.ups, reversed(skips)):
            y = F.interpolate(y, scale_factor=2, mode="bilinear", align_corners=False)
            y = up(torch.cat([skip, y], dim=1))
        return self.out(y)


class GPT2Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.fc_out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.heads = heads

    def forward(self, x, mask):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, t, h, d // h).transpose(1, 2)
        k = k.view(b, t, h, d // h).transpose(1, 2)
        v = v.view(b, t, h, d // h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // h))
        att = att.masked_fill(mask[:, :, :t, :t] == 0, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        u = self.fc(self.ln2(x))
        u = 0.5 * u * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u * u * u)))
        return x + self.fc_out(u)


class GPT2(nn.Module):
    def __init__(self, layers=12, d=768, heads=12, vocab=50257, ctx=1024):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(GPT2Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.register_buffer("mask", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

    def forward(self, ids):
        t = ids.shape[1]
        pos = torch.arange(t, dtype=torch.long).unsqueeze(0)
        x = self.wte(ids) + self.wpe(pos)
        for blk in self.blocks:
            x = blk(x, self.mask)
        return self.head(self.ln_f(x))


class BertEncoder(nn.Module):
    """A BERT-base encoder (Devlin et al., 2019): token, position and
    segment embeddings, LayerNorm, 12 post-LN encoder layers (768 wide, 12
    heads, GELU with erf, torch's own nn.TransformerEncoderLayer), and the
    pooled output of the first token (dense + tanh)."""

    def __init__(self, layers=12, d=768, heads=12, vocab=30522, ctx=512):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        self.seg = nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d, eps=1e-12)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu",
                                           batch_first=True, layer_norm_eps=1e-12)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.pool = nn.Linear(d, d)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], dtype=torch.long).unsqueeze(0)
        x = self.ln(self.tok(ids) + self.pos(pos) + self.seg(torch.zeros_like(ids)))
        return torch.tanh(self.pool(self.encoder(x)[:, 0]))


class AudioM5(nn.Module):
    """An audio-style 1-D convolution stack (M5 of Dai et al., 2017, on raw
    8 kHz audio): a wide strided first convolution, then 3-tap ones, each
    with BatchNorm, ReLU and max pooling; global average pool, classifier."""

    def __init__(self, classes=35, width=32):
        super().__init__()
        chans = [1, width, width, 2 * width, 2 * width]
        layers = []
        for i in range(4):
            k, s = (80, 4) if i == 0 else (3, 1)
            layers += [nn.Conv1d(chans[i], chans[i + 1], k, stride=s, padding=k // 2 if i else 38),
                       nn.BatchNorm1d(chans[i + 1]), nn.ReLU(), nn.MaxPool1d(4 if i < 3 else 2)]
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(chans[-1], classes)

    def forward(self, x):
        return self.fc(self.features(x).mean(dim=2))


class SegmentationOutput(nn.Module):
    """torchvision's segmentation models return {"out": ...}: the tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def torchvision_model(name, **kw):
    import torchvision.models as tvm
    if hasattr(tvm.segmentation, name):
        return SegmentationOutput(getattr(tvm.segmentation, name)(
            weights=None, weights_backbone=None, **kw))
    if hasattr(tvm.video, name):
        return getattr(tvm.video, name)(weights=None, **kw)
    return getattr(tvm, name)(weights=None, **kw)


def build(name, small=False):
    """The model in eval mode with seeded random weights (BatchNorm running
    statistics randomized too, so that folding them is exercised)."""
    torch.manual_seed(0)
    if name == "gpt2":
        m = GPT2(vocab=4096 if small else 50257, ctx=128)
    elif name.startswith("gpt2_"):
        m = GPT2(layers=int(name.split("_")[1]), ctx=128)
    elif name == "unet":
        m = UNet(width=16 if small else 64)
    elif name == "audio_m5":
        m = AudioM5()
    elif name == "bert_base":
        m = BertEncoder(vocab=4096 if small else 30522)
    elif name == "inception_v3":
        m = torchvision_model(name, aux_logits=False, init_weights=True)
    else:
        m = torchvision_model(name)
    for mod in m.modules():
        # Zero-initialized layers (ViT's classifier head) would make every
        # output 0 and the numeric check vacuous.
        if isinstance(mod, nn.Linear) and not mod.weight.detach().any():
            nn.init.normal_(mod.weight, std=0.02)
        if isinstance(mod, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            mod.running_mean.uniform_(-0.1, 0.1)
            mod.running_var.uniform_(0.5, 1.5)
    return m.eval()


# name -> (input shape at full size, input shape for the numeric check)
ZOO = {
    "resnet50": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "mobilenet_v2": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "inception_v3": ((1, 3, 299, 299), (1, 3, 96, 96)),
    "shufflenet_v2_x1_0": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "efficientnet_b0": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "vgg16": ((1, 3, 224, 224), (1, 3, 224, 224)),
    "vit_b_16": ((1, 3, 224, 224), (1, 3, 224, 224)),
    "unet": ((1, 3, 256, 256), (1, 3, 64, 64)),
    "gpt2": ((1, 64), (1, 16)),
    # Grouped convolutions (each one op: linalg.conv_2d_nhwgc_gfhwc).
    "regnet_y_400mf": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "resnext50_32x4d": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "densenet121": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "audio_m5": ((1, 1, 8000), (1, 1, 8000)),
    "bert_base": ((1, 128), (1, 16)),
    # The other torchvision classification families (AlexNet's adaptive
    # pool and the window transformers need their full input size).
    "alexnet": ((1, 3, 224, 224), (1, 3, 224, 224)),
    "wide_resnet50_2": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "googlenet": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "squeezenet1_1": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "mobilenet_v3_large": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "mnasnet1_0": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "efficientnet_v2_s": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "convnext_tiny": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "swin_t": ((1, 3, 224, 224), (1, 3, 224, 224)),
    "maxvit_t": ((1, 3, 224, 224), (1, 3, 224, 224)),
    # Segmentation (torchvision.models.segmentation; the "out" map).
    "fcn_resnet50": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "deeplabv3_resnet50": ((1, 3, 224, 224), (1, 3, 64, 64)),
    "lraspp_mobilenet_v3_large": ((1, 3, 224, 224), (1, 3, 64, 64)),
    # Video: 3-D convolutions (torchvision.models.video), [N, C, T, H, W].
    "r3d_18": ((1, 3, 16, 112, 112), (1, 3, 8, 32, 32)),
}


def example_input(name, shape):
    g = torch.Generator().manual_seed(1)
    if name.startswith("gpt2") or name == "bert_base":
        full = 50257 if name.startswith("gpt2") else 30522
        vocab = 4096 if shape[1] <= 16 else full
        return torch.randint(0, vocab, shape, generator=g)
    return torch.randn(shape, generator=g)
