// graph_visualize_pass: logs the graph's DOT text at this point of the
// pipeline into graph->visualization() (the API and tools read it). The pass
// manager's snapshot options cover dumping around other passes.
#include "lite/core/mir/dot.h"
#include "lite/core/mir/pass.h"

namespace lite {
namespace mir {

class GraphVisualizePass : public Pass {
 public:
  std::string name() const override { return "graph_visualize_pass"; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    graph->set_visualization(GraphToDot(*graph, "optimized graph"));
    Count("bytes", static_cast<int64_t>(graph->visualization().size()));
    return false;
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(graph_visualize_pass, lite::mir::GraphVisualizePass);
