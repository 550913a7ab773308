// box_coder: a pixel-box encode worked out by hand, and decode(encode(t)) = t
// for normalized boxes on both decode axes with tensor and attribute
// variances.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

TEST(BoxCoder, EncodePixelBoxesByHand) {
  OpTester t("box_coder");
  t.SetInput<float>("PriorBox", "p", {1, 4}, {0.f, 0.f, 10.f, 10.f});
  t.SetInput<float>("TargetBox", "t", {1, 4}, {2.f, 2.f, 6.f, 8.f});
  t.SetAttr("code_type", std::string("encode_center_size"));
  t.SetAttr("box_normalized", false);
  t.SetAttr("variance", std::vector<float>{0.1f, 0.1f, 0.2f, 0.2f});
  t.SetOutput("OutputBox", "out");
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{1, 1, 4}));
  // Prior: w = h = 11, centre 5.5. Target: w 5, h 7, centre (4, 5).
  const std::vector<float> want = {(4.f - 5.5f) / 11.f / 0.1f, (5.f - 5.5f) / 11.f / 0.1f,
                                   std::log(5.f / 11.f) / 0.2f, std::log(7.f / 11.f) / 0.2f};
  const std::vector<float> got = t.GetData<float>("out");
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[k], want[k], 1e-5) << k;
}

TEST(BoxCoder, DecodeInvertsEncodeOnBothAxes) {
  const int64_t N = 3, M = 2;
  const std::vector<float> priors = {0.1f, 0.1f, 0.5f, 0.6f, 0.3f, 0.2f, 0.9f, 0.8f};
  const std::vector<float> pvar = {0.1f, 0.1f, 0.2f, 0.2f, 0.2f, 0.1f, 0.3f, 0.4f};
  const std::vector<float> targets = {0.f, 0.f, 0.4f, 0.3f, 0.2f, 0.3f, 0.7f, 0.9f,
                                      0.5f, 0.4f, 0.6f, 0.5f};
  for (bool var_tensor : {true, false}) {
    OpTester enc("box_coder");
    enc.SetInput<float>("PriorBox", "p", {M, 4}, priors);
    if (var_tensor) enc.SetInput<float>("PriorBoxVar", "v", {M, 4}, pvar);
    else enc.SetAttr("variance", std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f});
    enc.SetInput<float>("TargetBox", "t", {N, 4}, targets);
    enc.SetOutput("OutputBox", "code");
    ASSERT_TRUE(enc.Run().ok());
    const std::vector<float> code = enc.GetData<float>("code");  // [N, M, 4]
    for (int axis : {0, 1}) {
      std::vector<float> in = code;
      DDim dims{N, M, 4};
      if (axis == 1) {  // [M, N, 4]: prior j on row j
        dims = {M, N, 4};
        for (int64_t i = 0; i < N; ++i)
          for (int64_t j = 0; j < M; ++j)
            for (int c = 0; c < 4; ++c) in[(j * N + i) * 4 + c] = code[(i * M + j) * 4 + c];
      }
      OpTester dec("box_coder");
      dec.SetInput<float>("PriorBox", "p", {M, 4}, priors);
      if (var_tensor) dec.SetInput<float>("PriorBoxVar", "v", {M, 4}, pvar);
      else dec.SetAttr("variance", std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f});
      dec.SetInput<float>("TargetBox", "t", dims, in);
      dec.SetAttr("code_type", std::string("decode_center_size"));
      dec.SetAttr("axis", axis);
      dec.SetOutput("OutputBox", "box");
      Status s = dec.Run();
      ASSERT_TRUE(s.ok()) << s.ToString();
      const std::vector<float> box = dec.GetData<float>("box");
      for (int64_t i = 0; i < N; ++i) {
        for (int64_t j = 0; j < M; ++j) {
          const int64_t at = axis == 0 ? i * M + j : j * N + i;
          for (int c = 0; c < 4; ++c) {
            EXPECT_NEAR(box[at * 4 + c], targets[i * 4 + c], 1e-5)
                << "axis " << axis << " var_tensor " << var_tensor << " target " << i;
          }
        }
      }
    }
  }
}

TEST(BoxCoder, WrongPriorCountIsAnError) {
  OpTester t("box_coder");
  t.SetInput<float>("PriorBox", "p", {2, 4}, std::vector<float>(8, 0.5f));
  t.SetInput<float>("TargetBox", "t", {1, 3, 4}, std::vector<float>(12));
  t.SetAttr("code_type", std::string("decode_center_size"));
  t.SetOutput("OutputBox", "out");
  Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("with M = 2 priors on axis 1"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
