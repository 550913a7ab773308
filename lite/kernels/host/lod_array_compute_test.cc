// lod_rank_table, max_sequence_len, lod_tensor_to_array and
// array_to_lod_tensor through their host kernels: the rank order and the
// steps against per-sequence reference loops (a rank level that is the
// last one: steps are rows), a two-level LoD ranked at level 0 (steps are
// sub-sequences), and array_to_lod_tensor undoing lod_tensor_to_array.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// X [rows, 2] with row r = (r, 10 r + 1) and `lod`; runs lod_rank_table at
// `level` and lod_tensor_to_array; returns the tester (the array is "arr",
// the table "table").
std::unique_ptr<OpTester> ToArray(const LoD& lod, int level, int64_t rows) {
  std::vector<float> x;
  for (int64_t r = 0; r < rows; ++r) x.insert(x.end(), {float(r), float(10 * r + 1)});
  OpTester rank("lod_rank_table");
  rank.SetInput<float>("X", "x", {rows, 2}, x)->set_lod(lod);
  rank.SetOutput("Out", "table");
  rank.SetAttr("level", level);
  EXPECT_TRUE(rank.Run().ok());
  auto t = std::make_unique<OpTester>("lod_tensor_to_array");
  t->SetInput<float>("X", "x", {rows, 2}, x)->set_lod(lod);
  t->scope()->Var("table")->GetMutableTensor()->CopyDataFrom(rank.Get("table"));
  t->desc()->SetInput("RankTable", {"table"});
  t->SetOutput("Out", "arr");
  Status s = t->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return t;
}

std::vector<float> Rows(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

// Runs array_to_lod_tensor on the tester's "arr" and "table".
Tensor Back(OpTester* from) {
  OpTester back("array_to_lod_tensor");
  *back.scope()->Var("arr")->GetMutableTensorList() = from->scope()->FindVar("arr")->GetTensorList();
  back.scope()->Var("table")->GetMutableTensor()->CopyDataFrom(from->Get("table"));
  back.desc()->SetInput("X", {"arr"});
  back.desc()->SetInput("RankTable", {"table"});
  back.SetOutput("Out", "out");
  Status s = back.Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return back.Get("out");
}

TEST(LodRankTable, RanksByLengthStably) {
  OpTester t("lod_rank_table");
  t.SetInput<float>("X", "x", {9, 1}, std::vector<float>(9, 0.f))->set_lod({{0, 2, 5, 6, 9}});
  t.SetOutput("Out", "table");
  ASSERT_TRUE(t.Run().ok());
  // Reference: indices sorted by length, longest first, ties by index.
  std::vector<int64_t> len = {2, 3, 1, 3}, order = {0, 1, 2, 3};
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return len[a] > len[b];
  });
  std::vector<int64_t> want;
  for (int64_t i : order) want.insert(want.end(), {i, len[i]});
  EXPECT_EQ(t.GetData<int64_t>("table"), want);

  OpTester m("max_sequence_len");
  m.scope()->Var("table")->GetMutableTensor()->CopyDataFrom(t.Get("table"));
  m.desc()->SetInput("RankTable", {"table"});
  m.SetOutput("Out", "max");
  ASSERT_TRUE(m.Run().ok());
  EXPECT_EQ(m.GetData<int64_t>("max"), std::vector<int64_t>{3});
}

// Rank level = last level: step t holds row lod[i] + t of every sequence i
// longer than t, in rank order; array_to_lod_tensor restores X.
TEST(LodTensorToArray, RowStepsMatchTheReferenceAndRoundTrip) {
  for (const LoD& lod : {LoD{{0, 2, 5, 6}}, LoD{{0, 4, 4, 5, 7}}, LoD{{0, 2, 3}, {0, 2, 3, 6}}}) {
    const int level = static_cast<int>(lod.size()) - 1;
    const auto& seq = lod.back();
    const int64_t rows = static_cast<int64_t>(seq.back());
    auto t = ToArray(lod, level, rows);
    std::vector<size_t> rank(seq.size() - 1);
    for (size_t i = 0; i < rank.size(); ++i) rank[i] = i;
    std::stable_sort(rank.begin(), rank.end(), [&](size_t a, size_t b) {
      return seq[a + 1] - seq[a] > seq[b + 1] - seq[b];
    });
    const auto& arr = t->scope()->FindVar("arr")->GetTensorList();
    ASSERT_EQ(arr.size(), seq[rank[0] + 1] - seq[rank[0]]);
    for (size_t step = 0; step < arr.size(); ++step) {
      std::vector<float> want;
      for (size_t i : rank) {
        if (seq[i] + step < seq[i + 1]) {
          const float r = static_cast<float>(seq[i] + step);
          want.insert(want.end(), {r, 10 * r + 1});
        }
      }
      EXPECT_EQ(Rows(arr[step]), want) << "step " << step;
      EXPECT_TRUE(arr[step].lod().empty());
    }
    Tensor back = Back(t.get());
    EXPECT_EQ(back.lod(), lod);
    std::vector<float> x;
    for (int64_t r = 0; r < rows; ++r) x.insert(x.end(), {float(r), float(10 * r + 1)});
    EXPECT_EQ(Rows(back), x);
  }
}

// Ranked at level 0 of two levels: each step is one sub-sequence of every
// long enough sequence, with a LoD of their row counts.
TEST(LodTensorToArray, SubSequenceStepsCarryTheirLoD) {
  const LoD lod = {{0, 2, 3}, {0, 2, 3, 6}};  // seq 0: rows [0,2) [2,3); seq 1: [3,6)
  auto t = ToArray(lod, 0, 6);
  const auto& arr = t->scope()->FindVar("arr")->GetTensorList();
  ASSERT_EQ(arr.size(), 2u);
  EXPECT_EQ(Rows(arr[0]), (std::vector<float>{0, 1, 1, 11, 3, 31, 4, 41, 5, 51}));
  EXPECT_EQ(arr[0].lod(), (LoD{{0, 2, 5}}));
  EXPECT_EQ(Rows(arr[1]), (std::vector<float>{2, 21}));
  EXPECT_EQ(arr[1].lod(), (LoD{{0, 1}}));
  Tensor back = Back(t.get());
  EXPECT_EQ(back.lod(), lod);
  EXPECT_EQ(Rows(back), (std::vector<float>{0, 1, 1, 11, 2, 21, 3, 31, 4, 41, 5, 51}));
}

TEST(LodTensorToArray, BadInputsAreErrors) {
  OpTester rank("lod_rank_table");
  rank.SetInput<float>("X", "x", {3, 1}, {1, 2, 3})->set_lod({{0, 1, 3}});
  rank.SetOutput("Out", "table");
  rank.SetAttr("level", 1);  // X has one level
  EXPECT_FALSE(rank.Run().ok());

  OpTester to("lod_tensor_to_array");
  to.SetInput<float>("X", "x", {3, 1}, {1, 2, 3})->set_lod({{0, 1, 3}});
  to.SetInput<int64_t>("RankTable", "table", {1, 2}, {0, 7});  // longer than X's rows
  to.SetOutput("Out", "arr");
  EXPECT_FALSE(to.Run().ok());

  OpTester back("array_to_lod_tensor");
  back.scope()->Var("arr");
  back.desc()->SetInput("X", {"arr"});
  back.SetInput<int64_t>("RankTable", "table", {1, 2}, {0, 1});
  back.SetOutput("Out", "out");
  EXPECT_FALSE(back.Run().ok());  // empty array
}

}  // namespace
}  // namespace lite
