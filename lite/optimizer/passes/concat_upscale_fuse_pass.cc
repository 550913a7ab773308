// concat_upscale_fuse_pass: a channel concat (axis 1, rank 4) whose inputs
// include exact integer nearest upsamplings read only by it takes those
// upsamplings' inputs directly, with the factors as its input_upscale
// attribute (ConcatParam::upscale). PP-OCR det's neck upsamples three of its
// four 24-channel maps to 160 x 160 (x8, x4, x2) only to concatenate them:
// fused, the 96-channel result is written once and the three 2.4 MB
// upsampled maps are never written or read back.
//
// An upsampling qualifies when it is nearest_interp / nearest_interp_v2
// with align_corners false and no OutSize / SizeTensor / Scale inputs, and
// its factor f is exact in both dims: v2 `scale` [f, f], or out_h / out_w
// equal to f times the declared input size. Its input must have one version
// (it is now read at the concat). Runs after npu_subgraph_pass: ops inside
// device subgraphs are left to their driver.
#include <algorithm>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

// The exact integer factor of nearest upsampling `op` reading `x`, or 0.
int UpscaleFactor(const SSAGraph& graph, const Node& op, const Node& x) {
  const cpp::OpDesc& d = op.stmt().desc;
  const std::string& type = d.Type();
  if (type != "nearest_interp" && type != "nearest_interp_v2") return 0;
  if (d.GetAttr<std::string>("interp_method", "nearest") != "nearest" ||
      d.GetAttr<bool>("align_corners", true) || d.HasInput("OutSize") ||
      d.HasInput("SizeTensor") || d.HasInput("Scale")) {
    return 0;
  }
  if (type == "nearest_interp_v2") {
    std::vector<float> scale;
    if (d.TryGetAttr("scale", &scale) && !scale.empty() && scale[0] > 0) {
      const float s = scale[0];
      const bool same = scale.size() == 1 || scale[1] == s;
      return same && s == static_cast<float>(static_cast<int>(s)) && s >= 1 ? static_cast<int>(s)
                                                                           : 0;
    }
  } else {
    float s = 0.f;
    if (d.TryGetAttr("scale", &s) && s > 0) return 0;  // v1 scale: not handled
  }
  const int oh = d.GetAttr<int32_t>("out_h", -1), ow = d.GetAttr<int32_t>("out_w", -1);
  const DDim in = VarDims(graph, x);
  if (oh <= 0 || ow <= 0 || in.size() != 4 || in[2] <= 0 || in[3] <= 0) return 0;
  if (oh % in[2] != 0 || oh / in[2] != ow / in[3] || ow % in[3] != 0) return 0;
  return static_cast<int>(oh / in[2]);
}

}  // namespace

class ConcatUpscaleFusePass : public Pass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    bool changed = false;
    for (Node* concat : graph->StmtNodes()) {
      cpp::OpDesc& cd = concat->stmt().desc;
      if (cd.Type() != "concat" || cd.HasInput("AxisTensor") ||
          cd.GetAttr<int32_t>("axis", 0) != 1 || cd.HasAttr("input_upscale")) {
        continue;
      }
      const std::vector<std::string> names = cd.Input("X");
      std::vector<int> factors(names.size(), 1);
      bool any = false;
      for (size_t i = 0; i < names.size(); ++i) {
        Node* up_out = InputVar(concat, names[i]);
        if (!up_out || up_out->inlinks.size() != 1 || up_out->outlinks.size() != 1 ||
            IsFetched(up_out) || std::count(names.begin(), names.end(), names[i]) != 1) {
          continue;
        }
        Node* up = up_out->inlinks.front();
        Node* x = InputNode(up, "X");
        if (!x || x->arg().is_weight || Versions(*graph, x->arg().name) != 1 ||
            VarDims(*graph, *up_out).size() != 4) {
          continue;
        }
        const int f = UpscaleFactor(*graph, *up, *x);
        if (f < 1) {
          Count("declined_upsampling");
          continue;
        }
        ReplaceInput(concat, up_out, x);
        RemoveOp(graph, up);
        factors[i] = f;
        any = true;
        Count("upsamplings_fused");
      }
      if (!any) continue;
      cd.SetAttr("input_upscale", factors);
      Count("matched");
      changed = true;
    }
    return changed;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(concat_upscale_fuse_pass, lite::mir::fusion::ConcatUpscaleFusePass);
