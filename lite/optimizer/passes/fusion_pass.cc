#include "lite/optimizer/passes/fusion_pass.h"

#include <algorithm>

#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/operators/elementwise_ops.h"

namespace lite {
namespace mir {
namespace fusion {

StatusOr<bool> FusionPass::Run(SSAGraph* graph) {
  std::vector<Pattern> patterns = BuildPatterns();
  std::vector<PatternMatcher> matchers;
  for (const auto& p : patterns) {
    RETURN_IF_ERROR(p.Validate(name()));
    matchers.emplace_back(&p);
  }
  std::vector<int> anchors;
  for (Node* n : graph->StmtNodes()) anchors.push_back(n->id());
  std::vector<Node*> live;   // by id; rebuilt after every rewrite
  std::vector<bool> claimed;  // by id
  bool stale = true, changed = false;
  for (int id : anchors) {
    if (stale) {
      live.assign(graph->size(), nullptr);
      for (Node* n : graph->nodes()) live[n->id()] = n;
      claimed.resize(graph->size(), false);
      stale = false;
    }
    Node* anchor = live[id];
    if (!anchor || claimed[id]) continue;
    for (size_t i = 0; i < matchers.size(); ++i) {
      std::optional<Match> m = matchers[i].MatchAt(*graph, anchor, claimed);
      if (!m) continue;
      std::vector<int> ids = m->claimed_ids();
      ASSIGN_OR_RETURN(bool done, Rewrite(graph, *m, static_cast<int>(i)));
      if (!done) {
        Count("declined");
        continue;
      }
      Count("matched");
      changed = stale = true;
      claimed.resize(graph->size(), false);
      for (int c : ids) claimed[c] = true;
      break;
    }
  }
  return changed;
}

std::vector<Pattern> SinglePattern(Pattern p) {
  std::vector<Pattern> out;
  out.push_back(std::move(p));
  return out;
}

std::vector<Pattern> BothOperandOrders(Pattern (*make)(const char*, const char*)) {
  std::vector<Pattern> out;
  out.push_back(make("Y", "X"));
  out.push_back(make("X", "Y"));
  return out;
}

std::vector<Pattern> ActivationFusePass::BuildPatterns() const {
  Pattern p;
  PNode* producer = p.Op("producer", producer_types_)->If(HasNoFusedActivation);
  PNode* mid = p.Intermediate("mid");
  PNode* act = p.Op("act", FusableActivations());
  p.Writes(producer, out_param_, mid).Reads(act, "X", mid).Writes(act, "Out", p.Output("out"));
  return SinglePattern(std::move(p));
}

StatusOr<bool> ActivationFusePass::Rewrite(SSAGraph* graph, const Match& m, int) {
  if (FoldActivation(graph, m.at("producer"), m.at("mid"), m.at("act"), m.at("out"))) {
    return true;
  }
  Count("unfusable");
  return false;
}

const std::vector<std::string>& ConvTypes() {
  static const auto* t = new std::vector<std::string>{
      "conv2d", "depthwise_conv2d", "conv2d_transpose", "depthwise_conv2d_transpose"};
  return *t;
}

bool IsTransposedConv(const std::string& type) {
  return type == "conv2d_transpose" || type == "depthwise_conv2d_transpose";
}

const std::vector<std::string>& FusableActivations() {
  static const auto* t = new std::vector<std::string>{
      "relu", "relu6", "leaky_relu", "hard_swish", "hard_sigmoid", "sigmoid", "swish"};
  return *t;
}

bool HasNoFusedActivation(const cpp::OpDesc& op) {
  return op.GetAttr<std::string>("fuse_activation", "").empty() &&
         !op.GetAttr<bool>("fuse_relu", false) && !op.GetAttr<bool>("fuse_brelu", false) &&
         op.GetAttr<std::string>("activation_type", "").empty();
}

bool HasNoYActivation(const cpp::OpDesc& op) {
  return op.GetAttr<std::string>("y_activation", "").empty();
}

bool HasNoActivations(const cpp::OpDesc& op) {
  return HasNoFusedActivation(op) && HasNoYActivation(op);
}

int64_t ConvOutChannels(const cpp::OpDesc& conv, const DDim& filter) {
  if (filter.size() != 4) return -1;
  if (!IsTransposedConv(conv.Type())) return filter[0];
  return filter[1] * std::max<int64_t>(1, conv.GetAttr<int32_t>("groups", 1));
}

bool IsPerChannel(const DDim& y, int axis, int64_t c) {
  if (c <= 0 || y.empty() || Product(y) <= 0) return false;
  // A probe X whose spatial dims are neither 1 nor c cannot hide a mismatch.
  const DDim x = {2, c, c + 2, c + 3};
  DDim xa, ya, out;
  if (!operators::ElementwiseBroadcastDims(x, y, axis, &xa, &ya, &out).ok()) return false;
  if (out != x) return false;
  return Product(y) == 1 || ya == DDim{1, c, 1, 1};
}

bool IsInt8Op(const cpp::OpDesc& op) { return op.GetAttr<bool>("enable_int8", false); }

PNode* BiasFoldableConv(Pattern* p) {
  return p->Op("conv", ConvTypes())->If([](const cpp::OpDesc& d) {
    return HasNoFusedActivation(d) && IsNchw(d);
  });
}

bool DeviceKernelTakes(const SSAGraph& graph, const cpp::OpDesc& desc) {
  const VarDimsFn dims = DeclaredDims(graph);
  for (const KernelDef* def : KernelRegistry::Global().Find(desc.Type())) {
    if (def->place.target == TargetType::kHost) continue;
    for (const Place& place : graph.valid_places()) {
      if (place.target == def->place.target && def->Accepts(desc, dims)) return true;
    }
  }
  return false;
}

bool IsNchw(const cpp::OpDesc& op) {
  for (const char* attr : {"data_format", "data_layout"}) {
    std::string f = op.GetAttr<std::string>(attr, "NCHW");
    if (f != "NCHW" && f != "AnyLayout") return false;
  }
  return true;
}

}  // namespace fusion
}  // namespace mir
}  // namespace lite
