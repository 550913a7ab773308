// Malformed programs: each case breaks the default model in one way and
// asserts that predictor creation fails with a Status naming the op and the
// var or attribute at fault (before any kernel runs), never an abort.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/robustness/robustness_util.h"

namespace lite {
namespace robustness {
namespace {

struct ModelCase {
  std::string name;
  ModelMutation mutate;
  std::vector<std::string> expect;  // substrings of the error message
};

void PrintTo(const ModelCase& c, std::ostream* os) { *os << c.name; }

cpp::Attribute IntsAttr(std::vector<int32_t> v) {
  cpp::Attribute a;
  a.type = cpp::AttrType::INTS;
  a.value = std::move(v);
  return a;
}

std::vector<ModelCase> Cases() {
  return {
      {"conv_missing_input", [](tools::DefaultModel* m) { OpAt(m, 1).mutable_inputs()->erase("Input"); },
       {"conv2d", "Input"}},
      {"conv_missing_filter", [](tools::DefaultModel* m) { OpAt(m, 1).mutable_inputs()->erase("Filter"); },
       {"conv2d", "Filter"}},
      {"relu_missing_output", [](tools::DefaultModel* m) { OpAt(m, 3).mutable_outputs()->erase("Out"); },
       {"relu", "no outputs"}},
      {"pool_missing_ksize", [](tools::DefaultModel* m) { OpAt(m, 4).RemoveAttr("ksize"); },
       {"pool2d", "ksize"}},
      {"strides_of_wrong_type",
       [](tools::DefaultModel* m) { OpAt(m, 1).SetAttr("strides", std::string("1,1")); },
       {"conv2d", "strides"}},
      {"input_var_never_declared_or_produced",
       [](tools::DefaultModel* m) { OpAt(m, 3).SetInput("X", {"ghost"}); },
       {"relu", "ghost"}},
      {"declared_var_read_but_never_produced",
       [](tools::DefaultModel* m) {
         cpp::VarDesc v;
         v.name = "orphan";
         v.dims = {-1, 8, 32, 32};
         m->program.blocks[0].vars.push_back(v);
         OpAt(m, 3).SetInput("X", {"orphan"});
       },
       {"relu", "orphan", "never produced"}},
      {"var_read_before_written",
       [](tools::DefaultModel* m) { OpAt(m, 2).SetInput("X", {"relu1.out"}); },
       {"batch_norm", "relu1.out"}},
      {"feed_column_gap", [](tools::DefaultModel* m) { OpAt(m, 0).SetAttr("col", 1); },
       {"feed", "column"}},
      {"duplicate_fetch_column",
       [](tools::DefaultModel* m) {
         cpp::OpDesc extra = OpAt(m, 13);
         extra.SetInput("X", {"fc.out"});
         m->program.blocks[0].ops.push_back(extra);
       },
       {"fetch", "column 0"}},
      {"sub_block_out_of_range",
       [](tools::DefaultModel* m) {
         cpp::Attribute a;
         a.type = cpp::AttrType::BLOCK;
         a.value = int32_t{7};
         OpAt(m, 3).SetRawAttr("sub_block", a);
       },
       {"relu", "sub_block", "7"}},
      {"zero_groups", [](tools::DefaultModel* m) { OpAt(m, 1).SetAttr("groups", 0); },
       {"conv2d", "groups"}},
      {"groups_not_dividing_channels", [](tools::DefaultModel* m) { OpAt(m, 5).SetAttr("groups", 3); },
       {"conv2d", "groups"}},
      {"zero_stride",
       [](tools::DefaultModel* m) { OpAt(m, 1).SetRawAttr("strides", IntsAttr({0, 1})); },
       {"conv2d", "strides"}},
      {"zero_dilation",
       [](tools::DefaultModel* m) { OpAt(m, 1).SetRawAttr("dilations", IntsAttr({1, 0})); },
       {"conv2d", "dilations"}},
      {"negative_padding",
       [](tools::DefaultModel* m) { OpAt(m, 1).SetRawAttr("paddings", IntsAttr({-2, 1})); },
       {"conv2d", "paddings"}},
      {"zero_pool_window",
       [](tools::DefaultModel* m) { OpAt(m, 4).SetRawAttr("ksize", IntsAttr({0, 2})); },
       {"pool2d", "ksize"}},
      {"negative_pool_window",
       [](tools::DefaultModel* m) { OpAt(m, 4).SetRawAttr("ksize", IntsAttr({-3, 2})); },
       {"pool2d", "ksize"}},
      {"softmax_axis_out_of_range", [](tools::DefaultModel* m) { OpAt(m, 12).SetAttr("axis", 5); },
       {"softmax", "axis"}},
      {"elementwise_axis_out_of_range", [](tools::DefaultModel* m) { OpAt(m, 6).SetAttr("axis", 9); },
       {"elementwise_add", "axis"}},
      {"flatten_axes_out_of_range",
       [](tools::DefaultModel* m) { OpAt(m, 9).SetAttr("stop_axis", 11); },
       {"flatten_contiguous_range", "axis"}},
      {"reshape_with_two_unknown_dims",
       [](tools::DefaultModel* m) {
         cpp::OpDesc& flat = OpAt(m, 9);
         flat.SetType("reshape2");
         flat.RemoveAttr("start_axis");
         flat.RemoveAttr("stop_axis");
         flat.SetRawAttr("shape", IntsAttr({-1, -1}));
       },
       {"reshape2", "-1"}},
      {"matmul_inner_dims_disagree",
       [](tools::DefaultModel* m) {
         for (auto& v : m->program.blocks[0].vars) {
           if (v.name == "fc.w") v.dims = {15, 10};
         }
         m->scope->FindVar("fc.w")->GetMutableTensor()->Resize({15, 10});
       },
       // matmul_v2 + bias add were fused into fc before the check.
       {"fc", "[15, 10]"}},
      {"element_count_overflows",
       [](tools::DefaultModel* m) {
         for (auto& v : m->program.blocks[0].vars) {
           if (v.name == "conv1.out") v.dims = {-1, int64_t{1} << 40, int64_t{1} << 40, 32};
         }
       },
       {"conv1.out", "overflow"}},
      {"unknown_op_type", [](tools::DefaultModel* m) { OpAt(m, 3).SetType("relu_from_the_future"); },
       {"relu_from_the_future"}},
      {"no_blocks", [](tools::DefaultModel* m) { m->program.blocks.clear(); }, {"block"}},
      {"no_fetch", [](tools::DefaultModel* m) { m->program.blocks[0].ops.pop_back(); },
       {"fetch"}},
  };
}

class MalformedModel : public ::testing::TestWithParam<ModelCase> {};

TEST_P(MalformedModel, CreationFailsNamingTheCulprit) {
  const ModelCase& c = GetParam();
  auto p = CreateFromMutated(c.mutate);
  ASSERT_FALSE(p.ok()) << c.name << ": a broken model was accepted";
  for (const auto& text : c.expect) {
    EXPECT_NE(p.status().message().find(text), std::string::npos)
        << c.name << ": expected '" << text << "' in: " << p.status().message();
  }
}

INSTANTIATE_TEST_SUITE_P(Robustness, MalformedModel, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ModelCase>& info) {
                           return info.param.name;
                         });

TEST(MalformedModel, TheUnbrokenModelIsAccepted) {
  auto p = CreateFromMutated([](tools::DefaultModel*) {});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(RunDefaultInput(p->get(), {1, 3, 32, 32}).ok());
}

}  // namespace
}  // namespace robustness
}  // namespace lite
