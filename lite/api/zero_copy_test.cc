// Model I/O description from the API, and caller-owned input / output
// memory (Tensor::ShareExternalData, GetMutableOutput): results equal the
// copying path, caller inputs are never written, outputs land in the
// caller's buffer, and a too-small buffer is an error naming the output.
#include <gtest/gtest.h>

#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "tools/default_model.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

std::shared_ptr<PaddlePredictor> MakePredictor() {
  auto m = lite::tools::MakeDefaultModel();
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : nullptr;
}

std::vector<float> Input(int batch) {
  return lite::tools::LcgUniform(static_cast<size_t>(batch) * 3 * 32 * 32, 7, -1, 1);
}

std::vector<float> CopyingRun(PaddlePredictor* p, const std::vector<float>& in, int batch) {
  auto t = p->GetInput(0);
  t->Resize({batch, 3, 32, 32});
  EXPECT_TRUE(t->CopyFromCpu(in.data(), static_cast<int64_t>(in.size())).ok());
  EXPECT_TRUE(p->Run().ok());
  std::vector<float> out(static_cast<size_t>(batch) * 10);
  EXPECT_TRUE(p->GetOutput(0)->CopyToCpu(out.data(), static_cast<int64_t>(out.size())).ok());
  return out;
}

TEST(ModelInfo, InputsAndOutputsWithShapesAndDtypes) {
  auto p = MakePredictor();
  ASSERT_TRUE(p);
  auto in = p->GetInputInfos();
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].name, "x");
  EXPECT_EQ(in[0].shape, (shape_t{-1, 3, 32, 32}));
  EXPECT_EQ(in[0].dtype, DataType::kFloat32);
  auto out = p->GetOutputInfos();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "prob");
  EXPECT_EQ(out[0].shape, (shape_t{-1, 10}));
}

TEST(ZeroCopy, CallerInputIsReadInPlaceAndNeverWritten) {
  auto p = MakePredictor();
  ASSERT_TRUE(p);
  std::vector<float> in = Input(2);
  const std::vector<float> expected = CopyingRun(p.get(), in, 2);
  const std::vector<float> pristine = in;

  auto t = p->GetInput(0);
  t->Resize({2, 3, 32, 32});
  ASSERT_TRUE(t->ShareExternalData(in.data(), static_cast<int64_t>(in.size())).ok());
  EXPECT_EQ(t->data<float>(), in.data());
  ASSERT_TRUE(p->Run().ok());
  std::vector<float> got(20);
  ASSERT_TRUE(p->GetOutput(0)->CopyToCpu(got.data(), 20).ok());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(in, pristine);

  // Back to copying: the caller's old buffer is left alone.
  std::vector<float> other = Input(2);
  for (float& v : other) v *= 0.5f;
  CopyingRun(p.get(), other, 2);
  EXPECT_EQ(in, pristine);
}

TEST(ZeroCopy, ExternalInputSmallerThanTheShapeIsRefused) {
  auto p = MakePredictor();
  ASSERT_TRUE(p);
  std::vector<float> in = Input(1);
  auto t = p->GetInput(0);
  t->Resize({2, 3, 32, 32});
  ASSERT_TRUE(t->ShareExternalData(in.data(), static_cast<int64_t>(in.size())).ok());
  Status s = p->Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("input 'x'"), std::string::npos) << s.message();
}

TEST(ZeroCopy, OutputLandsInTheCallersBuffer) {
  auto p = MakePredictor();
  ASSERT_TRUE(p);
  std::vector<float> in = Input(3);
  const std::vector<float> expected = CopyingRun(p.get(), in, 3);
  std::vector<float> out(30, -1.f);
  auto o = p->GetMutableOutput(0);
  ASSERT_TRUE(o);
  ASSERT_TRUE(o->ShareExternalData(out.data(), 30).ok());
  auto t = p->GetInput(0);
  t->Resize({3, 3, 32, 32});
  ASSERT_TRUE(t->CopyFromCpu(in.data(), static_cast<int64_t>(in.size())).ok());
  ASSERT_TRUE(p->Run().ok());
  EXPECT_EQ(out, expected);
  EXPECT_EQ(p->GetOutput(0)->data<float>(), out.data());
  EXPECT_EQ(p->GetMutableOutput(5), nullptr);
}

TEST(ZeroCopy, TooSmallOutputBufferIsAnErrorNamingTheOutput) {
  auto p = MakePredictor();
  ASSERT_TRUE(p);
  std::vector<float> out(10);
  ASSERT_TRUE(p->GetMutableOutput(0)->ShareExternalData(out.data(), 10).ok());
  std::vector<float> in = Input(2);
  auto t = p->GetInput(0);
  t->Resize({2, 3, 32, 32});
  ASSERT_TRUE(t->CopyFromCpu(in.data(), static_cast<int64_t>(in.size())).ok());
  Status s = p->Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fetch column 0"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("[2, 10]"), std::string::npos) << s.message();
}

}  // namespace
