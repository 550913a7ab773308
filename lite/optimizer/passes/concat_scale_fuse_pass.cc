// concat_scale_fuse_pass: a channel concat (axis 1, rank 4) every input of
// which is x_i * s_i, an elementwise_mul by a per-channel (or per sample
// and channel) scale read only by the concat, reads the x_i directly with
// the s_i as its InputScale list (ConcatParam::input_scales): the kernel
// multiplies as it copies (or quantizes). PP-OCR det's RSE-FPN multiplies
// each of its four pyramid maps by its SE gate only to concatenate them
// (input_upscale, concat_upscale_fuse_pass, already reads them at their own
// resolution): the scaled maps (2.4 MB at 160 x 160) are never written.
//
// All inputs or none: a concat with some unscaled inputs is declined
// ("declined_partial"); so is one with an input that is not such a mul
// ("declined_input"). The mul's x and s must have one version each (they
// are now read at the concat). Runs after concat_upscale_fuse_pass and
// npu_subgraph_pass.
#include <algorithm>

#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/pass.h"
#include "lite/optimizer/pattern_matcher.h"

namespace lite {
namespace mir {
namespace fusion {

class ConcatScaleFusePass : public Pass {
 public:

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* concat : graph->StmtNodes()) {
      cpp::OpDesc& cd = concat->stmt().desc;
      if (cd.Type() != "concat" || cd.HasInput("AxisTensor") || cd.HasInput("InputScale") ||
          cd.GetAttr<int32_t>("axis", 0) != 1) {
        continue;
      }
      const std::vector<std::string> names = cd.Input("X");
      std::vector<Node*> muls, as, xs, ss;
      for (const std::string& name : names) {
        Node* a = InputVar(concat, name);
        Node *x = nullptr, *s = nullptr;
        Node* mul = a && std::count(names.begin(), names.end(), name) == 1
                        ? ChannelScaleMul(*graph, a, VarDims(*graph, *a), &x, &s)
                        : nullptr;
        if (!mul) break;
        muls.push_back(mul);
        as.push_back(a);
        xs.push_back(x);
        ss.push_back(s);
      }
      if (muls.size() != names.size()) {
        Count(muls.empty() ? "declined_input" : "declined_partial");
        continue;
      }
      std::vector<std::string> s_names;
      for (size_t i = 0; i < names.size(); ++i) {
        ReplaceInput(concat, as[i], xs[i]);
        s_names.push_back(ss[i]->arg().name);
        SSAGraph::Link(ss[i], concat);
      }
      cd.SetInput("InputScale", s_names);
      for (Node* mul : muls) RemoveOp(graph, mul);  // takes its output, now unread, with it
      Count("matched");
      changed = true;
    }
    return changed;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(concat_scale_fuse_pass, lite::mir::fusion::ConcatScaleFusePass);
