// What the engine says about the crash inputs the fuzzers found (the
// regression tests only show they no longer crash): each input, decoded as
// the predictor fuzzer does (byte 0 even: u32 program size, program,
// params), must give the error that names the fault.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "lite/api/paddle_api.h"

namespace {

using paddle::lite_api::CxxConfig;
using paddle::lite_api::PaddlePredictor;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The full predictor made from a predictor-fuzzer input.
paddle::lite_api::StatusOr<std::shared_ptr<PaddlePredictor>> FromFuzzInput(
    const std::string& path) {
  const std::string bytes = ReadFile("tests/fuzz/regressions/predictor/" + path);
  EXPECT_GT(bytes.size(), 5u) << path;
  if (bytes.size() <= 5) return lite::InvalidArgument("short fuzz input " + path);
  EXPECT_EQ(bytes[0] % 2, 0) << path << " is not a full-predictor input";
  uint32_t model_size = 0;
  std::memcpy(&model_size, bytes.data() + 1, 4);
  const std::string rest = bytes.substr(5);
  const std::string model = rest.substr(0, model_size);
  const std::string params = rest.substr(model.size());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  return paddle::lite_api::CreatePaddlePredictor(config);
}

TEST(FuzzFindings, OpReadingAnUnwrittenVarIsAnErrorNamingIt) {
  // batch_norm's output was renamed from bn1.out to bn0.out: relu reads
  // bn1.out, which nothing writes.
  // Load-time validation (lite/core/program_validator.h) refuses it at
  // creation; Instruction::Run's data check still guards the run.
  auto predictor = FromFuzzInput("crash_relu_reads_unwritten_var");
  ASSERT_FALSE(predictor.ok());
  const lite::Status& s = predictor.status();
  EXPECT_NE(s.message().find("bn1.out"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("never produced before it"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("relu"), std::string::npos) << s.ToString();
}

}  // namespace
