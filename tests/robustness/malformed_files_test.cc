// Malformed params and .nb files: truncated, padded, edited and mismatched
// bytes. Each case asserts the specific error the public API returns.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "lite/base/scope.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tests/robustness/robustness_util.h"

namespace lite {
namespace robustness {
namespace {

// ---- params (combined protobuf model) ----

TEST(MalformedParams, TruncatedParamsNameTheVar) {
  ModelBytes b = DefaultModelBytes();
  b.params.resize(b.params.size() - 100);
  auto p = CreateFromBytes(b);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "fc.w")) << p.status().message();
}

TEST(MalformedParams, TrailingBytesAreRefused) {
  ModelBytes b = DefaultModelBytes();
  b.params += "garbage";
  auto p = CreateFromBytes(b);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "trailing")) << p.status().message();
}

TEST(MalformedParams, EmptyParamsNameTheFirstVar) {
  ModelBytes b = DefaultModelBytes();
  b.params.clear();
  auto p = CreateFromBytes(b);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "bn1.bias")) << p.status().message();
}

// The program declares a weight shape or dtype the params file does not hold.
ModelBytes WithVarChanged(const std::string& var, const std::function<void(cpp::VarDesc*)>& edit) {
  tools::DefaultModel m = tools::MakeDefaultModel();
  for (auto& v : m.program.blocks[0].vars) {
    if (v.name == var) edit(&v);
  }
  ModelBytes b = DefaultModelBytes();
  b.program = ProgramBytes(m.program);
  return b;
}

TEST(MalformedParams, ParamsOfAnotherShapeAreRefused) {
  auto p = CreateFromBytes(WithVarChanged("conv2.b", [](cpp::VarDesc* v) { v->dims = {17}; }));
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "conv2.b")) << p.status().message();
}

TEST(MalformedParams, ParamsOfAnotherDtypeAreRefused) {
  auto p = CreateFromBytes(
      WithVarChanged("fc.b", [](cpp::VarDesc* v) { v->dtype = DataType::kInt32; }));
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "fc.b")) << p.status().message();
}

TEST(MalformedParams, AWeightWithoutDataNamesIt) {
  tools::DefaultModel m = tools::MakeDefaultModel();
  cpp::VarDesc extra;
  extra.name = "zz.extra_weight";
  extra.dims = {4};
  extra.persistable = true;
  m.program.blocks[0].vars.push_back(extra);
  ModelBytes b = DefaultModelBytes();  // params one record short
  b.program = ProgramBytes(m.program);
  auto p = CreateFromBytes(b);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "zz.extra_weight")) << p.status().message();
}
TEST(MalformedParams, ProgramBytesThatAreNotAProgram) {
  ModelBytes b = DefaultModelBytes();
  b.program = std::string("\xff\xff\xff\xff not a protobuf", 20);
  auto p = CreateFromBytes(b);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "ProgramDesc")) << p.status().message();
}

// ---- .nb ----

class MalformedNb : public ::testing::Test {
 protected:
  void SetUp() override {
    nb_ = DefaultModelNb();
    ASSERT_FALSE(nb_.empty());
  }
  // Re-seals `bytes` with a valid checksum, so only the edit is wrong.
  static void Reseal(std::string* bytes) {
    uint32_t sum = naive_buffer::Fnv1a32(bytes->data(), bytes->size() - 4);
    std::memcpy(&(*bytes)[bytes->size() - 4], &sum, 4);
  }
  // Loads, edits the program, saves again (valid framing and checksum).
  std::string EditProgram(const std::function<void(cpp::ProgramDesc*)>& edit) {
    cpp::ProgramDesc program;
    Scope scope;
    EXPECT_TRUE(naive_buffer::LoadFromBuffer(nb_, "test.nb", &program, &scope).ok());
    edit(&program);
    std::string out;
    EXPECT_TRUE(naive_buffer::SaveToBuffer(program, scope, &out).ok());
    return out;
  }
  std::string nb_;
};

TEST_F(MalformedNb, TheUneditedFileRuns) {
  auto p = CreateFromNb(nb_);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(RunDefaultInput(p->get(), {1, 3, 32, 32}).ok());
}

TEST_F(MalformedNb, EmptyBuffer) {
  auto p = CreateFromNb("");
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "no model set")) << p.status().message();
}

TEST_F(MalformedNb, WrongMagic) {
  nb_[0] = 'X';
  auto p = CreateFromNb(nb_);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "wrong magic")) << p.status().message();
}

TEST_F(MalformedNb, NewerFormatVersion) {
  nb_[8] = 3;
  Reseal(&nb_);
  auto p = CreateFromNb(nb_);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "newer than this engine supports")) << p.status().message();
}

TEST_F(MalformedNb, TruncatedInTheMiddle) {
  nb_.resize(nb_.size() / 2);
  auto p = CreateFromNb(nb_);
  ASSERT_FALSE(p.ok());
}

TEST_F(MalformedNb, FlippedByteFailsTheChecksum) {
  nb_[nb_.size() - 40] ^= 0x5a;
  auto p = CreateFromNb(nb_);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "checksum")) << p.status().message();
}

TEST_F(MalformedNb, TrailingBytesAfterTheChecksum) {
  nb_ += "xx";
  auto p = CreateFromNb(nb_);
  ASSERT_FALSE(p.ok());
}

TEST_F(MalformedNb, KernelKeyOfAnotherOpType) {
  std::string edited = EditProgram([](cpp::ProgramDesc* prog) {
    std::string softmax_key;
    for (auto& op : prog->blocks[0].ops) {
      if (op.Type() == "softmax") softmax_key = op.GetAttr<std::string>("__kernel__");
    }
    for (auto& op : prog->blocks[0].ops) {
      if (op.Type() == "pool2d") op.SetAttr("__kernel__", softmax_key);
    }
  });
  auto p = CreateFromNb(edited);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "pool2d") && Has(p.status(), "softmax")) << p.status().message();
}

TEST_F(MalformedNb, EditedOpMissingItsInput) {
  std::string edited = EditProgram([](cpp::ProgramDesc* prog) {
    for (auto& op : prog->blocks[0].ops) {
      if (op.Type() == "softmax") op.mutable_inputs()->erase("X");
    }
  });
  auto p = CreateFromNb(edited);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "softmax") && Has(p.status(), "X")) << p.status().message();
}

TEST_F(MalformedNb, EditedOpReadingAnUndeclaredVar) {
  std::string edited = EditProgram([](cpp::ProgramDesc* prog) {
    for (auto& op : prog->blocks[0].ops) {
      if (op.Type() == "softmax") op.SetInput("X", {"nowhere"});
    }
  });
  auto p = CreateFromNb(edited);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status(), "softmax") && Has(p.status(), "nowhere")) << p.status().message();
}

}  // namespace
}  // namespace robustness
}  // namespace lite
