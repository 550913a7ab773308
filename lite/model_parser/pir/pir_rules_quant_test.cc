// The PIR rules of the quantization ops (pir_rules_nn.cc): Paddle 3 int8
// exports (quantize_linear / dequantize_linear pairs on activations, a lone
// dequantize_linear on int8 weights, the older fake quant-dequant ops and
// the frozen form's levels quant ops and dequantize ops) become the engine's
// quant ops with their parameters and attributes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace lite {
namespace {

using namespace pir_test;  // NOLINT

std::vector<const cpp::OpDesc*> FindAll(const cpp::ProgramDesc& p, const std::string& type) {
  std::vector<const cpp::OpDesc*> out;
  for (const auto& op : p.blocks[0].ops) {
    if (op.Type() == type) out.push_back(&op);
  }
  return out;
}

std::vector<std::string> LinearAttrs(int axis, int round_type) {
  return {Attr("quant_axis", "0.a_i32", std::to_string(axis)),
          Attr("bit_length", "0.a_i32", "8"), Attr("round_type", "0.a_i32",
                                                    std::to_string(round_type)),
          Attr("is_test", "0.a_bool", "true"), Attr("only_observer", "0.a_bool", "false"),
          Attr("moving_rate", "0.a_f32", "0.9"), Attr("qmin", "0.a_i32", "-128"),
          Attr("qmax", "0.a_i32", "127")};
}

std::string Data(int id, const std::string& dims) {
  return OpJson("1.data",
                {StrAttr("name", "x"), Attr("shape", "1.a_intarray", dims),
                 Attr("dtype", "1.a_dtype", "\"float32\"")},
                {}, {{id, Dense("f32", dims)}});
}

std::string Fetch(int in, int id, const std::string& dims) {
  return OpJson("1.fetch", {StrAttr("name", "y"), Attr("col", "0.a_i32", "0")}, {in},
                {{id, Dense("f32", dims)}});
}

// conv2d 1x1 of operands `in` and `filter` into result `out` [1,3,4,4].
std::string Conv1x1(int in, int filter, int out) {
  return OpJson("1.conv2d",
                {StrAttr("data_format", "NCHW"), Attr("groups", "0.a_i32", "1"),
                 ArrayAttr("dilations", "a_i32", "1,1"), ArrayAttr("strides", "a_i32", "1,1"),
                 ArrayAttr("paddings", "a_i32", "0,0"), StrAttr("padding_algorithm", "EXPLICIT")},
                {in, filter}, {{out, Dense("f32", "[1,3,4,4]")}});
}

TEST(PirQuantRules, LinearFormBecomesTheEngineOps) {
  const std::string act = Dense("f32", "[1,2,4,4]");
  const std::string one = Dense("f32", "[1]");
  const std::string json = ProgramJson({
      ParamJson(1, "x_scale", "[1]"), ParamJson(2, "x_zp", "[1]"),
      ParamJson(3, "w_levels", "[3,2,1,1]"), ParamJson(4, "w_scale", "[3]"),
      ParamJson(5, "w_zp", "[3]"), Data(6, "[1,2,4,4]"),
      // results: y, out_state, out_accum, out_scale
      OpJson("1.quantize_linear", LinearAttrs(-1, 0), {6, 1, 2, 0, 0},
             {{7, act}, {20, one}, {21, one}, {8, one}}),
      OpJson("1.dequantize_linear", LinearAttrs(-1, 0), {7, 1, 2, 0, 0},
             {{9, act}, {22, one}, {23, one}, {10, one}}),
      OpJson("1.dequantize_linear", LinearAttrs(0, 1), {3, 4, 5, 0, 0},
             {{11, Dense("f32", "[3,2,1,1]")}}),
      Conv1x1(9, 11, 12),
      Fetch(12, 13, "[1,3,4,4]"),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::ProgramDesc& p = model->program;
  const auto q = FindAll(p, "quantize_linear");
  const auto dq = FindAll(p, "dequantize_linear");
  ASSERT_EQ(q.size(), 1u);
  ASSERT_EQ(dq.size(), 2u);
  EXPECT_EQ(q[0]->Input("X"), std::vector<std::string>{"x"});
  EXPECT_EQ(q[0]->Input("Scale"), std::vector<std::string>{"x_scale"});
  EXPECT_EQ(q[0]->Input("ZeroPoint"), std::vector<std::string>{"x_zp"});
  EXPECT_EQ(q[0]->GetAttr<int32_t>("quant_axis", 7), -1);
  EXPECT_EQ(q[0]->GetAttr<int32_t>("round_type", 7), 0);
  EXPECT_EQ(dq[0]->Input("X"), q[0]->Output("Y"));
  EXPECT_EQ(dq[1]->Input("X"), std::vector<std::string>{"w_levels"});
  EXPECT_EQ(dq[1]->GetAttr<int32_t>("quant_axis", 7), 0);
  EXPECT_EQ(dq[1]->GetAttr<int32_t>("round_type", 7), 1);
  EXPECT_EQ(dq[1]->GetAttr<int32_t>("bit_length", 7), 8);
  EXPECT_EQ(dq[1]->GetAttr<int32_t>("qmin", 7), -128);
  EXPECT_EQ(dq[1]->GetAttr<int32_t>("qmax", 7), 127);
  const auto conv = FindAll(p, "conv2d");
  ASSERT_EQ(conv.size(), 1u);
  EXPECT_EQ(conv[0]->Input("Input"), dq[0]->Output("Y"));
  EXPECT_EQ(conv[0]->Input("Filter"), dq[1]->Output("Y"));
  EXPECT_EQ(model->op_uses.at("pd_op.dequantize_linear").count, 2);
}

TEST(PirQuantRules, ObserverOnlyIsCarried) {
  std::vector<std::string> attrs = LinearAttrs(-1, 0);
  attrs[4] = Attr("only_observer", "0.a_bool", "true");
  const std::string act = Dense("f32", "[1,2]");
  const std::string json = ProgramJson({
      ParamJson(1, "x_scale", "[1]"), ParamJson(2, "x_zp", "[1]"), Data(3, "[1,2]"),
      OpJson("1.quantize_linear", attrs, {3, 1, 2, 0, 0}, {{4, act}}), Fetch(4, 5, "[1,2]"),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const auto q = FindAll(model->program, "quantize_linear");
  ASSERT_EQ(q.size(), 1u);
  EXPECT_TRUE(q[0]->GetAttr<bool>("only_observer", false));
}

TEST(PirQuantRules, FakeFormBecomesTheEngineOps) {
  const std::string act = Dense("f32", "[1,2,4,4]");
  const std::string json = ProgramJson({
      ParamJson(1, "x_scale", "[1]"), ParamJson(2, "w", "[3,2,1,1]"), Data(3, "[1,2,4,4]"),
      OpJson("1.fake_quantize_dequantize_moving_average_abs_max",
             {Attr("bit_length", "0.a_i32", "8"), Attr("is_test", "0.a_bool", "true"),
              Attr("moving_rate", "0.a_f32", "0.9"), Attr("round_type", "0.a_i32", "1")},
             {3, 1, 0, 0}, {{4, act}, {5, Dense("f32", "[1]")}, {10, Dense("f32", "[1]")},
              {11, Dense("f32", "[1]")}}),
      OpJson("1.fake_channel_wise_quantize_dequantize_abs_max",
             {Attr("bit_length", "0.a_i32", "8"), Attr("quant_axis", "0.a_i32", "0"),
              Attr("round_type", "0.a_i32", "1")},
             {2}, {{6, Dense("f32", "[3,2,1,1]")}, {7, Dense("f32", "[3]")}}),
      Conv1x1(4, 6, 8),
      Fetch(8, 9, "[1,3,4,4]"),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::ProgramDesc& p = model->program;
  const auto act_q = FindAll(p, "fake_quantize_dequantize_moving_average_abs_max");
  const auto w_q = FindAll(p, "fake_channel_wise_quantize_dequantize_abs_max");
  ASSERT_EQ(act_q.size(), 1u);
  ASSERT_EQ(w_q.size(), 1u);
  EXPECT_EQ(act_q[0]->Input("InScale"), std::vector<std::string>{"x_scale"});
  EXPECT_EQ(act_q[0]->GetAttr<int32_t>("bit_length", 7), 8);
  EXPECT_EQ(w_q[0]->Input("X"), std::vector<std::string>{"w"});
  EXPECT_EQ(w_q[0]->GetAttr<int32_t>("quant_axis", 7), 0);
  EXPECT_EQ(w_q[0]->Output("OutScale").size(), 1u);
  const auto conv = FindAll(p, "conv2d");
  ASSERT_EQ(conv.size(), 1u);
  EXPECT_EQ(conv[0]->Input("Filter"), w_q[0]->Output("Out"));
}


// The frozen form: fake_quantize_moving_average_abs_max (levels, out_scale
// in place of in_scale) -> conv2d on a levels weight ->
// fake_channel_wise_dequantize_max_abs over a combine of the weight scales
// and the activation scale; fake_dequantize_max_abs, the range and abs-max
// quant ops and the observer keep their operands and attributes.
TEST(PirQuantRules, FrozenFormBecomesTheEngineOps) {
  const std::string act = Dense("f32", "[1,2,4,4]");
  const std::string one = Dense("f32", "[1]");
  const std::string out = Dense("f32", "[1,3,4,4]");
  const std::string json = ProgramJson({
      ParamJson(1, "x_scale", "[1]"), ParamJson(2, "w", "[3,2,1,1]"),
      ParamJson(20, "w_scales", "[3]"), Data(3, "[1,2,4,4]"),
      OpJson("1.fake_quantize_moving_average_abs_max",
             {Attr("bit_length", "0.a_i32", "8"), Attr("is_test", "0.a_bool", "true"),
              Attr("moving_rate", "0.a_f32", "0.9"), Attr("round_type", "0.a_i32", "0")},
             {3, 1, 0, 0}, {{4, act}, {5, one}, {10, one}, {11, one}}),
      Conv1x1(4, 2, 8),
      OpJson("0.combine", {}, {20, 5}, {{21, Vec({Dense("f32", "[3]"), one})}}),
      OpJson("1.fake_channel_wise_dequantize_max_abs",
             {ArrayAttr("quant_bits", "a_i32", "8,8"), Attr("quant_axis", "0.a_i32", "0"),
              Attr("x_num_col_dims", "0.a_i32", "1")},
             {8, 21}, {{12, out}}),
      OpJson("1.fake_dequantize_max_abs", {Attr("max_range", "0.a_f32", "16129")}, {12, 1},
             {{13, out}}),
      OpJson("1.fake_quantize_range_abs_max",
             {Attr("bit_length", "0.a_i32", "8"), Attr("window_size", "0.a_i32", "10000"),
              Attr("is_test", "0.a_bool", "true")},
             {13, 1, 0}, {{14, out}, {15, one}, {16, Dense("f32", "[10000]")}}),
      OpJson("1.fake_quantize_abs_max", {Attr("bit_length", "0.a_i32", "8")}, {14},
             {{17, out}, {18, one}}),
      OpJson("1.moving_average_abs_max_scale",
             {Attr("moving_rate", "0.a_f32", "0.9"), Attr("is_test", "0.a_bool", "true")},
             {17, 0, 0}, {{19, out}, {22, one}, {23, one}, {24, one}}),
      Fetch(19, 9, "[1,3,4,4]"),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::ProgramDesc& p = model->program;
  const auto q = FindAll(p, "fake_quantize_moving_average_abs_max");
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]->Input("InScale"), std::vector<std::string>{"x_scale"});
  EXPECT_EQ(q[0]->GetAttr<int32_t>("round_type", 7), 0);
  const auto conv = FindAll(p, "conv2d");
  ASSERT_EQ(conv.size(), 1u);
  EXPECT_EQ(conv[0]->Input("Input"), q[0]->Output("Out"));
  EXPECT_EQ(conv[0]->Input("Filter"), std::vector<std::string>{"w"});
  const auto cw = FindAll(p, "fake_channel_wise_dequantize_max_abs");
  ASSERT_EQ(cw.size(), 1u);
  EXPECT_EQ(cw[0]->Input("X"), conv[0]->Output("Output"));
  // The activation scale is the quant op's out_scale: x_scale itself.
  EXPECT_EQ(cw[0]->Input("Scales"), (std::vector<std::string>{"w_scales", "x_scale"}));
  EXPECT_EQ(cw[0]->GetAttr<std::vector<int32_t>>("quant_bits", {}),
            (std::vector<int32_t>{8, 8}));
  EXPECT_EQ(cw[0]->GetAttr<int32_t>("x_num_col_dims", 7), 1);
  const auto dq = FindAll(p, "fake_dequantize_max_abs");
  ASSERT_EQ(dq.size(), 1u);
  EXPECT_EQ(dq[0]->Input("Scale"), std::vector<std::string>{"x_scale"});
  EXPECT_FLOAT_EQ(dq[0]->GetAttr<float>("max_range", 0.f), 16129.f);
  const auto range = FindAll(p, "fake_quantize_range_abs_max");
  ASSERT_EQ(range.size(), 1u);
  EXPECT_EQ(range[0]->Input("InScale"), std::vector<std::string>{"x_scale"});
  EXPECT_EQ(range[0]->GetAttr<int32_t>("round_type", 7), 1);  // Paddle 3's default
  const auto abs_max = FindAll(p, "fake_quantize_abs_max");
  ASSERT_EQ(abs_max.size(), 1u);
  EXPECT_EQ(abs_max[0]->Output("OutScale").size(), 1u);
  const auto obs = FindAll(p, "moving_average_abs_max_scale");
  ASSERT_EQ(obs.size(), 1u);
  EXPECT_EQ(obs[0]->Input("X"), abs_max[0]->Output("Out"));
}

}  // namespace
}  // namespace lite
