// sequence_softmax, sequence_expand(_as), sequence_reshape and
// sequence_concat against straightforward reference loops and the worked
// examples of Paddle's op documentation (values derived by hand from the
// op definitions), plus the LoD rules of sum, concat and elementwise ops.
#include <cmath>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

void ExpectError(OpTester* t, const std::string& want) {
  Status s = t->Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(want), std::string::npos) << s.message();
}

TEST(SequenceSoftmax, SoftmaxPerSequence) {
  const std::vector<uint64_t> level{0, 3, 3, 7};
  const std::vector<float> x = RandomFloats(7, 1, -3.f, 3.f);
  for (DDim dims : {DDim{7}, DDim{7, 1}}) {
    OpTester t("sequence_softmax");
    t.SetInput<float>("X", "x", dims, x)->set_lod({level});
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok());
    const auto out = t.GetData<float>("out");
    for (size_t s = 0; s + 1 < level.size(); ++s) {
      double sum = 0;
      for (uint64_t i = level[s]; i < level[s + 1]; ++i) sum += std::exp(x[i]);
      for (uint64_t i = level[s]; i < level[s + 1]; ++i) {
        EXPECT_NEAR(out[i], std::exp(x[i]) / sum, 1e-6) << i;
      }
    }
    EXPECT_EQ(t.Get("out").dims(), dims);
    EXPECT_EQ(t.Get("out").lod(), LoD{level});
  }
  OpTester wide("sequence_softmax");
  wide.SetInput<float>("X", "x", {7, 2}, RandomFloats(14, 2))->set_lod({level});
  wide.SetOutput("Out", "out");
  ExpectError(&wide, "X must be [T] or [T, 1]");
  OpTester bad("sequence_softmax");
  bad.SetInput<float>("X", "x", {7}, x)->set_lod({{0, 3, 8}});
  bad.SetOutput("Out", "out");
  ExpectError(&bad, "LoD ends at 8 but the input has 7 rows");
}

TEST(SequenceExpand, RepeatsSequencesOfXByYLevel) {
  // Paddle's case 1: X sequences [a b] [c d], Y level 0 = [0, 2, 4] ->
  // each repeated twice: a b a b c d c d, LoD [0, 2, 4, 6, 8].
  OpTester t("sequence_expand");
  t.SetInput<float>("X", "x", {4, 1}, {1, 2, 3, 4})->set_lod({{0, 2, 4}});
  t.SetInput<float>("Y", "y", {8, 1}, std::vector<float>(8, 0))->set_lod({{0, 2, 4}, {0, 3, 6, 7, 8}});
  t.SetOutput("Out", "out");
  t.SetAttr("ref_level", int32_t(0));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(t.Get("out").lod(), (LoD{{0, 2, 4, 6, 8}}));

  // Paddle's case 2: X without LoD, rows a b c; Y's last level [0, 2, 2, 5]
  // -> a a c c c, no LoD. int64 data (the kernel copies any dtype).
  OpTester rows("sequence_expand");
  rows.SetInput<int64_t>("X", "x", {3, 1}, {10, 20, 30});
  rows.SetInput<float>("Y", "y", {5, 1}, std::vector<float>(5, 0))->set_lod({{0, 2, 2, 5}});
  rows.SetOutput("Out", "out");
  ASSERT_TRUE(rows.Run().ok());
  EXPECT_EQ(rows.GetData<int64_t>("out"), (std::vector<int64_t>{10, 10, 30, 30, 30}));
  EXPECT_TRUE(rows.Get("out").lod().empty());
  EXPECT_EQ(rows.Get("out").dims(), (DDim{5, 1}));

  OpTester copy("sequence_expand");  // a Y level without sequences: Out = X
  copy.SetInput<float>("X", "x", {3, 1}, {1, 2, 3})->set_lod({{0, 1, 3}});
  copy.SetInput<float>("Y", "y", {0, 1}, {})->set_lod({{0}});
  copy.SetOutput("Out", "out");
  ASSERT_TRUE(copy.Run().ok());
  EXPECT_EQ(copy.GetData<float>("out"), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(copy.Get("out").lod(), (LoD{{0, 1, 3}}));

  OpTester count("sequence_expand");
  count.SetInput<float>("X", "x", {2, 1}, {1, 2});
  count.SetInput<float>("Y", "y", {5, 1}, std::vector<float>(5, 0))->set_lod({{0, 2, 2, 5}});
  count.SetOutput("Out", "out");
  ExpectError(&count, "Y's LoD level 0 has 3 sequences but X has 2 rows");
  OpTester level("sequence_expand");
  level.SetInput<float>("X", "x", {3, 1}, {1, 2, 3});
  level.SetInput<float>("Y", "y", {5, 1}, std::vector<float>(5, 0))->set_lod({{0, 2, 2, 5}});
  level.SetOutput("Out", "out");
  level.SetAttr("ref_level", int32_t(1));
  ExpectError(&level, "ref_level 1 outside Y's 1 LoD level(s)");
}

TEST(SequenceExpandAs, RepeatsRowsOfXAsYSequences) {
  const std::vector<uint64_t> level{0, 3, 6, 7, 7, 8};  // one empty sequence
  const std::vector<float> x = RandomFloats(5 * 3, 3);
  OpTester t("sequence_expand_as");
  t.SetInput<float>("X", "x", {5, 3}, x);
  t.SetInput<float>("Y", "y", {8, 1}, std::vector<float>(8, 0))->set_lod({level});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  const auto out = t.GetData<float>("out");
  ASSERT_EQ(out.size(), 8u * 3);
  for (size_t s = 0; s + 1 < level.size(); ++s) {
    for (uint64_t r = level[s]; r < level[s + 1]; ++r) {
      for (int k = 0; k < 3; ++k) EXPECT_EQ(out[r * 3 + k], x[s * 3 + k]) << "row " << r;
    }
  }
  EXPECT_EQ(t.Get("out").lod(), LoD{level});
  OpTester bad("sequence_expand_as");
  bad.SetInput<float>("X", "x", {4, 3}, RandomFloats(12, 4));
  bad.SetInput<float>("Y", "y", {8, 1}, std::vector<float>(8, 0))->set_lod({level});
  bad.SetOutput("Out", "out");
  ExpectError(&bad, "X has 4 rows but Y has 5 sequences");
}

TEST(SequenceReshape, ReshapesEachSequence) {
  // Paddle's example: [6, 2] with LoD [0, 2, 6], new_dim 4 -> [3, 4], LoD
  // [0, 1, 3], same data.
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = static_cast<float>(i + 1);
  OpTester t("sequence_reshape");
  t.SetInput<float>("X", "x", {6, 2}, x)->set_lod({{0, 2, 6}});
  t.SetOutput("Out", "out");
  t.SetAttr("new_dim", int32_t(4));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), x);
  EXPECT_EQ(t.Get("out").dims(), (DDim{3, 4}));
  EXPECT_EQ(t.Get("out").lod(), (LoD{{0, 1, 3}}));
  OpTester bad("sequence_reshape");
  bad.SetInput<float>("X", "x", {6, 2}, x)->set_lod({{0, 2, 6}});
  bad.SetOutput("Out", "out");
  bad.SetAttr("new_dim", int32_t(3));
  ExpectError(&bad, "sequence 0 has 4 elements, not a multiple of new_dim 3");
}

TEST(SequenceConcat, InterleavesSequences) {
  // Paddle's example: X1 LoD [0, 3, 5] = 1 2 3 | 4 5, X2 LoD [0, 4, 5] =
  // 6 7 8 9 | 10 -> 1 2 3 6 7 8 9 | 4 5 10, LoD [0, 7, 10].
  OpTester t("sequence_concat");
  t.SetInput<float>("X", "x1", {5, 1}, {1, 2, 3, 4, 5})->set_lod({{0, 3, 5}});
  t.SetInput<float>("X", "x2", {5, 1}, {6, 7, 8, 9, 10})->set_lod({{0, 4, 5}});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{1, 2, 3, 6, 7, 8, 9, 4, 5, 10}));
  EXPECT_EQ(t.Get("out").lod(), (LoD{{0, 7, 10}}));
  OpTester bad("sequence_concat");
  bad.SetInput<float>("X", "x1", {5, 1}, {1, 2, 3, 4, 5})->set_lod({{0, 3, 5}});
  bad.SetInput<float>("X", "x2", {5, 1}, {6, 7, 8, 9, 10})->set_lod({{0, 1, 4, 5}});
  bad.SetOutput("Out", "out");
  ExpectError(&bad, "input 1 has 3 sequences, input 0 has 2");
  OpTester width("sequence_concat");
  width.SetInput<float>("X", "x1", {5, 1}, {1, 2, 3, 4, 5})->set_lod({{0, 3, 5}});
  width.SetInput<float>("X", "x2", {5, 2}, RandomFloats(10, 5))->set_lod({{0, 4, 5}});
  width.SetOutput("Out", "out");
  ExpectError(&width, "does not match input 0 [5, 1] past dim 0");
}

TEST(LodAwareOps, SumConcatElementwisePropagateAndCheckLod) {
  const LoD a{{0, 2, 5}}, b{{0, 1, 5}};
  auto sum = [&](const LoD& l0, const LoD& l1) {
    auto t = std::make_unique<OpTester>("sum");
    t->SetInput<float>("X", "x0", {5, 2}, RandomFloats(10, 6))->set_lod(l0);
    t->SetInput<float>("X", "x1", {5, 2}, RandomFloats(10, 7))->set_lod(l1);
    t->SetOutput("Out", "out");
    return t;
  };
  auto ok = sum({}, a);  // the input that has a LoD gives it
  ASSERT_TRUE(ok->Run().ok());
  EXPECT_EQ(ok->Get("out").lod(), a);
  auto bad = sum(a, b);
  ExpectError(bad.get(), "inputs disagree on LoD: [[0,2,5]] vs [[0,1,5]] (input 1)");

  OpTester rows("concat");  // along the rows: sequences appended
  rows.SetInput<float>("X", "x0", {5, 2}, RandomFloats(10, 8))->set_lod(a);
  rows.SetInput<float>("X", "x1", {5, 2}, RandomFloats(10, 9))->set_lod(b);
  rows.SetOutput("Out", "out");
  rows.SetAttr("axis", int32_t(0));
  ASSERT_TRUE(rows.Run().ok());
  EXPECT_EQ(rows.Get("out").lod(), (LoD{{0, 2, 5, 6, 10}}));
  OpTester mixed("concat");
  mixed.SetInput<float>("X", "x0", {5, 2}, RandomFloats(10, 8))->set_lod(a);
  mixed.SetInput<float>("X", "x1", {5, 2}, RandomFloats(10, 9));
  mixed.SetOutput("Out", "out");
  mixed.SetAttr("axis", int32_t(0));
  ExpectError(&mixed, "needs every input with one LoD level or none; input 1 has []");
  OpTester cols("concat");
  cols.SetInput<float>("X", "x0", {5, 2}, RandomFloats(10, 8))->set_lod(a);
  cols.SetInput<float>("X", "x1", {5, 2}, RandomFloats(10, 9))->set_lod(b);
  cols.SetOutput("Out", "out");
  cols.SetAttr("axis", int32_t(1));
  ExpectError(&cols, "inputs disagree on LoD");

  OpTester add("elementwise_add");
  add.SetInput<float>("X", "x", {5, 2}, RandomFloats(10, 10))->set_lod(a);
  add.SetInput<float>("Y", "y", {2}, RandomFloats(2, 11));
  add.SetOutput("Out", "out");
  ASSERT_TRUE(add.Run().ok());
  EXPECT_EQ(add.Get("out").lod(), a);
  OpTester clash("elementwise_mul");
  clash.SetInput<float>("X", "x", {5, 2}, RandomFloats(10, 10))->set_lod(a);
  clash.SetInput<float>("Y", "y", {5, 2}, RandomFloats(10, 11))->set_lod(b);
  clash.SetOutput("Out", "out");
  ExpectError(&clash, "inputs disagree on LoD");
}

}  // namespace
}  // namespace lite
