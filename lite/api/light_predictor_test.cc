// The light predictor (MobileConfig) against the full predictor on the
// generated default model: same outputs bitwise, from a file and from a
// buffer; re-saving is byte-stable; the protobuf form keeps kernel picks;
// config and load errors are Status values naming the file; saving is all
// or nothing (SaveOptimizedVerified).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/api/saving.h"
#include "lite/core/program.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_util.h"
#include "tools/default_model.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::ModelType;
using paddle::lite_api::PaddlePredictor;

class LightPredictorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = lite::testing_util::MakeTempDir("light_predictor");
    model_dir_ = dir_ + "/default_model";
    ASSERT_TRUE(lite::tools::WriteDefaultModel(model_dir_).ok());
    CxxConfig config;
    config.set_model_dir(model_dir_);
    auto full = CreatePaddlePredictor<CxxConfig>(config);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    full_ = *full;
    want_ = RunOn(full_.get());
  }

  // Feeds the LCG input (batch 2) and returns the output.
  std::vector<float> RunOn(PaddlePredictor* p) {
    auto in = p->GetInput(0);
    EXPECT_NE(in, nullptr);
    if (!in) return {};
    in->Resize({2, 3, 32, 32});
    auto x = lite::tools::LcgUniform(2 * 3 * 32 * 32, 1, -1, 1);
    in->CopyFromCpu(x.data());
    lite::Status s = p->Run();
    EXPECT_TRUE(s.ok()) << s.ToString();
    auto out = p->GetOutput(0);
    EXPECT_EQ(out->shape(), (std::vector<int64_t>{2, 10}));
    std::vector<float> v(out->numel());
    out->CopyToCpu(v.data());
    return v;
  }

  void ExpectBitwiseEqual(const std::vector<float>& got) {
    ASSERT_EQ(got.size(), want_.size());
    EXPECT_EQ(std::memcmp(got.data(), want_.data(), got.size() * sizeof(float)), 0);
  }

  std::string dir_, model_dir_;
  std::shared_ptr<PaddlePredictor> full_;
  std::vector<float> want_;
};

TEST_F(LightPredictorTest, FileAndBufferMatchTheFullPredictor) {
  // A softmax over 10 classes per row.
  ASSERT_EQ(want_.size(), 20u);
  float row = 0;
  for (int i = 0; i < 10; ++i) row += want_[i];
  EXPECT_NEAR(row, 1.0f, 1e-5);

  ASSERT_TRUE(full_->SaveOptimizedModel(dir_ + "/m", ModelType::kNaiveBuffer).ok());
  MobileConfig config;
  config.set_model_from_file(dir_ + "/m.nb");
  config.set_threads(2);
  auto light = CreatePaddlePredictor<MobileConfig>(config);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  EXPECT_EQ((*light)->GetInputNames(), std::vector<std::string>{"x"});
  EXPECT_EQ((*light)->GetOutputNames(), std::vector<std::string>{"prob"});
  EXPECT_EQ((*light)->GetPassLog(), "");
  EXPECT_TRUE((*light)->GetPassDots().empty());
  EXPECT_FALSE(full_->GetPassLog().empty());
  ExpectBitwiseEqual(RunOn(light->get()));
  ExpectBitwiseEqual(RunOn(light->get()));  // a second run is the same

  std::string bytes;
  ASSERT_TRUE(lite::ReadFileToString(dir_ + "/m.nb", &bytes).ok());
  MobileConfig from_buffer;
  from_buffer.set_model_from_buffer(bytes);
  auto light2 = CreatePaddlePredictor<MobileConfig>(from_buffer);
  ASSERT_TRUE(light2.ok()) << light2.status().ToString();
  ExpectBitwiseEqual(RunOn(light2->get()));

  // Re-saving from the light predictor (after runs) gives the same bytes.
  ASSERT_TRUE((*light)->SaveOptimizedModel(dir_ + "/again.nb", ModelType::kNaiveBuffer).ok());
  std::string again;
  ASSERT_TRUE(lite::ReadFileToString(dir_ + "/again.nb", &again).ok());
  EXPECT_EQ(again, bytes);
}

TEST_F(LightPredictorTest, ProtobufFormRecordsKernelsAndRunsTheSame) {
  const std::string out = dir_ + "/pb";
  ASSERT_TRUE(full_->SaveOptimizedModel(out, ModelType::kProtobuf).ok());
  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  ASSERT_TRUE(lite::LoadCombinedModel(out + "/__model__", out + "/__params__", &program,
                                      &scope).ok());
  ASSERT_FALSE(program.blocks[0].ops.empty());
  for (const auto& op : program.blocks[0].ops) {
    EXPECT_FALSE(op.GetAttr<std::string>(lite::kKernelKeyAttr, "").empty()) << op.Type();
  }
  CxxConfig config;
  config.set_model_dir(out);
  auto again = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ExpectBitwiseEqual(RunOn(again->get()));
}

TEST_F(LightPredictorTest, SavingKeepsEveryBlock) {
  // A program with a sub-block (as subgraph ops carry) keeps it in both forms.
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  for (auto& op : m.program.blocks[0].ops) op.SetAttr(lite::kKernelKeyAttr, std::string("k"));
  lite::cpp::BlockDesc sub;
  sub.idx = 1;
  sub.parent_idx = 0;
  sub.ops.emplace_back("relu");
  m.program.blocks.push_back(sub);
  ASSERT_TRUE(lite::SaveOptimized(m.program, *m.scope, dir_ + "/blocks",
                                  ModelType::kProtobuf).ok());
  ASSERT_TRUE(lite::SaveOptimized(m.program, *m.scope, dir_ + "/blocks",
                                  ModelType::kNaiveBuffer).ok());
  lite::cpp::ProgramDesc pb_program;
  lite::Scope s1;
  ASSERT_TRUE(lite::LoadModel({dir_ + "/blocks"}, &pb_program, &s1).ok());
  EXPECT_EQ(pb_program.blocks.size(), 2u);
  EXPECT_TRUE(lite::testing_util::ProgramsEqual(pb_program, m.program));
}

TEST_F(LightPredictorTest, SavingIsAllOrNothing) {
  // The verifier sees the written model under a temporary name; when it
  // fails, the final name keeps what it held and no temporary file remains.
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  for (auto& op : m.program.blocks[0].ops) op.SetAttr(lite::kKernelKeyAttr, std::string("k"));
  const std::string out = dir_ + "/atomic";
  ASSERT_EQ(::mkdir(out.c_str(), 0755), 0);
  auto refuse = [](const std::string& temporary) {
    return lite::DataLoss("refused " + temporary);
  };
  for (ModelType type : {ModelType::kNaiveBuffer, ModelType::kProtobuf}) {
    std::string seen;
    auto accept = [&seen](const std::string& temporary) {
      seen = temporary;
      return lite::IsRegularFile(temporary) || lite::IsDirectory(temporary)
                 ? lite::Status::OK()
                 : lite::NotFound(temporary);
    };
    std::string written;
    lite::Status s = lite::SaveOptimizedVerified(m.program, *m.scope, out + "/m", type, refuse,
                                                 &written);
    EXPECT_EQ(s.code(), lite::StatusCode::kDataLoss) << s.ToString();
    std::vector<std::string> names;
    ASSERT_TRUE(lite::ListDirectory(out, &names).ok());
    EXPECT_TRUE(names.empty()) << names[0];

    ASSERT_TRUE(lite::SaveOptimizedVerified(m.program, *m.scope, out + "/m", type, accept,
                                            &written).ok());
    EXPECT_NE(seen, written);
    EXPECT_EQ(seen.rfind(out + "/m", 0), 0u) << seen;  // same directory
    const std::string first = type == ModelType::kNaiveBuffer ? written : written + "/__model__";
    std::string before, after;
    ASSERT_TRUE(lite::ReadFileToString(first, &before).ok());
    // A failing rewrite leaves the earlier model as it was.
    lite::cpp::ProgramDesc other = m.program;
    other.blocks[0].ops.pop_back();
    EXPECT_FALSE(lite::SaveOptimizedVerified(other, *m.scope, out + "/m", type, refuse).ok());
    ASSERT_TRUE(lite::ReadFileToString(first, &after).ok());
    EXPECT_EQ(before, after);
    // A verified rewrite replaces it (into the existing protobuf directory).
    ASSERT_TRUE(lite::SaveOptimizedVerified(other, *m.scope, out + "/m", type, accept).ok());
    ASSERT_TRUE(lite::ReadFileToString(first, &after).ok());
    EXPECT_NE(before, after);
    ASSERT_TRUE(lite::ListDirectory(out, &names).ok());
    EXPECT_EQ(names, std::vector<std::string>{type == ModelType::kNaiveBuffer ? "m.nb" : "m"});
    std::remove(first.c_str());
    if (type == ModelType::kProtobuf) {
      std::remove((written + "/__params__").c_str());
      ::rmdir(written.c_str());
    }
  }
}

TEST_F(LightPredictorTest, UnoptimizedProgramsAreNotSaved) {
  lite::tools::DefaultModel m = lite::tools::MakeDefaultModel();
  lite::Status s = lite::SaveOptimized(m.program, *m.scope, dir_ + "/raw", ModelType::kNaiveBuffer);
  EXPECT_EQ(s.code(), lite::StatusCode::kFailedPrecondition) << s.ToString();
  EXPECT_NE(s.message().find("raw.nb"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("feed"), std::string::npos) << s.message();
}

TEST(LightPredictorConfig, ErrorsAreStatusValues) {
  MobileConfig none;
  auto p = CreatePaddlePredictor<MobileConfig>(none);
  EXPECT_EQ(p.status().code(), lite::StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("no model set"), std::string::npos);

  MobileConfig both;
  both.set_model_from_file("a.nb");
  both.set_model_from_buffer("xyz");
  p = CreatePaddlePredictor<MobileConfig>(both);
  EXPECT_EQ(p.status().code(), lite::StatusCode::kInvalidArgument);

  MobileConfig missing;
  missing.set_model_from_file("/nonexistent/model.nb");
  p = CreatePaddlePredictor<MobileConfig>(missing);
  EXPECT_EQ(p.status().code(), lite::StatusCode::kNotFound);
  EXPECT_NE(p.status().message().find("/nonexistent/model.nb"), std::string::npos);

  MobileConfig garbage;
  garbage.set_model_from_buffer("this is not a model");
  p = CreatePaddlePredictor<MobileConfig>(garbage);
  EXPECT_EQ(p.status().code(), lite::StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("<nb buffer>"), std::string::npos);
}

}  // namespace

namespace {

// The profile covers runs since the last ResetProfile (warm-up excluded).
TEST(PredictorProfile, ResetForgetsEarlierRuns) {
  const std::string dir = lite::testing_util::MakeTempDir("profile_reset") + "/model";
  ASSERT_TRUE(lite::tools::WriteDefaultModel(dir).ok());
  CxxConfig config;
  config.set_model_dir(dir);
  config.set_profiling(true);
  auto p = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto in = (*p)->GetInput(0);
  in->Resize({1, 3, 32, 32});
  auto x = lite::tools::LcgUniform(3 * 32 * 32, 1, -1, 1);
  in->CopyFromCpu(x.data());
  ASSERT_TRUE((*p)->Run().ok());
  EXPECT_NE((*p)->GetProfileSummary(), "");
  (*p)->ResetProfile();
  EXPECT_EQ((*p)->GetProfileSummary(), "") << "nothing profiled since the reset";
  EXPECT_EQ((*p)->GetProfileDetail(), "");
  ASSERT_TRUE((*p)->Run().ok());
  EXPECT_NE((*p)->GetProfileSummary().find("conv2d"), std::string::npos);
  // Per op: a header, one row per op (program order: feed first, fetch
  // last), a total.
  const std::string detail = (*p)->GetProfileDetail();
  std::vector<std::string> lines;
  for (size_t b = 0, e; b < detail.size(); b = e + 1) {
    e = detail.find('\n', b);
    if (e == std::string::npos) e = detail.size();
    lines.push_back(detail.substr(b, e - b));
  }
  ASSERT_GE(lines.size(), 4u) << detail;
  EXPECT_NE(lines[1].find("feed"), std::string::npos) << detail;
  EXPECT_NE(lines[lines.size() - 2].find("fetch"), std::string::npos) << detail;
  EXPECT_NE(lines.back().find("total"), std::string::npos) << detail;
}

}  // namespace
