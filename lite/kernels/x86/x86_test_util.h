// Shared by the x86 kernel tests: runs one op on the host kernel and on the
// x86 (oneDNN) kernel from identical setups and compares every output.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace x86_test {

using Setup = std::function<void(OpTester*)>;

// Runs `op` set up by `setup` on host and on x86 (`threads` threads each,
// `runs` times: later runs exercise the cached primitive) and expects each
// var of `outs` to have equal dims and values within `tol` (absolute, scaled
// by max(1, |host value|); NaN on both sides agrees).
inline void ExpectX86MatchesHost(const std::string& op, const Setup& setup,
                                 const std::vector<std::string>& outs, const std::string& what,
                                 float tol = 1e-4f, int threads = 1, int runs = 1) {
  OpTester host(op), x86(op);
  setup(&host);
  setup(&x86);
  host.set_threads(threads);
  x86.set_threads(threads);
  for (int r = 0; r < runs; ++r) {
    Status hs = host.Run(TargetType::kHost);
    ASSERT_TRUE(hs.ok()) << what << ": " << hs.ToString();
    Status xs = x86.Run(TargetType::kX86);
    ASSERT_TRUE(xs.ok()) << what << ": " << xs.ToString();
  }
  for (const auto& name : outs) {
    ASSERT_EQ(host.Get(name).dims(), x86.Get(name).dims()) << what << " " << name;
    auto a = host.GetData<float>(name);
    auto b = x86.GetData<float>(name);
    ASSERT_FALSE(a.empty()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::isnan(a[i]) && std::isnan(b[i])) continue;  // both empty windows, say
      ASSERT_NEAR(a[i], b[i], tol * std::max(1.f, std::fabs(a[i])))
          << what << " " << name << " at " << i;
    }
  }
}

}  // namespace x86_test
}  // namespace lite
