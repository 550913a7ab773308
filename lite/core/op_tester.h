// OpTester: runs a single op through a registered kernel, for unit tests.
//
// Build an OpDesc with inputs/outputs/attributes, put input tensors in the
// tester's scope, then Run(): it creates the op from the OpRegistry,
// attaches it, runs CheckShape/InferShape, picks the kernel registered for
// the op at `target` (any precision/layout), and runs it. Re-running after
// changing input dims re-infers shapes, like the runtime does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/core/program.h"
#include "lite/base/scope.h"

namespace lite {

// Deterministic pseudo-random floats in [lo, hi] (a fixed LCG per seed), for
// kernel test inputs.
std::vector<float> RandomFloats(int64_t n, uint32_t seed, float lo = -1.f, float hi = 1.f);

class OpTester {
 public:
  explicit OpTester(const std::string& op_type) : desc_(op_type) {}

  cpp::OpDesc* desc() { return &desc_; }
  const cpp::OpDesc& desc() const { return desc_; }
  // Runs kernels with `threads` threads (a ThreadPool when > 1).
  void set_threads(int threads) { ctx_.set_threads(threads); }
  Scope* scope() { return &scope_; }

  // Creates var `name` holding `data` with `dims`, and binds it to `param`
  // (appending, so list inputs work by calling it repeatedly).
  template <typename T>
  Tensor* SetInput(const std::string& param, const std::string& name,
                   const DDim& dims, const std::vector<T>& data) {
    Tensor* t = scope_.Var(name)->GetMutableTensor();
    t->Resize(dims);
    T* p = t->mutable_data<T>();
    for (size_t i = 0; i < data.size(); ++i) p[i] = data[i];
    AppendArg(desc_.mutable_inputs(), param, name);
    return t;
  }
  // Binds output `param` to var `name` (appending).
  void SetOutput(const std::string& param, const std::string& name);
  template <typename V>
  void SetAttr(const std::string& name, const V& v) {
    desc_.SetAttr(name, v);
  }

  // Attach + shape check/inference + kernel run. The op and kernel are kept,
  // so a second Run() behaves like the runtime's next run.
  Status Run(TargetType target = TargetType::kHost);
  // As Run(), with the given kernel (e.g. one of several aliases).
  Status RunKernel(const KernelDef* def);

  // The attached op after the first Run() (nullptr before).
  OpLite* op() { return inst_ ? inst_->mutable_op() : nullptr; }
  // The picked kernel after the first Run() (nullptr before).
  KernelBase* kernel() { return inst_ ? inst_->mutable_kernel() : nullptr; }

  const Tensor& Get(const std::string& name) const {
    return *scope_.FindVar(name)->GetMutableTensor();
  }
  template <typename T>
  std::vector<T> GetData(const std::string& name) const {
    const Tensor& t = Get(name);
    const T* p = t.data<T>();
    return std::vector<T>(p, p + t.numel());
  }

 private:
  static void AppendArg(std::map<std::string, std::vector<std::string>>* m,
                        const std::string& param, const std::string& name) {
    (*m)[param].push_back(name);
  }

  cpp::OpDesc desc_;
  Scope scope_;
  KernelContext ctx_;
  std::unique_ptr<Instruction> inst_;
};

}  // namespace lite
