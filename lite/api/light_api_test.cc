// light_api alone (no passes linked): a hand-optimized program (feed ->
// elementwise_add with a weight -> relu -> fetch, each op carrying a
// registered kernel key) saved as .nb runs in the light predictor.
#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/core/kernel.h"
#include "lite/core/program.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"

namespace {

std::string FirstKernel(const std::string& op) {
  auto defs = lite::KernelRegistry::Global().Find(op);
  return defs.empty() ? "" : defs.front()->Key();
}

TEST(LightApi, RunsAHandOptimizedProgramWithoutPasses) {
  for (const char* op : {"feed", "elementwise_add", "relu", "fetch"}) {
    ASSERT_FALSE(FirstKernel(op).empty()) << op;
  }
  lite::cpp::ProgramDesc program;
  program.blocks.resize(1);
  auto& b = program.blocks[0];
  auto var = [&](const std::string& name, std::vector<int64_t> dims, bool persistable) {
    lite::cpp::VarDesc v;
    v.name = name;
    v.dims = std::move(dims);
    v.persistable = persistable;
    b.vars.push_back(v);
  };
  lite::cpp::VarDesc feed, fetch;
  feed.name = "feed";
  feed.kind = lite::cpp::VarKind::kFeedList;
  fetch.name = "fetch";
  fetch.kind = lite::cpp::VarKind::kFetchList;
  b.vars.push_back(feed);
  b.vars.push_back(fetch);
  var("x", {-1, 4}, false);
  var("w", {4}, true);
  var("sum", {-1, 4}, false);
  var("y", {-1, 4}, false);
  auto op = [&](const std::string& type) -> lite::cpp::OpDesc& {
    b.ops.emplace_back(type);
    b.ops.back().SetAttr(lite::kKernelKeyAttr, FirstKernel(type));
    return b.ops.back();
  };
  auto& f = op("feed");
  f.SetInput("X", {"feed"});
  f.SetOutput("Out", {"x"});
  f.SetAttr("col", 0);
  auto& add = op("elementwise_add");
  add.SetInput("X", {"x"});
  add.SetInput("Y", {"w"});
  add.SetOutput("Out", {"sum"});
  add.SetAttr("axis", -1);
  auto& relu = op("relu");
  relu.SetInput("X", {"sum"});
  relu.SetOutput("Out", {"y"});
  auto& out = op("fetch");
  out.SetInput("X", {"y"});
  out.SetOutput("Out", {"fetch"});
  out.SetAttr("col", 0);

  lite::Scope scope;
  lite::Tensor* w = scope.Var("w")->GetMutableTensor();
  w->Resize({4});
  float* wd = w->mutable_data<float>();
  for (int i = 0; i < 4; ++i) wd[i] = -1.0f + i;  // -1 0 1 2
  std::string bytes;
  ASSERT_TRUE(lite::naive_buffer::SaveToBuffer(program, scope, &bytes).ok());

  paddle::lite_api::MobileConfig config;
  config.set_model_from_buffer(bytes);
  auto p = paddle::lite_api::CreatePaddlePredictor<paddle::lite_api::MobileConfig>(config);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto in = (*p)->GetInput(0);
  in->Resize({1, 4});
  const float x[4] = {0.5f, 0.5f, 0.5f, -3.0f};
  in->CopyFromCpu(x);
  ASSERT_TRUE((*p)->Run().ok());
  auto y = (*p)->GetOutput(0);
  ASSERT_EQ(y->shape(), (std::vector<int64_t>{1, 4}));
  const float* yd = y->data<float>();
  EXPECT_FLOAT_EQ(yd[0], 0.0f);
  EXPECT_FLOAT_EQ(yd[1], 0.5f);
  EXPECT_FLOAT_EQ(yd[2], 1.5f);
  EXPECT_FLOAT_EQ(yd[3], 0.0f);
}

}  // namespace
