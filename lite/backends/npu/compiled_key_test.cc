// The compiled-subgraph key, the NN IR encoding, and the reference driver's
// Serialize / Deserialize.
#include "lite/backends/npu/compiled_key.h"

#include <cstring>

#include <gtest/gtest.h>

#include "lite/backends/npu/nn_ir_codec.h"
#include "lite/backends/npu/reference/reference_driver.h"

namespace lite {
namespace npu {
namespace {

// x [1, 4] + constant c [4] -> relu -> out.
Model SmallModel(float c0 = 0.5f, int64_t width = 4) {
  Model m;
  Operand x;
  x.dims = {1, width};
  x.lifetime = Lifetime::kModelInput;
  x.name = "x";
  Operand c;
  c.dims = {width};
  c.lifetime = Lifetime::kConstant;
  c.name = "c";
  std::vector<float> cv(width, -1.f);
  cv[0] = c0;
  c.data.resize(cv.size() * sizeof(float));
  std::memcpy(c.data.mutable_data(), cv.data(), c.data.size());
  Operand t;
  t.dims = {1, width};
  t.name = "t";
  Operand out = t;
  out.lifetime = Lifetime::kModelOutput;
  out.name = "out";
  const int ix = m.AddOperand(x), ic = m.AddOperand(c), it = m.AddOperand(t);
  const int io = m.AddOperand(out);
  Operation add;
  add.type = OperationType::kAdd;
  add.inputs = {ix, ic};
  add.outputs = {it};
  add.origin = "elementwise_add (output: t)";
  Operation relu;
  relu.type = OperationType::kLeakyRelu;
  relu.inputs = {it};
  relu.outputs = {io};
  relu.attrs["alpha"] = 0.25f;
  relu.origin = "leaky_relu (output: out)";
  m.AddOperation(add);
  m.AddOperation(relu);
  m.inputs = {ix};
  m.outputs = {io};
  return m;
}

std::vector<float> RunExecutable(Driver* d, Executable* exe) {
  std::vector<float> x = {1.f, -2.f, 3.f, 0.5f}, y(4, 0.f);
  Status s = d->Execute(exe, {{x.data(), x.size() * 4, {1, 4}}}, {{y.data(), y.size() * 4, {1, 4}}});
  EXPECT_TRUE(s.ok()) << s.ToString();
  return y;
}

TEST(CompiledKeyTest, EveryIngredientChangesTheKeyAndIsNamed) {
  ReferenceDriver driver;
  const KeyIngredients base = IngredientsOf(SmallModel(), driver);
  EXPECT_EQ(base.driver, "reference");
  EXPECT_EQ(base.driver_version, "1");
  EXPECT_EQ(base.input_dims, "1x4");
  EXPECT_EQ(base.model_digest.size(), 64u);
  EXPECT_EQ(KeyOf(base), KeyOf(IngredientsOf(SmallModel(), driver)));  // deterministic
  const CompiledSubgraph saved = MakeCompiledEntry(0, base, {1, 2, 3});
  EXPECT_TRUE(CheckCompiledEntry(saved, base).ok());

  struct Change {
    std::string KeyIngredients::*field;
    const char* named;
  };
  const Change changes[] = {
      {&KeyIngredients::driver, "driver is"},
      {&KeyIngredients::driver_version, "driver version is"},
      {&KeyIngredients::driver_api, "driver API version is"},
      {&KeyIngredients::engine_version, "engine version is"},
      {&KeyIngredients::cpu_features, "CPU features is"},
      {&KeyIngredients::input_dims, "input dims is"},
      {&KeyIngredients::model_digest, "NN IR digest"},
  };
  for (const Change& c : changes) {
    KeyIngredients now = base;
    now.*(c.field) += "x";
    EXPECT_NE(KeyOf(now), KeyOf(base)) << c.named;
    Status s = CheckCompiledEntry(saved, now);
    EXPECT_FALSE(s.ok()) << c.named;
    EXPECT_NE(s.message().find(c.named), std::string::npos) << s.message();
  }
}

TEST(CompiledKeyTest, OneWeightByteOrOneInputDimChangesTheKey) {
  ReferenceDriver driver;
  const KeyIngredients base = IngredientsOf(SmallModel(0.5f), driver);
  const KeyIngredients weight = IngredientsOf(SmallModel(0.5000001f), driver);
  EXPECT_NE(weight.model_digest, base.model_digest);
  EXPECT_EQ(weight.input_dims, base.input_dims);
  EXPECT_NE(KeyOf(weight), KeyOf(base));
  const KeyIngredients wider = IngredientsOf(SmallModel(0.5f, 5), driver);
  EXPECT_EQ(wider.input_dims, "1x5");
  Status s = CheckCompiledEntry(MakeCompiledEntry(0, base, {}), wider);
  EXPECT_NE(s.message().find("input dims is '1x5' (saved for '1x4')"), std::string::npos)
      << s.message();
}

TEST(CompiledKeyTest, AFlippedBlobByteIsDetected) {
  ReferenceDriver driver;
  const KeyIngredients k = IngredientsOf(SmallModel(), driver);
  CompiledSubgraph e = MakeCompiledEntry(3, k, {9, 8, 7, 6});
  e.blob[2] ^= 1;
  Status s = CheckCompiledEntry(e, k);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("compiled bytes are corrupt"), std::string::npos) << s.message();
}

TEST(ReferenceSerializeTest, RoundTripRunsLikeTheCompiledExecutable) {
  ReferenceDriver driver;
  const Model m = SmallModel();
  auto exe = driver.Compile(m, {});
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto bytes = driver.Serialize(**exe);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto again = driver.Deserialize(m, *bytes, {});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  const std::vector<float> expected = {1.5f, -0.75f, 2.f, -0.125f};
  EXPECT_EQ(RunExecutable(&driver, exe->get()), expected);
  EXPECT_EQ(RunExecutable(&driver, again->get()), expected);
  // Serializing is deterministic.
  EXPECT_EQ(*driver.Serialize(**again), *bytes);
}

TEST(ReferenceSerializeTest, EveryFlippedOrMissingByteIsRefusedWithoutCrashing) {
  ReferenceDriver driver;
  const Model m = SmallModel();
  auto exe = driver.Compile(m, {});
  ASSERT_TRUE(exe.ok());
  const std::vector<uint8_t> bytes = *driver.Serialize(**exe);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t bit : {0x01, 0x80}) {
      std::vector<uint8_t> bad = bytes;
      bad[i] ^= bit;
      EXPECT_FALSE(driver.Deserialize(m, bad, {}).ok()) << "byte " << i << " bit " << int(bit);
    }
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + i);
    EXPECT_FALSE(driver.Deserialize(m, cut, {}).ok()) << "truncated to " << i;
  }
}

TEST(ReferenceSerializeTest, BytesOfAnotherModelAreRefused) {
  ReferenceDriver driver;
  auto exe = driver.Compile(SmallModel(0.5f), {});
  ASSERT_TRUE(exe.ok());
  auto s = driver.Deserialize(SmallModel(0.75f), *driver.Serialize(**exe), {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("the bytes hold another model"), std::string::npos);
}

TEST(Sha256Test, KnownAnswer) {
  EXPECT_EQ(Sha256Hex("abc", 3),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace npu
}  // namespace lite
