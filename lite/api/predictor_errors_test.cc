// Failures at predictor creation and at Run() come back as Status values
// naming what is wrong (input, op, file), and a predictor that rejected a run
// still works once given proper input: nothing is lost, nothing aborts.
#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/base/tensor.h"
#include "lite/model_parser/model_saver.h"
#include "tools/default_model.h"

namespace {

using namespace paddle::lite_api;  // NOLINT

std::shared_ptr<PaddlePredictor> CreateFrom(const lite::tools::DefaultModel& m,
                                            Status* status) {
  std::string model, params;
  EXPECT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  *status = p.status();
  return p.ok() ? *p : nullptr;
}

bool Contains(const Status& s, const std::string& text) {
  return s.message().find(text) != std::string::npos;
}

class PredictorErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s;
    predictor_ = CreateFrom(lite::tools::MakeDefaultModel(), &s);
    ASSERT_TRUE(predictor_) << s.ToString();
  }
  Status RunWith(const shape_t& shape) {
    auto in = predictor_->GetInput(0);
    in->Resize(shape);
    std::vector<float> data(in->numel() > 0 ? in->numel() : 0, 0.5f);
    in->CopyFromCpu(data.data());
    return predictor_->Run();
  }
  std::shared_ptr<PaddlePredictor> predictor_;
};

TEST_F(PredictorErrors, RunWithoutInputNamesTheInput) {
  Status s = predictor_->Run();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(Contains(s, "input 'x'")) << s.message();
}

TEST_F(PredictorErrors, WrongRankAndWrongFixedDimAreRejected) {
  Status rank = RunWith({3, 32, 32});
  EXPECT_EQ(rank.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(rank, "input 'x'") && Contains(rank, "[3, 32, 32]") &&
              Contains(rank, "[-1, 3, 32, 32]"))
      << rank.message();
  Status channels = RunWith({1, 4, 32, 32});
  EXPECT_EQ(channels.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(channels, "[1, 4, 32, 32]")) << channels.message();
  // Nothing is lost: a proper input runs.
  EXPECT_TRUE(RunWith({2, 3, 32, 32}).ok());
  EXPECT_EQ(predictor_->GetOutput(0)->shape(), (shape_t{2, 10}));
  // The spatial size of an NCHW input is not fixed by its declaration.
  EXPECT_TRUE(RunWith({1, 3, 40, 24}).ok());
  EXPECT_EQ(predictor_->GetOutput(0)->shape(), (shape_t{1, 10}));
}

TEST_F(PredictorErrors, WrongDtypeIsRejected) {
  auto in = predictor_->GetInput(0);
  in->Resize({1, 3, 32, 32});
  std::vector<int64_t> ids(3 * 32 * 32, 1);
  in->CopyFromCpu(ids.data());
  Status s = predictor_->Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(s, "int64") && Contains(s, "float32")) << s.message();
}

TEST_F(PredictorErrors, UnknownInputNameAndIndex) {
  auto t = predictor_->GetInputByName("nope");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(Contains(t.status(), "nope") && Contains(t.status(), "x")) << t.status().message();
  EXPECT_EQ(predictor_->GetInput(5), nullptr);
  EXPECT_EQ(predictor_->GetOutput(-1), nullptr);
}

TEST_F(PredictorErrors, FeedResizedPastItsDataIsRefusedAndThePredictorStaysUsable) {
  auto in = predictor_->GetInput(0);
  in->Resize({1, 3, 32, 32});
  std::vector<float> data(3 * 32 * 32, 0.5f);
  in->CopyFromCpu(data.data());
  in->Resize({8, 3, 32, 32});  // larger, data not set again
  Status s = predictor_->Run();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(s, "input 'x'") && Contains(s, "set the data after the last Resize"))
      << s.message();
  EXPECT_TRUE(RunWith({1, 3, 32, 32}).ok());
}

TEST_F(PredictorErrors, AFeedBeyondTheTensorLimitIsAnErrorNotACrash) {
  const uint64_t saved = lite::MaxTensorBytes();
  lite::SetMaxTensorBytes(1 << 20);  // 1 MiB
  // 64 x 3 x 32 x 32 floats fit (768 KiB), conv2d's 64 x 8 x 32 x 32 output
  // (2 MiB) does not.
  Status s = RunWith({64, 3, 32, 32});
  lite::SetMaxTensorBytes(saved);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s, "conv2d") && Contains(s, "per-tensor limit")) << s.message();
  EXPECT_TRUE(RunWith({1, 3, 32, 32}).ok());
}

TEST_F(PredictorErrors, OutputsByNameAndTheVersion) {
  ASSERT_TRUE(RunWith({1, 3, 32, 32}).ok());
  auto prob = predictor_->GetOutputByName("prob");
  ASSERT_TRUE(prob.ok()) << prob.status().ToString();
  EXPECT_EQ((*prob)->shape(), (shape_t{1, 10}));
  auto missing = predictor_->GetOutputByName("nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.status(), "no output named 'nope'") &&
              Contains(missing.status(), "prob"))
      << missing.status().message();
  EXPECT_EQ(GetVersion(), "0.1.0");
}

TEST(PredictorCreation, AnAttributeOfTheWrongTypeIsNamedNotDefaulted) {
  auto m = lite::tools::MakeDefaultModel();
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() == "conv2d") {
      op.SetAttr("strides", std::string("2,2"));  // a string where ints belong
      break;
    }
  }
  Status s;
  EXPECT_FALSE(CreateFrom(m, &s));
  EXPECT_TRUE(Contains(s, "conv2d") && Contains(s, "attribute 'strides' has type STRING"))
      << s.message();
}

TEST(PredictorCreation, AbsurdThreadCountIsAnError) {
  auto m = lite::tools::MakeDefaultModel();
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_threads(100000);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Contains(p.status(), "threads = 100000")) << p.status().message();
}

TEST(PredictorCreation, MissingModelDirNamesThePath) {
  CxxConfig config;
  config.set_model_dir("/nonexistent/model_dir");
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Contains(p.status(), "/nonexistent/model_dir")) << p.status().message();
}

TEST(PredictorCreation, UnknownOpIsNamed) {
  auto m = lite::tools::MakeDefaultModel();
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() == "softmax") op.SetType("no_such_softmax");
  }
  Status s;
  EXPECT_EQ(CreateFrom(m, &s), nullptr);
  EXPECT_TRUE(Contains(s, "no_such_softmax")) << s.message();
  EXPECT_TRUE(Contains(s, "host/float/NCHW")) << s.message();  // the places tried
}

TEST(PredictorCreation, UnsupportedAttributeValueIsNamed) {
  auto m = lite::tools::MakeDefaultModel();
  for (auto& op : m.program.blocks[0].ops) {
    if (op.Type() == "pool2d") op.SetAttr("pooling_type", std::string("lp"));
  }
  Status s;
  EXPECT_EQ(CreateFrom(m, &s), nullptr);
  EXPECT_TRUE(Contains(s, "pool2d")) << s.message();
  EXPECT_TRUE(Contains(s, "lp")) << s.message();
}

TEST(PredictorCreation, MobileConfigWithoutModel) {
  MobileConfig config;
  auto p = CreatePaddlePredictor<MobileConfig>(config);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
