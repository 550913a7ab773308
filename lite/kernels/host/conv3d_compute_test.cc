// conv3d against a direct seven-loop convolution (Paddle's formula:
// out[n][m][o] = sum over c in m's group, kernel offsets of
// in[n][c][o*s - p0 + k*d] * filter[m][c - group start][k]), over strides,
// 3 and 6 paddings, dilations, groups and the padding algorithms.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct Case {
  DDim in{2, 4, 5, 6, 7};
  DDim filter{6, 4, 3, 3, 3};
  std::vector<int> strides{1, 1, 1};
  std::vector<int> paddings{0, 0, 0};
  std::vector<int> dilations{1, 1, 1};
  int groups = 1;
  std::string algo = "EXPLICIT";
  DDim want;
};

std::vector<float> Reference(const Case& c, const std::vector<float>& x,
                             const std::vector<float>& w, const DDim& od) {
  std::vector<int> pad, dil = c.dilations;
  if (c.paddings.size() == 3) {
    for (int v : c.paddings) pad.insert(pad.end(), {v, v});
  } else {
    pad = c.paddings;
  }
  if (c.algo == "VALID") std::fill(pad.begin(), pad.end(), 0);
  if (c.algo == "SAME") {
    for (int d = 0; d < 3; ++d) {
      const int64_t in = c.in[2 + d], s = c.strides[d];
      const int64_t sum = std::max<int64_t>(((in + s - 1) / s - 1) * s + c.filter[2 + d] - in, 0);
      pad[2 * d] = static_cast<int>(sum / 2);
      pad[2 * d + 1] = static_cast<int>(sum - sum / 2);
      dil[d] = 1;
    }
  }
  const int64_t cg = c.in[1] / c.groups, mg = c.filter[0] / c.groups;
  std::vector<float> out;
  for (int64_t n = 0; n < c.in[0]; ++n) {
    for (int64_t m = 0; m < c.filter[0]; ++m) {
      for (int64_t o0 = 0; o0 < od[2]; ++o0) {
        for (int64_t o1 = 0; o1 < od[3]; ++o1) {
          for (int64_t o2 = 0; o2 < od[4]; ++o2) {
            double acc = 0;
            for (int64_t cc = 0; cc < cg; ++cc) {
              const int64_t ch = (m / mg) * cg + cc;
              for (int64_t i = 0; i < c.filter[2]; ++i) {
                for (int64_t j = 0; j < c.filter[3]; ++j) {
                  for (int64_t l = 0; l < c.filter[4]; ++l) {
                    const int64_t z = o0 * c.strides[0] - pad[0] + i * dil[0];
                    const int64_t y = o1 * c.strides[1] - pad[2] + j * dil[1];
                    const int64_t xx = o2 * c.strides[2] - pad[4] + l * dil[2];
                    if (z < 0 || z >= c.in[2] || y < 0 || y >= c.in[3] || xx < 0 ||
                        xx >= c.in[4]) {
                      continue;
                    }
                    acc += x[(((n * c.in[1] + ch) * c.in[2] + z) * c.in[3] + y) * c.in[4] + xx] *
                           w[(((m * cg + cc) * c.filter[2] + i) * c.filter[3] + j) * c.filter[4] +
                             l];
                  }
                }
              }
            }
            out.push_back(static_cast<float>(acc));
          }
        }
      }
    }
  }
  return out;
}

void Expect(const Case& c, const std::string& label) {
  const std::vector<float> x = RandomFloats(Product(c.in), 5);
  const std::vector<float> w = RandomFloats(Product(c.filter), 6);
  OpTester t("conv3d");
  t.SetInput<float>("Input", "x", c.in, x);
  t.SetInput<float>("Filter", "w", c.filter, w);
  t.SetOutput("Output", "out");
  t.SetAttr("strides", c.strides);
  t.SetAttr("paddings", c.paddings);
  t.SetAttr("dilations", c.dilations);
  t.SetAttr("groups", c.groups);
  t.SetAttr("padding_algorithm", c.algo);
  t.SetAttr("data_format", std::string("NCDHW"));
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << label << ": " << s.ToString();
  ASSERT_EQ(t.Get("out").dims(), c.want) << label;
  const std::vector<float> want = Reference(c, x, w, c.want);
  const std::vector<float> got = t.GetData<float>("out");
  ASSERT_EQ(got.size(), want.size()) << label;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-4f) << label << " at " << i;
  }
}

TEST(Conv3d, AttributeCases) {
  Case c;
  c.want = {2, 6, 3, 4, 5};
  Expect(c, "plain");

  Case s = c;  // strides and 3-value paddings
  s.strides = {2, 1, 2};
  s.paddings = {1, 0, 2};
  // (5+2-3)/2+1 = 3, (6-3)/1+1 = 4, (7+4-3)/2+1 = 5
  s.want = {2, 6, 3, 4, 5};
  Expect(s, "strides + paddings");

  Case six = c;  // [front, back, top, bottom, left, right]
  six.paddings = {0, 1, 2, 0, 1, 1};
  six.want = {2, 6, 4, 6, 7};
  Expect(six, "6 paddings");

  Case d = c;  // dilations
  d.dilations = {2, 1, 2};
  d.paddings = {2, 1, 2};
  // (5+4-5)/1+1 = 5, (6+2-3)+1 = 6, (7+4-5)+1 = 7
  d.want = {2, 6, 5, 6, 7};
  Expect(d, "dilations");

  Case g = c;  // groups: Filter [M, C/g, ...]
  g.groups = 2;
  g.filter = {6, 2, 2, 3, 2};
  g.want = {2, 6, 4, 4, 6};
  Expect(g, "groups 2");
  g.groups = 4;  // depthwise-like
  g.filter = {4, 1, 3, 1, 3};
  g.want = {2, 4, 3, 6, 5};
  Expect(g, "groups 4");

  Case same = c;
  same.strides = {2, 2, 2};
  same.dilations = {2, 2, 2};  // reset to 1 by SAME
  same.algo = "SAME";
  same.want = {2, 6, 3, 3, 4};
  Expect(same, "SAME");
  Case valid = c;
  valid.paddings = {1, 1, 1};  // ignored by VALID
  valid.algo = "VALID";
  valid.want = {2, 6, 3, 4, 5};
  Expect(valid, "VALID");
}

TEST(Conv3d, Errors) {
  const struct {
    DDim in, filter;
    int groups;
    std::vector<int> paddings;
    const char* message;
  } cases[] = {{{1, 2, 4, 4}, {2, 2, 1, 1, 1}, 1, {0, 0, 0}, "5-D NCDHW"},
               {{1, 3, 4, 4, 4}, {2, 2, 1, 1, 1}, 1, {0, 0, 0}, "channels"},
               {{1, 4, 4, 4, 4}, {3, 2, 1, 1, 1}, 2, {0, 0, 0}, "multiple of groups"},
               {{1, 2, 4, 4, 4}, {2, 2, 1, 1, 1}, 1, {0, 0}, "3 or 6 values"},
               {{1, 2, 2, 2, 2}, {2, 2, 3, 3, 3}, 1, {0, 0, 0}, "not positive"}};
  for (const auto& c : cases) {
    OpTester t("conv3d");
    t.SetInput<float>("Input", "x", c.in, std::vector<float>(Product(c.in), 1.f));
    t.SetInput<float>("Filter", "w", c.filter, std::vector<float>(Product(c.filter), 1.f));
    t.SetOutput("Output", "out");
    t.SetAttr("groups", c.groups);
    t.SetAttr("paddings", c.paddings);
    Status s = t.Run();
    ASSERT_FALSE(s.ok()) << c.message;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("conv3d"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace lite
