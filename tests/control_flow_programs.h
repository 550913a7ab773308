// Helpers of the control-flow end-to-end tests: op and var descs of
// programs built in the tests, a full predictor from a built program, and
// "every path" (full predictor, .nb in the light predictor, saved protobuf
// reloaded) and the opt tool over one program. Header-only, testonly.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_util.h"
#include "tools/opt_main.h"

namespace control_flow_test {

using lite::DataType;
using lite::cpp::OpDesc;
using lite::cpp::ProgramDesc;
using lite::cpp::VarDesc;
using lite::cpp::VarKind;
using lite::testing_util::TensorVarDesc;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::ModelType;
using paddle::lite_api::PaddlePredictor;

inline VarDesc Activation(const std::string& name, DataType t, std::vector<int64_t> dims) {
  return TensorVarDesc(name, t, std::move(dims), /*persistable=*/false);
}

inline OpDesc Op(const std::string& type, std::map<std::string, std::vector<std::string>> in,
          std::map<std::string, std::vector<std::string>> out) {
  OpDesc op(type);
  for (auto& kv : in) op.SetInput(kv.first, kv.second);
  for (auto& kv : out) op.SetOutput(kv.first, kv.second);
  return op;
}

inline OpDesc Feed(const std::string& var, int col) {
  OpDesc op = Op("feed", {{"X", {"feed"}}}, {{"Out", {var}}});
  op.SetAttr("col", col);
  return op;
}

inline OpDesc Fetch(const std::string& var, int col) {
  OpDesc op = Op("fetch", {{"X", {var}}}, {{"Out", {"fetch"}}});
  op.SetAttr("col", col);
  return op;
}

inline OpDesc FillConstant(const std::string& out, int paddle_dtype, std::vector<int64_t> shape,
                    float value) {
  OpDesc op = Op("fill_constant", {}, {{"Out", {out}}});
  op.SetAttr("dtype", paddle_dtype);
  op.SetAttr("shape", shape);
  op.SetAttr("value", value);
  return op;
}

inline void SetSubBlock(OpDesc* op, int block) {
  op->SetRawAttr("sub_block", lite::cpp::Attribute{lite::cpp::AttrType::BLOCK, int32_t{block}});
}


inline constexpr int kPaddleBool = 0, kPaddleInt32 = 2, kPaddleInt64 = 3, kPaddleFloat = 5;

// The program (with the weights in `weights`, if any) as a full predictor.
inline lite::StatusOr<std::shared_ptr<PaddlePredictor>> CreateFull(
    const ProgramDesc& program, const std::vector<lite::Place>& places,
    const lite::Scope* weights = nullptr) {
  std::string model, params;
  lite::Scope empty;
  const lite::Scope& scope = weights ? *weights : empty;
  RETURN_IF_ERROR(lite::SaveCombinedModelToBuffers(program, scope, &model, &params));
  CxxConfig config;
  config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  config.set_valid_places(places);
  return CreatePaddlePredictor<CxxConfig>(config);
}

inline std::vector<float> Output(PaddlePredictor* p, int i) {
  auto out = p->GetOutput(i);
  std::vector<float> v(out->numel());
  EXPECT_TRUE(out->CopyToCpu(v.data(), static_cast<int64_t>(v.size())).ok());
  return v;
}

// Full predictor, then the same optimized program through .nb (light
// predictor) and protobuf (full predictor), each checked by `check`.
inline void EveryPath(const ProgramDesc& program, const std::vector<lite::Place>& places,
                      const std::string& name,
                      const std::function<void(PaddlePredictor*)>& check,
                      const lite::Scope* weights = nullptr) {
  auto full = CreateFull(program, places, weights);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  {
    SCOPED_TRACE("full predictor");
    check(full->get());
  }
  const std::string dir = lite::testing_util::MakeTempDir(name);
  ASSERT_TRUE((*full)->SaveOptimizedModel(dir + "/m", ModelType::kNaiveBuffer).ok());
  MobileConfig mobile;
  mobile.set_model_from_file(dir + "/m.nb");
  auto light = CreatePaddlePredictor<MobileConfig>(mobile);
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  {
    SCOPED_TRACE("light predictor from .nb");
    check(light->get());
  }
  ASSERT_TRUE((*full)->SaveOptimizedModel(dir + "/pb", ModelType::kProtobuf).ok());
  CxxConfig again;
  again.set_model_dir(dir + "/pb");
  again.set_valid_places(places);
  auto reloaded = CreatePaddlePredictor<CxxConfig>(again);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status().ToString();
  {
    SCOPED_TRACE("full predictor from saved protobuf");
    check(reloaded->get());
  }
}

const std::vector<lite::Place> kHost = {lite::Place(lite::TargetType::kHost)};
const std::vector<lite::Place> kX86 = {lite::Place(lite::TargetType::kX86),
                                       lite::Place(lite::TargetType::kHost)};


// `opt` over the program's files (written with `weights`) into a .nb, loaded
// in the light predictor.
inline lite::StatusOr<std::shared_ptr<PaddlePredictor>> ThroughOpt(
    const ProgramDesc& program, const std::string& name, const lite::Scope* weights = nullptr) {
  std::string model, params;
  lite::Scope empty;
  RETURN_IF_ERROR(
      lite::SaveCombinedModelToBuffers(program, weights ? *weights : empty, &model, &params));
  const std::string dir = lite::testing_util::MakeTempDir(name);
  lite::testing_util::WriteFileOrDie(dir + "/model.pdmodel", model);
  lite::testing_util::WriteFileOrDie(dir + "/model.pdiparams", params);
  std::vector<std::string> args = {"opt", "--model_file=" + dir + "/model.pdmodel",
                                   "--param_file=" + dir + "/model.pdiparams",
                                   "--optimize_out=" + dir + "/opt"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  if (lite::tools::OptMain(static_cast<int>(argv.size()), argv.data()) != 0) {
    return lite::Internal("opt failed on " + name);
  }
  MobileConfig mobile;
  mobile.set_model_from_file(dir + "/opt.nb");
  return CreatePaddlePredictor<MobileConfig>(mobile);
}

inline const std::vector<lite::Place>& HostPlaces() {
  static const auto* places = new std::vector<lite::Place>{lite::Place(lite::TargetType::kHost)};
  return *places;
}

}  // namespace control_flow_test
