#include "lite/optimizer/passes/int8_kernel_query.h"

#include "lite/core/kernel.h"

namespace lite {
namespace mir {
namespace fusion {

bool Int8KernelTakes(const SSAGraph& graph, const cpp::OpDesc& desc) {
  const VarDimsFn dims = DeclaredDims(graph);
  for (const KernelDef* def : KernelRegistry::Global().Find(desc.Type())) {
    if (def->place.precision != PrecisionType::kInt8) continue;
    // Host's int8 conv is the float simulation (the NPU fallback): no gain.
    if (def->place.target == TargetType::kHost) continue;
    for (const Place& place : graph.valid_places()) {
      if (place.target == def->place.target && def->Accepts(desc, dims)) return true;
    }
  }
  return false;
}

}  // namespace fusion
}  // namespace mir
}  // namespace lite
