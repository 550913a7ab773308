// pool3d against a direct reference written from Paddle's Pool3dFunctor
// rules (window [o*s - pad, min(o*s - pad + k, in + pad)) clipped to the
// input; adaptive windows [floor(o*in/out), ceil((o+1)*in/out)); avg
// divisor clipped or full), over the attribute cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct Case {
  std::string type = "max";
  std::vector<int> ksize{2, 2, 2};
  std::vector<int> strides{1, 1, 1};
  std::vector<int> paddings{0, 0, 0};
  bool exclusive = true;
  bool adaptive = false;
  bool global = false;
  bool ceil_mode = false;
  std::string algo = "EXPLICIT";
  DDim in{2, 3, 5, 6, 7};
  DDim want;  // expected output dims
};

// Paddle's begin/end paddings for the case and input.
std::vector<int> Pads(const Case& c) {
  std::vector<int> p;
  if (c.paddings.size() == 3) {
    for (int v : c.paddings) p.insert(p.end(), {v, v});
  } else {
    p = c.paddings;
  }
  if (c.algo == "VALID" || c.global || c.adaptive) std::fill(p.begin(), p.end(), 0);
  if (c.algo == "SAME") {
    for (int d = 0; d < 3; ++d) {
      const int64_t in = c.in[2 + d], s = c.strides[d];
      const int64_t out = (in + s - 1) / s;
      const int64_t sum = std::max<int64_t>((out - 1) * s + c.ksize[d] - in, 0);
      p[2 * d] = static_cast<int>(sum / 2);
      p[2 * d + 1] = static_cast<int>(sum - sum / 2);
    }
  }
  return p;
}

std::vector<float> Reference(const Case& c, const std::vector<float>& x, const DDim& od) {
  const std::vector<int> pad = Pads(c);
  std::vector<int> k = c.ksize;
  if (c.global) k = {static_cast<int>(c.in[2]), static_cast<int>(c.in[3]), static_cast<int>(c.in[4])};
  const bool is_max = c.type == "max";
  const bool adaptive = c.adaptive && !is_max;
  std::vector<float> out;
  for (int64_t pl = 0; pl < c.in[0] * c.in[1]; ++pl) {
    for (int64_t o0 = 0; o0 < od[2]; ++o0) {
      for (int64_t o1 = 0; o1 < od[3]; ++o1) {
        for (int64_t o2 = 0; o2 < od[4]; ++o2) {
          const int64_t o[3] = {o0, o1, o2};
          int64_t lo[3], hi[3], full = 1, clipped = 1;
          for (int d = 0; d < 3; ++d) {
            const int64_t in = c.in[2 + d];
            if (adaptive) {
              lo[d] = o[d] * in / od[2 + d];
              hi[d] = ((o[d] + 1) * in + od[2 + d] - 1) / od[2 + d];
              full *= hi[d] - lo[d];
            } else {
              const int64_t s = o[d] * c.strides[d] - pad[2 * d];
              const int64_t e = std::min<int64_t>(s + k[d], in + pad[2 * d]);
              full *= e - s;
              lo[d] = std::max<int64_t>(s, 0);
              hi[d] = std::min<int64_t>(e, in);
            }
            clipped *= hi[d] - lo[d];
          }
          double acc = is_max ? -FLT_MAX : 0.0;
          for (int64_t z = lo[0]; z < hi[0]; ++z) {
            for (int64_t y = lo[1]; y < hi[1]; ++y) {
              for (int64_t i = lo[2]; i < hi[2]; ++i) {
                const float v = x[((pl * c.in[2] + z) * c.in[3] + y) * c.in[4] + i];
                acc = is_max ? std::max<double>(acc, v) : acc + v;
              }
            }
          }
          if (!is_max) {
            const int64_t size = (c.exclusive || c.adaptive) ? clipped : full;
            acc = size > 0 ? acc / size : 0.0;
          }
          out.push_back(static_cast<float>(acc));
        }
      }
    }
  }
  return out;
}

void Expect(const Case& c, const std::string& label) {
  const std::vector<float> x = RandomFloats(Product(c.in), 11);
  OpTester t("pool3d");
  t.SetInput<float>("X", "x", c.in, x);
  t.SetOutput("Out", "out");
  t.SetAttr("pooling_type", c.type);
  t.SetAttr("ksize", c.ksize);
  t.SetAttr("strides", c.strides);
  t.SetAttr("paddings", c.paddings);
  t.SetAttr("exclusive", c.exclusive);
  t.SetAttr("adaptive", c.adaptive);
  t.SetAttr("global_pooling", c.global);
  t.SetAttr("ceil_mode", c.ceil_mode);
  t.SetAttr("padding_algorithm", c.algo);
  t.SetAttr("data_format", std::string("NCDHW"));
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << label << ": " << s.ToString();
  ASSERT_EQ(t.Get("out").dims(), c.want) << label;
  const std::vector<float> want = Reference(c, x, c.want);
  const std::vector<float> got = t.GetData<float>("out");
  ASSERT_EQ(got.size(), want.size()) << label;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-5f) << label << " at " << i;
  }
}

TEST(Pool3d, AttributeCases) {
  Case c;
  c.want = {2, 3, 4, 5, 6};
  Expect(c, "max 2x2x2");
  c.type = "avg";
  Expect(c, "avg 2x2x2");

  Case s;  // strides, 3-value paddings, exclusive on and off
  s.type = "avg";
  s.ksize = {3, 3, 2};
  s.strides = {2, 2, 3};
  s.paddings = {1, 1, 1};
  s.want = {2, 3, 3, 3, 3};
  Expect(s, "avg padded exclusive");
  s.exclusive = false;
  Expect(s, "avg padded inclusive");
  s.type = "max";
  Expect(s, "max padded");

  Case six;  // 6-value paddings [front, back, top, bottom, left, right], ceil_mode
  six.type = "avg";
  six.ksize = {2, 3, 3};
  six.strides = {2, 2, 2};
  six.paddings = {0, 1, 2, 0, 1, 2};
  six.ceil_mode = true;
  six.exclusive = false;
  // depth (5+0+1-2+1)/2+1 = 3, height (6+2+0-3+1)/2+1 = 4, width (7+1+2-3+1)/2+1 = 5
  six.want = {2, 3, 3, 4, 5};
  Expect(six, "avg 6 paddings ceil");

  Case ad;  // adaptive avg: output = ksize
  ad.type = "avg";
  ad.adaptive = true;
  ad.ksize = {2, 4, 3};
  ad.want = {2, 3, 2, 4, 3};
  Expect(ad, "adaptive avg");
  ad.type = "max";  // Paddle: plain ksize windows, output still ksize
  Expect(ad, "adaptive max");

  Case g;
  g.type = "avg";
  g.global = true;
  g.paddings = {1, 1, 1};  // ignored
  g.want = {2, 3, 1, 1, 1};
  Expect(g, "global avg");

  Case same;
  same.type = "max";
  same.ksize = {3, 3, 3};
  same.strides = {2, 2, 2};
  same.algo = "SAME";
  same.want = {2, 3, 3, 3, 4};
  Expect(same, "SAME");
  same.algo = "VALID";
  same.paddings = {1, 1, 1};  // ignored
  same.want = {2, 3, 2, 2, 3};
  Expect(same, "VALID");
}

TEST(Pool3d, Errors) {
  const struct {
    DDim in;
    std::vector<int> ksize, paddings;
    const char* message;
  } cases[] = {{{1, 1, 4, 4}, {2, 2, 2}, {0, 0, 0}, "5-D NCDHW"},
               {{1, 1, 4, 4, 4}, {2, 2}, {0, 0, 0}, "ksize must have 3 values"},
               {{1, 1, 4, 4, 4}, {2, 2, 2}, {0, 0, 0, 0}, "3 or 6 values"}};
  for (const auto& c : cases) {
    OpTester t("pool3d");
    t.SetInput<float>("X", "x", c.in, std::vector<float>(Product(c.in), 1.f));
    t.SetOutput("Out", "out");
    t.SetAttr("pooling_type", std::string("max"));
    t.SetAttr("ksize", c.ksize);
    t.SetAttr("paddings", c.paddings);
    Status s = t.Run();
    ASSERT_FALSE(s.ok()) << c.message;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("pool3d"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace lite
