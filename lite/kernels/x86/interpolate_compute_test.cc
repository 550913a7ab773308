// x86 nearest_interp(_v2) (oneDNN resampling for integer upscales, the own
// NHWC loop otherwise) and bilinear_interp(_v2) (the own NHWC loop) against
// the host kernel, to sizes from attributes and from run-time OutSize /
// SizeTensor / Scale inputs; the upscale + residual add writing int8 levels
// against the host output quantized.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

TEST(X86Nearest, MatchesHost) {
  struct Case {
    std::string op;
    int out_h, out_w;
    float scale;
    bool align_corners;
    bool residual = false;  // ResidualData (interp_residual_fuse_pass)
    bool residual_scale = false;  // and ResidualScale
  };
  const std::vector<Case> cases{{"nearest_interp_v2", 10, 14, 0.f, false},  // x2
                                {"nearest_interp_v2", 15, 21, 0.f, false},  // x3
                                {"nearest_interp_v2", 0, 0, 2.f, false},    // scale 2
                                {"nearest_interp_v2", 7, 9, 0.f, false},    // fractional
                                {"nearest_interp_v2", 3, 4, 0.f, false},    // down
                                {"nearest_interp_v2", 10, 14, 0.f, true},   // align corners
                                {"nearest_interp", 10, 14, 0.f, false},
                                // Out = upscale(X) + ResidualData: one NHWC
                                // loop on x86, the host fallback otherwise.
                                {"nearest_interp_v2", 10, 14, 0.f, false, true},
                                {"nearest_interp_v2", 15, 21, 0.f, false, true},
                                {"nearest_interp_v2", 7, 9, 0.f, false, true},
                                {"nearest_interp_v2", 10, 14, 0.f, false, true, true},
                                {"nearest_interp_v2", 7, 9, 0.f, false, true, true}};
  for (const Case& c : cases) {
    auto setup = [&](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 3, 5, 7}, RandomFloats(210, 8));
      if (c.residual) {
        t->SetInput<float>("ResidualData", "r", {2, 3, c.out_h, c.out_w},
                           RandomFloats(6 * c.out_h * c.out_w, 9));
      }
      if (c.residual_scale && c.out_h == 10) {  // per channel
        t->SetInput<float>("ResidualScale", "s", {3}, {0.5f, -2.f, 3.f});
      } else if (c.residual_scale) {  // per sample and channel (an SE gate)
        t->SetInput<float>("ResidualScale", "s", {2, 3, 1, 1}, {0.5f, -2.f, 3.f, 1.f, 0.f, -1.f});
      }
      t->SetOutput("Out", "out");
      t->SetAttr("interp_method", std::string("nearest"));
      t->SetAttr("align_corners", c.align_corners);
      t->SetAttr("align_mode", 1);
      t->SetAttr("out_h", c.out_h);
      t->SetAttr("out_w", c.out_w);
      if (c.scale > 0) {
        if (c.op == "nearest_interp_v2") {
          t->SetAttr("scale", std::vector<float>{c.scale, c.scale});
        } else {
          t->SetAttr("scale", c.scale);
        }
      }
    };
    x86_test::ExpectX86MatchesHost(c.op, setup, {"out"},
                                   c.op + " to " + std::to_string(c.out_h) + "x" +
                                       std::to_string(c.out_w) + " scale " +
                                       std::to_string(c.scale) +
                                       (c.align_corners ? " align_corners" : "") +
                                       (c.residual ? " + residual" : "") +
                                       (c.residual_scale ? " * scale" : ""),
                                   0.f, c.residual ? 2 : 1);
  }
}

// Where the output size comes from: an attribute or a run-time input.
enum class SizeFrom { kAttr, kOutSize, kSizeTensor, kScaleTensor };

// Sets the size of a resize of X [n, c, 5, 7] to out_h x out_w from `from`
// (kScaleTensor: out_h / 5 and out_w / 7 as scales).
void SetResizeSize(OpTester* t, SizeFrom from, int out_h, int out_w) {
  switch (from) {
    case SizeFrom::kAttr:
      t->SetAttr("out_h", out_h);
      t->SetAttr("out_w", out_w);
      break;
    case SizeFrom::kOutSize:
      t->SetInput<int32_t>("OutSize", "os", {2}, {out_h, out_w});
      break;
    case SizeFrom::kSizeTensor:
      t->SetInput<int32_t>("SizeTensor", "s0", {1}, {out_h});
      t->SetInput<int32_t>("SizeTensor", "s1", {1}, {out_w});
      break;
    case SizeFrom::kScaleTensor:
      t->SetInput<float>("Scale", "sc", {2}, {out_h / 5.f, out_w / 7.f});
      break;
  }
}

TEST(X86Nearest, RunTimeSizesMatchHost) {
  for (SizeFrom from : {SizeFrom::kOutSize, SizeFrom::kSizeTensor, SizeFrom::kScaleTensor}) {
    for (const auto& hw : std::vector<std::pair<int, int>>{{10, 14}, {9, 11}, {3, 4}}) {
      for (bool ac : {false, true}) {
        auto setup = [&](OpTester* t) {
          t->SetInput<float>("X", "x", {2, 19, 5, 7}, RandomFloats(2 * 19 * 35, 8));
          t->SetOutput("Out", "out");
          t->SetAttr("interp_method", std::string("nearest"));
          t->SetAttr("align_corners", ac);
          SetResizeSize(t, from, hw.first, hw.second);
        };
        x86_test::ExpectX86MatchesHost(
            "nearest_interp_v2", setup, {"out"},
            "nearest to " + std::to_string(hw.first) + "x" + std::to_string(hw.second) +
                " from " + std::to_string(static_cast<int>(from)) + (ac ? " align_corners" : ""),
            0.f);
      }
    }
  }
}

// Bilinear: every align_corners / align_mode, up, down and fractional
// sizes, 3 and 19 channels (a vector tail), sizes from attributes and
// run-time inputs, a fused residual with and without per-channel scales.
TEST(X86Bilinear, MatchesHost) {
  struct Case {
    std::string op;
    int c, out_h, out_w;
    SizeFrom from;
    bool residual = false, residual_scale = false;
  };
  const std::vector<Case> cases{{"bilinear_interp_v2", 3, 10, 14, SizeFrom::kAttr},
                                {"bilinear_interp_v2", 19, 9, 11, SizeFrom::kOutSize},
                                {"bilinear_interp_v2", 19, 20, 28, SizeFrom::kSizeTensor},
                                {"bilinear_interp_v2", 3, 3, 4, SizeFrom::kScaleTensor},
                                {"bilinear_interp_v2", 19, 5, 7, SizeFrom::kOutSize},
                                {"bilinear_interp_v2", 2, 1, 1, SizeFrom::kAttr},
                                {"bilinear_interp", 19, 11, 13, SizeFrom::kAttr},
                                {"bilinear_interp_v2", 19, 9, 11, SizeFrom::kAttr, true},
                                {"bilinear_interp_v2", 3, 10, 14, SizeFrom::kAttr, true, true}};
  for (const Case& c : cases) {
    for (int mode = 0; mode < 3; ++mode) {  // align_corners; align_mode 0; align_mode 1
      auto setup = [&](OpTester* t) {
        t->SetInput<float>("X", "x", {2, c.c, 5, 7}, RandomFloats(2 * c.c * 35, 8));
        if (c.residual) {
          t->SetInput<float>("ResidualData", "r", {2, c.c, c.out_h, c.out_w},
                             RandomFloats(2 * c.c * c.out_h * c.out_w, 9));
        }
        if (c.residual_scale) t->SetInput<float>("ResidualScale", "rs", {3}, {0.5f, -2.f, 3.f});
        t->SetOutput("Out", "out");
        t->SetAttr("interp_method", std::string("bilinear"));
        t->SetAttr("align_corners", mode == 0);
        t->SetAttr("align_mode", mode == 1 ? 0 : 1);
        SetResizeSize(t, c.from, c.out_h, c.out_w);
      };
      x86_test::ExpectX86MatchesHost(c.op, setup, {"out"},
                                     c.op + " C " + std::to_string(c.c) + " to " +
                                         std::to_string(c.out_h) + "x" +
                                         std::to_string(c.out_w) + " mode " +
                                         std::to_string(mode) + (c.residual ? " + residual" : ""),
                                     1e-5f, 1, 2);
    }
  }
}

// interp_method is an attribute the op type only defaults: the x86 kernels
// take only their own method (the host kernel runs the other).
TEST(X86Interpolate, KernelsTakeOnlyTheirOwnMethod) {
  for (const std::string& op : {std::string("bilinear_interp_v2"), std::string("nearest_interp_v2")}) {
    const bool bilinear = op[0] == 'b';
    cpp::OpDesc own(op), other(op);
    own.SetAttr("interp_method", std::string(bilinear ? "bilinear" : "nearest"));
    other.SetAttr("interp_method", std::string(bilinear ? "nearest" : "bilinear"));
    for (const KernelDef* d : KernelRegistry::Global().Find(op)) {
      if (d->place.target != TargetType::kX86 || d->place.precision != PrecisionType::kFloat) {
        continue;
      }
      EXPECT_TRUE(d->Accepts(own, nullptr)) << d->Key();
      EXPECT_FALSE(d->Accepts(other, nullptr)) << d->Key();
    }
  }
}

TEST(X86Nearest, ResidualOfAnotherShapeIsAnError) {
  OpTester t("nearest_interp_v2");
  t.SetInput<float>("X", "x", {1, 3, 5, 7}, RandomFloats(105, 8));
  t.SetInput<float>("ResidualData", "r", {1, 3, 10, 7}, RandomFloats(210, 9));
  t.SetOutput("Out", "out");
  t.SetAttr("out_h", 10);
  t.SetAttr("out_w", 14);
  t.SetAttr("align_corners", false);
  for (TargetType target : {TargetType::kHost, TargetType::kX86}) {
    Status s = t.Run(target);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("ResidualData"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("[1, 3, 10, 7]"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("[1, 3, 10, 14]"), std::string::npos) << s.ToString();
  }
}

// Out = x2 upscale(X) + ResidualData [* ResidualScale per channel or per
// sample and channel] as int8 levels at scale 2.
TEST(X86Nearest, UpscaleAddWritingLevelsEqualsTheQuantizedHost) {
  for (int scaled : {0, 1, 2}) {
    for (int round_type : {0, 1}) {
      auto setup = [&](OpTester* t) {
        t->SetInput<float>("X", "x", {2, 3, 5, 7}, RandomFloats(210, 8, -2.f, 2.f));
        t->SetInput<float>("ResidualData", "r", {2, 3, 10, 14}, RandomFloats(840, 9, -2.f, 2.f));
        if (scaled == 1) t->SetInput<float>("ResidualScale", "s", {3}, {0.5f, -2.f, 3.f});
        if (scaled == 2) {
          t->SetInput<float>("ResidualScale", "s", {2, 3, 1, 1},
                             {0.5f, -2.f, 3.f, 1.f, 0.f, -1.f});
        }
        t->SetOutput("Out", "out");
        t->SetAttr("out_h", 10);
        t->SetAttr("out_w", 14);
        t->SetAttr("align_corners", false);
      };
      x86_test::ExpectX86LevelsMatchQuantizedHost(
          "nearest_interp_v2", setup, "nearest_interp_v2/levels_out/x86/int8/NHWC", 2.f,
          round_type, "scaled " + std::to_string(scaled) + " round_type " +
                          std::to_string(round_type));
    }
  }
}

TEST(X86Nearest, LevelsWithoutResidualIsAnError) {
  OpTester t("nearest_interp_v2");
  t.SetInput<float>("X", "x", {1, 3, 5, 7}, RandomFloats(105, 8));
  t.SetOutput("Out", "out");
  t.SetAttr("out_h", 10);
  t.SetAttr("out_w", 14);
  t.SetAttr("align_corners", false);
  t.SetAttr("enable_int8", true);
  t.SetAttr("Output_dtype", std::string("int8"));
  t.SetAttr("Output_scale", 2.f);
  Status s = t.Run(TargetType::kX86);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("nearest_interp_v2"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("ResidualData"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace lite
