// Bad .nb files: truncation at every cut point, wrong magic, newer/zero
// format version, corrupted lengths, checksum mismatch, trailing bytes, and
// well-framed files whose params disagree with the program. Each must fail
// with the right code and a message naming the file.
#include <gtest/gtest.h>

#include <cstring>

#include "lite/base/version.h"
#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "lite/model_parser/naive_buffer/nb_params.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

using naive_buffer::PutU32;
using naive_buffer::PutU64;

class NbCorruptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = testing_util::MakeSampleProgram();
    scope_ = testing_util::MakeSampleScope(program_);
    ASSERT_TRUE(naive_buffer::SaveToBuffer(program_, *scope_, &good_).ok());
    dir_ = testing_util::MakeTempDir("nb_corrupt");
  }

  // Writes `bytes` to a file and loads it; checks the program/scope stay
  // untouched on failure.
  Status LoadBytes(const std::string& bytes, std::string* path_out = nullptr) {
    const std::string path = dir_ + "/case" + std::to_string(++n_) + ".nb";
    testing_util::WriteFileOrDie(path, bytes);
    if (path_out) *path_out = path;
    cpp::ProgramDesc program;
    Scope scope;
    Status s = naive_buffer::LoadFromFile(path, &program, &scope);
    if (!s.ok()) {
      EXPECT_TRUE(program.blocks.empty());
      EXPECT_TRUE(scope.LocalVarNames().empty());
    }
    return s;
  }

  // Offsets of the framing fields of `good_`.
  size_t ProgramSizeOffset() const {
    uint32_t engine = 0;
    std::memcpy(&engine, good_.data() + 12, 4);
    return 16 + engine;
  }
  size_t ParamCountOffset() const {
    uint64_t program = 0;
    std::memcpy(&program, good_.data() + ProgramSizeOffset(), 8);
    return ProgramSizeOffset() + 8 + program;
  }
  size_t FirstRecordSizeOffset() const {
    uint32_t name = 0;
    std::memcpy(&name, good_.data() + ParamCountOffset() + 8, 4);
    return ParamCountOffset() + 8 + 4 + name;
  }

  // A well-framed file (valid checksum) with the given params.
  std::string Frame(const std::vector<std::pair<std::string, std::string>>& params) const {
    paddle::framework::proto::ProgramDesc pb;
    ProgramToProto(program_, &pb);
    const std::string prog = SerializeDeterministic(pb);
    std::string out(naive_buffer::kNbMagic, 8);
    PutU32(1, &out);
    PutU32(static_cast<uint32_t>(std::strlen(kEngineVersion)), &out);
    out += kEngineVersion;
    PutU64(prog.size(), &out);
    out += prog;
    PutU64(params.size(), &out);
    for (const auto& p : params) {
      PutU32(static_cast<uint32_t>(p.first.size()), &out);
      out += p.first;
      PutU64(p.second.size(), &out);
      out += p.second;
    }
    PutU32(naive_buffer::Fnv1a32(out.data(), out.size()), &out);
    return out;
  }

  std::vector<std::pair<std::string, std::string>> GoodParams() const {
    std::vector<std::pair<std::string, std::string>> params;
    for (const auto& name : testing_util::ParamNames(program_)) {
      std::string rec;
      WriteTensorRecord(scope_->FindVar(name)->GetTensor(), &rec);
      params.emplace_back(name, rec);
    }
    return params;
  }

  cpp::ProgramDesc program_;
  std::unique_ptr<Scope> scope_;
  std::string good_;
  std::string dir_;
  int n_ = 0;
};

#define EXPECT_ERROR(status, code_, needle, path)                             \
  do {                                                                        \
    const Status _s = (status);                                               \
    EXPECT_EQ(_s.code(), StatusCode::code_) << _s.ToString();                 \
    EXPECT_NE(_s.message().find(needle), std::string::npos) << _s.ToString(); \
    EXPECT_NE(_s.message().find(path), std::string::npos) << _s.ToString();   \
  } while (0)

TEST_F(NbCorruptTest, FramedHelperMatchesTheWriter) {
  EXPECT_EQ(Frame(GoodParams()), good_);
  std::string path;
  EXPECT_TRUE(LoadBytes(good_, &path).ok());
}

TEST_F(NbCorruptTest, TruncatedAtEveryCutPoint) {
  for (size_t cut = 0; cut < good_.size(); ++cut) {
    std::string path;
    Status s = LoadBytes(good_.substr(0, cut), &path);
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << "cut " << cut << ": " << s.ToString();
    EXPECT_NE(s.message().find("truncated"), std::string::npos)
        << "cut " << cut << ": " << s.ToString();
    EXPECT_EQ(s.message().rfind(path, 0), 0u) << "cut " << cut << ": " << s.ToString();
  }
}

TEST_F(NbCorruptTest, WrongMagic) {
  std::string bad = good_;
  bad[0] = 'X';
  std::string path;
  Status s = LoadBytes(bad, &path);
  EXPECT_ERROR(s, kInvalidArgument, "not a naive-buffer (.nb) model: wrong magic", path);
  // A Paddle program file is not an .nb either.
  paddle::framework::proto::ProgramDesc pb;
  ProgramToProto(program_, &pb);
  s = LoadBytes(SerializeDeterministic(pb), &path);
  EXPECT_ERROR(s, kInvalidArgument, "wrong magic", path);
}

TEST_F(NbCorruptTest, NewerFormatVersionIsRefusedClearly) {
  std::string bad = good_;
  const uint32_t three = 3;
  std::memcpy(&bad[8], &three, 4);
  std::string path;
  Status s = LoadBytes(bad, &path);
  EXPECT_ERROR(s, kUnimplemented,
               std::string("model format version 3 is newer than this engine supports (2); "
                           "re-run opt with engine ") + kEngineVersion + " or upgrade",
               path);
  EXPECT_NE(s.message().find("written by engine 0.1.0"), std::string::npos) << s.message();
  // Even when the rest of a newer file is laid out differently.
  s = LoadBytes(bad.substr(0, 12), &path);
  EXPECT_ERROR(s, kUnimplemented, "model format version 3 is newer", path);
}

TEST_F(NbCorruptTest, FormatVersionZeroIsInvalid) {
  std::string bad = good_;
  std::memset(&bad[8], 0, 4);
  std::string path;
  EXPECT_ERROR(LoadBytes(bad, &path), kInvalidArgument, "format version 0", path);
}

TEST_F(NbCorruptTest, CorruptedLengthsNeverAllocate) {
  const uint64_t huge = uint64_t{1} << 60;
  std::string path;
  {
    std::string bad = good_;
    std::memcpy(&bad[FirstRecordSizeOffset()], &huge, 8);
    EXPECT_ERROR(LoadBytes(bad, &path), kDataLoss,
                 "record is 1152921504606846976 bytes but only", path);
  }
  {
    std::string bad = good_;
    std::memcpy(&bad[ProgramSizeOffset()], &huge, 8);
    EXPECT_ERROR(LoadBytes(bad, &path), kDataLoss, "the program is 1152921504606846976 bytes",
                 path);
  }
  {
    std::string bad = good_;
    std::memcpy(&bad[ParamCountOffset()], &huge, 8);
    EXPECT_ERROR(LoadBytes(bad, &path), kDataLoss, "param count 1152921504606846976", path);
  }
  {
    std::string bad = good_;
    const uint32_t big = 0xffffffffu;
    std::memcpy(&bad[12], &big, 4);
    EXPECT_ERROR(LoadBytes(bad, &path), kDataLoss, "engine version size 4294967295", path);
  }
  {
    std::string bad = good_;
    const uint32_t big = 0xfffffff0u;
    std::memcpy(&bad[ParamCountOffset() + 8], &big, 4);
    EXPECT_ERROR(LoadBytes(bad, &path), kDataLoss, "param #0 name is 4294967280 bytes", path);
  }
}

TEST_F(NbCorruptTest, ChecksumMismatch) {
  std::string path;
  for (size_t pos : {good_.size() / 3, good_.size() - 10, good_.size() - 1}) {
    std::string bad = good_;
    bad[pos] ^= 0x01;
    EXPECT_ERROR(LoadBytes(bad, &path), kDataLoss, "checksum mismatch", path);
  }
}

TEST_F(NbCorruptTest, TrailingBytes) {
  std::string path;
  EXPECT_ERROR(LoadBytes(good_ + "junk", &path), kDataLoss,
               "4 unexpected bytes between the last param and the checksum", path);
}

TEST_F(NbCorruptTest, ParamsMustMatchTheProgram) {
  std::string path;
  auto params = GoodParams();
  auto missing = params;
  missing.pop_back();
  EXPECT_ERROR(LoadBytes(Frame(missing), &path), kDataLoss,
               "needs param '" + params.back().first + "' but the file does not hold it", path);

  auto extra = params;
  extra.emplace_back("zz_stray", params.front().second);
  EXPECT_ERROR(LoadBytes(Frame(extra), &path), kDataLoss,
               "param 'zz_stray' is not a persistable var of the program", path);

  auto twice = params;
  twice.push_back(params.front());
  EXPECT_ERROR(LoadBytes(Frame(twice), &path), kDataLoss, "appears twice", path);

  auto padded = params;
  padded.front().second += "xy";
  EXPECT_ERROR(LoadBytes(Frame(padded), &path), kDataLoss,
               "2 trailing bytes inside its record", path);

  auto cut = params;
  cut.front().second.resize(cut.front().second.size() / 2);
  Status s = LoadBytes(Frame(cut), &path);
  EXPECT_ERROR(s, kDataLoss, params.front().first, path);
}

TEST_F(NbCorruptTest, MissingFileAndBufferNames) {
  cpp::ProgramDesc program;
  Scope scope;
  Status s = naive_buffer::LoadFromFile(dir_ + "/nope.nb", &program, &scope);
  EXPECT_ERROR(s, kNotFound, "nope.nb", dir_);
  s = naive_buffer::LoadFromBuffer("LITE", naive_buffer::kNbBufferName, &program, &scope);
  EXPECT_ERROR(s, kDataLoss, "truncated", "<nb buffer>");
}

}  // namespace
}  // namespace lite
