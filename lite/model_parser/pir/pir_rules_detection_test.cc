// The PIR rules of pir_rules_detection.cc on small hand-written programs:
// each PIR op becomes the engine op with its operands in Paddle's order,
// its attributes, and its optional results bound only when present.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace lite {
namespace {

using namespace pir_test;  // NOLINT

std::string Data(int id, const std::string& name, const std::string& dtype,
                 const std::string& dims) {
  return OpJson("1.data",
                {StrAttr("name", name), Attr("shape", "1.a_intarray", dims),
                 Attr("dtype", "1.a_dtype", "\"" + std::string(dtype == "f32" ? "float32" : "int32") + "\"")},
                {}, {{id, Dense(dtype, dims)}});
}

std::string Fetch(int in, int id, const std::string& name, int col) {
  return OpJson("1.fetch", {StrAttr("name", name), Attr("col", "0.a_i32", std::to_string(col))},
                {in}, {{id, Dense("f32", "[-1]")}});
}

const cpp::OpDesc* Find(const cpp::ProgramDesc& p, const std::string& type) {
  for (const auto& op : p.blocks[0].ops) {
    if (op.Type() == type) return &op;
  }
  return nullptr;
}

TEST(PirDetectionRules, RoiAlign) {
  const std::string json = ProgramJson({
      Data(1, "x", "f32", "[2,3,8,8]"),
      Data(2, "boxes", "f32", "[-1,4]"),
      Data(3, "boxes_num", "i32", "[2]"),
      OpJson("1.roi_align",
             {Attr("pooled_height", "0.a_i32", "7"), Attr("pooled_width", "0.a_i32", "5"),
              Attr("spatial_scale", "0.a_f32", "0.25"), Attr("sampling_ratio", "0.a_i32", "-1"),
              Attr("aligned", "0.a_bool", "true")},
             {1, 2, 3}, {{4, Dense("f32", "[-1,3,7,5]")}}),
      Fetch(4, 5, "out", 0),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* d = Find(model->program, "roi_align");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->Input("X"), std::vector<std::string>{"x"});
  EXPECT_EQ(d->Input("ROIs"), std::vector<std::string>{"boxes"});
  EXPECT_EQ(d->Input("RoisNum"), std::vector<std::string>{"boxes_num"});
  EXPECT_EQ(d->GetAttr<int32_t>("pooled_height"), 7);
  EXPECT_EQ(d->GetAttr<int32_t>("pooled_width"), 5);
  EXPECT_FLOAT_EQ(d->GetAttr<float>("spatial_scale"), 0.25f);
  EXPECT_EQ(d->GetAttr<int32_t>("sampling_ratio"), -1);
  EXPECT_TRUE(d->GetAttr<bool>("aligned"));
}

}  // namespace
}  // namespace lite
