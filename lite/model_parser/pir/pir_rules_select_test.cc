// The PIR rules of pir_rules_select.cc on a small hand-written program: each
// PIR op becomes the engine op with the right parameters and attributes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace lite {
namespace {

using namespace pir_test;  // NOLINT

std::string IntArray(int id, const std::string& values, int n) {
  return OpJson("1.full_int_array",
                {ArrayAttr("value", "a_i64", values), Attr("dtype", "1.a_dtype", "\"int64\"")}, {},
                {{id, Dense("i64", "[" + std::to_string(n) + "]")}});
}

const cpp::OpDesc* Find(const cpp::ProgramDesc& p, const std::string& type) {
  for (const auto& op : p.blocks[0].ops) {
    if (op.Type() == type) return &op;
  }
  return nullptr;
}

TEST(PirSelectRules, StridedSliceArgsortNonzeroAddmm) {
  const std::string f = Dense("f32", "[3,4]");
  const std::string json = ProgramJson({
      OpJson("1.data",
             {StrAttr("name", "x"), Attr("shape", "1.a_intarray", "[3,4]"),
              Attr("dtype", "1.a_dtype", "\"float32\"")},
             {}, {{1, f}}),
      IntArray(2, "0,3", 2), IntArray(3, "3,-5", 2), IntArray(4, "2,-1", 2),
      OpJson("1.strided_slice", {ArrayAttr("axes", "a_i64", "0,1")}, {1, 2, 3, 4},
             {{5, Dense("f32", "[2,4]")}}),
      OpJson("1.argsort",
             {Attr("axis", "0.a_i32", "0"), Attr("descending", "0.a_bool", "true"),
              Attr("stable", "0.a_bool", "false")},
             {5}, {{6, Dense("f32", "[2,4]")}, {7, Dense("i64", "[2,4]")}}),
      OpJson("1.nonzero", {}, {7}, {{8, Dense("i64", "[-1,2]")}}),
      OpJson("1.addmm", {Attr("beta", "0.a_f32", "0.5"), Attr("alpha", "0.a_f32", "2.0")},
             {1, 1, 1}, {{9, f}}),
      OpJson("1.fetch", {StrAttr("name", "a"), Attr("col", "0.a_i32", "0")}, {8}, {{10, f}}),
      OpJson("1.fetch", {StrAttr("name", "b"), Attr("col", "0.a_i32", "1")}, {9}, {{11, f}}),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::ProgramDesc& p = model->program;

  const cpp::OpDesc* ss = Find(p, "strided_slice");
  ASSERT_NE(ss, nullptr);
  EXPECT_EQ(ss->Input("Input"), std::vector<std::string>{"x"});
  EXPECT_EQ(ss->GetAttr<std::vector<int64_t>>("axes"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ss->GetAttr<std::vector<int64_t>>("starts"), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(ss->GetAttr<std::vector<int64_t>>("ends"), (std::vector<int64_t>{3, -5}));
  EXPECT_EQ(ss->GetAttr<std::vector<int64_t>>("strides"), (std::vector<int64_t>{2, -1}));

  const cpp::OpDesc* as = Find(p, "argsort");
  ASSERT_NE(as, nullptr);
  EXPECT_EQ(as->GetAttr<bool>("descending"), true);
  EXPECT_EQ(as->GetAttr<int32_t>("axis"), 0);
  ASSERT_EQ(as->Output("Indices").size(), 1u);

  const cpp::OpDesc* nz = Find(p, "where_index");
  ASSERT_NE(nz, nullptr);
  EXPECT_EQ(nz->Input("Condition"), as->Output("Indices"));

  const cpp::OpDesc* mm = Find(p, "addmm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->Input("Input"), std::vector<std::string>{"x"});
  EXPECT_FLOAT_EQ(mm->GetAttr<float>("Beta"), 0.5f);
  EXPECT_FLOAT_EQ(mm->GetAttr<float>("Alpha"), 2.f);
}

}  // namespace
}  // namespace lite
