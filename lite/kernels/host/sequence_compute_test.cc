// lookup_table, sequence_conv and sequence_pool against straightforward
// reference loops written here, including padding_idx, ids out of range,
// empty sequences, every pool type and malformed LoD.
#include <cmath>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(LookupTable, GathersRowsZeroesPaddingAndRefusesOutOfRangeIds) {
  OpTester t("lookup_table");
  std::vector<float> w = RandomFloats(5 * 3, 1);
  t.SetInput<float>("W", "w", {5, 3}, w);
  Tensor* ids = t.SetInput<int64_t>("Ids", "ids", {4, 1}, {4, 0, 2, 4});
  ids->set_lod({{0, 1, 4}});
  t.SetOutput("Out", "out");
  t.SetAttr("padding_idx", int64_t(2));
  ASSERT_TRUE(t.Run().ok());
  auto out = t.GetData<float>("out");
  ASSERT_EQ(out.size(), 12u);
  const int64_t expect_row[] = {4, 0, -1, 4};
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(out[i * 3 + k], expect_row[i] < 0 ? 0.f : w[expect_row[i] * 3 + k]);
    }
  }
  EXPECT_EQ(t.Get("out").lod(), (LoD{{0, 1, 4}}));

  OpTester bad("lookup_table_v2");
  bad.SetInput<float>("W", "w", {5, 3}, w);
  bad.SetInput<int64_t>("Ids", "ids", {2}, {1, 5});
  bad.SetOutput("Out", "out");
  Status s = bad.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("id 5 at position 1 is outside the table's 5 rows"), std::string::npos)
      << s.message();
}

TEST(SequenceConv, MatchesContextWindowsPerSequence) {
  const int64_t D = 3, M = 2, L = 3, start = -1;
  const std::vector<uint64_t> level{0, 2, 2, 7};  // lengths 2, 0 (empty), 5
  const int64_t T = 7;
  std::vector<float> x = RandomFloats(T * D, 2), f = RandomFloats(L * D * M, 3);
  OpTester t("sequence_conv");
  t.SetInput<float>("X", "x", {T, D}, x)->set_lod({level});
  t.SetInput<float>("Filter", "f", {L * D, M}, f);
  t.SetOutput("Out", "out");
  t.SetAttr("contextStart", int32_t(start));
  t.SetAttr("contextLength", int32_t(L));
  ASSERT_TRUE(t.Run().ok());
  auto out = t.GetData<float>("out");
  for (size_t s = 0; s + 1 < level.size(); ++s) {
    for (int64_t r = level[s]; r < static_cast<int64_t>(level[s + 1]); ++r) {
      for (int64_t m = 0; m < M; ++m) {
        double acc = 0;
        for (int64_t j = 0; j < L; ++j) {
          const int64_t src = r + start + j;
          if (src < static_cast<int64_t>(level[s]) || src >= static_cast<int64_t>(level[s + 1])) continue;
          for (int64_t d = 0; d < D; ++d) acc += x[src * D + d] * f[(j * D + d) * M + m];
        }
        EXPECT_NEAR(out[r * M + m], acc, 1e-5) << "row " << r;
      }
    }
  }
}

TEST(SequencePool, EveryPoolTypeAndEmptySequences) {
  const std::vector<uint64_t> level{0, 3, 3, 5};
  std::vector<float> x = RandomFloats(5 * 2, 4);
  for (const char* type : {"SUM", "AVERAGE", "SQRT", "MAX", "LAST", "FIRST"}) {
    SCOPED_TRACE(type);
    OpTester t("sequence_pool");
    t.SetInput<float>("X", "x", {5, 2}, x)->set_lod({level});
    t.SetOutput("Out", "out");
    t.SetAttr("pooltype", std::string(type));
    t.SetAttr("pad_value", 7.f);
    ASSERT_TRUE(t.Run().ok());
    auto out = t.GetData<float>("out");
    ASSERT_EQ(out.size(), 6u);
    for (int s = 0; s < 3; ++s) {
      const int b = static_cast<int>(level[s]), e = static_cast<int>(level[s + 1]);
      for (int k = 0; k < 2; ++k) {
        double v = 7;  // empty -> pad_value
        if (e > b) {
          double sum = 0, mx = -1e30;
          for (int r = b; r < e; ++r) {
            sum += x[r * 2 + k];
            mx = std::max(mx, static_cast<double>(x[r * 2 + k]));
          }
          const std::string ty = type;
          v = ty == "SUM" ? sum : ty == "AVERAGE" ? sum / (e - b) : ty == "SQRT" ? sum / std::sqrt(e - b)
            : ty == "MAX" ? mx : ty == "LAST" ? x[(e - 1) * 2 + k] : x[b * 2 + k];
        }
        EXPECT_NEAR(out[s * 2 + k], v, 1e-5) << "sequence " << s;
      }
    }
    EXPECT_TRUE(t.Get("out").lod().empty());
  }
}

TEST(SequencePool, MalformedLodIsAClearError) {
  for (auto level : std::vector<std::vector<uint64_t>>{{1, 5}, {0, 4, 2, 5}, {0, 3}}) {
    OpTester t("sequence_pool");
    t.SetInput<float>("X", "x", {5, 2}, RandomFloats(10, 5))->set_lod({level});
    t.SetOutput("Out", "out");
    Status s = t.Run();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("LoD"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace lite
