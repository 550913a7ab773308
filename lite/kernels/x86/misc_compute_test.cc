// x86 softmax, concat and fc (oneDNN; one row: the own GEMV) against the host kernels.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

TEST(X86Softmax, EveryAxisMatchesHost) {
  for (int axis : {-1, 0, 1, 2, 3}) {
    auto setup = [axis](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 3, 5, 7}, RandomFloats(210, 6, -5.f, 5.f));
      t->SetOutput("Out", "out");
      t->SetAttr("axis", axis);
    };
    ExpectX86MatchesHost("softmax", setup, {"out"}, "axis " + std::to_string(axis), 1e-5f);
  }
}

// Shapes of PP-OCRv4 rec: the attention softmax over W of an NHWC
// activation (W at a stride of C = 8, 16-lane blocks plus a tail) and the
// CTC head's long rows (rank 3, the axis innermost, 1000 = 62 x 16 + 8).
TEST(X86Softmax, AttentionAndClassRowsMatchHost) {
  auto attention = [](OpTester* t) {
    t->SetInput<float>("X", "x", {1, 8, 19, 76}, RandomFloats(8 * 19 * 76, 7, -30.f, 30.f));
    t->SetOutput("Out", "out");
    t->SetAttr("axis", -1);
  };
  ExpectX86MatchesHost("softmax", attention, {"out"}, "[1, 8, 19, 76] axis -1", 1e-5f);
  auto rows = [](OpTester* t) {
    t->SetInput<float>("X", "x", {2, 5, 1000}, RandomFloats(10000, 8, -20.f, 20.f));
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 2);
  };
  ExpectX86MatchesHost("softmax", rows, {"out"}, "[2, 5, 1000] axis 2", 1e-5f);
  auto channels = [](OpTester* t) {
    t->SetInput<float>("X", "x", {2, 37, 3, 5}, RandomFloats(2 * 37 * 15, 9, -9.f, 9.f));
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 1);
  };
  ExpectX86MatchesHost("softmax", channels, {"out"}, "[2, 37, 3, 5] axis 1", 1e-5f);
}

// A channel softmax of an NHWC map with fewer than 16 channels (a
// segmentation head's 2 classes): rows shorter than a vector, 16 pixels at a
// time plus a tail (7 x 9 = 63 pixels, 3 x 3 = 9).
TEST(X86Softmax, FewChannelsMatchHost) {
  for (const std::vector<int64_t>& d : std::vector<std::vector<int64_t>>{
           {1, 2, 7, 9}, {2, 5, 3, 3}, {1, 15, 4, 5}, {3, 1, 2, 3}}) {
    auto setup = [d](OpTester* t) {
      t->SetInput<float>("X", "x", d, RandomFloats(Product(DDim(d)), 10, -12.f, 12.f));
      t->SetOutput("Out", "out");
      t->SetAttr("axis", 1);
    };
    ExpectX86MatchesHost("softmax", setup, {"out"}, DimsToString(DDim(d)) + " axis 1", 1e-5f);
  }
}

TEST(X86Concat, EveryAxisMatchesHost) {
  for (int axis : {0, 1, 2, -1}) {
    auto setup = [axis](OpTester* t) {
      for (int i = 0; i < 3; ++i) {
        DDim d{2, 3, 4, 5};
        d[axis < 0 ? 3 : axis] = i + 1;
        t->SetInput<float>("X", "x" + std::to_string(i), d, RandomFloats(Product(d), i));
      }
      t->SetOutput("Out", "out");
      t->SetAttr("axis", axis);
    };
    ExpectX86MatchesHost("concat", setup, {"out"}, "axis " + std::to_string(axis), 0.f);
  }
}

// Inputs nearest-upscaled into the concat (input_upscale, set by
// concat_upscale_fuse_pass): x86's one NHWC loop equals the host kernel.
TEST(X86Concat, UpscaledInputsMatchHost) {
  for (int threads : {1, 2}) {
    auto setup = [](OpTester* t) {
      t->SetInput<float>("X", "a", {2, 3, 2, 3}, RandomFloats(36, 1));
      t->SetInput<float>("X", "b", {2, 5, 4, 6}, RandomFloats(240, 2));
      t->SetInput<float>("X", "c", {2, 2, 8, 12}, RandomFloats(384, 3));
      t->SetOutput("Out", "out");
      t->SetAttr("axis", 1);
      t->SetAttr("input_upscale", std::vector<int>{4, 2, 1});
    };
    ExpectX86MatchesHost("concat", setup, {"out"}, std::to_string(threads) + " threads", 0.f,
                         threads);
  }
}

// Channel counts with whole vectors and a tail (24 = 16 + 8 floats; 40 =
// 32 + 8 levels), factors 1, 2, 4 and 8 (PP-OCR det's FPN concat), two
// samples: the float join equals the host kernel, the levels join equals
// the host output quantized (both rounding rules).
void WideUpscaledConcat(OpTester* t) {
  const std::vector<int64_t> channels{24, 40, 17, 24};
  const std::vector<int> factor{1, 2, 4, 8};
  for (size_t i = 0; i < channels.size(); ++i) {
    const DDim d{2, channels[i], 16 / factor[i], 24 / factor[i]};
    t->SetInput<float>("X", "x" + std::to_string(i), d,
                       RandomFloats(Product(d), 20 + i, -3.f, 3.f));
  }
  t->SetOutput("Out", "out");
  t->SetAttr("axis", 1);
  t->SetAttr("input_upscale", factor);
}

TEST(X86Concat, WideUpscaledInputsMatchHost) {
  ExpectX86MatchesHost("concat", WideUpscaledConcat, {"out"}, "wide", 0.f);
}

TEST(X86Concat, WideUpscaledLevelsEqualTheQuantizedHost) {
  for (int round_type : {0, 1}) {
    x86_test::ExpectX86LevelsMatchQuantizedHost("concat", WideUpscaledConcat,
                                                "concat/levels_out/x86/int8/NHWC", 2.5f,
                                                round_type,
                                                "round_type " + std::to_string(round_type));
  }
}

TEST(X86Concat, UpscaleOnAnotherAxisIsAnError) {
  OpTester t("concat");
  t.SetInput<float>("X", "a", {1, 2, 2, 3}, RandomFloats(12, 1));
  t.SetOutput("Out", "out");
  t.SetAttr("axis", 2);
  t.SetAttr("input_upscale", std::vector<int>{2});
  Status s = t.Run(TargetType::kX86);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("input_upscale"), std::string::npos) << s.ToString();
}

TEST(X86Fc, MatchesHostWithBiasAndActivations) {
  for (const std::string act : {"", "relu"}) {
    for (bool fused_sigmoid : {false, true}) {
      auto setup = [&](OpTester* t) {
        t->SetInput<float>("Input", "x", {3, 4, 5}, RandomFloats(60, 1));
        t->SetInput<float>("W", "w", {20, 7}, RandomFloats(140, 2));
        t->SetInput<float>("Bias", "b", {7}, RandomFloats(7, 3));
        t->SetOutput("Out", "out");
        t->SetAttr("in_num_col_dims", 1);
        t->SetAttr("activation_type", act);
        if (fused_sigmoid) t->SetAttr("fuse_activation", std::string("sigmoid"));
      };
      ExpectX86MatchesHost("fc", setup, {"out"}, "fc " + act + (fused_sigmoid ? " sigmoid" : ""),
                           1e-5f);
    }
  }
}

// One row (the batch-1 fc the own GEMV takes on AVX-512 CPUs): column
// counts with a 16-column tail and beyond one 256-column block, relu and a
// fused activation after it.
TEST(X86Fc, OneRowMatchesHost) {
  for (int64_t n : {6, 300}) {
    for (const std::string act : {"", "relu"}) {
      auto setup = [&](OpTester* t) {
        t->SetInput<float>("Input", "x", {1, 64}, RandomFloats(64, 1));
        t->SetInput<float>("W", "w", {64, n}, RandomFloats(64 * n, 2));
        t->SetInput<float>("Bias", "b", {n}, RandomFloats(n, 3));
        t->SetOutput("Out", "out");
        t->SetAttr("in_num_col_dims", 1);
        t->SetAttr("activation_type", act);
        if (n == 6) t->SetAttr("fuse_activation", std::string("sigmoid"));
      };
      ExpectX86MatchesHost("fc", setup, {"out"}, "fc 1 row n " + std::to_string(n) + " " + act,
                           1e-5f);
    }
  }
}

}  // namespace
}  // namespace lite
