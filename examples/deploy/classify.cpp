//===- classify.cpp - Classify an image with a compiled model -------------===//
//
// A program that deploys a model compiled by fuse-compile, using nothing of
// FuseDialect but two headers (include/FuseDialect-runtime) and the model
// library it loads at run time:
//
//   fuse-compile resnet50.onnx -o resnet50.so
//   c++ -std=c++17 -O2 -I<prefix>/include classify.cpp -ldl -o classify
//   ./classify resnet50.so image.ppm [labels.txt]
//
// The image (binary PPM, "P6") is resized to the model's input (nearest
// pixel), scaled to [0, 1] and normalized with ImageNet's mean and
// standard deviation into a 1 x 3 x H x W float32 tensor (NCHW, as
// torchvision's models take it); the scores are the model's first output.
// Prints the top five classes (with labels.txt: one label per line, the
// class's line). classify.py does the same in Python, step for step, so
// that both print the same lines.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect-runtime/FuseLoader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

namespace {

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

/// A binary PPM (P6, 8 bits per channel); false with a message otherwise.
bool readPpm(const char *path, Image &image, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int maxValue = 0;
  if (!(in >> magic) || magic != "P6") {
    error = std::string(path) + ": not a binary PPM (P6) image";
    return false;
  }
  auto skipComments = [&] {
    while (in >> std::ws && in.peek() == '#')
      in.ignore(1 << 20, '\n');
  };
  skipComments();
  in >> image.width;
  skipComments();
  in >> image.height;
  skipComments();
  in >> maxValue;
  if (!in || image.width <= 0 || image.height <= 0 || image.width > 1 << 14 ||
      image.height > 1 << 14 || maxValue != 255) {
    error = std::string(path) + ": unsupported PPM header (need 8-bit, at "
                                "most 16384 x 16384)";
    return false;
  }
  in.get(); // the one whitespace before the pixels
  image.rgb.resize(size_t(image.width) * image.height * 3);
  if (!in.read(reinterpret_cast<char *>(image.rgb.data()), image.rgb.size())) {
    error = std::string(path) + ": the pixels are cut short";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: classify MODEL.so IMAGE.ppm [LABELS.txt]\n");
    return 2;
  }
  FuseModelApi model;
  char error[1024];
  if (!fuseLoadModel(argv[1], &model, error, sizeof error)) {
    std::fprintf(stderr, "classify: %s\n", error);
    return 1;
  }
  const FuseTensorInfo *in = model.fuseModelInput(0);
  const FuseTensorInfo *out = model.fuseModelOutput(0);
  if (model.fuseModelNumInputs() != 1 || model.fuseModelNumOutputs() != 1 ||
      in->element_type != FUSE_FLOAT32 || in->rank != 4 || in->shape[0] != 1 ||
      in->shape[1] != 3 || out->element_type != FUSE_FLOAT32) {
    std::fprintf(stderr,
                 "classify: %s does not take one 1x3xHxW float32 "
                 "image and return float32 scores\n",
                 argv[1]);
    return 1;
  }
  Image image;
  std::string message;
  if (!readPpm(argv[2], image, message)) {
    std::fprintf(stderr, "classify: %s\n", message.c_str());
    return 1;
  }

  // Nearest pixel, then (x / 255 - mean) / std per channel, NCHW.
  const int64_t h = in->shape[2], w = in->shape[3];
  const float mean[3] = {0.485f, 0.456f, 0.406f};
  const float stddev[3] = {0.229f, 0.224f, 0.225f};
  std::vector<float> pixels(3 * h * w);
  for (int c = 0; c < 3; ++c)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x) {
        int64_t sy = y * image.height / h, sx = x * image.width / w;
        float v = image.rgb[(sy * image.width + sx) * 3 + c] / 255.0f;
        pixels[(c * h + y) * w + x] = (v - mean[c]) / stddev[c];
      }

  int64_t classes = 1;
  for (int d = 0; d < out->rank; ++d)
    classes *= out->shape[d];
  if (classes < 1) {
    std::fprintf(stderr, "classify: the model returns no scores\n");
    return 1;
  }
  std::vector<float> scores(classes);
  FuseSession *session = nullptr;
  FuseTensor x = {pixels.data(), FUSE_FLOAT32, in->rank, in->shape};
  FuseTensor y = {scores.data(), FUSE_FLOAT32, out->rank, out->shape};
  if (model.fuseSessionCreate(nullptr, &session) != FUSE_OK) {
    std::fprintf(stderr, "classify: %s\n", model.fuseLastError());
    return 1;
  }
  FuseStatus status = model.fuseSessionRun(session, &x, 1, &y, 1);
  model.fuseSessionDestroy(session);
  if (status != FUSE_OK) {
    std::fprintf(stderr, "classify: %s\n", model.fuseLastError());
    return 1;
  }

  std::vector<std::string> labels;
  if (argc > 3) {
    std::ifstream file(argv[3]);
    for (std::string line; std::getline(file, line);)
      labels.push_back(line);
  }
  // Softmax in double; the top five, ties to the lower class.
  double top = *std::max_element(scores.begin(), scores.end()), sum = 0;
  for (float s : scores)
    sum += std::exp(double(s) - top);
  std::vector<int64_t> order(classes);
  std::iota(order.begin(), order.end(), 0);
  int64_t k = std::min<int64_t>(5, classes);
  std::partial_sort(
      order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
        return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
      });
  std::printf("model %s, image %dx%d -> %lldx%lld\n", model.fuseModelName(),
              image.width, image.height, (long long)h, (long long)w);
  for (int64_t i = 0; i < k; ++i) {
    int64_t c = order[i];
    std::printf("%lld %.4f %s\n", (long long)c,
                std::exp(double(scores[c]) - top) / sum,
                size_t(c) < labels.size() ? labels[c].c_str() : "");
  }
  fuseUnloadModel(&model);
  return 0;
}
