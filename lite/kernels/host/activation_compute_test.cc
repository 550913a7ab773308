#include <cmath>
#include <functional>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

const std::vector<float> kX = {-8.f, -3.5f, -2.f, -0.5f, -0.01f, 0.f,
                               0.25f, 1.f, 2.5f, 3.f, 5.9f, 7.f};

struct Attrs {
  std::map<std::string, float> floats;
  std::map<std::string, bool> bools;
};

void ExpectActivation(const std::string& op, const Attrs& attrs,
                      const std::function<double(double)>& ref,
                      const std::vector<float>& x = kX, double tol = 1e-5) {
  OpTester t(op);
  t.SetInput<float>("X", "x", {3, 4}, x);
  t.SetOutput("Out", "out");
  for (const auto& kv : attrs.floats) t.SetAttr(kv.first, kv.second);
  for (const auto& kv : attrs.bools) t.SetAttr(kv.first, kv.second);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << op << ": " << s.ToString();
  ASSERT_EQ(t.Get("out").dims(), (DDim{3, 4}));
  auto out = t.GetData<float>("out");
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = ref(x[i]);
    if (std::isnan(r)) {
      EXPECT_TRUE(std::isnan(out[i])) << op << " x=" << x[i];
    } else if (std::isinf(r)) {
      EXPECT_EQ(out[i], static_cast<float>(r)) << op << " x=" << x[i];
    } else {
      EXPECT_NEAR(out[i], r, tol * std::max(1.0, std::fabs(r))) << op << " x=" << x[i];
    }
  }
}

double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

TEST(Activation, ReluTanhSigmoid) {
  ExpectActivation("relu", {}, [](double v) { return v > 0 ? v : 0.0; });
  ExpectActivation("tanh", {}, [](double v) { return std::tanh(v); });
  ExpectActivation("sigmoid", {}, Sigmoid);
}

TEST(Activation, Relu6DefaultAndThreshold) {
  ExpectActivation("relu6", {}, [](double v) { return std::min(std::max(v, 0.0), 6.0); });
  ExpectActivation("relu6", {{{"threshold", 2.f}}, {}},
                   [](double v) { return std::min(std::max(v, 0.0), 2.0); });
}

TEST(Activation, LeakyReluDefaultAndAlpha) {
  ExpectActivation("leaky_relu", {}, [](double v) { return v > 0 ? v : 0.02 * v; });
  ExpectActivation("leaky_relu", {{{"alpha", 0.3f}}, {}},
                   [](double v) { return v > 0 ? v : 0.3 * v; });
}

TEST(Activation, HardSwishDefaultAndCustom) {
  ExpectActivation("hard_swish", {}, [](double v) {
    return v * std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0;
  });
  ExpectActivation("hard_swish", {{{"threshold", 4.f}, {"scale", 5.f}, {"offset", 1.f}}, {}},
                   [](double v) { return v * std::min(std::max(v + 1.0, 0.0), 4.0) / 5.0; });
}

TEST(Activation, HardSigmoidDefaultAndCustom) {
  ExpectActivation("hard_sigmoid", {},
                   [](double v) { return std::min(std::max(0.2 * v + 0.5, 0.0), 1.0); });
  ExpectActivation("hard_sigmoid", {{{"slope", 0.1666667f}, {"offset", 0.4f}}, {}},
                   [](double v) { return std::min(std::max(0.1666667 * v + 0.4, 0.0), 1.0); });
}

TEST(Activation, SwishDefaultAndBeta) {
  ExpectActivation("swish", {}, [](double v) { return v * Sigmoid(v); });
  ExpectActivation("swish", {{{"beta", 1.7f}}, {}}, [](double v) { return v * Sigmoid(1.7 * v); });
}

TEST(Activation, GeluExactAndTanh) {
  ExpectActivation("gelu", {}, [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); });
  ExpectActivation("gelu", {{}, {{"approximate", false}}},
                   [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); });
  ExpectActivation("gelu", {{}, {{"approximate", true}}}, [](double v) {
    return 0.5 * v * (1 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
  });
}

TEST(Activation, ExpLogSqrtAbs) {
  ExpectActivation("exp", {}, [](double v) { return std::exp(v); });
  ExpectActivation("abs", {}, [](double v) { return std::fabs(v); });
  std::vector<float> pos;
  for (float v : kX) pos.push_back(std::fabs(v) + 0.125f);
  ExpectActivation("log", {}, [](double v) { return std::log(v); }, pos);
  ExpectActivation("sqrt", {}, [](double v) { return std::sqrt(v); }, pos);
  ExpectActivation("log", {}, [](double v) { return std::log(v); });  // NaN / -inf
}

TEST(Activation, ReinfersShapeWhenInputDimsChange) {
  OpTester t("relu");
  Tensor* in = t.SetInput<float>("X", "x", {4}, {1, -1, 2, -2});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{4}));
  in->Resize({2, 1});
  float* p = in->mutable_data<float>();
  p[0] = -3;
  p[1] = 5;
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 1}));
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{0, 5}));
}

TEST(Activation, NonFloatInputIsRejected) {
  OpTester t("relu");
  t.SetInput<int64_t>("X", "x", {2}, {1, -1});
  t.SetOutput("Out", "out");
  EXPECT_FALSE(t.Run().ok());
}

// ---- prelu ----

std::vector<float> RefPRelu(const std::vector<float>& x, const DDim& d,
                            const std::vector<float>& alpha, const std::string& mode,
                            bool channel_last) {
  std::vector<float> y(x.size());
  const int64_t n = static_cast<int64_t>(x.size());
  int64_t inner = 1;
  for (size_t i = 2; i < d.size(); ++i) inner *= d[i];
  for (int64_t i = 0; i < n; ++i) {
    float a;
    if (mode == "all") {
      a = alpha[0];
    } else if (mode == "element") {
      a = alpha[i % (n / d[0])];
    } else if (channel_last) {
      a = alpha[i % d.back()];
    } else {
      a = alpha[(i / inner) % d[1]];
    }
    y[i] = x[i] > 0 ? x[i] : a * x[i];
  }
  return y;
}

void ExpectPRelu(const std::string& mode, const DDim& xd, const DDim& ad,
                 const std::string& fmt = "") {
  std::vector<float> x(Product(xd)), a(Product(ad));
  for (size_t i = 0; i < x.size(); ++i) x[i] = (i % 3 == 0 ? -1.f : 1.f) * (0.5f + i);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.1f * (i + 1);
  OpTester t("prelu");
  t.SetInput<float>("X", "x", xd, x);
  t.SetInput<float>("Alpha", "alpha", ad, a);
  t.SetOutput("Out", "out");
  t.SetAttr("mode", mode);
  if (!fmt.empty()) t.SetAttr("data_format", fmt);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << mode << ": " << s.ToString();
  EXPECT_EQ(t.Get("out").dims(), xd);
  auto ref = RefPRelu(x, xd, a, mode, fmt == "NHWC");
  auto out = t.GetData<float>("out");
  for (size_t i = 0; i < ref.size(); ++i) EXPECT_FLOAT_EQ(out[i], ref[i]) << mode << " " << i;
}

TEST(PRelu, AllChannelElementModes) {
  ExpectPRelu("all", {2, 3, 2, 2}, {1});
  ExpectPRelu("channel", {2, 3, 2, 2}, {3});
  ExpectPRelu("channel", {2, 3, 2, 2}, {1, 3, 1, 1});
  ExpectPRelu("channel", {4, 3}, {3});
  ExpectPRelu("channel", {2, 2, 2, 3}, {3}, "NHWC");
  ExpectPRelu("element", {2, 3, 2, 2}, {1, 3, 2, 2});
}

TEST(PRelu, DefaultModeIsAll) {
  OpTester t("prelu");
  t.SetInput<float>("X", "x", {4}, {-2, -1, 1, 2});
  t.SetInput<float>("Alpha", "alpha", {1}, {0.5f});
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{-1, -0.5f, 1, 2}));
}

Status RunPRelu(const std::string& mode, const DDim& xd, const DDim& ad) {
  OpTester t("prelu");
  t.SetInput<float>("X", "x", xd, std::vector<float>(Product(xd), 1.f));
  t.SetInput<float>("Alpha", "alpha", ad, std::vector<float>(Product(ad), 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("mode", mode);
  return t.Run();
}

TEST(PRelu, Errors) {
  EXPECT_FALSE(RunPRelu("channel", {2, 3, 2, 2}, {4}).ok());
  EXPECT_FALSE(RunPRelu("all", {2, 3}, {3}).ok());
  EXPECT_FALSE(RunPRelu("element", {2, 3, 2}, {3}).ok());
  EXPECT_FALSE(RunPRelu("bogus", {2, 3}, {1}).ok());
  EXPECT_TRUE(RunPRelu("element", {2, 3, 2}, {1, 3, 2}).ok());
}

}  // namespace
}  // namespace lite
