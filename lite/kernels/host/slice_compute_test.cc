#include <gtest/gtest.h>

#include <algorithm>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct RefResult {
  DDim dims;  // before decrease
  std::vector<float> data;
};

// Straightforward reference: clamp like Paddle, then gather with nested index
// arithmetic over every output element.
RefResult SliceRef(const std::vector<float>& x, const DDim& in,
                   const std::vector<int>& axes, const std::vector<int64_t>& starts,
                   const std::vector<int64_t>& ends) {
  const int rank = static_cast<int>(in.size());
  std::vector<int64_t> b(rank, 0);
  DDim d = in;
  for (size_t i = 0; i < axes.size(); ++i) {
    int a = axes[i] < 0 ? axes[i] + rank : axes[i];
    int64_t n = in[a];
    int64_t s = starts[i] < 0 ? starts[i] + n : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + n : ends[i];
    s = std::clamp<int64_t>(s, 0, n);
    e = std::clamp<int64_t>(e, 0, n);
    b[a] = s;
    d[a] = e - s;
  }
  RefResult r{d, {}};
  int64_t total = Product(d);
  for (int64_t o = 0; o < total; ++o) {
    int64_t rem = o, src = 0, mul = 1;
    std::vector<int64_t> idx(rank);
    for (int k = rank - 1; k >= 0; --k) {
      idx[k] = rem % d[k];
      rem /= d[k];
    }
    for (int k = rank - 1; k >= 0; --k) {
      src += (idx[k] + b[k]) * mul;
      mul *= in[k];
    }
    r.data.push_back(x[src]);
  }
  return r;
}

std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

struct Case {
  std::vector<int> axes;
  std::vector<int64_t> starts, ends;
};

TEST(Slice, NegativeStartsAndClampingMatchReference) {
  const DDim in{3, 4, 5};
  const auto x = Iota(60);
  const std::vector<Case> cases = {
      {{1, 2}, {-3, 1}, {4, -1}},       // negative starts/ends
      {{0}, {-100}, {100}},             // clamped to the full range
      {{2}, {2}, {1000}},               // end clamped to dim
      {{0, 1, 2}, {1, -2, -5}, {-1, 4, 5}},
      {{-1}, {-2}, {5}},                // negative axis
      {{1}, {2}, {2}},                  // empty
      {{0, 2}, {-10, 3}, {2, -10}},     // axis 2: start 3 > end 0 (rejected)
  };
  for (size_t c = 0; c + 1 < cases.size(); ++c) {
    OpTester t("slice");
    t.SetInput<float>("Input", "x", in, x);
    t.SetOutput("Out", "out");
    t.SetAttr("axes", std::vector<int32_t>(cases[c].axes.begin(), cases[c].axes.end()));
    t.SetAttr("starts", cases[c].starts);
    t.SetAttr("ends", cases[c].ends);
    ASSERT_TRUE(t.Run().ok()) << "case " << c;
    auto ref = SliceRef(x, in, cases[c].axes, cases[c].starts, cases[c].ends);
    EXPECT_EQ(t.Get("out").dims(), ref.dims) << "case " << c;
    EXPECT_EQ(t.GetData<float>("out"), ref.data) << "case " << c;
  }
  // The last case has end (0) < start (3) after clamping: Paddle rejects it.
  OpTester t("slice");
  t.SetInput<float>("Input", "x", in, x);
  t.SetOutput("Out", "out");
  t.SetAttr("axes", std::vector<int32_t>{0, 2});
  t.SetAttr("starts", cases.back().starts);
  t.SetAttr("ends", cases.back().ends);
  EXPECT_FALSE(t.Run().ok());
}

TEST(Slice, DecreaseAxis) {
  const DDim in{3, 4, 5};
  const auto x = Iota(60);
  {
    OpTester t("slice");
    t.SetInput<float>("Input", "x", in, x);
    t.SetOutput("Out", "out");
    t.SetAttr("axes", std::vector<int32_t>{0, 2});
    t.SetAttr("starts", std::vector<int32_t>{1, -2});
    t.SetAttr("ends", std::vector<int32_t>{2, -1});
    t.SetAttr("decrease_axis", std::vector<int32_t>{0, 2});
    ASSERT_TRUE(t.Run().ok());
    auto ref = SliceRef(x, in, {0, 2}, {1, -2}, {2, -1});
    EXPECT_EQ(t.Get("out").dims(), (DDim{4}));
    EXPECT_EQ(t.GetData<float>("out"), ref.data);
  }
  {  // every dim dropped -> [1]
    OpTester t("slice");
    t.SetInput<float>("Input", "x", {2, 3}, Iota(6));
    t.SetOutput("Out", "out");
    t.SetAttr("axes", std::vector<int32_t>{0, 1});
    t.SetAttr("starts", std::vector<int32_t>{1, 2});
    t.SetAttr("ends", std::vector<int32_t>{2, 3});
    t.SetAttr("decrease_axis", std::vector<int32_t>{0, 1});
    ASSERT_TRUE(t.Run().ok());
    EXPECT_EQ(t.Get("out").dims(), (DDim{1}));
    EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{5}));
  }
  {  // decreasing a dim that is not 1 fails
    OpTester t("slice");
    t.SetInput<float>("Input", "x", in, x);
    t.SetOutput("Out", "out");
    t.SetAttr("axes", std::vector<int32_t>{1});
    t.SetAttr("starts", std::vector<int32_t>{0});
    t.SetAttr("ends", std::vector<int32_t>{2});
    t.SetAttr("decrease_axis", std::vector<int32_t>{1});
    EXPECT_FALSE(t.Run().ok());
  }
}

TEST(Slice, StartsTensorAndEndsTensorListOverrideAttrsAndRerun) {
  const DDim in{3, 4, 5};
  const auto x = Iota(60);
  OpTester t("slice");
  t.SetInput<float>("Input", "x", in, x);
  t.SetOutput("Out", "out");
  t.SetAttr("axes", std::vector<int32_t>{1, 2});
  t.SetAttr("starts", std::vector<int32_t>{0, 0});
  t.SetAttr("ends", std::vector<int32_t>{1, 1});
  Tensor* st = t.SetInput<int64_t>("StartsTensor", "st", {2}, {1, -3});
  t.SetInput<int32_t>("EndsTensorList", "e0", {1}, {3});
  Tensor* e1 = t.SetInput<int64_t>("EndsTensorList", "e1", {1}, {5});
  ASSERT_TRUE(t.Run().ok());
  auto ref = SliceRef(x, in, {1, 2}, {1, -3}, {3, 5});
  EXPECT_EQ(t.Get("out").dims(), ref.dims);
  EXPECT_EQ(t.GetData<float>("out"), ref.data);
  // New values, same dims: the kernel must pick them up.
  st->mutable_data<int64_t>()[0] = 0;
  e1->mutable_data<int64_t>()[0] = -1;
  ASSERT_TRUE(t.Run().ok());
  ref = SliceRef(x, in, {1, 2}, {0, -3}, {3, -1});
  EXPECT_EQ(t.Get("out").dims(), ref.dims);
  EXPECT_EQ(t.GetData<float>("out"), ref.data);
}

TEST(Slice, IntAndBoolDtypes) {
  OpTester t("slice");
  t.SetInput<int64_t>("Input", "x", {2, 3}, {10, 11, 12, 13, 14, 15});
  t.SetOutput("Out", "out");
  t.SetAttr("axes", std::vector<int32_t>{1});
  t.SetAttr("starts", std::vector<int32_t>{-2});
  t.SetAttr("ends", std::vector<int32_t>{3});
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("out"), (std::vector<int64_t>{11, 12, 14, 15}));

  OpTester b("slice");
  b.SetInput<bool>("Input", "x", {4}, {true, false, true, true});
  b.SetOutput("Out", "out");
  b.SetAttr("axes", std::vector<int32_t>{0});
  b.SetAttr("starts", std::vector<int32_t>{1});
  b.SetAttr("ends", std::vector<int32_t>{3});
  ASSERT_TRUE(b.Run().ok());
  EXPECT_EQ(b.GetData<bool>("out"), (std::vector<bool>{false, true}));
}

TEST(Slice, MismatchedStartsFail) {
  OpTester t("slice");
  t.SetInput<float>("Input", "x", {3, 4}, Iota(12));
  t.SetOutput("Out", "out");
  t.SetAttr("axes", std::vector<int32_t>{0, 1});
  t.SetAttr("starts", std::vector<int32_t>{0});
  t.SetAttr("ends", std::vector<int32_t>{1, 2});
  EXPECT_FALSE(t.Run().ok());
}

}  // namespace
}  // namespace lite
