// The PIR rule of the fused rnn op (pir_rules_nn.cc) on small hand-written
// programs: pd_op.rnn's operand lists, optional SequenceLength, result list
// and attributes become the engine's rnn op parameters and attributes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace lite {
namespace {

using namespace pir_test;  // NOLINT

// A bidirectional one-layer GRU (hidden 2, input 3) over x [4, 1, 3];
// `with_lengths` feeds a SequenceLength.
std::string RnnProgram(bool with_lengths) {
  const std::string h = Dense("f32", "[2,1,2]");
  std::vector<std::string> ops = {
      OpJson("1.data",
             {StrAttr("name", "x"), Attr("shape", "1.a_intarray", "[4,1,3]"),
              Attr("dtype", "1.a_dtype", "\"float32\"")},
             {}, {{1, Dense("f32", "[4,1,3]")}}),
      OpJson("1.data",
             {StrAttr("name", "h0"), Attr("shape", "1.a_intarray", "[2,1,2]"),
              Attr("dtype", "1.a_dtype", "\"float32\"")},
             {}, {{2, h}}),
      OpJson("1.data",
             {StrAttr("name", "len"), Attr("shape", "1.a_intarray", "[1]"),
              Attr("dtype", "1.a_dtype", "\"int32\"")},
             {}, {{3, Dense("i32", "[1]")}}),
      ParamJson(10, "fw_w_ih", "[6,3]"),
      ParamJson(11, "fw_w_hh", "[6,2]"),
      ParamJson(12, "bw_w_ih", "[6,3]"),
      ParamJson(13, "bw_w_hh", "[6,2]"),
      ParamJson(14, "fw_b_ih", "[6]"),
      ParamJson(15, "fw_b_hh", "[6]"),
      ParamJson(16, "bw_b_ih", "[6]"),
      ParamJson(17, "bw_b_hh", "[6]"),
      OpJson("0.combine", {}, {2}, {{20, Vec({h})}}),
      OpJson("0.combine", {}, {10, 11, 12, 13, 14, 15, 16, 17},
             {{21, Vec(std::vector<std::string>(8, Dense("f32", "[6]")))}}),
      OpJson("1.rnn",
             {Attr("dropout_prob", "0.a_f32", "0.25"), Attr("is_bidirec", "0.a_bool", "true"),
              Attr("input_size", "0.a_i32", "3"), Attr("hidden_size", "0.a_i32", "2"),
              Attr("num_layers", "0.a_i32", "1"), StrAttr("mode", "GRU"),
              Attr("seed", "0.a_i32", "7"), Attr("is_test", "0.a_bool", "true")},
             {1, 20, 21, with_lengths ? 3 : 0, 0},
             {{30, Dense("f32", "[4,1,4]")},
              {31, Dense("ui8", "[4,1,4]")},
              {32, Vec({h})},
              {33, Dense("f32", "[0]")}}),
      OpJson("1.fetch", {StrAttr("name", "y"), Attr("col", "0.a_i32", "0")}, {30},
             {{40, Dense("f32", "[4,1,4]")}}),
  };
  return ProgramJson(ops);
}

const cpp::OpDesc* Find(const cpp::ProgramDesc& p, const std::string& type) {
  for (const auto& op : p.blocks[0].ops) {
    if (op.Type() == type) return &op;
  }
  return nullptr;
}

TEST(PirRnnRule, OperandListsResultsAndAttributes) {
  auto model = pir::ReadPirModel(RnnProgram(true), "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* rnn = Find(model->program, "rnn");
  ASSERT_NE(rnn, nullptr);
  EXPECT_EQ(rnn->Input("Input"), std::vector<std::string>{"x"});
  EXPECT_EQ(rnn->Input("PreState"), std::vector<std::string>{"h0"});
  EXPECT_EQ(rnn->Input("WeightList"),
            (std::vector<std::string>{"fw_w_ih", "fw_w_hh", "bw_w_ih", "bw_w_hh", "fw_b_ih",
                                      "fw_b_hh", "bw_b_ih", "bw_b_hh"}));
  EXPECT_EQ(rnn->Input("SequenceLength"), std::vector<std::string>{"len"});
  EXPECT_EQ(rnn->Output("Out").size(), 1u);
  EXPECT_EQ(rnn->Output("State").size(), 1u);
  EXPECT_EQ(rnn->Output("Reserve").size(), 1u);
  EXPECT_EQ(rnn->Output("DropoutState").size(), 1u);
  EXPECT_EQ(rnn->GetAttr<std::string>("mode"), "GRU");
  EXPECT_TRUE(rnn->GetAttr<bool>("is_bidirec"));
  EXPECT_EQ(rnn->GetAttr<int32_t>("input_size"), 3);
  EXPECT_EQ(rnn->GetAttr<int32_t>("hidden_size"), 2);
  EXPECT_EQ(rnn->GetAttr<int32_t>("num_layers"), 1);
  EXPECT_EQ(rnn->GetAttr<int32_t>("seed"), 7);
  EXPECT_TRUE(rnn->GetAttr<bool>("is_test"));
  EXPECT_FLOAT_EQ(rnn->GetAttr<float>("dropout_prob"), 0.25f);
  EXPECT_EQ(model->op_uses.at("pd_op.rnn").engine_ops, std::set<std::string>{"rnn"});
}

TEST(PirRnnRule, AbsentSequenceLengthIsNotBound) {
  auto model = pir::ReadPirModel(RnnProgram(false), "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* rnn = Find(model->program, "rnn");
  ASSERT_NE(rnn, nullptr);
  EXPECT_TRUE(rnn->Input("SequenceLength").empty());
}

}  // namespace
}  // namespace lite
