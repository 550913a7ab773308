// Naive-buffer round trips on the sample program of test_util (every
// attribute type, every dtype, LoD, a sub-block): save -> load gives the same
// program and tensors, bytes are deterministic and re-save identically.
#include <gtest/gtest.h>

#include <cstring>

#include "lite/base/version.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

using testing_util::MakeSampleProgram;
using testing_util::MakeSampleScope;
using testing_util::ParamNames;
using testing_util::ProgramsEqual;
using testing_util::TensorsEqual;

void ExpectSameParams(const cpp::ProgramDesc& program, const Scope& want, const Scope& got) {
  for (const auto& name : ParamNames(program)) {
    const Variable* v = got.FindVar(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->GetTensor().persistable()) << name;
    EXPECT_TRUE(TensorsEqual(want.FindVar(name)->GetTensor(), v->GetTensor())) << name;
  }
}

TEST(NaiveBuffer, BufferRoundTrip) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  auto scope = MakeSampleScope(program);
  std::string bytes;
  ASSERT_TRUE(naive_buffer::SaveToBuffer(program, *scope, &bytes).ok());

  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  naive_buffer::NbInfo info;
  Status s = naive_buffer::LoadFromBuffer(bytes, "mem.nb", &loaded, &loaded_scope, &info);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(program, loaded));
  ExpectSameParams(program, *scope, loaded_scope);
  EXPECT_EQ(info.format_version, 1u);
  EXPECT_EQ(info.engine_version, kEngineVersion);
  EXPECT_EQ(info.param_count, ParamNames(program).size());
}

TEST(NaiveBuffer, HeaderLayoutFollowsTheSpec) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  auto scope = MakeSampleScope(program);
  std::string bytes;
  ASSERT_TRUE(naive_buffer::SaveToBuffer(program, *scope, &bytes).ok());
  ASSERT_GT(bytes.size(), 24u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("LITENB\0\0", 8));
  uint32_t version = 0, engine_size = 0, checksum = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&engine_size, bytes.data() + 12, 4);
  // No compiled subgraphs: the plain version older engines read.
  EXPECT_EQ(version, naive_buffer::kNbFormatVersionPlain);
  EXPECT_EQ(bytes.substr(16, engine_size), kEngineVersion);
  std::memcpy(&checksum, bytes.data() + bytes.size() - 4, 4);
  EXPECT_EQ(checksum, naive_buffer::Fnv1a32(bytes.data(), bytes.size() - 4));
}

TEST(NaiveBuffer, DeterministicAndStableUnderResave) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  auto scope = MakeSampleScope(program);
  std::string a, b, c;
  ASSERT_TRUE(naive_buffer::SaveToBuffer(program, *scope, &a).ok());
  ASSERT_TRUE(naive_buffer::SaveToBuffer(program, *scope, &b).ok());
  EXPECT_EQ(a, b);
  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  ASSERT_TRUE(naive_buffer::LoadFromBuffer(a, "a.nb", &loaded, &loaded_scope).ok());
  ASSERT_TRUE(naive_buffer::SaveToBuffer(loaded, loaded_scope, &c).ok());
  EXPECT_EQ(a, c);
}

TEST(NaiveBuffer, FileRoundTripAndProgramOnly) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  auto scope = MakeSampleScope(program);
  const std::string path = testing_util::MakeTempDir("nb_file") + "/model.nb";
  ASSERT_TRUE(naive_buffer::SaveToFile(program, *scope, path).ok());
  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  Status s = naive_buffer::LoadFromFile(path, &loaded, &loaded_scope);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(program, loaded));
  ExpectSameParams(program, *scope, loaded_scope);

  cpp::ProgramDesc only;
  naive_buffer::NbInfo info;
  ASSERT_TRUE(naive_buffer::LoadProgramFromFile(path, &only, &info).ok());
  EXPECT_TRUE(ProgramsEqual(program, only));
  EXPECT_EQ(info.param_count, ParamNames(program).size());
}

TEST(NaiveBuffer, SubBlockParamsAreSaved) {
  cpp::ProgramDesc program = MakeSampleProgram();
  cpp::VarDesc w;
  w.name = "sub_w";
  w.dims = {2, 2};
  w.persistable = true;
  program.blocks[1].vars.push_back(w);
  auto scope = MakeSampleScope(program);
  Tensor* t = scope->Var("sub_w")->GetMutableTensor();
  t->Resize({2, 2});
  float* d = t->mutable_data<float>();
  for (int i = 0; i < 4; ++i) d[i] = 0.5f * i;

  std::string bytes;
  Status s = naive_buffer::SaveToBuffer(program, *scope, &bytes);
  ASSERT_TRUE(s.ok()) << s.ToString();
  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  ASSERT_TRUE(naive_buffer::LoadFromBuffer(bytes, "sub.nb", &loaded, &loaded_scope).ok());
  ASSERT_NE(loaded_scope.FindVar("sub_w"), nullptr);
  EXPECT_TRUE(TensorsEqual(*t, loaded_scope.FindVar("sub_w")->GetTensor()));
  EXPECT_EQ(loaded.blocks.size(), 2u);
}

TEST(NaiveBuffer, MissingWeightIsNotFoundNamingTheVar) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  Scope empty;
  std::string bytes = "unchanged";
  Status s = naive_buffer::SaveToFile(program, empty, "/tmp/never_written.nb");
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("/tmp/never_written.nb"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("A_upper"), std::string::npos) << s.message();
  s = naive_buffer::SaveToBuffer(program, empty, &bytes);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(bytes, "unchanged");
}

// Two records as a device library stores them: nine text fields (the
// format's compiled-subgraph strings, cpu_features the eighth) and a blob.
std::vector<DeviceRecord> SampleCompiled() {
  DeviceRecord a;
  a.id = 0;
  a.fields = {std::string(64, 'a'), std::string(64, 'b'), "1x3x8x8", "reference", "1",
              "1.2", kEngineVersion, "any", std::string(64, 'c')};
  a.blob = {0, 1, 2, 255};
  DeviceRecord b = a;
  b.id = 1;
  b.blob.clear();
  return {a, b};
}

TEST(NaiveBuffer, CompiledSubgraphsRoundTripInFormatVersion2) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  auto scope = MakeSampleScope(program);
  const std::vector<DeviceRecord> compiled = SampleCompiled();
  std::string bytes;
  ASSERT_TRUE(naive_buffer::SaveToBuffer(program, *scope, &bytes, compiled).ok());
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, 2u);
  cpp::ProgramDesc loaded;
  Scope loaded_scope;
  naive_buffer::NbInfo info;
  std::vector<DeviceRecord> got;
  Status s = naive_buffer::LoadFromBuffer(bytes, "mem.nb", &loaded, &loaded_scope, &info, &got);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(program, loaded));
  EXPECT_EQ(info.compiled_count, 2u);
  ASSERT_EQ(got.size(), 2u);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].id, compiled[i].id);
    EXPECT_EQ(got[i].fields, compiled[i].fields);
    EXPECT_EQ(got[i].blob, compiled[i].blob);
  }
  // Every truncation of a version-2 file is a clean error.
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    cpp::ProgramDesc p;
    Scope sc;
    EXPECT_FALSE(naive_buffer::LoadFromBuffer(bytes.substr(0, cut), "cut.nb", &p, &sc).ok())
        << cut;
  }
  // A string longer than the format allows is refused when saving.
  std::vector<DeviceRecord> long_key = compiled;
  long_key[0].fields[7].assign(naive_buffer::kNbMaxCompiledStringSize + 1, 'x');
  std::string unchanged = "unchanged";
  s = naive_buffer::SaveToBuffer(program, *scope, &unchanged, long_key);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("cpu_features is longer than 4096 bytes"), std::string::npos)
      << s.message();
  EXPECT_EQ(unchanged, "unchanged");
  // So is a record with another number of text fields.
  std::vector<DeviceRecord> short_record = compiled;
  short_record[1].fields.pop_back();
  s = naive_buffer::SaveToBuffer(program, *scope, &unchanged, short_record);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("compiled subgraph 1 has 8 text fields"), std::string::npos)
      << s.message();
  EXPECT_EQ(unchanged, "unchanged");
}

TEST(NaiveBuffer, FailedLoadLeavesProgramAndScopeUntouched) {
  const cpp::ProgramDesc program = MakeSampleProgram();
  auto scope = MakeSampleScope(program);
  std::string bytes;
  ASSERT_TRUE(naive_buffer::SaveToBuffer(program, *scope, &bytes).ok());
  bytes[bytes.size() / 2] ^= 0x5a;  // checksum mismatch
  cpp::ProgramDesc loaded;
  loaded.version = 42;
  Scope loaded_scope;
  EXPECT_FALSE(naive_buffer::LoadFromBuffer(bytes, "x.nb", &loaded, &loaded_scope).ok());
  EXPECT_EQ(loaded.version, 42);
  EXPECT_TRUE(loaded.blocks.empty());
  EXPECT_TRUE(loaded_scope.LocalVarNames().empty());
}

}  // namespace
}  // namespace lite
