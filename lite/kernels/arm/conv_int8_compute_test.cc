// arm int8 conv2d / depthwise_conv2d (conv_int8_compute.cc) against the
// host int8 kernel (the exact float simulation), in each of the four
// bindings: float output within 1e-4 of the largest host value; levels
// output against the host output quantized by x86's rule (x * 127 /
// Output_scale, nearest even, clipped), every level within one of it and
// at most 1% off by one (XNNPACK's single-product requantization and
// int32 bias, float summation order). Also checks which implementation
// ran (XNNPACK's qc8 for clamp activations with levels out, the own int8
// GEMM or depthwise loop for other 1x1 and depthwise convs, XNNPACK's f32
// otherwise), so a kernel that silently took the float path fails.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/backends/arm/int8_depthwise.h"
#include "lite/backends/arm/int8_gemm.h"
#include "lite/base/quant_math.h"
#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

const KernelDef* FindDef(const std::string& op, TargetType target, const std::string& alias) {
  for (const KernelDef* d : KernelRegistry::Global().Find(op)) {
    if (d->place.target == target && d->place.precision == PrecisionType::kInt8 &&
        d->alias == alias) {
      return d;
    }
  }
  return nullptr;
}

struct Case {
  std::string what;
  std::string op = "conv2d";
  int n = 1, c = 16, h = 11, w = 9, cout = 24, k = 3, groups = 1, stride = 1, pad = 1;
  bool bias = true, residual = false;
  std::string act;
  int round_type = 1;
  std::string in_dtype = "float32", out_dtype = "float32";
  std::string expect_op;  // what impl_info must name
  // Levels out: the largest share of levels one off the host's.
  double off_by_one_share = 0.01;
};

constexpr float kInScale = 1.7f, kOutScale = 3.1f;

// What a float-form conv with one group runs: the SDOT GEMM where the CPU
// has it, else XNNPACK's f32 conv.
std::string DenseFloatForm() {
  return lite::arm::Int8Gemm::CpuForm() == lite::arm::Int8Gemm::Form::kDot
             ? "lite:int8_gemm_dot"
             : "xnnpack:convolution2d_nhwc_f32";
}

// Host desc (float in and out) or arm desc (with the levels attributes).
void SetUp(const Case& k, bool arm, OpTester* t) {
  const int64_t nin = int64_t{k.n} * k.c * k.h * k.w;
  std::vector<float> x = RandomFloats(nin, 11, -2.f, 2.f);
  if (k.in_dtype == "uint8") {
    for (float& v : x) v = std::max(v, 0.f);  // a relu producer's values
  }
  const std::vector<int64_t> in_dims{k.n, k.c, k.h, k.w};
  if (arm && k.in_dtype != "float32") {
    // The producer's levels: the op's rule, as the host kernel quantizes.
    std::vector<int8_t> q(static_cast<size_t>(nin));
    operators::quant::QuantizeToInt8(x.data(), q.data(), nin, kInScale, 127, k.round_type);
    std::vector<float> nhwc(x.size());
    // NHWC order here (arm_test::InputsToNhwc handles float inputs only).
    for (int64_t i = 0; i < nin; ++i) nhwc[i] = q[i];
    kernels::arm::PermuteNchw(std::vector<float>(nhwc).data(), nhwc.data(), k.n, k.c,
                              int64_t{k.h} * k.w, true);
    if (k.in_dtype == "uint8") {
      t->SetInput<uint8_t>("Input", "x", in_dims,
                           std::vector<uint8_t>(nhwc.begin(), nhwc.end()));
    } else {
      t->SetInput<int8_t>("Input", "x", in_dims, std::vector<int8_t>(nhwc.begin(), nhwc.end()));
    }
  } else {
    t->SetInput<float>("Input", "x", in_dims, x);
  }
  const int64_t nf = int64_t{k.cout} * (k.c / k.groups) * k.k * k.k;
  std::vector<int8_t> f(static_cast<size_t>(nf));
  const std::vector<float> r = RandomFloats(nf, 5, -127.f, 127.f);
  for (int64_t i = 0; i < nf; ++i) f[i] = static_cast<int8_t>(std::lround(r[i]));
  t->SetInput<int8_t>("Filter", "f", {k.cout, k.c / k.groups, k.k, k.k}, f);
  std::vector<float> scales = RandomFloats(k.cout, 7, 0.05f, 0.6f);
  scales[0] = -scales[0];  // batch norm with a negative scale folded
  if (k.cout > 2) scales[2] = 0.f;  // an all-zero channel
  if (k.bias) t->SetInput<float>("Bias", "b", {k.cout}, RandomFloats(k.cout, 3));
  const int oh = (k.h + 2 * k.pad - k.k) / k.stride + 1, ow = (k.w + 2 * k.pad - k.k) / k.stride + 1;
  if (k.residual) {
    t->SetInput<float>("ResidualData", "res", {k.n, k.cout, oh, ow},
                       RandomFloats(int64_t{k.n} * k.cout * oh * ow, 17, -2.f, 2.f));
  }
  t->SetOutput("Output", "out");
  t->SetAttr("strides", std::vector<int>{k.stride, k.stride});
  t->SetAttr("paddings", std::vector<int>{k.pad, k.pad});
  t->SetAttr("dilations", std::vector<int>{1, 1});
  t->SetAttr("groups", k.groups);
  t->SetAttr("enable_int8", true);
  t->SetAttr("Input_scale", kInScale);
  t->SetAttr("Filter_scales", scales);
  t->SetAttr("quant_round_type", k.round_type);
  if (!k.act.empty()) {
    t->SetAttr("fuse_activation", k.act);
    t->SetAttr("fuse_alpha", 6.f);  // relu6's threshold, hard_swish's threshold
    t->SetAttr("fuse_beta", 6.f);   // hard_swish's scale
    t->SetAttr("fuse_gamma", 3.f);  // hard_swish's offset
  }
  if (arm) {
    t->SetAttr("Input_dtype", k.in_dtype);
    t->SetAttr("Output_dtype", k.out_dtype);
    if (k.out_dtype != "float32") {
      t->SetAttr("Output_scale", kOutScale);
      t->SetAttr("Output_round_type", k.round_type);
    }
  }
}

void Check(const Case& k) {
  SCOPED_TRACE(k.what);
  const bool lin = k.in_dtype != "float32", lout = k.out_dtype != "float32";
  const std::string alias = lin && lout ? "levels_in_out" : lin ? "levels_in" : lout ? "levels_out" : "def";
  const KernelDef* arm_def = FindDef(k.op, TargetType::kARM, alias);
  const KernelDef* host_def = FindDef(k.op, TargetType::kHost, "def");
  ASSERT_NE(arm_def, nullptr);
  ASSERT_NE(host_def, nullptr);
  OpTester host(k.op), arm(k.op);
  SetUp(k, false, &host);
  SetUp(k, true, &arm);
  ASSERT_TRUE(arm_def->Accepts(*arm.desc(), [](const std::string&) { return std::vector<int64_t>(); }));
  if (!lin) {
    arm_test::InputsToNhwc(&arm);  // Input (float) and ResidualData
  } else if (k.residual) {
    Tensor* r = arm.scope()->Var("res")->GetMutableTensor();
    const DDim rd = r->dims();
    std::vector<float> v(r->data<float>(), r->data<float>() + r->numel());
    kernels::arm::PermuteNchw(v.data(), r->mutable_data<float>(), rd[0], rd[1], rd[2] * rd[3],
                              true);
  }
  for (int run = 0; run < 2; ++run) {  // the second run reuses the operator
    Status hs = host.RunKernel(host_def);
    ASSERT_TRUE(hs.ok()) << hs.ToString();
    Status as = arm.RunKernel(arm_def);
    ASSERT_TRUE(as.ok()) << as.ToString();
  }
  EXPECT_NE(arm.kernel()->impl_info().find(k.expect_op), std::string::npos)
      << arm.kernel()->impl_info();
  const std::vector<float> ref = host.GetData<float>("out");
  const DDim& d = arm.Get("out").dims();
  ASSERT_EQ(d, host.Get("out").dims());
  std::vector<float> got(ref.size());
  const Tensor& out = arm.Get("out");
  for (size_t i = 0; i < got.size(); ++i) {
    got[i] = !lout ? out.data<float>()[i]
             : k.out_dtype == "uint8" ? out.data<uint8_t>()[i] : out.data<int8_t>()[i];
  }
  std::vector<float> nchw(got.size());
  kernels::arm::PermuteNchw(got.data(), nchw.data(), d[0], d[1], d[2] * d[3], false);
  float largest = 0.f;
  for (float v : ref) largest = std::max(largest, std::fabs(v));
  ASSERT_GT(largest, 0.f);
  int off_by_one = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (!lout) {
      ASSERT_NEAR(nchw[i], ref[i], 1e-4f * largest) << "at " << i;
      continue;
    }
    const float lo = k.round_type == 0 ? -128.f : -127.f;
    const float want = std::min(
        std::max(operators::quant::RoundTiesToEven(ref[i] * 127.f / kOutScale), lo), 127.f);
    ASSERT_LE(std::fabs(nchw[i] - want), 1.f) << "at " << i << ": host " << ref[i];
    off_by_one += nchw[i] != want;
  }
  EXPECT_LE(off_by_one, static_cast<int>(ref.size() * k.off_by_one_share)) << "of " << ref.size();
  if (lout) std::printf("%s: %d of %zu levels off by one\n", k.what.c_str(), off_by_one, ref.size());
}

TEST(ArmConvInt8, FloatOutputMatchesHostSimulation) {
  Case k;
  k.what = "3x3 float in, float out";
  k.expect_op = DenseFloatForm();
  Check(k);
  k.what = "levels in, hard_swish";
  k.in_dtype = "int8";
  k.act = "hard_swish";
  Check(k);
  k.what = "residual, relu, round_type 0";
  k.in_dtype = "float32";
  k.act = "relu";
  k.residual = true;
  k.round_type = 0;
  Check(k);
}

TEST(ArmConvInt8, LevelsOutputRunsQc8) {
  Case k;
  k.out_dtype = "int8";
  k.expect_op = "convolution2d_nhwc_qc8";
  k.what = "3x3 dense";
  Check(k);
  k.what = "1x1, batch 2, no bias, round_type 0";
  k.k = 1;
  k.pad = 0;
  k.n = 2;
  k.bias = false;
  k.round_type = 0;
  Check(k);
  k = Case();
  k.out_dtype = "uint8";
  k.expect_op = "convolution2d_nhwc_qc8";
  k.act = "relu";
  k.what = "relu to uint8, int8 levels in";
  k.in_dtype = "int8";
  Check(k);
  k.what = "relu6, uint8 levels in";
  k.act = "relu6";
  k.in_dtype = "uint8";
  Check(k);
  k = Case();
  k.op = "depthwise_conv2d";
  k.c = k.cout = k.groups = 24;
  k.stride = 2;
  k.out_dtype = "int8";
  k.expect_op = "convolution2d_nhwc_qc8";
  k.what = "depthwise 3x3 stride 2";
  Check(k);
  k.what = "grouped";
  k.op = "conv2d";
  k.groups = 4;
  k.stride = 1;
  Check(k);
}

// hard_swish with levels out: qc8 to levels of the pre-activation value,
// then the table. That value is rounded once more than in the simulation
// (to (3 + Output_scale * 128 / 127) / 255 here, at most 0.74 output levels
// times hard_swish's slope / 1.5), so levels may be one off, never two; the
// share measured here is about 1 in 8 (printed), the bound twice that.
TEST(ArmConvInt8, HardSwishToLevelsRunsQc8AndATable) {
  Case k;
  k.out_dtype = "int8";
  k.expect_op = "convolution2d_nhwc_qc8";
  k.act = "hard_swish";
  k.off_by_one_share = 0.25;
  k.what = "hard_swish to levels";
  Check(k);
  k.what = "hard_swish, levels in, depthwise, round_type 0";
  k.in_dtype = "int8";
  k.op = "depthwise_conv2d";
  k.c = k.cout = k.groups = 24;
  k.round_type = 0;
  Check(k);
}

TEST(ArmConvInt8, LevelsOutputOutsideTheClampTakesTheFloatArithmetic) {
  Case k;
  k.out_dtype = "int8";
  k.expect_op = DenseFloatForm();
  k.what = "residual to levels";
  k.residual = true;
  k.in_dtype = "int8";
  Check(k);
}

// The float form of convs with one group (1x1 directly, others on im2col
// rows): on CPUs with SDOT exact int32 sums of levels (lite/backends/arm/int8_gemm.h, bit
// for bit against its scalar definition in int8_gemm_test), then the float
// form's epilogue; elsewhere XNNPACK's f32 conv. Channel counts with
// remainders (13 in, 11 out) and batch 2.
TEST(ArmConvInt8, Float1x1RunsTheInt8GemmWithSdot) {
  Case k;
  k.k = 1;
  k.pad = 0;
  k.expect_op = DenseFloatForm();
  k.what = "1x1 float in, float out";
  Check(k);
  k.what = "1x1 levels in, hard_swish";
  k.in_dtype = "int8";
  k.act = "hard_swish";
  Check(k);
  k.what = "1x1 residual, relu, round_type 0, levels out";
  k.act = "relu";
  k.residual = true;
  k.round_type = 0;
  k.out_dtype = "int8";
  Check(k);
  k.what = "1x1 uint8 levels in, relu6, remainders, batch 2";
  k.residual = false;
  k.in_dtype = "uint8";
  k.out_dtype = "float32";
  k.act = "relu6";
  k.round_type = 1;
  k.c = 13;
  k.cout = 11;
  k.n = 2;
  Check(k);
  k.what = "1x1 residual, hard_swish, float out";
  k.in_dtype = "float32";
  k.act = "hard_swish";
  k.residual = true;
  Check(k);
  k.what = "3x3 stride 2 (im2col rows), 13 channels, levels in, float out";
  k.k = 3;
  k.pad = 1;
  k.stride = 2;
  k.residual = false;
  k.in_dtype = "int8";
  Check(k);
  k.what = "1x1 stride 2 (im2col rows), residual, levels out";
  k.k = 1;
  k.pad = 0;
  k.residual = true;
  k.out_dtype = "int8";
  Check(k);
}

// The float form of depthwise convs: on aarch64 exact int32 sums of levels
// (lite/backends/arm/int8_depthwise.h, bit for bit against its scalar
// definition in int8_depthwise_test), then the float form's epilogue;
// elsewhere XNNPACK's f32 conv.
TEST(ArmConvInt8, FloatDepthwiseRunsTheInt8LoopOnAarch64) {
  Case k;
  k.op = "depthwise_conv2d";
  k.c = k.cout = k.groups = 24;
  const lite::arm::Int8Depthwise::Form form = lite::arm::Int8Depthwise::CpuForm();
  // The SDOT form takes windows 4 or more taps wide (here 5x5).
  const std::string narrow = form == lite::arm::Int8Depthwise::Form::kScalar
                                 ? "xnnpack:convolution2d_nhwc_f32"
                                 : "lite:int8_dw_neon";
  const std::string wide =
      form == lite::arm::Int8Depthwise::Form::kDot ? "lite:int8_dw_dot" : narrow;
  k.expect_op = narrow;
  k.what = "depthwise 3x3, levels in, hard_swish, float out";
  k.in_dtype = "int8";
  k.act = "hard_swish";
  Check(k);
  k.what = "depthwise 5x5 stride 2, float in, residual, relu, levels out";
  k.in_dtype = "float32";
  k.k = 5;
  k.pad = 2;
  k.stride = 2;
  k.expect_op = wide;
  k.act = "relu";
  k.residual = true;
  k.out_dtype = "int8";
  Check(k);
  k.what = "depthwise 3x3, 13 channels, uint8 in, relu6, batch 2, no bias";
  k.c = k.cout = k.groups = 13;
  k.k = 3;
  k.pad = 1;
  k.stride = 1;
  k.expect_op = narrow;
  k.residual = false;
  k.out_dtype = "float32";
  k.in_dtype = "uint8";
  k.act = "relu6";
  k.n = 2;
  k.bias = false;
  Check(k);
}

}  // namespace
}  // namespace lite
