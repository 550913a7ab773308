// Shared by the conv kernel tests: a conv geometry, a naive reference
// convolution (double accumulation), an OpTester set up for it, and a check
// of conv + bias + each fused activation against reference + activation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace conv_test {

struct ConvCfg {
  int n = 1, c = 3, h = 7, w = 6, cout = 4, kh = 3, kw = 3, groups = 1;
  std::vector<int> strides{1, 1};
  std::vector<int> pads{0, 0, 0, 0};  // top, bottom, left, right (effective)
  std::vector<int> dils{1, 1};
  int OutH() const { return (h + pads[0] + pads[1] - (dils[0] * (kh - 1) + 1)) / strides[0] + 1; }
  int OutW() const { return (w + pads[2] + pads[3] - (dils[1] * (kw - 1) + 1)) / strides[1] + 1; }
};

inline std::vector<float> NaiveConv(const ConvCfg& k, const std::vector<float>& x,
                             const std::vector<float>& f, const std::vector<float>* bias) {
  const int oh = k.OutH(), ow = k.OutW();
  const int cin_g = k.c / k.groups, cout_g = k.cout / k.groups;
  std::vector<float> out(static_cast<size_t>(k.n) * k.cout * oh * ow, 0.f);
  for (int n = 0; n < k.n; ++n)
    for (int oc = 0; oc < k.cout; ++oc) {
      const int g = oc / cout_g;
      for (int y = 0; y < oh; ++y)
        for (int xo = 0; xo < ow; ++xo) {
          double s = bias ? (*bias)[oc] : 0.0;
          for (int ic = 0; ic < cin_g; ++ic)
            for (int i = 0; i < k.kh; ++i)
              for (int j = 0; j < k.kw; ++j) {
                int ih = y * k.strides[0] - k.pads[0] + i * k.dils[0];
                int iw = xo * k.strides[1] - k.pads[2] + j * k.dils[1];
                if (ih < 0 || ih >= k.h || iw < 0 || iw >= k.w) continue;
                int c = g * cin_g + ic;
                s += x[((n * k.c + c) * k.h + ih) * k.w + iw] *
                     f[((oc * cin_g + ic) * k.kh + i) * k.kw + j];
              }
          out[((n * k.cout + oc) * oh + y) * ow + xo] = static_cast<float>(s);
        }
    }
  return out;
}

inline void ExpectNear(const std::vector<float>& a, const std::vector<float>& b,
                const std::string& what, float tol = 1e-4f) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a[i], b[i], tol) << what << " at " << i;
  }
}

// Builds an OpTester for `op` with cfg's tensors; `pads_attr` is the raw
// paddings attribute (2 or 4 values).
struct ConvRun {
  OpTester t;
  std::vector<float> x, f;
  ConvRun(const std::string& op, const ConvCfg& k, const std::vector<int>& pads_attr,
          uint32_t seed)
      : t(op) {
    x = RandomFloats(static_cast<int64_t>(k.n) * k.c * k.h * k.w, seed);
    f = RandomFloats(static_cast<int64_t>(k.cout) * (k.c / k.groups) * k.kh * k.kw, seed + 7);
    t.SetInput<float>("Input", "x", {k.n, k.c, k.h, k.w}, x);
    t.SetInput<float>("Filter", "f", {k.cout, k.c / k.groups, k.kh, k.kw}, f);
    t.SetOutput("Output", "out");
    t.SetAttr("strides", k.strides);
    t.SetAttr("paddings", pads_attr);
    t.SetAttr("dilations", k.dils);
    t.SetAttr("groups", k.groups);
  }
};

// Every fused activation kind with its attributes, and the spec it must match.
struct ActCase {
  const char* name;
  float alpha, beta, gamma;
};
inline const ActCase kActs[] = {{"", 0, 0, 0},           {"relu", 0, 0, 0},
                         {"relu6", 1.5f, 0, 0},   {"leaky_relu", 0.1f, 0, 0},
                         {"hard_swish", 6.f, 6.f, 3.f}, {"hard_sigmoid", 0.2f, 0.5f, 0},
                         {"sigmoid", 0, 0, 0},    {"swish", 1.3f, 0, 0},
                         {"tanh", 0, 0, 0}};

inline operators::FusedActivation ToAct(const ActCase& a) {
  using A = operators::FusedActivation;
  const std::string n = a.name;
  A act;
  act.kind = n == "relu"           ? A::kRelu
             : n == "relu6"        ? A::kRelu6
             : n == "leaky_relu"   ? A::kLeakyRelu
             : n == "hard_swish"   ? A::kHardSwish
             : n == "hard_sigmoid" ? A::kHardSigmoid
             : n == "sigmoid"      ? A::kSigmoid
             : n == "swish"        ? A::kSwish
             : n == "tanh"         ? A::kTanh
                                   : A::kNone;
  act.alpha = a.alpha;
  act.beta = a.beta;
  act.gamma = a.gamma;
  return act;
}

// Runs `op` on cfg with a bias and fused activation `a`; compares with the
// naive conv followed by the activation.
inline void CheckConvWithAct(const char* op, const ConvCfg& k, const ActCase& a, uint32_t seed,
                      const std::string& what) {
  ConvRun r(op, k, k.pads, seed);
  auto bias = RandomFloats(k.cout, seed + 1);
  r.t.SetInput<float>("Bias", "b", {k.cout}, bias);
  if (a.name[0]) {
    r.t.SetAttr("fuse_activation", std::string(a.name));
    r.t.SetAttr("fuse_alpha", a.alpha);
    r.t.SetAttr("fuse_beta", a.beta);
    r.t.SetAttr("fuse_gamma", a.gamma);
  }
  ASSERT_TRUE(r.t.Run().ok()) << what;
  EXPECT_EQ(r.t.Get("out").dims(), (DDim{k.n, k.cout, k.OutH(), k.OutW()})) << what;
  auto ref = NaiveConv(k, r.x, r.f, &bias);
  const auto act = ToAct(a);
  for (auto& v : ref) v = act.Apply(v);
  ExpectNear(r.t.GetData<float>("out"), ref, what + " act " + a.name);
}

}  // namespace conv_test
}  // namespace lite
