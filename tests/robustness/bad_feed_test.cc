// Bad feeds at Run(): every case is an error naming the input, and the same
// predictor then runs a correct input bit-identically to a fresh predictor.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/base/tensor.h"
#include "tests/robustness/robustness_util.h"

namespace lite {
namespace robustness {
namespace {

using paddle::lite_api::shape_t;

class BadFeed : public ::testing::Test {
 protected:
  void SetUp() override {
    auto p = CreateFromBytes(DefaultModelBytes());
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    predictor_ = *p;
    auto fresh = CreateFromBytes(DefaultModelBytes());
    ASSERT_TRUE(fresh.ok());
    ASSERT_TRUE(RunDefaultInput(fresh->get(), {2, 3, 32, 32}).ok());
    expected_ = Output(fresh->get());
  }
  void TearDown() override {
    // Whatever the case did, the predictor still works and gives the same
    // bits as one that never saw a bad input.
    ASSERT_TRUE(RunDefaultInput(predictor_.get(), {2, 3, 32, 32}).ok());
    EXPECT_EQ(Output(predictor_.get()), expected_);
  }
  static std::vector<float> Output(PaddlePredictor* p) {
    auto out = p->GetOutput(0);
    std::vector<float> v(static_cast<size_t>(out->numel()));
    out->CopyToCpu(v.data());
    return v;
  }
  std::shared_ptr<PaddlePredictor> predictor_;
  std::vector<float> expected_;
};

TEST_F(BadFeed, InputNeverSet) {
  Status s = predictor_->Run();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(Has(s, "input 'x'") && Has(s, "not set")) << s.message();
}

TEST_F(BadFeed, WrongRank) {
  Status s = RunDefaultInput(predictor_.get(), {3, 32, 32});
  EXPECT_TRUE(Has(s, "input 'x'") && Has(s, "[3, 32, 32]")) << s.message();
}

TEST_F(BadFeed, WrongFixedDim) {
  Status s = RunDefaultInput(predictor_.get(), {1, 4, 32, 32});
  EXPECT_TRUE(Has(s, "input 'x'") && Has(s, "[-1, 3, 32, 32]")) << s.message();
}

TEST_F(BadFeed, WrongDtype) {
  auto in = predictor_->GetInput(0);
  in->Resize({1, 3, 32, 32});
  std::vector<int32_t> data(3 * 32 * 32, 1);
  in->CopyFromCpu(data.data());
  Status s = predictor_->Run();
  EXPECT_TRUE(Has(s, "input 'x'") && Has(s, "int32") && Has(s, "float32")) << s.message();
}

TEST_F(BadFeed, NegativeDim) {
  auto in = predictor_->GetInput(0);
  std::vector<float> data(3 * 32 * 32, 1.f);
  in->Resize({1, 3, 32, 32});
  in->CopyFromCpu(data.data());
  in->Resize({-1, 3, 32, 32});
  Status s = predictor_->Run();
  EXPECT_TRUE(Has(s, "input 'x'") && Has(s, "negative")) << s.message();
}

TEST_F(BadFeed, ResizedLargerAfterTheData) {
  auto in = predictor_->GetInput(0);
  std::vector<float> data(3 * 32 * 32, 1.f);
  in->Resize({1, 3, 32, 32});
  in->CopyFromCpu(data.data());
  in->Resize({4, 3, 32, 32});
  Status s = predictor_->Run();
  EXPECT_TRUE(Has(s, "input 'x'") && Has(s, "holds only")) << s.message();
}

TEST_F(BadFeed, SourceShorterThanTheShape) {
  auto in = predictor_->GetInput(0);
  std::vector<float> data(10, 1.f);
  in->Resize({1, 3, 32, 32});
  Status s = in->CopyFromCpu(data.data(), static_cast<int64_t>(data.size()));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(s, "10") && Has(s, "3072")) << s.message();
}

TEST_F(BadFeed, DestinationShorterThanTheOutput) {
  ASSERT_TRUE(RunDefaultInput(predictor_.get(), {1, 3, 32, 32}).ok());
  std::vector<float> small(3);
  Status s = predictor_->GetOutput(0)->CopyToCpu(small.data(), 3);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(s, "3") && Has(s, "10")) << s.message();
}

TEST_F(BadFeed, BatchBeyondTheTensorLimit) {
  const uint64_t old_limit = MaxTensorBytes();
  SetMaxTensorBytes(uint64_t{64} << 20);
  // 64 MiB allows the input (48 MiB) but not conv1's output (128 MiB; conv1
  // carries the fused batch_norm + relu and writes relu1.out).
  Status s = RunDefaultInput(predictor_.get(), {4096, 3, 32, 32});
  SetMaxTensorBytes(old_limit);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Has(s, "relu1.out") && Has(s, "conv2d") && Has(s, "per-tensor limit"))
      << s.message();
}

TEST_F(BadFeed, OutOfRangeIndexesAndUnknownNames) {
  EXPECT_EQ(predictor_->GetInput(1), nullptr);
  EXPECT_EQ(predictor_->GetInput(-1), nullptr);
  EXPECT_EQ(predictor_->GetOutput(7), nullptr);
  auto in = predictor_->GetInputByName("y");
  EXPECT_EQ(in.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Has(in.status(), "'y'") && Has(in.status(), "x")) << in.status().message();
  auto out = predictor_->GetOutputByName("logits");
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Has(out.status(), "prob")) << out.status().message();
}

}  // namespace
}  // namespace robustness
}  // namespace lite
