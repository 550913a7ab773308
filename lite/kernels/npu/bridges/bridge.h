// Op bridges: one converter per Paddle op type from an attached OpLite into
// NN IR operations (lite/backends/npu/nn_ir.h).
//
// A bridge is its own support check. Run against a BridgeContext in check
// mode it sees the op's attributes and the dims known before run time (which
// may hold -1), copies no weight data, and returns OK or a reason naming the
// op and the attribute or input at fault ("conv2d (output: x): dilation 2
// with groups 4 is not supported", "... Filter 'w' is not a constant"). Run
// in build mode (after InferShape, every dim known) it appends operands and
// operations to the context's Model. Bridges never see a driver; drivers
// never see a bridge. Weights must be constants: persistable vars with data
// in the scope.
//
// The context owns nothing but its var -> operand table; the Model and the
// Scope are the caller's. Bridges are registered by op type
// (REGISTER_NPU_BRIDGE) in files of their op family next to this one.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/core/op_lite.h"
#include "lite/base/scope.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

// The bytes of the weights one conversion read, by var, for the next
// conversion of the same ops: the subgraph kernel converts its subgraph
// again at each new input size, and a weight whose tensor still has the
// same buffer, size and type gets the same SharedBytes (no copy; drivers
// may recognise it by SameBuffer). Weights are constants: like a compiled
// executable, it does not see a weight tensor written in place. One per
// converting owner (never shared by two predictors), used on one thread at
// a time.
class WeightCache {
 public:
  // The bytes of weight tensor `w` of var `var`, copied on first sight.
  const SharedBytes& Get(const std::string& var, const Tensor& w);

 private:
  struct Entry {
    const void* raw = nullptr;
    size_t bytes = 0;
    DataType dtype = DataType::kUnknown;
    SharedBytes data;
  };
  std::map<std::string, Entry> entries_;
};

class BridgeContext {
 public:
  // `scope` gives the dims of the op's vars; `weights` (usually its
  // ancestor, the predictor's root scope) holds the constants; `cache`
  // (may be null) keeps their bytes across conversions.
  BridgeContext(Model* model, const Scope* scope, const Scope* weights, bool check_mode,
                WeightCache* cache = nullptr)
      : model_(model), scope_(scope), weights_(weights), check_mode_(check_mode),
        cache_(cache) {}

  bool check_mode() const { return check_mode_; }
  Model* model() { return model_; }

  // Registers `var` as a model input (the subgraph's inputs, in order).
  int AddModelInput(const std::string& var);
  // The operand of var `var` read by `op`: the operand an earlier bridge
  // produced or a model input; or a constant when `var` is a weight
  // (persistable with data in the scope). In check mode, any other var
  // becomes a placeholder input. Otherwise an error naming op and var.
  StatusOr<int> Input(const OpLite& op, const std::string& var);
  // As Input for the first var of input parameter `param` (required).
  StatusOr<int> InputOf(const OpLite& op, const std::string& param);
  // As InputOf but the var must be a weight: "<op>: <param> '<var>' is not a
  // constant" otherwise.
  StatusOr<int> ConstantOf(const OpLite& op, const std::string& param);
  // True when `var` is a weight (data in the weights scope) that no earlier
  // operation of this model wrote.
  bool IsConstant(const std::string& var) const;
  // The weight tensor of `var` (nullptr when it is not one).
  const Tensor* Weight(const std::string& var) const;

  // Dims of var `var` as the scope knows them (-1 possible in check mode).
  std::vector<int64_t> Dims(const std::string& var) const;

  // A new float32 constant (bridges build reshaped or derived weights with
  // it). In check mode `data` is dropped.
  int AddConstant(const std::string& name, const std::vector<int64_t>& dims,
                  std::vector<float> data);
  // The operand bridges write var `var` into, with its scope dims; later
  // readers of `var` get it. A var written twice gets a new operand.
  int Output(const std::string& var);
  // As Output for the first var of output parameter `param`.
  StatusOr<int> OutputOf(const OpLite& op, const std::string& param);
  // An internal operand (e.g. the output of a reshape a bridge inserts).
  int AddTemporary(const std::string& name, const std::vector<int64_t>& dims,
                   ElementType type = ElementType::kFloat32);

  // Appends an operation; origin is op.DebugName().
  void AddOperation(const OpLite& op, OperationType type, std::vector<int> inputs,
                    std::vector<int> outputs, std::map<std::string, AttrValue> attrs = {});

  // The operand currently standing for `var`, or -1.
  int Find(const std::string& var) const;

 private:
  Model* model_;
  const Scope* scope_;
  const Scope* weights_;
  bool check_mode_;
  WeightCache* cache_;
  std::map<std::string, int> var_to_operand_;
};

using BridgeFn = std::function<Status(OpLite* op, BridgeContext* ctx)>;

class BridgeRegistry {
 public:
  static BridgeRegistry& Global();
  bool Register(const std::string& op_type, BridgeFn fn);
  // nullptr when no bridge is registered for `op_type`.
  const BridgeFn* Find(const std::string& op_type) const;
  std::vector<std::string> OpTypes() const;  // sorted

 private:
  std::map<std::string, BridgeFn> bridges_;
};

}  // namespace npu
}  // namespace lite

// REGISTER_NPU_BRIDGE(conv2d, ConvConverter);
#define REGISTER_NPU_BRIDGE(op_type, fn)                            \
  static bool lite_npu_bridge_registered_##op_type [[maybe_unused]] = \
      ::lite::npu::BridgeRegistry::Global().Register(#op_type, fn)
