// The table-driven unary ops (lite/operators/unary_ops.h) against reference
// formulas written here in double precision, for each op's default and
// non-default attributes, plus their refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"
#include "lite/operators/unary_ops.h"

namespace lite {
namespace {

struct UnaryCase {
  std::string op;
  std::map<std::string, float> attrs;
  std::function<double(double)> ref;
};

const std::vector<float> kInputs = {-25.f, -8.f, -2.5f, -1.5f, -1.f, -0.5f, -0.01f, 0.f,
                                    0.004f, 0.25f, 0.5f, 1.f, 1.5f, 2.5f, 7.f, 30.f};

double SoftplusRef(double x, double beta, double threshold) {
  return x * beta > threshold ? x : std::log(1.0 + std::exp(beta * x)) / beta;
}

std::vector<UnaryCase> Cases() {
  const double selu_scale = 1.0507009873554804934193349852946;
  const double selu_alpha = 1.6732632423543772848170429916717;
  auto clamp = [](double lo, double hi) {
    return [lo, hi](double x) { return std::min(std::max(x, lo), hi); };
  };
  return {
      {"elu", {}, [](double x) { return x > 0 ? x : std::exp(x) - 1; }},
      {"elu", {{"alpha", 0.3f}}, [](double x) { return x > 0 ? x : 0.3 * (std::exp(x) - 1); }},
      {"selu", {}, [=](double x) { return selu_scale * (x > 0 ? x : selu_alpha * (std::exp(x) - 1)); }},
      {"selu", {{"scale", 2.f}, {"alpha", 0.5f}},
       [](double x) { return 2.0 * (x > 0 ? x : 0.5 * (std::exp(x) - 1)); }},
      {"softplus", {}, [](double x) { return SoftplusRef(x, 1, 20); }},
      {"softplus", {{"beta", 2.f}, {"threshold", 3.f}}, [](double x) { return SoftplusRef(x, 2, 3); }},
      {"softsign", {}, [](double x) { return x / (1 + std::fabs(x)); }},
      {"mish", {}, [](double x) { return x * std::tanh(x > 20 ? x : std::log(1 + std::exp(x))); }},
      {"mish", {{"threshold", 1.f}},
       [](double x) { return x * std::tanh(x > 1 ? x : std::log(1 + std::exp(x))); }},
      {"silu", {}, [](double x) { return x / (1 + std::exp(-x)); }},
      {"brelu", {}, clamp(0, 24)},
      {"brelu", {{"t_min", -1.f}, {"t_max", 1.f}}, clamp(-1, 1)},
      {"hardtanh", {}, clamp(0, 24)},
      {"hardtanh", {{"t_min", -2.f}, {"t_max", 0.5f}}, clamp(-2, 0.5)},
      {"thresholded_relu", {}, [](double x) { return x > 1 ? x : 0.0; }},
      {"thresholded_relu", {{"threshold", -0.5f}, {"value", 3.f}},
       [](double x) { return x > -0.5 ? x : 3.0; }},
      {"logsigmoid", {}, [](double x) { return -std::log(1 + std::exp(-x)); }},
      {"pow", {}, [](double x) { return x; }},
      {"pow", {{"factor", 2.f}}, [](double x) { return x * x; }},
      {"pow", {{"factor", 0.5f}}, [](double x) { return std::sqrt(x); }},  // NaN below 0
      {"pow", {{"factor", -3.f}}, [](double x) { return 1.0 / (x * x * x); }},
      {"rsqrt", {}, [](double x) { return 1.0 / std::sqrt(x); }},
      {"square", {}, [](double x) { return x * x; }},
      {"floor", {}, [](double x) { return std::floor(x); }},
      {"ceil", {}, [](double x) { return std::ceil(x); }},
      {"round", {}, [](double x) { return std::round(x); }},  // halves away from zero
      {"round", {{"decimals", 1.f}}, [](double x) { return std::round(x * 10) / 10; }},
      {"sign", {}, [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }},
      {"erf", {}, [](double x) { return std::erf(x); }},
  };
}

TEST(Unary, EveryOpMatchesItsReferenceOverItsAttributes) {
  std::map<std::string, int> covered;
  for (const UnaryCase& c : Cases()) {
    OpTester t(c.op);
    t.SetInput<float>("X", "x", {2, 8}, kInputs);
    t.SetOutput("Out", "out");
    for (const auto& kv : c.attrs) t.SetAttr(kv.first, kv.second);
    Status s = t.Run();
    ASSERT_TRUE(s.ok()) << c.op << ": " << s.ToString();
    ASSERT_EQ(t.Get("out").dims(), (DDim{2, 8}));
    const auto out = t.GetData<float>("out");
    for (size_t i = 0; i < kInputs.size(); ++i) {
      const double r = c.ref(kInputs[i]);
      const std::string where = c.op + " x=" + std::to_string(kInputs[i]);
      if (std::isnan(r)) {
        EXPECT_TRUE(std::isnan(out[i])) << where;
      } else if (std::isinf(r)) {
        EXPECT_EQ(out[i], static_cast<float>(r)) << where;
      } else {
        EXPECT_NEAR(out[i], r, 2e-6 * std::max(1.0, std::fabs(r))) << where << " got " << out[i];
      }
    }
    ++covered[c.op];
  }
  // Every table row is tested here.
  for (const auto& row : operators::UnaryOpTable()) {
    EXPECT_TRUE(covered.count(row.type)) << row.type << " has no test case";
  }
}

TEST(Unary, KeepsDimsAndLoDAndSplitsOverThreads) {
  const int64_t n = 300000;
  std::vector<float> x = RandomFloats(n, 7, -4.f, 4.f);
  OpTester one("mish"), two("mish");
  for (OpTester* t : {&one, &two}) {
    Tensor* in = t->SetInput<float>("X", "x", {n, 1}, x);
    in->set_lod({{0, 5, n}});
    t->SetOutput("Out", "out");
  }
  two.set_threads(2);
  ASSERT_TRUE(one.Run().ok());
  ASSERT_TRUE(two.Run().ok());
  EXPECT_EQ(two.Get("out").lod(), (LoD{{0, 5, static_cast<uint64_t>(n)}}));
  EXPECT_EQ(one.GetData<float>("out"), two.GetData<float>("out"));
}

TEST(Unary, RefusesWhatItCannotRun) {
  OpTester pow_tensor("pow");
  pow_tensor.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  pow_tensor.SetInput<float>("FactorTensor", "f", {1}, {3.f});
  pow_tensor.SetOutput("Out", "out");
  Status s = pow_tensor.Run();
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented) << s.ToString();
  EXPECT_NE(s.message().find("FactorTensor"), std::string::npos) << s.message();

  OpTester zero_beta("softplus");
  zero_beta.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  zero_beta.SetOutput("Out", "out");
  zero_beta.SetAttr("beta", 0.f);
  s = zero_beta.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("beta"), std::string::npos) << s.message();

  OpTester ints("square");
  ints.SetInput<int32_t>("X", "x", {2}, {1, 2});
  ints.SetOutput("Out", "out");
  s = ints.Run();
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented) << s.ToString();
  EXPECT_NE(s.message().find("square"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
