// The fake NPU driver, for framework tests: the reference driver plus faults
// on request. Registered as "fake". A process-wide FakeDriverControl says
// which operation types to reject, whether Compile fails and on which
// Execute call (counted over all fake executables since Reset), or on
// every one, to fail,
// and the version / CPU features it reports and whether Deserialize fails
// (compiled-subgraph key tests).
// Tests own the control's settings; call Reset() before and after.
#pragma once

#include <mutex>
#include <set>
#include <string>

#include "lite/backends/npu/reference/reference_driver.h"

namespace lite {
namespace npu {

struct FakeDriverControl {
  std::set<OperationType> reject;
  bool fail_compile = false;
  // Compile fails for a model holding one of these operation types (which
  // Supports accepts): the split fallback's trigger.
  std::set<OperationType> fail_compile_of;
  int fail_execute_on_call = 0;  // 1-based; 0 = never
  bool fail_execute = false;     // every Execute call fails
  std::string version = "1";
  std::string cpu_features = "any";
  bool fail_deserialize = false;
  int compile_calls = 0;
  int deserialize_calls = 0;
  int execute_calls = 0;
  std::mutex mu;  // guards the counters

  static FakeDriverControl& Get();
  void Reset();
};

class FakeDriver : public ReferenceDriver {
 public:
  std::string name() const override { return "fake"; }
  Status Supports(const Model& model, const Operation& operation) const override;
  StatusOr<std::unique_ptr<Executable>> Compile(const Model& model,
                                                const CompileOptions& options) override;
  Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                 const std::vector<HostTensor>& outputs) override;
  std::string version() const override;
  std::string cpu_features() const override;
  StatusOr<std::unique_ptr<Executable>> Deserialize(const Model& model,
                                                    const std::vector<uint8_t>& bytes,
                                                    const CompileOptions& options) override;
};

}  // namespace npu
}  // namespace lite
