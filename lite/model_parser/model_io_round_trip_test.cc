// Save -> load round trips of a program using every attribute type and var
// kind with weights of every dtype (one with LoD): combined buffers,
// combined files, non-combined directories, and LoadModel/FindModelFiles on
// each layout.
#include <gtest/gtest.h>

#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

using namespace testing_util;  // NOLINT

class RoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = MakeSampleProgram();
    scope_ = MakeSampleScope(program_);
  }

  // Every param of program_ is in `scope`, equal and persistable.
  void ExpectParamsLoaded(const Scope& scope) {
    std::vector<std::string> names = ParamNames(program_);
    ASSERT_EQ(names.size(), 12u);
    EXPECT_EQ(names.front(), "A_upper");  // byte-wise order
    for (const auto& n : names) {
      const Variable* v = scope.FindVar(n);
      ASSERT_NE(v, nullptr) << n;
      EXPECT_TRUE(TensorsEqual(scope_->FindVar(n)->GetTensor(), v->GetTensor())) << n;
      EXPECT_TRUE(v->GetTensor().persistable()) << n;
    }
    EXPECT_EQ(scope.FindVar("reader"), nullptr);  // READER vars have no record
    EXPECT_EQ(scope.FindVar("x"), nullptr);
  }

  cpp::ProgramDesc program_;
  std::unique_ptr<Scope> scope_;
};

TEST_F(RoundTrip, CombinedBuffers) {
  std::string model, params;
  Status s = SaveCombinedModelToBuffers(program_, *scope_, &model, &params);
  ASSERT_TRUE(s.ok()) << s.ToString();

  cpp::ProgramDesc loaded;
  Scope scope;
  s = LoadCombinedModelFromBuffers(model, params, &loaded, &scope);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(program_, loaded));
  ExpectParamsLoaded(scope);
  EXPECT_TRUE(scope.FindVar("p_lod")->GetTensor().lod() == (LoD{{0, 2, 5}}));

  // Saving what was loaded gives the same bytes.
  std::string model2, params2;
  ASSERT_TRUE(SaveCombinedModelToBuffers(loaded, scope, &model2, &params2).ok());
  EXPECT_EQ(model2, model);
  EXPECT_EQ(params2, params);

  // The params are exactly the sorted records, nothing else.
  std::string expect;
  for (const auto& n : ParamNames(program_)) {
    WriteTensorRecord(scope_->FindVar(n)->GetTensor(), &expect);
  }
  EXPECT_EQ(params, expect);

  // LoadModel with buffers.
  ModelSource src;
  src.model_buffer = model;
  src.params_buffer = params;
  cpp::ProgramDesc via_source;
  Scope scope3;
  ASSERT_TRUE(LoadModel(src, &via_source, &scope3).ok());
  ExpectParamsLoaded(scope3);
}

TEST_F(RoundTrip, CombinedFilesAndDirectoryDetection) {
  const std::string dir = MakeTempDir("rt_combined");
  const std::string model_file = JoinPath(dir, "inference.pdmodel");
  const std::string params_file = JoinPath(dir, "inference.pdiparams");
  Status s = SaveCombinedModel(program_, *scope_, model_file, params_file);
  ASSERT_TRUE(s.ok()) << s.ToString();

  cpp::ProgramDesc loaded;
  Scope scope;
  s = LoadCombinedModel(model_file, params_file, &loaded, &scope);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(program_, loaded));
  ExpectParamsLoaded(scope);

  auto files = FindModelFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_TRUE(files->combined);
  EXPECT_EQ(files->model_file, model_file);
  EXPECT_EQ(files->params_file, params_file);

  ModelSource by_dir;
  by_dir.model_dir = dir;
  cpp::ProgramDesc p2;
  Scope s2;
  ASSERT_TRUE(LoadModel(by_dir, &p2, &s2).ok());
  EXPECT_TRUE(ProgramsEqual(program_, p2));
  ExpectParamsLoaded(s2);

  ModelSource by_files;
  by_files.model_file = model_file;
  by_files.params_file = params_file;
  cpp::ProgramDesc p3;
  Scope s3;
  ASSERT_TRUE(LoadModel(by_files, &p3, &s3).ok());
  ExpectParamsLoaded(s3);

  // The other combined spellings are recognised too.
  for (auto names : {std::make_pair("__model__", "__params__"),
                     std::make_pair("model", "params")}) {
    const std::string d = MakeTempDir(std::string("rt_") + names.first);
    std::string m, p;
    ReadFileToString(model_file, &m);
    ReadFileToString(params_file, &p);
    WriteFileOrDie(JoinPath(d, names.first), m);
    WriteFileOrDie(JoinPath(d, names.second), p);
    auto f = FindModelFiles(d);
    ASSERT_TRUE(f.ok());
    EXPECT_TRUE(f->combined) << names.first;
    ModelSource src;
    src.model_dir = d;
    cpp::ProgramDesc p4;
    Scope s4;
    ASSERT_TRUE(LoadModel(src, &p4, &s4).ok()) << names.first;
    ExpectParamsLoaded(s4);
  }
}

TEST_F(RoundTrip, NonCombinedDirectory) {
  std::string model, params;
  ASSERT_TRUE(SaveCombinedModelToBuffers(program_, *scope_, &model, &params).ok());
  for (const char* model_name : {"__model__", "model", "model.pdmodel"}) {
    const std::string dir = MakeTempDir(std::string("rt_noncombined_") + model_name);
    WriteFileOrDie(JoinPath(dir, model_name), model);
    for (const auto& n : ParamNames(program_)) {
      std::string rec;
      WriteTensorRecord(scope_->FindVar(n)->GetTensor(), &rec);
      WriteFileOrDie(JoinPath(dir, n), rec);
    }
    WriteFileOrDie(JoinPath(dir, "unused.w_0"), "ignored: not in the program");

    cpp::ProgramDesc loaded;
    Scope scope;
    Status s = LoadNonCombinedModel(dir, &loaded, &scope);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(ProgramsEqual(program_, loaded));
    ExpectParamsLoaded(scope);
    EXPECT_EQ(scope.FindVar("unused.w_0"), nullptr);

    auto files = FindModelFiles(dir);
    ASSERT_TRUE(files.ok());
    EXPECT_FALSE(files->combined);
    EXPECT_EQ(files->model_file, JoinPath(dir, model_name));
    ModelSource src;
    src.model_dir = dir;
    cpp::ProgramDesc p2;
    Scope s2;
    ASSERT_TRUE(LoadModel(src, &p2, &s2).ok()) << model_name;
    ExpectParamsLoaded(s2);
  }
}

TEST_F(RoundTrip, ExplicitProgramFileWithParamDirectory) {
  std::string model, params;
  ASSERT_TRUE(SaveCombinedModelToBuffers(program_, *scope_, &model, &params).ok());
  const std::string dir = MakeTempDir("rt_explicit");
  const std::string model_file = JoinPath(dir, "prog.bin");
  WriteFileOrDie(model_file, model);
  for (const auto& n : ParamNames(program_)) {
    std::string rec;
    WriteTensorRecord(scope_->FindVar(n)->GetTensor(), &rec);
    WriteFileOrDie(JoinPath(dir, n), rec);
  }
  ModelSource src;
  src.model_file = model_file;
  src.model_dir = dir;
  cpp::ProgramDesc loaded;
  Scope scope;
  Status s = LoadModel(src, &loaded, &scope);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ExpectParamsLoaded(scope);
}

TEST_F(RoundTrip, LoadIntoScopeReplacesExistingTensors) {
  std::string model, params;
  ASSERT_TRUE(SaveCombinedModelToBuffers(program_, *scope_, &model, &params).ok());
  Scope scope;
  Tensor* old = scope.Var("p_f32")->GetMutableTensor();
  old->Resize({1});
  old->mutable_data<float>()[0] = 42.0f;
  cpp::ProgramDesc loaded;
  ASSERT_TRUE(LoadCombinedModelFromBuffers(model, params, &loaded, &scope).ok());
  ExpectParamsLoaded(scope);
}

}  // namespace
}  // namespace lite
