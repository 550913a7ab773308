#include "tools/default_model.h"

#include <cmath>

#include "lite/model_parser/model_saver.h"
#include "tools/program_builder.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

DefaultModel MakeDefaultModel() {
  ProgramBuilder b;
  const int64_t kIn = 3, kC1 = 8, kC2 = 16, kClasses = 10;
  b.Feed(kDefaultModelInput, {-1, kIn, 32, 32});

  const double k1 = 1.0 / std::sqrt(kIn * 9.0);
  b.Weight("conv1.w", {kC1, kIn, 3, 3}, -k1, k1);
  b.Activation("conv1.out", {-1, kC1, 32, 32});
  auto& conv1 = b.Op("conv2d");
  conv1.SetInput("Input", {kDefaultModelInput});
  conv1.SetInput("Filter", {"conv1.w"});
  conv1.SetOutput("Output", {"conv1.out"});
  conv1.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv1.SetAttr("paddings", std::vector<int32_t>{1, 1});
  conv1.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv1.SetAttr("groups", 1);

  b.Weight("bn1.scale", {kC1}, 0.5, 1.5);
  b.Weight("bn1.bias", {kC1}, -0.1, 0.1);
  b.Weight("bn1.mean", {kC1}, -0.1, 0.1);
  b.Weight("bn1.var", {kC1}, 0.5, 1.5);
  b.Activation("bn1.out", {-1, kC1, 32, 32});
  auto& bn = b.Op("batch_norm");
  bn.SetInput("X", {"conv1.out"});
  bn.SetInput("Scale", {"bn1.scale"});
  bn.SetInput("Bias", {"bn1.bias"});
  bn.SetInput("Mean", {"bn1.mean"});
  bn.SetInput("Variance", {"bn1.var"});
  bn.SetOutput("Y", {"bn1.out"});
  bn.SetAttr("epsilon", 1e-5f);
  bn.SetAttr("is_test", true);

  b.Activation("relu1.out", {-1, kC1, 32, 32});
  auto& relu = b.Op("relu");
  relu.SetInput("X", {"bn1.out"});
  relu.SetOutput("Out", {"relu1.out"});

  b.Activation("pool1.out", {-1, kC1, 16, 16});
  auto& pool1 = b.Op("pool2d");
  pool1.SetInput("X", {"relu1.out"});
  pool1.SetOutput("Out", {"pool1.out"});
  pool1.SetAttr("pooling_type", std::string("max"));
  pool1.SetAttr("ksize", std::vector<int32_t>{2, 2});
  pool1.SetAttr("strides", std::vector<int32_t>{2, 2});
  pool1.SetAttr("paddings", std::vector<int32_t>{0, 0});

  const double k2 = 1.0 / std::sqrt(static_cast<double>(kC1));
  b.Weight("conv2.w", {kC2, kC1, 1, 1}, -k2, k2);
  b.Activation("conv2.out", {-1, kC2, 16, 16});
  auto& conv2 = b.Op("conv2d");
  conv2.SetInput("Input", {"pool1.out"});
  conv2.SetInput("Filter", {"conv2.w"});
  conv2.SetOutput("Output", {"conv2.out"});
  conv2.SetAttr("strides", std::vector<int32_t>{1, 1});
  conv2.SetAttr("paddings", std::vector<int32_t>{0, 0});
  conv2.SetAttr("dilations", std::vector<int32_t>{1, 1});
  conv2.SetAttr("groups", 1);

  b.Weight("conv2.b", {kC2}, -0.2, 0.2);
  b.Activation("add1.out", {-1, kC2, 16, 16});
  auto& add1 = b.Op("elementwise_add");
  add1.SetInput("X", {"conv2.out"});
  add1.SetInput("Y", {"conv2.b"});
  add1.SetOutput("Out", {"add1.out"});
  add1.SetAttr("axis", 1);

  b.Activation("hswish.out", {-1, kC2, 16, 16});
  auto& hs = b.Op("hard_swish");
  hs.SetInput("X", {"add1.out"});
  hs.SetOutput("Out", {"hswish.out"});
  hs.SetAttr("threshold", 6.0f);
  hs.SetAttr("scale", 6.0f);
  hs.SetAttr("offset", 3.0f);

  b.Activation("gap.out", {-1, kC2, 1, 1});
  auto& gap = b.Op("pool2d");
  gap.SetInput("X", {"hswish.out"});
  gap.SetOutput("Out", {"gap.out"});
  gap.SetAttr("pooling_type", std::string("avg"));
  gap.SetAttr("ksize", std::vector<int32_t>{1, 1});
  gap.SetAttr("global_pooling", true);

  b.Activation("flat.out", {-1, kC2});
  auto& flat = b.Op("flatten_contiguous_range");
  flat.SetInput("X", {"gap.out"});
  flat.SetOutput("Out", {"flat.out"});
  flat.SetAttr("start_axis", 1);
  flat.SetAttr("stop_axis", 3);

  const double k3 = 1.0 / std::sqrt(static_cast<double>(kC2));
  b.Weight("fc.w", {kC2, kClasses}, -3 * k3, 3 * k3);
  b.Activation("fc.mul", {-1, kClasses});
  auto& mm = b.Op("matmul_v2");
  mm.SetInput("X", {"flat.out"});
  mm.SetInput("Y", {"fc.w"});
  mm.SetOutput("Out", {"fc.mul"});
  mm.SetAttr("trans_x", false);
  mm.SetAttr("trans_y", false);

  b.Weight("fc.b", {kClasses}, -0.5, 0.5);
  b.Activation("fc.out", {-1, kClasses});
  auto& add2 = b.Op("elementwise_add");
  add2.SetInput("X", {"fc.mul"});
  add2.SetInput("Y", {"fc.b"});
  add2.SetOutput("Out", {"fc.out"});
  add2.SetAttr("axis", 1);

  b.Activation(kDefaultModelOutput, {-1, kClasses});
  auto& sm = b.Op("softmax");
  sm.SetInput("X", {"fc.out"});
  sm.SetOutput("Out", {kDefaultModelOutput});
  sm.SetAttr("axis", -1);

  b.Fetch(kDefaultModelOutput);
  return b.Finish();
}

Status WriteDefaultModel(const std::string& dir) {
  RETURN_IF_ERROR(MakeDirs(dir));
  DefaultModel m = MakeDefaultModel();
  return SaveCombinedModel(m.program, *m.scope, dir + "/__model__", dir + "/__params__");
}

}  // namespace tools
}  // namespace lite
