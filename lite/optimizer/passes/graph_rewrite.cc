#include "lite/optimizer/passes/graph_rewrite.h"

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/pattern_matcher.h"

#include <algorithm>

#include "lite/base/fused_activation.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {
bool Has(const std::vector<Node*>& v, const Node* n) {
  return std::find(v.begin(), v.end(), n) != v.end();
}
bool HasConst(const std::vector<const Node*>& v, const Node* n) {
  return std::find(v.begin(), v.end(), n) != v.end();
}

// Depth-first over consumer edges; ids index the visited flags.
bool Reaches(const SSAGraph& graph, const Node* from, const Node* to) {
  std::vector<bool> seen(graph.size(), false);
  std::vector<const Node*> stack{from};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n == to) return true;
    if (seen[n->id()]) continue;
    seen[n->id()] = true;
    for (const Node* o : n->outlinks) stack.push_back(o);
  }
  return false;
}

std::vector<const Node*> OtherVersions(const SSAGraph& graph, const Node* var,
                                       const std::vector<const Node*>& going) {
  std::vector<const Node*> out;
  for (const Node* n : graph.nodes()) {
    if (n->IsArg() && n != var && n->arg().name == var->arg().name && !HasConst(going, n)) {
      out.push_back(n);
    }
  }
  return out;
}

std::string FreshName(SSAGraph* graph, const std::string& base) {
  for (int i = 0;; ++i) {
    std::string cand = i ? base + "_" + std::to_string(i) : base;
    bool in_scope = graph->scope() && graph->scope()->FindVar(cand);
    if (!in_scope && graph->UniqueVarName(cand) == cand) return cand;
  }
}
}  // namespace

Node* InputNode(Node* op, const std::string& param) {
  const auto& names = op->stmt().desc.Input(param);
  return names.size() == 1 ? InputVar(op, names[0]) : nullptr;
}

Node* InputVar(Node* op, const std::string& var) {
  for (Node* in : op->inlinks) {
    if (in->arg().name == var) return in;
  }
  return nullptr;
}

Node* OutputNode(Node* op, const std::string& param) {
  const auto& names = op->stmt().desc.Output(param);
  if (names.size() != 1) return nullptr;
  for (Node* out : op->outlinks) {
    if (out->arg().name == names[0]) return out;
  }
  return nullptr;
}

void ReplaceInput(Node* op, Node* from, Node* to) {
  op->stmt().desc.RenameInput(from->arg().name, to->arg().name);
  SSAGraph::Unlink(from, op);
  if (!Has(op->inlinks, to)) SSAGraph::Link(to, op);
}

void ReplaceOutput(Node* op, Node* from, Node* to) {
  op->stmt().desc.RenameOutput(from->arg().name, to->arg().name);
  SSAGraph::Unlink(op, from);
  if (!Has(op->outlinks, to)) SSAGraph::Link(op, to);
}

void SetInput(SSAGraph* graph, Node* op, const std::string& param, Node* var) {
  std::vector<std::string> old = op->stmt().desc.Input(param);
  op->stmt().desc.SetInput(param, {var->arg().name});
  const auto still_read = op->stmt().desc.InputArgumentNames();
  for (Node* in : std::vector<Node*>(op->inlinks)) {
    const std::string& n = in->arg().name;
    if (std::find(old.begin(), old.end(), n) != old.end() &&
        std::find(still_read.begin(), still_read.end(), n) == still_read.end()) {
      SSAGraph::Unlink(in, op);
      RemoveIfOrphan(graph, in);
    }
  }
  if (!Has(op->inlinks, var)) SSAGraph::Link(var, op);
}

void RemoveIfOrphan(SSAGraph* graph, Node* var) {
  if (var->inlinks.empty() && var->outlinks.empty()) graph->RemoveNode(var);
}

void RemoveOp(SSAGraph* graph, Node* op) {
  std::vector<Node*> ins = op->inlinks, outs = op->outlinks;
  graph->RemoveNode(op);
  for (Node* o : outs) {
    if (o->outlinks.empty()) graph->RemoveNode(o);
  }
  for (Node* i : ins) RemoveIfOrphan(graph, i);
}

void AbsorbIntoProducer(SSAGraph* graph, Node* producer, Node* mid, Node* op, Node* out) {
  SSAGraph::Unlink(op, out);
  ReplaceOutput(producer, mid, out);
  RemoveOp(graph, op);
}

Node* AddWeight(SSAGraph* graph, const std::string& base, const Tensor& value) {
  const std::string name = FreshName(graph, base);
  cpp::VarDesc vd;
  vd.name = name;
  vd.dtype = value.dtype();
  vd.dims = value.dims();
  vd.persistable = true;
  graph->SetVarDesc(vd);
  Tensor* t = graph->scope()->Var(name)->GetMutableTensor();
  t->CopyDataFrom(value);
  t->set_persistable(true);
  Node* n = graph->NewArgNode(name);
  n->arg().is_weight = true;
  return n;
}

const Tensor* WeightTensor(const SSAGraph& graph, const Node* var) {
  if (!var->arg().is_weight || !graph.scope()) return nullptr;
  const Variable* v = graph.scope()->FindVar(var->arg().name);
  return v ? &v->GetTensor() : nullptr;
}

bool IsFetched(const Node* var) {
  for (const Node* c : var->outlinks) {
    if (c->stmt().desc.Type() == "fetch" || IsControlFlowOp(c->stmt().desc)) return true;
  }
  return false;
}

int Versions(const SSAGraph& graph, const std::string& name) {
  int n = 0;
  for (const Node* v : graph.nodes()) n += v->IsArg() && v->arg().name == name;
  return n;
}

bool CanWriteEarlier(const SSAGraph& graph, const Node* var,
                     const std::vector<const Node*>& going) {
  for (const Node* other : OtherVersions(graph, var, going)) {
    if (!Reaches(graph, var, other)) return false;
  }
  return true;
}

bool CanReadLater(const SSAGraph& graph, const Node* var) {
  for (const Node* other : OtherVersions(graph, var, {})) {
    if (!Reaches(graph, other, var)) return false;
  }
  return true;
}

bool RemoveIdentityOp(SSAGraph* graph, Node* op, Node* x, Node* y) {
  Node* producer = x->inlinks.empty() ? nullptr : x->inlinks.front();
  const bool x_only_here = x->outlinks.size() == 1 && x->outlinks.front() == op;
  if (producer && x_only_here && !x->arg().is_weight &&
      producer->stmt().desc.Type() != "feed" && !IsControlFlowOp(producer->stmt().desc) &&
      CanWriteEarlier(*graph, y, {x})) {
    AbsorbIntoProducer(graph, producer, x, op, y);  // x is orphaned and goes with it
    return true;
  }
  if (IsFetched(y)) return false;
  // Reading x later is safe if no other version of its name can intervene;
  // y itself (same name for an in-place op) disappears.
  std::vector<const Node*> others;
  for (const Node* n : graph->nodes()) {
    if (n->IsArg() && n != x && n != y && n->arg().name == x->arg().name) others.push_back(n);
  }
  for (const Node* o : others) {
    if (!Reaches(*graph, o, x)) return false;
  }
  std::vector<Node*> consumers = y->outlinks;
  std::sort(consumers.begin(), consumers.end(),
            [](const Node* a, const Node* b) { return a->id() < b->id(); });
  for (Node* c : consumers) ReplaceInput(c, y, x);
  RemoveOp(graph, op);  // y is now unused and goes with it
  return true;
}

bool FoldActivation(SSAGraph* graph, Node* producer, Node* mid, Node* act, Node* out) {
  auto spec = operators::FusedActivation::FromActivationOp(act->stmt().desc);
  if (!spec.ok() || !CanWriteEarlier(*graph, out, {mid})) return false;
  spec->ToOpDesc(&producer->stmt().desc);
  AbsorbIntoProducer(graph, producer, mid, act, out);
  return true;
}

namespace {

// Multiplies every filter element by the scale of its output channel.
void ScaleFilter(const cpp::OpDesc& conv, const std::vector<float>& s, Tensor* w) {
  const DDim& d = w->dims();
  const int64_t spatial = d[2] * d[3];
  float* data = w->mutable_data<float>();
  if (!IsTransposedConv(conv.Type())) {
    const int64_t per_channel = d[1] * spatial;
    for (int64_t i = 0; i < w->numel(); ++i) data[i] *= s[i / per_channel];
    return;
  }
  const int64_t groups = std::max<int64_t>(1, conv.GetAttr<int32_t>("groups", 1));
  const int64_t in_per_group = d[0] / groups;
  for (int64_t i = 0; i < d[0]; ++i) {
    for (int64_t j = 0; j < d[1]; ++j) {
      const float sc = s[(i / in_per_group) * d[1] + j];
      float* block = data + (i * d[1] + j) * spatial;
      for (int64_t k = 0; k < spatial; ++k) block[k] *= sc;
    }
  }
}

}  // namespace

bool FoldChannelAffine(SSAGraph* graph, Node* conv, const std::vector<float>& s,
                       const std::function<float(int64_t c, float bias)>& new_bias,
                       const std::string& filter_suffix, const std::string& bias_suffix) {
  cpp::OpDesc& desc = conv->stmt().desc;
  Node* filter = InputNode(conv, "Filter");
  const Tensor* w = filter ? WeightTensor(*graph, filter) : nullptr;
  if (!w || !w->IsInitialized() || w->dims().size() != 4) return false;
  const int64_t c_out = ConvOutChannels(desc, w->dims());
  const int64_t groups = std::max<int64_t>(1, desc.GetAttr<int32_t>("groups", 1));
  if (c_out <= 0 || static_cast<int64_t>(s.size()) != c_out ||
      (IsTransposedConv(desc.Type()) && w->dims()[0] % groups != 0)) {
    return false;
  }
  Node* old_bias = InputNode(conv, "Bias");
  const Tensor* b = old_bias ? WeightTensor(*graph, old_bias) : nullptr;
  if (desc.HasInput("Bias") && !(b && b->IsInitialized() && b->dtype() == DataType::kFloat32 &&
                                 b->numel() == c_out)) {
    return false;
  }
  const bool int8 = IsInt8Op(desc) && w->dtype() == DataType::kInt8;
  std::vector<float> scales;
  if (int8) {
    scales = desc.GetAttr<std::vector<float>>("Filter_scales", {});
    if (static_cast<int64_t>(scales.size()) != c_out) return false;
  } else if (w->dtype() != DataType::kFloat32) {
    return false;
  }
  Tensor folded_bias;
  folded_bias.Resize({c_out});
  float* nb = folded_bias.mutable_data<float>();
  for (int64_t c = 0; c < c_out; ++c) nb[c] = new_bias(c, b ? b->data<float>()[c] : 0.f);
  // A copy: SetInput below may delete the filter node that owns the name.
  const std::string wname = filter->arg().name;
  if (int8) {  // the levels stay, each channel's scale takes s[c]
    for (int64_t c = 0; c < c_out; ++c) scales[c] *= s[c];
    desc.SetAttr("Filter_scales", scales);
  } else {
    Tensor folded;
    folded.CopyDataFrom(*w);
    ScaleFilter(desc, s, &folded);
    SetInput(graph, conv, "Filter", AddWeight(graph, wname + filter_suffix, folded));
  }
  Node* fb = AddWeight(graph, (old_bias ? old_bias->arg().name : wname) + bias_suffix, folded_bias);
  SetInput(graph, conv, "Bias", fb);
  return true;
}

Node* ChannelScaleMul(const SSAGraph& graph, Node* a, const DDim& dims, Node** x, Node** s) {
  if (dims.size() != 4 || a->inlinks.size() != 1 || a->outlinks.size() != 1 || IsFetched(a)) {
    return nullptr;
  }
  Node* mul = a->inlinks.front();
  const cpp::OpDesc& d = mul->stmt().desc;
  if (d.Type() != "elementwise_mul" || !HasNoActivations(d)) return nullptr;
  *x = InputNode(mul, "X");
  *s = InputNode(mul, "Y");
  if (!*x || !*s || *x == *s || VarDims(graph, **x) != dims) return nullptr;
  const DDim sd = VarDims(graph, **s);
  const int axis = d.GetAttr<int32_t>("axis", -1);
  // [N or 1, C, 1, 1] (an SE gate: per sample and channel) or [C].
  const bool per_channel =
      (sd.size() == 4 && sd[1] == dims[1] && sd[2] == 1 && sd[3] == 1 &&
       (sd[0] == 1 || sd[0] == dims[0]) && (axis == -1 || axis == 0)) ||
      (sd == DDim{dims[1]} && axis == 1);
  const cpp::VarDesc* sdesc = graph.FindVarDesc((*s)->arg().name);
  if (!per_channel || !sdesc || sdesc->dtype != DataType::kFloat32 ||
      Versions(graph, (*x)->arg().name) != 1 || Versions(graph, (*s)->arg().name) != 1) {
    return nullptr;
  }
  return mul;
}

}  // namespace fusion
}  // namespace mir
}  // namespace lite
