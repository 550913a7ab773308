// The legacy N-D pad against a reference that maps every output index back
// to X (or to pad_value outside it), over ranks 1-4 and several dtypes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

template <typename T>
std::vector<T> Reference(const std::vector<T>& x, const DDim& xd, const std::vector<int>& pads,
                         T value) {
  DDim od = xd;
  for (size_t d = 0; d < xd.size(); ++d) od[d] += pads[2 * d] + pads[2 * d + 1];
  std::vector<T> out;
  std::vector<int64_t> idx(od.size(), 0);
  for (int64_t n = 0; n < Product(od); ++n) {
    int64_t xi = 0;
    bool inside = true;
    for (size_t d = 0; d < od.size(); ++d) {
      const int64_t i = idx[d] - pads[2 * d];
      inside = inside && i >= 0 && i < xd[d];
      xi = xi * xd[d] + i;
    }
    out.push_back(inside ? x[xi] : value);
    for (size_t d = od.size(); d-- > 0;) {
      if (++idx[d] < od[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

template <typename T>
void Expect(const DDim& xd, const std::vector<int>& pads, float value) {
  std::vector<T> x;
  for (int64_t i = 0; i < Product(xd); ++i) x.push_back(static_cast<T>(i * 3 - 5));
  OpTester t("pad");
  t.SetInput<T>("X", "x", xd, x);
  t.SetOutput("Out", "out");
  t.SetAttr("paddings", pads);
  t.SetAttr("pad_value", value);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::vector<T> want = Reference(x, xd, pads, static_cast<T>(value));
  EXPECT_EQ(t.Get("out").numel(), static_cast<int64_t>(want.size()));
  EXPECT_EQ(t.GetData<T>("out"), want) << DimsToString(xd);
}

TEST(PadNd, EveryRankAndDtype) {
  Expect<float>({5}, {2, 1}, 0.5f);
  Expect<float>({2, 3}, {1, 0, 0, 2}, -1.f);
  Expect<float>({2, 3}, {0, 0, 0, 0}, 9.f);
  Expect<int32_t>({2, 1, 3}, {0, 1, 2, 2, 1, 0}, 7.f);
  Expect<int64_t>({1, 2, 2, 3}, {1, 1, 0, 2, 1, 0, 3, 1}, -3.f);
  Expect<double>({3, 2}, {0, 3, 1, 1}, 2.5f);
}

TEST(PadNd, Errors) {
  const struct {
    std::vector<int> pads;
    const char* message;
  } cases[] = {{{1, 1}, "2 * rank(X) = 4"}, {{1, -1, 0, 0}, ">= 0"}};
  for (const auto& c : cases) {
    OpTester t("pad");
    t.SetInput<float>("X", "x", {2, 2}, {1, 2, 3, 4});
    t.SetOutput("Out", "out");
    t.SetAttr("paddings", c.pads);
    Status s = t.Run();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("pad"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace lite
