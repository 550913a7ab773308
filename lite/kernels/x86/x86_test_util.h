// Shared by the x86 kernel tests: runs one op on the host kernel and on the
// x86 (oneDNN) kernel from identical setups and compares every output. x86
// kernels registered at layout NHWC get their rank-4 activations (every
// input but weights: W and params ending in Filter / Bias) permuted to NHWC,
// as layout_cast_pass would arrange, and their rank-4 outputs are permuted
// back before comparing.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace x86_test {

using Setup = std::function<void(OpTester*)>;

inline bool X86KernelIsNhwc(const std::string& op) {
  for (const KernelDef* d : KernelRegistry::Global().Find(op)) {
    if (d->place.target == TargetType::kX86) return d->place.layout == DataLayoutType::kNHWC;
  }
  return false;
}

// Permutes a rank-4 NCHW buffer to NHWC (to_nhwc) or back.
inline std::vector<float> Permute(const std::vector<float>& v, const DDim& d, bool to_nhwc) {
  std::vector<float> out(v.size());
  const int64_t n = d[0], c = d[1], hw = d[2] * d[3];
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) {
        const int64_t nchw = (i * c + ch) * hw + p, nhwc = (i * hw + p) * c + ch;
        if (to_nhwc) out[nhwc] = v[nchw];
        else out[nchw] = v[nhwc];
      }
  return out;
}

// Puts the rank-4 activation inputs of `t` in the x86 kernel's layout.
inline void InputsToX86Layout(OpTester* t) {
  const std::string op = t->desc()->Type();
  if (!X86KernelIsNhwc(op)) return;
  for (const auto& kv : t->desc()->inputs()) {
    const std::string& param = kv.first;
    const auto ends_with = [&param](const std::string& tail) {
      return param.size() >= tail.size() &&
             param.compare(param.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends_with("Filter") || ends_with("Bias") || param == "W") continue;  // weights
    for (const auto& name : kv.second) {
      Tensor* x = t->scope()->Var(name)->GetMutableTensor();
      if (x->dims().size() != 4) continue;
      std::vector<float> v(x->data<float>(), x->data<float>() + x->numel());
      v = Permute(v, x->dims(), true);
      std::copy(v.begin(), v.end(), x->mutable_data<float>());
    }
  }
}

// Whether the x86 kernel of `op` writes output var `name` of `t` in NHWC:
// an NHWC kernel that binds that output to no other layout.
inline bool X86WritesNhwc(const OpTester& t, const std::string& op, const std::string& name) {
  if (!X86KernelIsNhwc(op)) return false;
  for (const KernelDef* d : KernelRegistry::Global().Find(op)) {
    if (d->place.target != TargetType::kX86) continue;
    for (const auto& kv : t.desc().outputs()) {
      for (const auto& var : kv.second) {
        if (var == name) return d->OutputPlace(kv.first).layout == DataLayoutType::kNHWC;
      }
    }
    return true;
  }
  return false;
}

// Output `name` of an x86 run, in NCHW order.
inline std::vector<float> X86Output(const OpTester& t, const std::string& op,
                                    const std::string& name) {
  auto v = t.GetData<float>(name);
  const DDim& d = t.Get(name).dims();
  return X86WritesNhwc(t, op, name) && d.size() == 4 ? Permute(v, d, false) : v;
}

// Runs `op` set up by `setup` on host and on x86 (`threads` threads each,
// `runs` times: later runs exercise the cached primitive) and expects each
// var of `outs` to have equal dims and values within `tol` (absolute, scaled
// by max(1, |host value|); NaN on both sides agrees). `inspect_x86`, when
// given, sees the x86 tester after its runs (its kernel, say). With
// `tol_of_largest`, `tol` is relative to the largest |host value| of the
// output instead (Winograd's rounding scales with the values of a whole tile,
// not with each output).
inline void ExpectX86MatchesHost(const std::string& op, const Setup& setup,
                                 const std::vector<std::string>& outs, const std::string& what,
                                 float tol = 1e-4f, int threads = 1, int runs = 1,
                                 const std::function<void(OpTester*)>& inspect_x86 = nullptr,
                                 bool tol_of_largest = false) {
  OpTester host(op), x86(op);
  setup(&host);
  setup(&x86);
  InputsToX86Layout(&x86);
  host.set_threads(threads);
  x86.set_threads(threads);
  for (int r = 0; r < runs; ++r) {
    Status hs = host.Run(TargetType::kHost);
    ASSERT_TRUE(hs.ok()) << what << ": " << hs.ToString();
    Status xs = x86.Run(TargetType::kX86);
    ASSERT_TRUE(xs.ok()) << what << ": " << xs.ToString();
  }
  if (inspect_x86) inspect_x86(&x86);
  for (const auto& name : outs) {
    ASSERT_EQ(host.Get(name).dims(), x86.Get(name).dims()) << what << " " << name;
    auto a = host.GetData<float>(name);
    auto b = X86Output(x86, op, name);
    ASSERT_FALSE(a.empty()) << what;
    float largest = 0.f;
    for (float v : a) largest = std::max(largest, std::fabs(v));
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::isnan(a[i]) && std::isnan(b[i])) continue;  // both empty windows, say
      const float scale = tol_of_largest ? largest : std::max(1.f, std::fabs(a[i]));
      ASSERT_NEAR(a[i], b[i], tol * scale) << what << " " << name << " at " << i;
    }
  }
}

// Runs `op` set up by `setup` on host (float Out) and with the x86 kernel
// `levels_key` (a "levels_out" registration) given Output_dtype int8 at
// `scale` and `round_type`, and expects every level of the x86 Out to equal
// the host Out quantized by operators/quant_math.h.
inline void ExpectX86LevelsMatchQuantizedHost(const std::string& op, const Setup& setup,
                                              const std::string& levels_key, float scale,
                                              int round_type, const std::string& what) {
  const KernelDef* levels = KernelRegistry::Global().FindByKey(levels_key);
  ASSERT_NE(levels, nullptr) << levels_key;
  OpTester host(op), x86(op);
  setup(&host);
  setup(&x86);
  x86.SetAttr("enable_int8", true);
  x86.SetAttr("Output_dtype", std::string("int8"));
  x86.SetAttr("Output_scale", scale);
  x86.SetAttr("Output_round_type", round_type);
  InputsToX86Layout(&x86);
  Status hs = host.Run(TargetType::kHost);
  ASSERT_TRUE(hs.ok()) << what << ": " << hs.ToString();
  Status xs = x86.RunKernel(levels);
  ASSERT_TRUE(xs.ok()) << what << ": " << xs.ToString();
  const Tensor& out = x86.Get("out");
  ASSERT_EQ(out.dtype(), DataType::kInt8) << what;
  const auto value = host.GetData<float>("out");
  std::vector<int8_t> want(value.size());
  operators::quant::QuantizeToInt8(value.data(), want.data(), value.size(), scale, 127,
                                   round_type);
  const auto got_levels = x86.GetData<int8_t>("out");
  std::vector<float> got(got_levels.begin(), got_levels.end());
  if (X86KernelIsNhwc(op) && out.dims().size() == 4) got = Permute(got, out.dims(), false);
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(static_cast<float>(want[i]), got[i]) << what << " at " << i;
  }
}

}  // namespace x86_test
}  // namespace lite
