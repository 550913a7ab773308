// Tests of the LoDTensor record reader/writer: exact byte layout, every
// dtype, LoD, and each corrupt-input case (code + message naming file, var
// and what was being read).
#include "lite/model_parser/tensor_io.h"

#include <gtest/gtest.h>

#include <cstring>

#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

using testing_util::RawRecord;
using testing_util::TensorDescBytes;
using testing_util::TensorsEqual;

const char kFile[] = "dir/params.bin";
const char kVar[] = "conv1.w_0";

::testing::AssertionResult Fails(const Status& s, StatusCode code,
                                 const std::string& needle = "") {
  if (s.code() != code) {
    return ::testing::AssertionFailure() << "code " << StatusCodeName(s.code())
                                         << " != " << StatusCodeName(code) << ": "
                                         << s.message();
  }
  for (const std::string& part : {std::string(kFile), std::string(kVar), needle}) {
    if (s.message().find(part) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << part << "' not in: " << s.message();
    }
  }
  return ::testing::AssertionSuccess();
}

Status ReadOne(const std::string& bytes, Tensor* t, size_t* consumed = nullptr) {
  ByteReader r(bytes);
  Status s = ReadTensorRecord(&r, kFile, kVar, t);
  if (consumed) *consumed = r.offset();
  return s;
}

Tensor MakeTensor(DataType type, const DDim& dims, const LoD& lod = {}) {
  Tensor t;
  t.Resize(dims);
  t.set_lod(lod);
  auto* p = static_cast<uint8_t*>(t.mutable_data(type));
  for (size_t i = 0; i < t.memory_size(); ++i) p[i] = static_cast<uint8_t>(i * 13 + 5);
  if (type == DataType::kBool) {
    for (size_t i = 0; i < t.memory_size(); ++i) p[i] &= 1;
  }
  return t;
}

TEST(TensorIo, ExactBytesOfAPaddleRecord) {
  Tensor t;
  t.Resize({2});
  float* d = t.mutable_data<float>();
  d[0] = 1.0f;
  d[1] = -2.0f;
  t.set_lod({{0, 2}});
  std::string out;
  WriteTensorRecord(t, &out);
  RawRecord want;
  want.lod = {{0, 2}};
  want.desc = "\x08\x05\x10\x02";  // data_type FP32, dims 2
  want.data.assign(reinterpret_cast<const char*>(d), 8);
  EXPECT_EQ(out, want.Bytes());
  EXPECT_EQ(out.size(), 4u + 8 + 8 + 16 + 4 + 4 + 4 + 8);
}

TEST(TensorIo, RoundTripEveryDtypeWithLoD) {
  const DataType types[] = {DataType::kBool,  DataType::kInt8,    DataType::kUInt8,
                            DataType::kInt16, DataType::kInt32,   DataType::kInt64,
                            DataType::kFloat16, DataType::kFloat32, DataType::kFloat64};
  std::string all;
  std::vector<Tensor> written;
  for (DataType type : types) {
    written.push_back(MakeTensor(type, {3, 2}, {{0, 1, 3}, {0, 2, 4, 6}}));
    WriteTensorRecord(written.back(), &all);
  }
  written.push_back(MakeTensor(DataType::kFloat32, {}));      // scalar
  written.push_back(MakeTensor(DataType::kInt64, {0, 5}));    // empty
  WriteTensorRecord(written[written.size() - 2], &all);
  WriteTensorRecord(written.back(), &all);
  ByteReader r(all);
  for (const Tensor& w : written) {
    Tensor t;
    t.set_persistable(true);
    Status s = ReadTensorRecord(&r, kFile, kVar, &t);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(TensorsEqual(w, t)) << DataTypeName(w.dtype());
    EXPECT_TRUE(t.persistable());
  }
  EXPECT_TRUE(r.AtEnd());
}

TEST(TensorIo, TruncatedAnywhereIsDataLossNamingThePart) {
  Tensor t = MakeTensor(DataType::kFloat32, {2, 3}, {{0, 1, 2}});
  std::string full;
  WriteTensorRecord(t, &full);
  // Layout: 0 version, 4 lod count, 12 level size, 20 offsets, 44 tensor
  // version, 48 desc size, 52 desc (6 bytes), 58 data (24 bytes).
  ASSERT_EQ(full.size(), 82u);
  for (size_t cut = 0; cut < full.size(); ++cut) {
    Tensor out = MakeTensor(DataType::kInt8, {1});
    Tensor before = out;
    Status s = ReadOne(full.substr(0, cut), &out);
    std::string part = cut < 4    ? "while reading LoDTensor version"
                       : cut < 12 ? "while reading LoD level count"
                       : cut < 20 ? "while reading size of LoD level 0 of 1"
                       : cut < 44 ? "while reading offsets of LoD level 0 of 1"
                       : cut < 48 ? "while reading tensor version"
                       : cut < 52 ? "while reading TensorDesc size"
                       : cut < 58 ? "while reading TensorDesc"
                                  : "(truncated data)";
    EXPECT_TRUE(Fails(s, StatusCode::kDataLoss, part)) << "cut at " << cut;
    EXPECT_NE(s.message().find(kVar), std::string::npos);
    EXPECT_TRUE(TensorsEqual(out, before)) << "output changed on error";
  }
  Tensor out;
  EXPECT_TRUE(ReadOne(full, &out).ok());
}

TEST(TensorIo, NegativeDescSize) {
  RawRecord r;
  r.desc = TensorDescBytes(5, {1});
  r.override_desc_size = true;
  r.desc_size = -4;
  r.data = std::string(4, '\0');
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kDataLoss, "negative TensorDesc size"));
}

TEST(TensorIo, DescSizeLargerThanRemaining) {
  RawRecord r;
  r.desc = TensorDescBytes(5, {1});
  r.override_desc_size = true;
  r.desc_size = 1 << 30;
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kDataLoss, "TensorDesc"));
}

TEST(TensorIo, GarbageTensorDesc) {
  RawRecord r;
  r.desc = "\xff\xff\xff\xff";
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kDataLoss, "does not parse"));
}

TEST(TensorIo, MissingDataType) {
  RawRecord r;
  r.desc = "\x10\x02";  // dims only
  r.data = std::string(8, '\0');
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument, "no data_type"));
}

TEST(TensorIo, UnknownDtypeCodeNamesTheCode) {
  RawRecord r;
  r.desc = TensorDescBytes(99, {2});
  r.data = std::string(8, '\0');
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument,
                    "unknown data_type code 99"));
}

TEST(TensorIo, KnownButUnsupportedDtype) {
  for (int code : {22, 23, 19}) {  // BF16, COMPLEX64, SIZE_T
    RawRecord r;
    r.desc = TensorDescBytes(code, {2});
    r.data = std::string(16, '\0');
    Tensor t;
    EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kUnimplemented,
                      "(" + std::to_string(code) + ")"));
  }
}

TEST(TensorIo, NegativeDim) {
  RawRecord r;
  r.desc = TensorDescBytes(5, {2, -3});
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument, "negative dim"));
}

TEST(TensorIo, OverflowingElementCount) {
  RawRecord r;
  r.desc = TensorDescBytes(5, {int64_t{1} << 40, int64_t{1} << 40});
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument, "overflows"));
  // numel fits int64 but bytes overflow: still rejected before allocating.
  r.desc = TensorDescBytes(6, {int64_t{1} << 61});
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kDataLoss, "truncated data"));
}

TEST(TensorIo, HugeDeclaredSizeFailsWithoutAllocating) {
  // 4 TiB of float declared, 16 bytes present. Under ASan an attempt to
  // allocate this would abort the test.
  RawRecord r;
  r.desc = TensorDescBytes(5, {int64_t{1} << 40});
  r.data = std::string(16, '\x01');
  Tensor t;
  Status s = ReadOne(r.Bytes(), &t);
  EXPECT_TRUE(Fails(s, StatusCode::kDataLoss, "1099511627776 elements"));
  EXPECT_FALSE(t.IsInitialized());
}

TEST(TensorIo, OverflowBeforeAZeroDimIsStillAnError) {
  // Tensor::numel() multiplies left to right; the reader must not hand it
  // dims whose running product overflows, even if a later dim is 0.
  RawRecord r;
  r.desc = TensorDescBytes(5, {int64_t{1} << 62, int64_t{1} << 62, 0});
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument, "overflows"));
  r.desc = TensorDescBytes(5, {0, int64_t{1} << 62, int64_t{1} << 62});
  Status s = ReadOne(r.Bytes(), &t);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(t.numel(), 0);
}

TEST(TensorIo, LoDLevelSizeNotMultipleOf8) {
  RawRecord r;
  r.desc = TensorDescBytes(5, {1});
  r.data = std::string(4, '\0');
  std::string bytes = r.Bytes();
  // Add one level of 12 bytes by hand: count=1, size=12, 12 bytes.
  std::string lod("\x01\0\0\0\0\0\0\0\x0c\0\0\0\0\0\0\0", 16);
  lod += std::string(12, '\0');
  bytes = bytes.substr(0, 4) + lod + bytes.substr(12);
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(bytes, &t), StatusCode::kDataLoss, "not a multiple of 8"));
}

TEST(TensorIo, HugeLoDLevelCount) {
  std::string bytes(4, '\0');
  uint64_t levels = uint64_t{1} << 60;
  bytes.append(reinterpret_cast<const char*>(&levels), 8);
  bytes += std::string(64, '\0');
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(bytes, &t), StatusCode::kDataLoss,
                    "size of LoD level 8 of 1152921504606846976"));
}

TEST(TensorIo, NonZeroVersions) {
  RawRecord r;
  r.desc = TensorDescBytes(5, {1});
  r.data = std::string(4, '\0');
  r.version = 1;
  Tensor t;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument, "LoDTensor version 1"));
  r.version = 0;
  r.tensor_version = 3;
  EXPECT_TRUE(Fails(ReadOne(r.Bytes(), &t), StatusCode::kInvalidArgument, "tensor version 3"));
}

TEST(TensorIo, CheckTensorWritable) {
  Tensor unknown = MakeTensor(DataType::kFloat32, {2});
  unknown.set_dtype(DataType::kUnknown);
  Status s = CheckTensorWritable(unknown, "w");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("'w'"), std::string::npos);
  std::string out = "keep";
  WriteTensorRecord(unknown, &out);
  EXPECT_EQ(out, "keep");

  Tensor no_data;
  no_data.Resize({3});
  EXPECT_EQ(CheckTensorWritable(no_data, "w").code(), StatusCode::kInvalidArgument);
  Tensor empty;
  empty.Resize({0});
  EXPECT_TRUE(CheckTensorWritable(empty, "w").ok());
  Tensor huge;
  huge.Resize({int64_t{1} << 62, int64_t{1} << 62});
  s = CheckTensorWritable(huge, "w");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("overflows"), std::string::npos);
  Tensor negative;
  negative.Resize({-1, 2});
  EXPECT_EQ(CheckTensorWritable(negative, "w").code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace lite
