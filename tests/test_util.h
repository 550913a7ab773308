// Helpers shared by the end-to-end tests (gtest assertions inside): the
// test's temporary directory and "this predictor matches that reference".
// Header-only, testonly; nothing here owns state.
#pragma once

#include <cstdlib>
#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "tools/reference.h"

namespace lite {
namespace test_util {

// $TEST_TMPDIR, else /tmp.
inline std::string TempDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

// The reference's model on `npu,host` with `driver`, in strict mode (a
// fallback would hide a driver or bridge bug).
inline paddle::lite_api::CxxConfig StrictNpuConfig(const tools::Reference& ref,
                                                   const std::string& driver) {
  paddle::lite_api::CxxConfig config;
  tools::ConfigureModel(ref, &config);
  config.set_valid_places({Place(TargetType::kNPU), Place(TargetType::kHost)});
  config.set_npu_driver(driver);
  config.set_npu_strict(true);
  return config;
}

// Feeds the reference inputs, runs `p` and expects every output within the
// reference's tolerance (printing one line per output, prefixed `what`).
inline void ExpectMatchesReference(const tools::Reference& ref,
                                   paddle::lite_api::PaddlePredictor* p, const std::string& what) {
  SCOPED_TRACE(what);
  auto fed = tools::FeedInputs(ref, p);
  ASSERT_TRUE(fed.ok()) << fed.ToString();
  auto run = p->Run();
  ASSERT_TRUE(run.ok()) << run.ToString();
  auto checks = tools::CompareOutputs(ref, *p);
  ASSERT_TRUE(checks.ok()) << checks.status().ToString();
  for (const auto& c : *checks) {
    std::cout << what << ": " << tools::FormatCheck(c) << "\n";
    EXPECT_TRUE(c.passed) << tools::FormatCheck(c);
  }
}

}  // namespace test_util
}  // namespace lite
