#include "lite/backends/npu/fake/fake_driver.h"

namespace lite {
namespace npu {

FakeDriverControl& FakeDriverControl::Get() {
  static FakeDriverControl* control = new FakeDriverControl;
  return *control;
}

void FakeDriverControl::Reset() {
  std::lock_guard<std::mutex> lock(mu);
  reject.clear();
  fail_compile = false;
  fail_compile_of.clear();
  fail_execute_on_call = 0;
  fail_execute = false;
  version = "1";
  cpu_features = "any";
  fail_deserialize = false;
  compile_calls = 0;
  deserialize_calls = 0;
  execute_calls = 0;
}

Status FakeDriver::Supports(const Model& model, const Operation& operation) const {
  if (FakeDriverControl::Get().reject.count(operation.type)) {
    return Unimplemented(std::string("fake driver rejects ") + OperationTypeName(operation.type));
  }
  return ReferenceDriver::Supports(model, operation);
}

StatusOr<std::unique_ptr<Executable>> FakeDriver::Compile(const Model& model,
                                                          const CompileOptions& options) {
  auto& c = FakeDriverControl::Get();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    ++c.compile_calls;
  }
  if (c.fail_compile) return Internal("fake driver: compile failure requested");
  for (const Operation& op : model.operations) {
    if (c.fail_compile_of.count(op.type)) {
      return Unimplemented(std::string("fake driver: compile refuses ") +
                           OperationTypeName(op.type) + " at these dims");
    }
  }
  return ReferenceDriver::Compile(model, options);
}

Status FakeDriver::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                           const std::vector<HostTensor>& outputs) {
  auto& c = FakeDriverControl::Get();
  int call;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    call = ++c.execute_calls;
  }
  if (c.fail_execute) {
    return Internal("fake driver: execute failure requested on every call (call " +
                    std::to_string(call) + ")");
  }
  if (c.fail_execute_on_call > 0 && call == c.fail_execute_on_call) {
    return Internal("fake driver: execute failure requested on call " + std::to_string(call));
  }
  return ReferenceDriver::Execute(executable, inputs, outputs);
}

std::string FakeDriver::version() const {
  auto& c = FakeDriverControl::Get();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.version;
}

std::string FakeDriver::cpu_features() const {
  auto& c = FakeDriverControl::Get();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.cpu_features;
}

StatusOr<std::unique_ptr<Executable>> FakeDriver::Deserialize(const Model& model,
                                                              const std::vector<uint8_t>& bytes,
                                                              const CompileOptions& options) {
  auto& c = FakeDriverControl::Get();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    ++c.deserialize_calls;
    if (c.fail_deserialize) return Internal("fake driver: deserialize failure requested");
  }
  return ReferenceDriver::Deserialize(model, bytes, options);
}

}  // namespace npu
}  // namespace lite

REGISTER_NPU_DRIVER(fake, lite::npu::FakeDriver);
