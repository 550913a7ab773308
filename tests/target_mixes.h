// The target mixes the README offers, for the tests that run models on each
// (tests/target_mixes_test.cc on the shared models,
// tests/standin_mixes_test.cc on the family stand-ins): host; x86,host;
// npu,host with the xnnpack, reference and ccodegen drivers; npu,host with
// the sample plugin (examples/npu_plugin, copied into a directory of its own
// because drivers are found by directory); npu,x86,host. arm,host is offered
// separately (ArmMix) for the tests that add it.
#pragma once

#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "tests/test_util.h"

namespace lite {
namespace test_util {

struct Mix {
  std::string name;
  std::vector<paddle::lite_api::TargetType> targets;
  std::string driver;  // for npu mixes
  bool plugin = false;
};

inline std::string PrintMix(const ::testing::TestParamInfo<Mix>& info) {
  return info.param.name;
}

inline std::vector<Mix> ReadmeMixes() {
  using paddle::lite_api::TargetType;
  return {Mix{"host", {TargetType::kHost}, ""},
          Mix{"x86_host", {TargetType::kX86, TargetType::kHost}, ""},
          Mix{"npu_xnnpack", {TargetType::kNPU, TargetType::kHost}, "xnnpack"},
          Mix{"npu_reference", {TargetType::kNPU, TargetType::kHost}, "reference"},
          Mix{"npu_ccodegen", {TargetType::kNPU, TargetType::kHost}, "ccodegen"},
          Mix{"npu_sample_plugin", {TargetType::kNPU, TargetType::kHost}, "sample_ref",
              /*plugin=*/true},
          Mix{"npu_x86_host", {TargetType::kNPU, TargetType::kX86, TargetType::kHost},
              "xnnpack"}};
}

inline Mix ArmMix() {
  using paddle::lite_api::TargetType;
  return Mix{"arm_host", {TargetType::kARM, TargetType::kHost}, ""};
}

// The sample plugin copied into `TempDir()/<dir_name>` (once per process).
inline const std::string& SamplePluginDir(const std::string& dir_name) {
  static const std::string dir = [&dir_name] {
    const std::string d = TempDir() + "/" + dir_name;
    mkdir(d.c_str(), 0755);
    std::ifstream in("examples/npu_plugin/sample_ref_npu_driver.so", std::ios::binary);
    EXPECT_TRUE(in.good()) << "sample plugin not in the runfiles";
    std::ofstream out(d + "/sample_ref_npu_driver.so", std::ios::binary);
    out << in.rdbuf();
    return d;
  }();
  return dir;
}

}  // namespace test_util
}  // namespace lite
