// Compiled subgraphs saved with the model and in a cache directory, end to
// end on the generated default model with the fake driver (the reference
// driver plus controls): a saved .nb loads with zero compiles and identical
// outputs; each key ingredient changed alone (a weight byte, an input dim,
// driver version, engine version, CPU features, a flipped blob byte) and a
// Deserialize failure compile again with their reason and correct outputs;
// nothing is loaded without the trust option; the cache dir is keyed the
// same way, ignores corrupt files and survives concurrent writers.
#include <unistd.h>

#include <cstring>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/backends/npu/compiled_key.h"
#include "lite/backends/npu/fake/fake_driver.h"
#include "lite/backends/npu/nn_ir_codec.h"
#include "lite/base/version.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tests/npu_test_model.h"

namespace {

using lite::CompiledSubgraph;

// The .nb's compiled-subgraph records as the NPU library's entries, and back.
std::vector<CompiledSubgraph> Entries(const std::vector<lite::DeviceRecord>& records) {
  std::vector<CompiledSubgraph> out;
  for (const auto& r : records) {
    auto e = lite::FromDeviceRecord(r);
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    if (e.ok()) out.push_back(*e);
  }
  return out;
}
std::vector<lite::DeviceRecord> Records(const std::vector<CompiledSubgraph>& entries) {
  std::vector<lite::DeviceRecord> out;
  for (const auto& e : entries) out.push_back(lite::ToDeviceRecord(e));
  return out;
}
using lite::npu::FakeDriverControl;
using npu_test::RunOnce;
using npu_test::TempDir;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::ModelType;
using paddle::lite_api::PaddlePredictor;

CxxConfig FullConfig() {
  CxxConfig c;
  static const std::string dir = npu_test::SaveDefaultModel("npu_compiled_model");
  c.set_model_dir(dir);
  c.set_valid_places({lite::Place(lite::TargetType::kNPU), lite::Place(lite::TargetType::kHost)});
  c.set_npu_driver("fake");
  return c;
}

std::shared_ptr<PaddlePredictor> Light(const std::string& nb, bool trust) {
  MobileConfig c;
  c.set_model_from_file(nb);
  c.set_npu_trust_compiled_code(trust);
  auto p = CreatePaddlePredictor<MobileConfig>(c);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : nullptr;
}

paddle::lite_api::SubgraphPlacement OnlySubgraph(PaddlePredictor* p) {
  auto report = p->GetPlacementReport();
  EXPECT_EQ(report.subgraphs.size(), 1u) << report.ToString();
  return report.subgraphs.empty() ? paddle::lite_api::SubgraphPlacement() : report.subgraphs[0];
}

class NpuCompiledTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FakeDriverControl::Get().Reset();
    nb_ = TempDir() + "/compiled_" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".nb";
    CxxConfig c = FullConfig();
    c.set_npu_save_compiled(true);
    auto full = CreatePaddlePredictor<CxxConfig>(c);
    ASSERT_TRUE(full.ok()) << full.status().ToString();
    expected_ = RunOnce(full->get());  // input dims known now: compiles
    ASSERT_EQ(OnlySubgraph(full->get()).compiles, 1);
    lite::Status s = (*full)->SaveOptimizedModel(nb_, ModelType::kNaiveBuffer);
    ASSERT_TRUE(s.ok()) << s.ToString();
    FakeDriverControl::Get().Reset();
  }
  void TearDown() override { FakeDriverControl::Get().Reset(); }

  // Rewrites the .nb after `edit` changed its program's scope or entries.
  template <typename Edit>
  void RewriteNb(Edit edit) {
    lite::cpp::ProgramDesc program;
    lite::Scope scope;
    std::vector<lite::DeviceRecord> records;
    lite::Status s = lite::naive_buffer::LoadFromFile(nb_, &program, &scope, nullptr, &records);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::vector<CompiledSubgraph> compiled = Entries(records);
    edit(&scope, &compiled);
    s = lite::naive_buffer::SaveToFile(program, scope, nb_, Records(compiled));
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // The light predictor must compile once, say `why`, and match `want`.
  // `loads`: executables deserialized meanwhile (the declared 32x32 shape
  // loads at creation before a 16x16 run compiles).
  void ExpectRecompiled(const std::string& why, const std::vector<float>& want, int size = 32,
                        int loads = 0) {
    auto p = Light(nb_, /*trust=*/true);
    ASSERT_TRUE(p);
    const std::vector<float> got = RunOnce(p.get(), size);
    auto sub = OnlySubgraph(p.get());
    EXPECT_EQ(sub.compiles, 1);
    EXPECT_EQ(sub.deserializations, loads);
    EXPECT_NE(sub.compiled_note.find(why), std::string::npos) << sub.compiled_note;
    EXPECT_EQ(got, want);
  }

  std::string nb_;
  std::vector<float> expected_;
};

TEST_F(NpuCompiledTest, SavedModelLoadsWithZeroCompilesAndIdenticalOutputs) {
  lite::naive_buffer::NbInfo info;
  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  ASSERT_TRUE(lite::naive_buffer::LoadFromFile(nb_, &program, &scope, &info).ok());
  EXPECT_EQ(info.format_version, 2u);
  EXPECT_EQ(info.compiled_count, 1u);

  auto p = Light(nb_, /*trust=*/true);
  ASSERT_TRUE(p);
  EXPECT_EQ(RunOnce(p.get()), expected_);  // bit-identical
  auto sub = OnlySubgraph(p.get());
  EXPECT_EQ(sub.state, "device");
  EXPECT_EQ(sub.compiles, 0);
  EXPECT_EQ(sub.deserializations, 1);
  EXPECT_EQ(sub.compiled_note, "");
  EXPECT_EQ(FakeDriverControl::Get().compile_calls, 0);
  EXPECT_EQ(FakeDriverControl::Get().deserialize_calls, 1);
  EXPECT_NE(p->GetPlacementReport().ToString().find("compiled 0, loaded 1"), std::string::npos)
      << p->GetPlacementReport().ToString();
}

TEST_F(NpuCompiledTest, CompiledCodeIsNeverLoadedWithoutTheOptIn) {
  auto p = Light(nb_, /*trust=*/false);
  ASSERT_TRUE(p);
  EXPECT_EQ(RunOnce(p.get()), expected_);
  auto sub = OnlySubgraph(p.get());
  EXPECT_EQ(sub.compiles, 1);
  EXPECT_EQ(sub.deserializations, 0);
  EXPECT_EQ(FakeDriverControl::Get().deserialize_calls, 0);
  EXPECT_NE(sub.compiled_note.find("not loaded without the trust_compiled_code option"),
            std::string::npos)
      << sub.compiled_note;
}

TEST_F(NpuCompiledTest, ANewDriverVersionRecompiles) {
  FakeDriverControl::Get().version = "2";
  ExpectRecompiled("driver version is '2' (saved for '1')", expected_);
}

TEST_F(NpuCompiledTest, OtherCpuFeaturesRecompile) {
  FakeDriverControl::Get().cpu_features = "x86_64 avx512f";
  ExpectRecompiled("CPU features is 'x86_64 avx512f' (saved for 'any')", expected_);
}

TEST_F(NpuCompiledTest, AnotherEngineVersionRecompiles) {
  // As an older engine would have written it: its version in the key.
  RewriteNb([](lite::Scope*, std::vector<CompiledSubgraph>* compiled) {
    for (auto& e : *compiled) {
      lite::npu::KeyIngredients k{e.model_digest,  e.input_dims,  e.driver,
                                  e.driver_version, e.driver_api, "0.0.9",
                                  e.cpu_features};
      e = lite::npu::MakeCompiledEntry(e.subgraph_id, k, e.blob);
    }
  });
  ExpectRecompiled("engine version is '" + std::string(lite::kEngineVersion) +
                       "' (saved for '0.0.9')",
                   expected_);
}

TEST_F(NpuCompiledTest, AChangedWeightByteRecompilesAndUsesTheNewWeight) {
  RewriteNb([](lite::Scope* scope, std::vector<CompiledSubgraph>*) {
    // The largest float weight: one byte of its first element.
    lite::Tensor* biggest = nullptr;
    for (const auto& name : scope->LocalVarNames()) {
      lite::Tensor* t = scope->FindVar(name)->GetMutableTensor();
      if (t->dtype() == lite::DataType::kFloat32 && (!biggest || t->numel() > biggest->numel())) {
        biggest = t;
      }
    }
    ASSERT_NE(biggest, nullptr);
    reinterpret_cast<uint8_t*>(biggest->mutable_data<float>())[3] ^= 0x01;
  });
  // The right outputs for the edited weights: compiled from scratch.
  auto fresh = Light(nb_, /*trust=*/false);
  ASSERT_TRUE(fresh);
  const std::vector<float> want = RunOnce(fresh.get());
  EXPECT_NE(want, expected_);  // a stale executable would give these
  ExpectRecompiled("subgraph NN IR digest", want);
}

TEST_F(NpuCompiledTest, AnotherInputDimRecompiles) {
  auto small = Light(nb_, /*trust=*/false);
  ASSERT_TRUE(small);
  const std::vector<float> want = RunOnce(small.get(), 16);
  ExpectRecompiled("input dims is '1x3x16x16' (saved for '1x3x32x32')", want, 16, /*loads=*/1);
}

TEST_F(NpuCompiledTest, AFlippedBlobByteRecompiles) {
  RewriteNb([](lite::Scope*, std::vector<CompiledSubgraph>* compiled) {
    ASSERT_FALSE(compiled->empty());
    (*compiled)[0].blob[(*compiled)[0].blob.size() / 2] ^= 0x10;
  });
  ExpectRecompiled("compiled bytes are corrupt", expected_);
}

TEST_F(NpuCompiledTest, ADeserializeFailureRecompiles) {
  FakeDriverControl::Get().fail_deserialize = true;
  ExpectRecompiled("fake driver: deserialize failure requested", expected_);
  EXPECT_EQ(FakeDriverControl::Get().deserialize_calls, 1);
}

TEST_F(NpuCompiledTest, ANewerFormatVersionIsRefusedCleanly) {
  std::string bytes;
  ASSERT_TRUE(lite::ReadFileToString(nb_, &bytes).ok());
  bytes[8] = 3;
  MobileConfig c;
  c.set_model_from_buffer(bytes);
  auto p = CreatePaddlePredictor<MobileConfig>(c);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("model format version 3 is newer than this engine "
                                      "supports (2)"),
            std::string::npos)
      << p.status().message();
}

TEST_F(NpuCompiledTest, CacheDirIsKeyedTrustedAndToleratesCorruptAndConcurrentWriters) {
  const std::string dir = TempDir() + "/npu_cache_" + std::to_string(::getpid());
  // Several predictors compiling into the same directory at once.
  std::vector<std::thread> writers;
  for (int i = 0; i < 3; ++i) {
    writers.emplace_back([&] {
      CxxConfig c = FullConfig();
      c.set_npu_cache_dir(dir);
      auto p = CreatePaddlePredictor<CxxConfig>(c);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      EXPECT_EQ(RunOnce(p->get()), expected_);
    });
  }
  for (auto& t : writers) t.join();
  std::vector<std::string> names;
  ASSERT_TRUE(lite::ListDirectory(dir, &names).ok());
  ASSERT_EQ(names.size(), 1u);  // one key, no temporary left behind
  const std::string file = lite::JoinPath(dir, names[0]);

  // Trusted: loaded, not compiled.
  CxxConfig c = FullConfig();
  c.set_npu_cache_dir(dir);
  c.set_npu_trust_compiled_code(true);
  auto p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(RunOnce(p->get()), expected_);
  auto sub = OnlySubgraph(p->get());
  EXPECT_EQ(sub.compiles, 0);
  EXPECT_EQ(sub.deserializations, 1);

  // Not trusted: compiled, and said so.
  c.set_npu_trust_compiled_code(false);
  p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(RunOnce(p->get()), expected_);
  sub = OnlySubgraph(p->get());
  EXPECT_EQ(sub.compiles, 1);
  EXPECT_NE(sub.compiled_note.find("the cache dir holds compiled code"), std::string::npos)
      << sub.compiled_note;

  // A corrupt file is ignored with its reason (and rewritten after compiling).
  std::string bytes;
  ASSERT_TRUE(lite::ReadFileToString(file, &bytes).ok());
  bytes[bytes.size() - 5] ^= 0x01;
  ASSERT_TRUE(lite::WriteStringToFile(file, bytes).ok());
  c.set_npu_trust_compiled_code(true);
  p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(RunOnce(p->get()), expected_);
  sub = OnlySubgraph(p->get());
  EXPECT_EQ(sub.compiles, 1);
  EXPECT_NE(sub.compiled_note.find("cache entry ignored"), std::string::npos) << sub.compiled_note;
  EXPECT_NE(sub.compiled_note.find("corrupt"), std::string::npos) << sub.compiled_note;
  p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(p.ok());
  RunOnce(p->get());
  EXPECT_EQ(OnlySubgraph(p->get()).deserializations, 1);

  // A cache dir that is a file: creation fails, naming it.
  c.set_npu_cache_dir(file);
  p = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("exists and is not a directory"), std::string::npos)
      << p.status().message();
}

}  // namespace

namespace {

// The C-codegen driver stores its shared object: a saved .nb runs without
// compiling (and without a C compiler being asked), a flipped byte in the
// stored bytes recompiles, and without the trust option nothing is loaded.
TEST(NpuCompiledCcodegen, SavedSharedObjectLoadsWithoutCompiling) {
  CxxConfig c = FullConfig();
  c.set_npu_driver("ccodegen");
  c.set_npu_save_compiled(true);
  auto full = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  const std::vector<float> want = RunOnce(full->get());
  const auto built = OnlySubgraph(full->get());
  if (built.state != "device") GTEST_SKIP() << "ccodegen did not compile here: " << built.reason;
  const std::string nb = TempDir() + "/compiled_ccodegen.nb";
  lite::Status s = (*full)->SaveOptimizedModel(nb, ModelType::kNaiveBuffer);
  ASSERT_TRUE(s.ok()) << s.ToString();

  auto trusted = Light(nb, /*trust=*/true);
  ASSERT_TRUE(trusted);
  EXPECT_EQ(RunOnce(trusted.get()), want);
  auto sub = OnlySubgraph(trusted.get());
  EXPECT_EQ(sub.driver, "ccodegen");
  EXPECT_EQ(sub.compiles, 0);
  EXPECT_EQ(sub.deserializations, 1);

  auto untrusted = Light(nb, /*trust=*/false);
  ASSERT_TRUE(untrusted);
  EXPECT_EQ(RunOnce(untrusted.get()), want);
  sub = OnlySubgraph(untrusted.get());
  EXPECT_EQ(sub.compiles, 1);
  EXPECT_EQ(sub.deserializations, 0);

  // One flipped byte in the middle of the stored shared object, the blob's
  // checksum updated so that the driver's own Deserialize must refuse it.
  {
    lite::cpp::ProgramDesc program;
    lite::Scope scope;
    std::vector<lite::DeviceRecord> records;
    ASSERT_TRUE(lite::naive_buffer::LoadFromFile(nb, &program, &scope, nullptr, &records).ok());
    std::vector<CompiledSubgraph> compiled = Entries(records);
    ASSERT_EQ(compiled.size(), 1u);
    std::vector<uint8_t>& blob = compiled[0].blob;
    ASSERT_GT(blob.size(), 100u);
    blob[blob.size() / 2] ^= 0x5a;
    compiled[0].blob_sha256 = lite::npu::Sha256Hex(blob.data(), blob.size());
    ASSERT_TRUE(lite::naive_buffer::SaveToFile(program, scope, nb, Records(compiled)).ok());
  }
  auto flipped = Light(nb, /*trust=*/true);
  ASSERT_TRUE(flipped);
  EXPECT_EQ(RunOnce(flipped.get()), want);
  sub = OnlySubgraph(flipped.get());
  EXPECT_EQ(sub.compiles, 1);
  EXPECT_EQ(sub.deserializations, 0);
  EXPECT_FALSE(sub.compiled_note.empty());
}

}  // namespace
