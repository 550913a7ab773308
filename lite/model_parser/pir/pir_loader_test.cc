// Tests of the Paddle 3 PIR loader on small hand-written inference.json
// programs: what each PIR construct becomes in the engine's program, the
// parameter stream order, and every bad-input error (each names the file and
// the op or parameter, and a failed load leaves program and scope untouched).
#include "lite/model_parser/pir/pir_loader.h"

#include <gtest/gtest.h>

#include <cmath>

#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/pir/pir_json.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {
namespace {

const char kJson[] = "inference.json";
const char kParams[] = "inference.pdiparams";

std::string Dense(const std::string& dtype, const std::string& dims) {
  return R"({"#":"0.t_dtensor","D":[{"#":"0.t_)" + dtype + R"("},)" + dims +
         R"(,"NCHW",[],0]})";
}

std::string Param(int id, const std::string& name, const std::string& dims) {
  return R"({"#":"p","A":[0,1,1,")" + name + R"("],"DA":[],"O":{"%":)" + std::to_string(id) +
         R"(,"TT":)" + Dense("f32", dims) + R"(},"OA":[],"QA":[]})";
}

std::string I32(const std::string& name, int v) {
  return R"({"N":")" + name + R"(","AT":{"#":"0.a_i32","D":)" + std::to_string(v) + "}}";
}

std::string Ints(const std::string& name, const std::string& kind, const std::string& values) {
  std::string elems;
  size_t start = 0;
  while (start < values.size()) {
    size_t end = values.find(',', start);
    if (end == std::string::npos) end = values.size();
    elems += (elems.empty() ? "" : ",") + std::string(R"({"#":"0.)") + kind + R"(","D":)" +
             values.substr(start, end - start) + "}";
    start = end + 1;
  }
  return R"({"N":")" + name + R"(","AT":{"#":"0.a_array","D":[)" + elems + "]}}";
}

std::string Str(const std::string& name, const std::string& v) {
  return R"({"N":")" + name + R"(","AT":{"#":"0.a_str","D":")" + v + R"("}})";
}

std::string Program(const std::string& ops, int version = 1) {
  return R"({"base_code":{"magic":"pir","trainable":true,"version":)" +
         std::to_string(version) + R"(},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":[)" +
         ops + "]}]}]}}";
}

// data x [1,2,2,2] -> conv2d(w_conv) -> add(bias reshaped) -> hardsigmoid
// -> reshape(full_int_array) -> fetch "out". Attributes of conv2d are in a
// different order from Paddle's usual one.
std::string SmallOps() {
  return Param(1, "w_conv", "[3,2,1,1]") + "," + Param(2, "a_bias", "[3]") + "," +
         R"({"#":"1.data","A":[)" + Str("name", "x") +
         R"(,{"N":"shape","AT":{"#":"1.a_intarray","D":[-1,2,2,2]}},{"N":"dtype","AT":{"#":"1.a_dtype","D":"float32"}}],"I":[],"O":[{"%":3,"TT":)" +
         Dense("f32", "[-1,2,2,2]") + "}]}," +
         R"({"#":"1.conv2d","A":[)" + Str("data_format", "NCHW") + "," + I32("groups", 1) + "," +
         Ints("dilations", "a_i32", "1,1") + "," + Ints("strides", "a_i64", "1,1") + "," +
         Ints("paddings", "a_i32", "0,0") + "," + Str("padding_algorithm", "EXPLICIT") +
         R"(],"I":[{"%":3},{"%":1}],"O":[{"%":4,"TT":)" + Dense("f32", "[-1,3,2,2]") + "}]}," +
         R"({"#":"1.full_int_array","A":[)" + Ints("value", "a_i64", "1,3,1,1") +
         R"(,{"N":"dtype","AT":{"#":"1.a_dtype","D":"int64"}}],"I":[],"O":[{"%":5,"TT":)" +
         Dense("i64", "[4]") + "}]}," +
         R"({"#":"1.reshape","A":[],"I":[{"%":2},{"%":5}],"O":[{"%":6,"TT":)" +
         Dense("f32", "[1,3,1,1]") + "}]}," +
         R"({"#":"1.add","A":[],"I":[{"%":4},{"%":6}],"O":[{"%":7,"TT":)" +
         Dense("f32", "[-1,3,2,2]") + "}]}," +
         R"({"#":"1.hardsigmoid","A":[{"N":"offset","AT":{"#":"0.a_f64","D":0.5}},{"N":"slope","AT":{"#":"0.a_f32","D":0.25}}],"I":[{"%":7}],"O":[{"%":8,"TT":)" +
         Dense("f32", "[-1,3,2,2]") + "}]}," +
         R"({"#":"1.fetch","A":[)" + Str("name", "out") + "," + I32("col", 0) +
         R"(],"I":[{"%":8}],"O":[{"%":9,"TT":)" + Dense("f32", "[-1,3,2,2]") + "}]}";
}

std::string Record(const std::vector<int64_t>& dims, float first) {
  Tensor t;
  t.Resize(DDim(dims));
  float* p = t.mutable_data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = first + i;
  std::string out;
  WriteTensorRecord(t, &out);
  return out;
}

// Sorted-name order: a_bias before w_conv (program order is the reverse).
std::string SmallParams() { return Record({3}, 100.f) + Record({3, 2, 1, 1}, 0.f); }

Status Load(const std::string& json, const std::string& params, cpp::ProgramDesc* program,
            Scope* scope) {
  return pir::LoadPirModel(json, kJson, params, kParams, program, scope);
}

// Loads and checks that a failure left nothing behind.
Status LoadExpectingFailure(const std::string& json, const std::string& params) {
  cpp::ProgramDesc program;
  program.blocks.resize(3);
  Scope scope;
  scope.Var("sentinel");
  Status s = Load(json, params, &program, &scope);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(program.blocks.size(), 3u);
  EXPECT_EQ(scope.LocalVarNames(), std::vector<std::string>{"sentinel"});
  return s;
}

std::vector<std::string> OpTypes(const cpp::ProgramDesc& p) {
  std::vector<std::string> types;
  for (const auto& op : p.blocks[0].ops) types.push_back(op.Type());
  return types;
}

TEST(PirLoader, TranslatesOpsAttributesAndParameters) {
  cpp::ProgramDesc program;
  Scope scope;
  ASSERT_TRUE(Load(Program(SmallOps()), SmallParams(), &program, &scope).ok());
  EXPECT_EQ(OpTypes(program), (std::vector<std::string>{"feed", "conv2d", "reshape2",
                                                        "elementwise_add", "hard_sigmoid",
                                                        "fetch"}));
  const auto& ops = program.blocks[0].ops;
  EXPECT_EQ(ops[0].Output("Out"), std::vector<std::string>{"x"});
  EXPECT_EQ(ops[0].GetAttr<int32_t>("col", -1), 0);
  EXPECT_EQ(ops[1].Input("Input"), std::vector<std::string>{"x"});
  EXPECT_EQ(ops[1].Input("Filter"), std::vector<std::string>{"w_conv"});
  EXPECT_EQ(ops[1].GetAttr<std::vector<int32_t>>("strides"), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(ops[1].GetAttr<int32_t>("groups", -1), 1);
  // The shape operand (full_int_array) became the attribute, no op.
  EXPECT_EQ(ops[2].GetAttr<std::vector<int32_t>>("shape"), (std::vector<int32_t>{1, 3, 1, 1}));
  EXPECT_FALSE(ops[2].HasInput("Shape"));
  EXPECT_EQ(ops[3].GetAttr<int32_t>("axis", 0), -1);
  EXPECT_FLOAT_EQ(ops[4].GetAttr<float>("slope", 0), 0.25f);
  EXPECT_FLOAT_EQ(ops[4].GetAttr<float>("offset", 0), 0.5f);
  // The fetched value carries the fetch name.
  EXPECT_EQ(ops[4].Output("Out"), std::vector<std::string>{"out"});
  EXPECT_EQ(ops[5].Input("X"), std::vector<std::string>{"out"});
  const cpp::VarDesc* x = program.blocks[0].FindVar("x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->dims, (std::vector<int64_t>{-1, 2, 2, 2}));
  EXPECT_TRUE(x->need_check_feed);
  // Records are read in sorted-name order: a_bias holds 100.., w_conv 0..
  const Tensor* bias = &scope.FindVar("a_bias")->GetTensor();
  const Tensor* w = &scope.FindVar("w_conv")->GetTensor();
  EXPECT_EQ(bias->data<float>()[0], 100.f);
  EXPECT_EQ(w->data<float>()[5], 5.f);
  EXPECT_TRUE(w->persistable());
}

TEST(PirLoader, FormatIsDetectedFromTheContent) {
  EXPECT_TRUE(pir::LooksLikePirJson(" \n" + Program(SmallOps())));
  EXPECT_FALSE(pir::LooksLikePirJson("\x0a\x05proto"));
  cpp::ProgramDesc program;
  Scope scope;
  ASSERT_TRUE(LoadCombinedModelFromBuffers(Program(SmallOps()), SmallParams(), &program, &scope)
                  .ok());
  EXPECT_EQ(program.blocks[0].ops.size(), 6u);
}

TEST(PirLoader, ConstantsReadAsTensorsAreMaterialized) {
  // multiply(x, full) : the constant is an input tensor, not an attribute.
  std::string ops = R"({"#":"1.data","A":[)" + Str("name", "x") +
                    R"(],"I":[],"O":[{"%":1,"TT":)" + Dense("f32", "[2]") + "}]}," +
                    R"({"#":"1.full","A":[{"N":"shape","AT":{"#":"1.a_intarray","D":[1]}},{"N":"value","AT":{"#":"0.a_f64","D":"-Inf"}},{"N":"dtype","AT":{"#":"1.a_dtype","D":"float32"}}],"I":[],"O":[{"%":2,"TT":)" +
                    Dense("f32", "[1]") + "}]}," +
                    R"({"#":"1.maximum","A":[],"I":[{"%":1},{"%":2}],"O":[{"%":3,"TT":)" +
                    Dense("f32", "[2]") + "}]}," + R"({"#":"1.fetch","A":[)" +
                    Str("name", "y") + R"(],"I":[{"%":3}],"O":[]})";
  cpp::ProgramDesc program;
  Scope scope;
  ASSERT_TRUE(Load(Program(ops), "", &program, &scope).ok());
  const auto& max = program.blocks[0].ops[1];
  ASSERT_EQ(max.Type(), "elementwise_max");
  const std::string c = max.Input("Y")[0];
  const Tensor* t = &scope.FindVar(c)->GetTensor();
  ASSERT_EQ(t->numel(), 1);
  EXPECT_TRUE(std::isinf(t->data<float>()[0]) && t->data<float>()[0] < 0);
  EXPECT_TRUE(program.blocks[0].FindVar(c)->persistable);
}

TEST(PirLoader, RejectsMalformedJsonNamingTheByte) {
  const std::string json = Program(SmallOps());
  Status s = LoadExpectingFailure(json.substr(0, json.size() / 2), SmallParams());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("inference.json: malformed JSON at byte"), std::string::npos)
      << s.message();
}

TEST(PirLoader, RejectsWrongMagicAndNewerVersions) {
  std::string json = Program(SmallOps());
  std::string bad = json;
  bad.replace(bad.find("\"pir\""), 5, "\"pyr\"");
  EXPECT_NE(LoadExpectingFailure(bad, SmallParams()).message().find("magic"), std::string::npos);
  Status s = LoadExpectingFailure(Program(SmallOps(), 99), SmallParams());
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(s.message().find("version 99"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("up to version " + std::to_string(pir::kMaxPirVersion)),
            std::string::npos);
}

TEST(PirLoader, ListsEveryUnsupportedOpWithCounts) {
  std::string ops = SmallOps();
  ops += R"(,{"#":"1.frobnicate","I":[],"O":[]},{"#":"1.frobnicate","I":[],"O":[]},)"
         R"({"#":"3.my_custom","I":[],"O":[]})";
  Status s = LoadExpectingFailure(Program(ops), SmallParams());
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(s.message().find("custom_op.my_custom x1, pd_op.frobnicate x2"), std::string::npos)
      << s.message();
}

TEST(PirLoader, RefusesControlFlowByName) {
  std::string ops = SmallOps() + R"(,{"#":"1.if","I":[],"O":[],"regions":[{"blocks":[]}]})";
  Status s = LoadExpectingFailure(Program(ops), SmallParams());
  EXPECT_NE(s.message().find("control flow"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("pd_op.if"), std::string::npos);
}

TEST(PirLoader, UndefinedOperandNamesTheOpAndValue) {
  std::string ops = SmallOps();
  ops.replace(ops.find(R"("I":[{"%":7}])"), 13, R"("I":[{"%":77}])");
  Status s = LoadExpectingFailure(Program(ops), SmallParams());
  EXPECT_NE(s.message().find("pd_op.hardsigmoid (op #7"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("%77"), std::string::npos) << s.message();
}

TEST(PirLoader, UseBeforeDefinitionIsAnError) {
  // A cycle in a serialized block shows as a use of a later value.
  std::string ops = SmallOps();
  ops.replace(ops.find(R"("I":[{"%":3},{"%":1}])"), 21, R"("I":[{"%":8},{"%":1}])");
  Status s = LoadExpectingFailure(Program(ops), SmallParams());
  EXPECT_NE(s.message().find("pd_op.conv2d"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("undefined or a cycle"), std::string::npos) << s.message();
}

TEST(PirLoader, AValueDefinedTwiceIsRefusedNamingBothOps) {
  // The reshape writes %4 as the conv2d did (and the add reads it).
  std::string ops = SmallOps();
  const std::string from = R"("O":[{"%":6,)";
  ops.replace(ops.find(from), from.size(), R"("O":[{"%":4,)");
  Status s = LoadExpectingFailure(Program(ops), SmallParams());
  EXPECT_NE(s.message().find("value %4 is defined twice"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("pd_op.conv2d (op #"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("pd_op.reshape (op #"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(kJson), std::string::npos) << s.message();
}

TEST(PirLoader, MissingAttributeIsNamed) {
  std::string ops = SmallOps();
  const std::string slope = R"(,{"N":"slope","AT":{"#":"0.a_f32","D":0.25}})";
  ops.replace(ops.find(slope), slope.size(), "");
  Status s = LoadExpectingFailure(Program(ops), SmallParams());
  EXPECT_NE(s.message().find("attribute 'slope' is missing"), std::string::npos)
      << s.message();
}

TEST(PirLoader, ParamsStreamErrorsNameTheParameter) {
  const std::string json = Program(SmallOps());
  const std::string params = SmallParams();
  Status missing = LoadExpectingFailure(json, Record({3}, 1.f));
  EXPECT_EQ(missing.code(), StatusCode::kDataLoss);
  EXPECT_NE(missing.message().find("w_conv"), std::string::npos) << missing.message();
  Status truncated = LoadExpectingFailure(json, params.substr(0, params.size() - 3));
  EXPECT_NE(truncated.message().find("w_conv"), std::string::npos) << truncated.message();
  Status extra = LoadExpectingFailure(json, params + "xyz");
  EXPECT_EQ(extra.code(), StatusCode::kDataLoss);
  EXPECT_NE(extra.message().find("3 trailing bytes"), std::string::npos) << extra.message();
  // Swapped records: w_conv's dims do not match a_bias's.
  Status swapped = LoadExpectingFailure(json, Record({3, 2, 1, 1}, 0.f) + Record({3}, 1.f));
  EXPECT_NE(swapped.message().find("a_bias"), std::string::npos) << swapped.message();
}

TEST(PirLoader, ReadPirModelReportsWhatEachOpBecame) {
  auto model = pir::ReadPirModel(Program(SmallOps()), kJson);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ(model->op_uses.at("pd_op.add").engine_ops, std::set<std::string>{"elementwise_add"});
  EXPECT_EQ(model->op_uses.at("builtin.parameter").count, 2);
  EXPECT_TRUE(model->op_uses.at("pd_op.full_int_array").engine_ops.empty());
  EXPECT_EQ(model->parameter_names, (std::vector<std::string>{"a_bias", "w_conv"}));
}

}  // namespace
}  // namespace lite
