// variable_place_inference_pass: gives every var node the Place it lives in.
//
// A var produced by an op takes the output place its kernel declares for that
// argument (kAny resolves to host). Vars with no producer (weights, graph
// inputs) live on host. Requires static_kernel_pick_pass.
#include "lite/optimizer/pass.h"

namespace lite {
namespace mir {

class VariablePlaceInferencePass : public Pass {
 public:

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* n : graph->nodes()) {
      if (!n->IsArg()) continue;
      Place place(TargetType::kHost, PrecisionType::kAny, DataLayoutType::kNCHW);
      if (!n->inlinks.empty()) {
        const Node* producer = n->inlinks.front();
        if (!producer->stmt().picked) {
          return FailedPrecondition("op " + producer->label() +
                                    " has no picked kernel; run static_kernel_pick_pass first");
        }
        place = producer->stmt().picked->OutputPlace(OutputParamOf(producer, n->arg().name));
        if (place.target == TargetType::kAny) place.target = TargetType::kHost;
      }
      if (!n->arg().place_known || n->arg().place != place) changed = true;
      n->arg().place = place;
      n->arg().place_known = true;
      Count("vars");
    }
    return changed;
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(variable_place_inference_pass, lite::mir::VariablePlaceInferencePass);
