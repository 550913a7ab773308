// A program outside the engine's build, as a user writes one against the
// deploy bundle (tools/bundle_aarch64.sh: include/ + lib/libpaddle_lite_plus.so):
// loads an optimized model (.nb, from opt) with the light predictor, feeds
// every float input 0.5 (dynamic extents set to 1), runs it and prints each
// output's shape and largest element.
//
//   g++ -std=c++17 predict.cc -I include -L lib -lpaddle_lite_plus
//       -Wl,-rpath,'$ORIGIN/../lib' -o predict      (one command line)
//   ./predict model.nb
#include <cstdio>
#include <vector>

#include "lite/api/paddle_api.h"

using namespace paddle::lite_api;  // NOLINT

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL.nb\n", argv[0]);
    return 2;
  }
  MobileConfig config;
  config.set_model_from_file(argv[1]);
  auto predictor = CreatePaddlePredictor<MobileConfig>(config);
  if (!predictor.ok()) {
    std::fprintf(stderr, "predict: %s\n", predictor.status().ToString().c_str());
    return 1;
  }
  std::vector<TensorInfo> inputs = (*predictor)->GetInputInfos();
  std::vector<std::vector<float>> data(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype != DataType::kFloat32) {
      std::fprintf(stderr, "predict: input %s is not float32\n", inputs[i].name.c_str());
      return 1;
    }
    shape_t shape = inputs[i].shape;
    int64_t n = 1;
    for (int64_t& d : shape) {
      if (d < 0) d = 1;
      n *= d;
    }
    data[i].assign(n, 0.5f);
    auto input = (*predictor)->GetInput(static_cast<int>(i));
    input->Resize(shape);
    Status s = input->CopyFromCpu(data[i].data(), n);
    if (!s.ok()) {
      std::fprintf(stderr, "predict: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  Status s = (*predictor)->Run();
  if (!s.ok()) {
    std::fprintf(stderr, "predict: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<std::string> names = (*predictor)->GetOutputNames();
  for (size_t i = 0; i < names.size(); ++i) {
    auto output = (*predictor)->GetOutput(static_cast<int>(i));
    const float* y = output->data<float>();
    std::printf("output %s [", names[i].c_str());
    shape_t shape = output->shape();
    for (size_t d = 0; d < shape.size(); ++d) std::printf(d ? ", %lld" : "%lld", static_cast<long long>(shape[d]));
    std::printf("]");
    if (y != nullptr && output->numel() > 0) {
      int64_t best = 0;
      for (int64_t k = 1; k < output->numel(); ++k) {
        if (y[k] > y[best]) best = k;
      }
      std::printf(" max %g at %lld", y[best], static_cast<long long>(best));
    }
    std::printf("\n");
  }
  return 0;
}
