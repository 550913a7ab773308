#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

std::vector<float> Data(int64_t n, float seed) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = std::sin(seed + 0.37f * i) * 2.f;
  return v;
}

// Naive numpy-style matmul of >= 2-D operands with the last two dims
// optionally transposed and batch dims broadcast. Returns out dims in *od.
std::vector<float> RefMatmul(const std::vector<float>& x, const DDim& xd, bool tx,
                             const std::vector<float>& y, const DDim& yd, bool ty,
                             DDim* od) {
  const size_t r = std::max(xd.size(), yd.size());
  DDim bx(r - 2, 1), by(r - 2, 1);
  for (size_t i = 0; i + 2 < xd.size(); ++i) bx[r - xd.size() + i] = xd[i];
  for (size_t i = 0; i + 2 < yd.size(); ++i) by[r - yd.size() + i] = yd[i];
  const int64_t xr = xd[xd.size() - 2], xc = xd.back();
  const int64_t yr = yd[yd.size() - 2], yc = yd.back();
  const int64_t M = tx ? xc : xr, K = tx ? xr : xc, N = ty ? yr : yc;
  od->clear();
  for (size_t i = 0; i < r - 2; ++i) od->push_back(std::max(bx[i], by[i]));
  const int64_t batches = Product(*od);
  od->push_back(M);
  od->push_back(N);
  std::vector<float> out(batches * M * N);
  for (int64_t b = 0; b < batches; ++b) {
    int64_t rem = b, xb = 0, yb = 0, xs = 1, ys = 1;
    for (size_t i = r - 2; i-- > 0;) {
      const int64_t ob = (*od)[i];
      const int64_t c = rem % ob;
      rem /= ob;
      xb += (bx[i] == 1 ? 0 : c) * xs;
      yb += (by[i] == 1 ? 0 : c) * ys;
      xs *= bx[i];
      ys *= by[i];
    }
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) {
          const float a = tx ? x[xb * xr * xc + k * xc + i] : x[xb * xr * xc + i * xc + k];
          const float c = ty ? y[yb * yr * yc + j * yc + k] : y[yb * yr * yc + k * yc + j];
          acc += double(a) * c;
        }
        out[(b * M + i) * N + j] = static_cast<float>(acc);
      }
    }
  }
  return out;
}

struct MMCase {
  DDim x, y;
  bool tx, ty;
  DDim expect_out;
  // Dims the reference uses (1-D operands promoted, v1 flat batches folded).
  DDim ref_x, ref_y;
  bool ref_tx, ref_ty;
};

void RunMatmulCase(const std::string& op, const MMCase& c, float alpha = 1.f) {
  const auto x = Data(Product(c.x), 0.1f);
  const auto y = Data(Product(c.y), 1.3f);
  OpTester t(op);
  t.SetInput<float>("X", "x", c.x, x);
  t.SetInput<float>("Y", "y", c.y, y);
  t.SetOutput("Out", "out");
  if (op == "matmul") {
    t.SetAttr("transpose_X", c.tx);
    t.SetAttr("transpose_Y", c.ty);
    if (alpha != 1.f) t.SetAttr("alpha", alpha);
  } else {
    t.SetAttr("trans_x", c.tx);
    t.SetAttr("trans_y", c.ty);
  }
  const std::string what = op + " x=" + DimsToString(c.x) + " y=" + DimsToString(c.y) +
                           " tx=" + std::to_string(c.tx) + " ty=" + std::to_string(c.ty);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << what << ": " << s.ToString();
  EXPECT_EQ(t.Get("out").dims(), c.expect_out) << what;
  DDim od;
  auto ref = RefMatmul(x, c.ref_x, c.ref_tx, y, c.ref_y, c.ref_ty, &od);
  auto out = t.GetData<float>("out");
  ASSERT_EQ(out.size(), ref.size()) << what;
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(out[i], alpha * ref[i], 1e-4) << what << " i=" << i;
  }
}

MMCase Same(DDim x, DDim y, bool tx, bool ty, DDim out) {
  return {x, y, tx, ty, out, x, y, tx, ty};
}

TEST(MatMul, TwoDTransposesAndAlpha) {
  for (const char* op : {"matmul", "matmul_v2"}) {
    RunMatmulCase(op, Same({3, 4}, {4, 5}, false, false, {3, 5}));
    RunMatmulCase(op, Same({4, 3}, {4, 5}, true, false, {3, 5}));
    RunMatmulCase(op, Same({3, 4}, {5, 4}, false, true, {3, 5}));
    RunMatmulCase(op, Same({4, 3}, {5, 4}, true, true, {3, 5}));
  }
  RunMatmulCase("matmul", Same({3, 4}, {4, 5}, false, false, {3, 5}), 0.125f);
  RunMatmulCase("matmul", Same({4, 3}, {5, 4}, true, true, {3, 5}), -2.f);
}

TEST(MatMul, V1Batched) {
  RunMatmulCase("matmul", Same({2, 3, 4}, {2, 4, 5}, false, false, {2, 3, 5}));
  RunMatmulCase("matmul", Same({2, 4, 3}, {2, 5, 4}, true, true, {2, 3, 5}));
  RunMatmulCase("matmul", Same({2, 3, 4}, {4, 5}, false, false, {2, 3, 5}));   // fold
  RunMatmulCase("matmul", Same({2, 3, 4}, {5, 4}, false, true, {2, 3, 5}));
  RunMatmulCase("matmul", Same({2, 4, 3}, {4, 5}, true, false, {2, 3, 5}));
  RunMatmulCase("matmul", Same({3, 4}, {2, 4, 5}, false, false, {2, 3, 5}));
  RunMatmulCase("matmul", Same({2, 2, 3, 4}, {2, 2, 4, 5}, false, false, {2, 2, 3, 5}));
  RunMatmulCase("matmul", Same({2, 1, 3, 4}, {3, 4, 5}, false, false, {2, 3, 3, 5}));
  // Paddle v1 pairs batches by flat index when batch sizes agree: X's dims.
  RunMatmulCase("matmul", {{2, 3, 3, 4}, {6, 4, 5}, false, false, {2, 3, 3, 5},
                           {6, 3, 4}, {6, 4, 5}, false, false});
}

TEST(MatMul, V1OneD) {
  // [K] x [K] -> [1]
  RunMatmulCase("matmul", {{4}, {4}, false, false, {1}, {1, 4}, {4, 1}, false, false});
  // [K] x [K, N] -> [N]
  RunMatmulCase("matmul", {{4}, {4, 5}, false, false, {5}, {1, 4}, {4, 5}, false, false});
  // [B, M, K] x [K] -> [B, M]
  RunMatmulCase("matmul", {{2, 3, 4}, {4}, false, false, {2, 3}, {2, 3, 4}, {4, 1}, false, false});
  // [K] x [B, K, N] -> [B, N]
  RunMatmulCase("matmul", {{4}, {2, 4, 5}, false, false, {2, 5}, {1, 4}, {2, 4, 5}, false, false});
  // transpose_X on a vector: [D] is [1, D] transposed to [D, 1].
  RunMatmulCase("matmul", {{3}, {1, 5}, true, false, {3, 5}, {1, 3}, {1, 5}, true, false});
}

TEST(MatMulV2, BatchBroadcasting) {
  RunMatmulCase("matmul_v2", Same({2, 3, 4}, {2, 4, 5}, false, false, {2, 3, 5}));
  RunMatmulCase("matmul_v2", Same({2, 1, 3, 4}, {5, 4, 6}, false, false, {2, 5, 3, 6}));
  RunMatmulCase("matmul_v2", Same({1, 3, 4}, {2, 4, 5}, false, false, {2, 3, 5}));
  RunMatmulCase("matmul_v2", Same({2, 4, 3}, {4, 5}, true, false, {2, 3, 5}));
  RunMatmulCase("matmul_v2", Same({2, 3, 4}, {4, 5}, false, false, {2, 3, 5}));  // fold
  RunMatmulCase("matmul_v2", Same({3, 4}, {2, 2, 5, 4}, false, true, {2, 2, 3, 5}));
  RunMatmulCase("matmul_v2", Same({2, 1, 4, 3}, {1, 3, 5, 4}, true, true, {2, 3, 3, 5}));
}

TEST(Bmm, BatchesOfThreeDOnly) {
  RunMatmulCase("bmm", Same({2, 3, 4}, {2, 4, 5}, false, false, {2, 3, 5}));
  RunMatmulCase("bmm", Same({3, 1, 7}, {3, 7, 2}, false, false, {3, 1, 2}));
  for (const auto& dims : {std::pair<DDim, DDim>{{1, 3, 4}, {2, 4, 5}},
                           std::pair<DDim, DDim>{{3, 4}, {4, 5}}}) {
    OpTester t("bmm");
    t.SetInput<float>("X", "x", dims.first, std::vector<float>(Product(dims.first), 1.f));
    t.SetInput<float>("Y", "y", dims.second, std::vector<float>(Product(dims.second), 1.f));
    t.SetOutput("Out", "out");
    Status s = t.Run();
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("3-D with the same batch"), std::string::npos) << s.message();
  }
}

TEST(MatMulV2, OneD) {
  RunMatmulCase("matmul_v2", {{4}, {4}, false, false, {1}, {1, 4}, {4, 1}, false, false});
  RunMatmulCase("matmul_v2", {{4}, {4}, true, true, {1}, {1, 4}, {4, 1}, false, false});
  RunMatmulCase("matmul_v2", {{4}, {4, 5}, false, false, {5}, {1, 4}, {4, 5}, false, false});
  RunMatmulCase("matmul_v2", {{4}, {5, 4}, true, true, {5}, {1, 4}, {5, 4}, false, true});
  RunMatmulCase("matmul_v2", {{4}, {2, 4, 5}, false, false, {2, 5}, {1, 4}, {2, 4, 5}, false, false});
  RunMatmulCase("matmul_v2", {{2, 3, 4}, {4}, false, false, {2, 3}, {2, 3, 4}, {4, 1}, false, false});
  RunMatmulCase("matmul_v2", {{2, 4, 3}, {4}, true, false, {2, 3}, {2, 4, 3}, {4, 1}, true, false});
}

Status RunMM(const std::string& op, const DDim& xd, const DDim& yd,
             const std::map<std::string, int>& int_attrs = {}) {
  OpTester t(op);
  t.SetInput<float>("X", "x", xd, std::vector<float>(Product(xd), 1.f));
  t.SetInput<float>("Y", "y", yd, std::vector<float>(Product(yd), 1.f));
  t.SetOutput("Out", "out");
  for (const auto& kv : int_attrs) t.SetAttr(kv.first, kv.second);
  return t.Run();
}

TEST(MatMul, Errors) {
  EXPECT_FALSE(RunMM("matmul", {3, 4}, {5, 6}).ok());
  EXPECT_FALSE(RunMM("matmul_v2", {3, 4}, {5, 6}).ok());
  EXPECT_FALSE(RunMM("matmul_v2", {2, 3, 4}, {3, 4, 5}).ok());      // batch 2 vs 3
  EXPECT_FALSE(RunMM("matmul", {2, 3, 4}, {3, 4, 5}).ok());
  EXPECT_EQ(RunMM("matmul", {3, 4}, {4, 5}, {{"head_number", 2}}).code(),
            StatusCode::kUnimplemented);
  EXPECT_TRUE(RunMM("matmul", {3, 4}, {4, 5}, {{"head_number", 1}}).ok());
}

TEST(MatMul, FusedActivation) {
  OpTester t("matmul_v2");
  t.SetInput<float>("X", "x", {2, 2}, {1, -2, 3, -4});
  t.SetInput<float>("Y", "y", {2, 2}, {1, 0, 0, 1});
  t.SetOutput("Out", "out");
  t.SetAttr("fuse_activation", std::string("relu"));
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<float>("out"), (std::vector<float>{1, 0, 3, 0}));
}

// ---- mul ----

void RunMul(const DDim& xd, const DDim& yd, int xn, int yn, const DDim& expect,
            const DDim& x2, const DDim& y2, bool set_attrs = true) {
  const auto x = Data(Product(xd), 0.5f);
  const auto y = Data(Product(yd), 2.5f);
  OpTester t("mul");
  t.SetInput<float>("X", "x", xd, x);
  t.SetInput<float>("Y", "y", yd, y);
  t.SetOutput("Out", "out");
  if (set_attrs) {
    t.SetAttr("x_num_col_dims", xn);
    t.SetAttr("y_num_col_dims", yn);
  }
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), expect);
  DDim od;
  auto ref = RefMatmul(x, x2, false, y, y2, false, &od);
  auto out = t.GetData<float>("out");
  ASSERT_EQ(out.size(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(out[i], ref[i], 1e-4) << i;
}

TEST(Mul, NumColDims) {
  RunMul({3, 4}, {4, 5}, 1, 1, {3, 5}, {3, 4}, {4, 5}, false);  // defaults
  RunMul({2, 3, 4}, {4, 5}, 2, 1, {2, 3, 5}, {6, 4}, {4, 5});
  RunMul({2, 3, 4}, {12, 5}, 1, 1, {2, 5}, {2, 12}, {12, 5});
  RunMul({2, 3, 4}, {2, 2, 3}, 2, 2, {2, 3, 3}, {6, 4}, {4, 3});
  RunMul({2, 3, 2, 2}, {4, 2, 3}, 2, 1, {2, 3, 2, 3}, {6, 4}, {4, 6});
}

TEST(Mul, Errors) {
  OpTester t("mul");
  t.SetInput<float>("X", "x", {2, 3, 4}, std::vector<float>(24, 1.f));
  t.SetInput<float>("Y", "y", {4, 5}, std::vector<float>(20, 1.f));
  t.SetOutput("Out", "out");
  t.SetAttr("x_num_col_dims", 1);  // width 12 vs height 4
  EXPECT_FALSE(t.Run().ok());
  OpTester u("mul");
  u.SetInput<float>("X", "x", {2, 3}, std::vector<float>(6, 1.f));
  u.SetInput<float>("Y", "y", {3, 5}, std::vector<float>(15, 1.f));
  u.SetOutput("Out", "out");
  u.SetAttr("x_num_col_dims", 2);  // rank must exceed it
  EXPECT_FALSE(u.Run().ok());
}

// ---- fc ----

TEST(Fc, BiasAndRelu) {
  const DDim in_d = {2, 3, 4};
  const auto in = Data(24, 0.2f);
  const auto w = Data(4 * 5, 1.1f);
  const auto bias = Data(5, 3.3f);
  for (int variant = 0; variant < 4; ++variant) {
    const bool with_bias = variant & 1;
    const bool relu = variant & 2;
    OpTester t("fc");
    t.SetInput<float>("Input", "in", in_d, in);
    t.SetInput<float>("W", "w", {4, 5}, w);
    if (with_bias) t.SetInput<float>("Bias", "b", {1, 5}, bias);
    t.SetOutput("Out", "out");
    t.SetAttr("in_num_col_dims", 2);
    if (relu) t.SetAttr("activation_type", std::string("relu"));
    ASSERT_TRUE(t.Run().ok()) << variant;
    EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3, 5}));
    DDim od;
    auto ref = RefMatmul(in, {6, 4}, false, w, {4, 5}, false, &od);
    auto out = t.GetData<float>("out");
    bool saw_clamped = false;
    for (size_t i = 0; i < ref.size(); ++i) {
      float r = ref[i] + (with_bias ? bias[i % 5] : 0.f);
      if (relu && r < 0) {
        r = 0;
        saw_clamped = true;
      }
      EXPECT_NEAR(out[i], r, 1e-4) << variant << " " << i;
    }
    if (relu) {
      EXPECT_TRUE(saw_clamped);
    }
  }
}

// Default in_num_col_dims (1) flattens [2,3,2,2] to [2, 12].
TEST(Fc, DefaultNumColDimsWithFusedActivation) {
  const auto in = Data(24, 0.7f);
  const auto w = Data(12 * 3, 0.9f);
  OpTester t("fc");
  t.SetInput<float>("Input", "in", {2, 3, 2, 2}, in);
  t.SetInput<float>("W", "w", {12, 3}, w);
  t.SetInput<float>("Bias", "b", {3}, {0.5f, -0.5f, 0.f});
  t.SetOutput("Out", "out");
  t.SetAttr("fuse_activation", std::string("leaky_relu"));
  t.SetAttr("fuse_alpha", 0.1f);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.Get("out").dims(), (DDim{2, 3}));
  DDim od;
  auto ref = RefMatmul(in, {2, 12}, false, w, {12, 3}, false, &od);
  const float b[3] = {0.5f, -0.5f, 0.f};
  auto out = t.GetData<float>("out");
  for (size_t i = 0; i < ref.size(); ++i) {
    const float r = ref[i] + b[i % 3];
    EXPECT_NEAR(out[i], r > 0 ? r : 0.1f * r, 1e-4) << i;
  }
}

Status RunFc(const DDim& in, const DDim& w, const DDim& bias,
             const std::string& act = "", bool padding = false) {
  OpTester t("fc");
  t.SetInput<float>("Input", "in", in, std::vector<float>(Product(in), 1.f));
  t.SetInput<float>("W", "w", w, std::vector<float>(Product(w), 1.f));
  if (!bias.empty()) t.SetInput<float>("Bias", "b", bias, std::vector<float>(Product(bias), 1.f));
  t.SetOutput("Out", "out");
  if (!act.empty()) t.SetAttr("activation_type", act);
  if (padding) t.SetAttr("padding_weights", true);
  return t.Run();
}

TEST(Fc, Errors) {
  EXPECT_FALSE(RunFc({2, 3, 2, 2}, {6, 3}, {}).ok());   // K 12 vs 6
  EXPECT_FALSE(RunFc({2, 4}, {4, 3}, {4}).ok());        // bias size
  EXPECT_FALSE(RunFc({2, 4}, {4, 3, 1}, {}).ok());      // W rank
  EXPECT_EQ(RunFc({2, 4}, {4, 3}, {3}, "tanh").code(), StatusCode::kUnimplemented);
  EXPECT_EQ(RunFc({2, 4}, {4, 3}, {3}, "", true).code(), StatusCode::kUnimplemented);
  EXPECT_TRUE(RunFc({2, 4}, {4, 3}, {3}, "relu").ok());
}

}  // namespace
}  // namespace lite
