#include "lite/core/op_tester.h"

namespace lite {

std::vector<float> RandomFloats(int64_t n, uint32_t seed, float lo, float hi) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 12345u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * static_cast<float>((s >> 8) & 0xFFFF) / 65535.f;
  }
  return v;
}

void OpTester::SetOutput(const std::string& param, const std::string& name) {
  scope_.Var(name);
  AppendArg(desc_.mutable_outputs(), param, name);
}


Status OpTester::Run(TargetType target) {
  if (!inst_) {
    for (const KernelDef* d : KernelRegistry::Global().Find(desc_.Type())) {
      if (d->place.target == target) return RunKernel(d);
    }
    return NotFound("no kernel for op " + desc_.Type() + " on target " + TargetName(target));
  }
  return inst_->Run();
}

Status OpTester::RunKernel(const KernelDef* def) {
  if (!inst_) {
    auto op = OpRegistry::Global().Create(desc_.Type());
    if (!op) return NotFound("op " + desc_.Type() + " is not registered");
    RETURN_IF_ERROR(op->Attach(desc_, &scope_));
    auto kernel = def->factory();
    kernel->Bind(def, op->param(), &ctx_);
    inst_ = std::make_unique<Instruction>(std::move(op), std::move(kernel));
  }
  return inst_->Run();
}

}  // namespace lite
