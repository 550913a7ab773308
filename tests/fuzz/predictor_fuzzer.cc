// Fuzz target: predictor creation + one run from a fuzzed small model.
// Input layout (the seeds follow it, see tools/fuzz.sh):
//   byte 0 even: full predictor (CxxConfig::set_model_buffer, host):
//                bytes 1..4 u32 LE program size, then the program bytes,
//                then the combined params bytes (the rest)
//   byte 0 odd:  light predictor (MobileConfig::set_model_from_buffer) on
//                bytes 1.. as a .nb file, its checksum corrected first
// Every input of a created predictor is fed deterministic data of its feed
// var's dims (-1 read as 1; skipped past 64K elements), Run once, and every
// float output is read in full (so a shape that overstates the buffer shows
// up under ASan). Tensors are capped at 64 MiB (SetMaxTensorBytes).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/base/scope.h"
#include "lite/base/tensor.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

using paddle::lite_api::PaddlePredictor;

constexpr int64_t kMaxFeedElements = int64_t{1} << 16;

bool FeedAll(const lite::cpp::ProgramDesc& program, PaddlePredictor* predictor) {
  if (program.blocks.empty()) return false;
  const auto names = predictor->GetInputNames();
  for (size_t i = 0; i < names.size(); ++i) {
    const lite::cpp::VarDesc* v = program.blocks[0].FindVar(names[i]);
    if (v == nullptr) return false;
    std::vector<int64_t> shape;
    int64_t n = 1;
    for (int64_t d : v->dims) {
      shape.push_back(d < 0 ? 1 : d);
      if (shape.back() > kMaxFeedElements) return false;
      n *= shape.back();
      if (n > kMaxFeedElements) return false;
    }
    auto in = predictor->GetInput(static_cast<int>(i));
    if (!in) return false;
    in->Resize(shape);
    switch (v->dtype) {
      case lite::DataType::kInt64: {
        int64_t* p = in->mutable_data<int64_t>();
        for (int64_t k = 0; k < n; ++k) p[k] = k % 7;
        break;
      }
      case lite::DataType::kInt32: {
        int32_t* p = in->mutable_data<int32_t>();
        for (int64_t k = 0; k < n; ++k) p[k] = static_cast<int32_t>(k % 7);
        break;
      }
      default: {
        float* p = in->mutable_data<float>();
        for (int64_t k = 0; k < n; ++k) p[k] = static_cast<float>(k % 11) / 5.0f - 1.0f;
      }
    }
  }
  return true;
}

void RunOnce(const lite::cpp::ProgramDesc& program, PaddlePredictor* predictor) {
  if (!FeedAll(program, predictor)) return;
  if (!predictor->Run().ok()) return;
  for (size_t i = 0; i < predictor->GetOutputNames().size(); ++i) {
    auto out = predictor->GetOutput(static_cast<int>(i));
    if (!out) continue;
    const float* p = out->data<float>();
    if (p == nullptr) continue;
    volatile float sum = 0;
    for (int64_t k = 0; k < out->numel(); ++k) sum = sum + p[k];
  }
}

void FullPredictor(const std::string& bytes) {
  if (bytes.size() < 4) return;
  uint32_t model_size = 0;
  std::memcpy(&model_size, bytes.data(), 4);
  const std::string rest = bytes.substr(4);
  const std::string model = rest.substr(0, model_size);
  const std::string params = rest.substr(model.size());
  auto program = lite::LoadProgramFromBuffer(model, "<fuzz model>");
  paddle::lite_api::CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  auto predictor = paddle::lite_api::CreatePaddlePredictor(config);
  if (!predictor.ok()) return;
  if (!program.ok()) __builtin_trap();  // created from a program that does not load
  RunOnce(*program, predictor->get());
}

void LightPredictor(const std::string& nb) {
  lite::cpp::ProgramDesc program;
  lite::Scope scratch;
  const bool loads =
      lite::naive_buffer::LoadFromBuffer(nb, "<fuzz nb>", &program, &scratch).ok();
  paddle::lite_api::MobileConfig config;
  config.set_model_from_buffer(nb);
  auto predictor = paddle::lite_api::CreatePaddlePredictor(config);
  if (!predictor.ok()) return;
  if (!loads) __builtin_trap();  // created from a .nb that does not load
  RunOnce(program, predictor->get());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool limited = (lite::SetMaxTensorBytes(uint64_t{64} << 20), true);
  (void)limited;
  if (size < 1) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    FullPredictor(rest);
  } else {
    LightPredictor(lite::fuzz::WithValidNbChecksum(rest));
  }
  return 0;
}
