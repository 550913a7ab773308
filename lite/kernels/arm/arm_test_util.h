// Shared by the arm kernel tests: runs one op on the host kernel and on the
// arm (XNNPACK) kernel from identical setups and compares every output.
// Arm kernels registered at layout NHWC get their rank-4 activations (every
// input but weights: Filter, Bias, W and persistable tensors) permuted to NHWC, as layout_cast_pass
// would arrange, and their rank-4 outputs permuted back before comparing.
// The arm kernel must also accept the op at kernel pick (KernelDef::Accepts),
// so a test cannot pass on a form the pass would send to host.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"
#include "lite/kernels/arm/arm_kernel.h"

namespace lite {
namespace arm_test {

using Setup = std::function<void(OpTester*)>;

inline const KernelDef* ArmKernelDef(const std::string& op) {
  for (const KernelDef* d : KernelRegistry::Global().Find(op)) {
    if (d->place.target == TargetType::kARM && d->place.precision == PrecisionType::kFloat) {
      return d;
    }
  }
  return nullptr;
}

inline bool IsWeight(const std::string& param) {
  return param == "Filter" || param == "Bias" || param == "W";
}

// Puts the rank-4 activation inputs of `t` in NHWC order.
inline void InputsToNhwc(OpTester* t) {
  for (const auto& kv : t->desc()->inputs()) {
    if (IsWeight(kv.first)) continue;
    for (const auto& name : kv.second) {
      Tensor* x = t->scope()->Var(name)->GetMutableTensor();
      const DDim d = x->dims();
      if (d.size() != 4 || x->persistable()) continue;  // weights stay NCHW
      std::vector<float> v(x->data<float>(), x->data<float>() + x->numel());
      kernels::arm::PermuteNchw(v.data(), x->mutable_data<float>(), d[0], d[1], d[2] * d[3],
                                true);
    }
  }
}

// Runs `op` set up by `setup` on host and on arm (`threads` threads, `runs`
// times: later runs reuse the XNNPACK operator) and expects each var of
// `outs` to have equal dims and values within `tol` (absolute, scaled by
// max(1, |host value|); NaN on both sides agrees).
inline void ExpectArmMatchesHost(const std::string& op, const Setup& setup,
                                 const std::vector<std::string>& outs, const std::string& what,
                                 float tol = 1e-4f, int threads = 1, int runs = 2) {
  const KernelDef* def = ArmKernelDef(op);
  ASSERT_NE(def, nullptr) << "no arm kernel for " << op;
  OpTester host(op), arm(op);
  setup(&host);
  setup(&arm);
  ASSERT_TRUE(def->Accepts(*arm.desc(), [](const std::string&) { return std::vector<int64_t>(); }))
      << what << ": the arm kernel declines this op";
  const bool nhwc = def->place.layout == DataLayoutType::kNHWC;
  if (nhwc) InputsToNhwc(&arm);
  host.set_threads(threads);
  arm.set_threads(threads);
  for (int r = 0; r < runs; ++r) {
    Status hs = host.Run(TargetType::kHost);
    ASSERT_TRUE(hs.ok()) << what << ": " << hs.ToString();
    Status as = arm.RunKernel(def);
    ASSERT_TRUE(as.ok()) << what << ": " << as.ToString();
  }
  for (const auto& name : outs) {
    ASSERT_EQ(host.Get(name).dims(), arm.Get(name).dims()) << what << " " << name;
    auto a = host.GetData<float>(name);
    auto b = arm.GetData<float>(name);
    const DDim& d = arm.Get(name).dims();
    if (nhwc && d.size() == 4) {
      std::vector<float> nchw(b.size());
      kernels::arm::PermuteNchw(b.data(), nchw.data(), d[0], d[1], d[2] * d[3], false);
      b = nchw;
    }
    ASSERT_FALSE(a.empty()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::isnan(a[i]) && std::isnan(b[i])) continue;  // both empty windows, say
      ASSERT_NEAR(a[i], b[i], tol * std::max(1.f, std::fabs(a[i])))
          << what << " " << name << " at " << i;
    }
  }
}

// Whether the arm kernel of `op` accepts the op `setup` describes.
inline bool ArmAccepts(const std::string& op, const Setup& setup) {
  const KernelDef* def = ArmKernelDef(op);
  if (!def) return false;
  OpTester t(op);
  setup(&t);
  return def->Accepts(*t.desc(), [](const std::string&) { return std::vector<int64_t>(); });
}

}  // namespace arm_test
}  // namespace lite
