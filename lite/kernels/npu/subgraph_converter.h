// Glue between op bridges and drivers, used by the subgraph pass (support
// checks) and the subgraph kernel (model building). Owns nothing.
#pragma once

#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"
#include "lite/core/op_lite.h"
#include "lite/base/scope.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

class WeightCache;  // lite/kernels/npu/bridges/bridge.h

// Can `op` run on `driver`? Runs the op's bridge in check mode (dims from
// `scope`, weights from `weights`) and asks the driver about every operation
// the bridge would emit. OK, or the reason: no bridge for the op type, the
// bridge's own reason, or the driver's ("driver xnnpack: ...").
Status CheckOnDevice(OpLite* op, const Scope* scope, const Scope* weights, const Driver& driver);

// Converts attached ops (shapes inferred) into one Model whose inputs are the
// vars `inputs` and outputs the vars `outputs`, in order. Fails naming the
// op when a bridge fails, or when the model is not valid. With `cache`,
// weights seen by an earlier conversion through it are shared, not copied.
StatusOr<Model> ConvertToModel(const std::vector<OpLite*>& ops, const Scope* scope,
                               const Scope* weights, const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs,
                               WeightCache* cache = nullptr);

}  // namespace npu
}  // namespace lite
