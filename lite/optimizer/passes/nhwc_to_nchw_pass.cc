// nhwc_to_nchw_pass: runs Paddle ops in their channel-last form
// (data_format / data_layout "NHWC") through their NCHW definitions.
//
// Each op of kChannelLastOps with the attribute "NHWC" becomes
//   transpose2(X: channel-last -> channel-first) -> the op with the
//   attribute "NCHW" -> transpose2(channel-first -> channel-last),
// the second transpose writing the op's output under its own name. Nothing
// else changes, since Paddle defines the rest of these ops the same way in
// both layouts: conv2d's filter is OIHW and conv2d_transpose's
// [Cin, Cout / groups, kh, kw] either way; strides, paddings, ksize,
// output_size, out_h / out_w, OutSize, SizeTensor and Scale are spatial;
// batch_norm's and group_norm's per-channel params and group_norm's
// [N, groups] statistics do not depend on where C sits; pixel_shuffle
// (pixel_unshuffle) orders its channels c * r * r + i * r + j in both.
// batch_norm and group_norm take the declared rank of X (2 to 5; at rank 2
// NHWC and NCHW are the same, and only the attribute changes), or without
// declared dims the rank of a rewritten op's output X comes from through
// elementwise ops.
//
// Then one sweep in program order takes the transposes out between
// rewritten ops, so a chain of NHWC ops pays one transpose at each end:
//  - a transpose back to channel-first reading a transpose to channel-last
//    (both made here): its readers read the channel-first var directly;
//  - a layout-neutral elementwise op (UnaryOps(); BinaryOps() with both
//    operands from such transposes of the same permutation, or with a 1-D Y
//    broadcast along the channel, axis -1 -> 1) reading transposes made
//    here: it runs on the channel-first vars and a new transpose after it
//    writes its output;
// a transpose made here whose output nobody reads any more is removed
// (fetched vars and those control-flow ops or sub-block observers read
// keep their producer). Only vars made here are renamed or read in a new
// place, and each new transpose takes its op's program position, so no
// other version of a var is read or written out of turn.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lite/optimizer/pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

struct ChannelLastOp {
  const char* type;
  const char* attr;
  const char* input;
  const char* output;
  int rank;  // 0: the declared rank of the input (2 to 5)
};

const ChannelLastOp kChannelLastOps[] = {
    {"conv2d", "data_format", "Input", "Output", 4},
    {"depthwise_conv2d", "data_format", "Input", "Output", 4},
    {"conv2d_transpose", "data_format", "Input", "Output", 4},
    {"depthwise_conv2d_transpose", "data_format", "Input", "Output", 4},
    {"pool2d", "data_format", "X", "Out", 4},
    {"batch_norm", "data_layout", "X", "Y", 0},
    {"group_norm", "data_layout", "X", "Y", 0},
    {"nearest_interp", "data_layout", "X", "Out", 4},
    {"nearest_interp_v2", "data_layout", "X", "Out", 4},
    {"bilinear_interp", "data_layout", "X", "Out", 4},
    {"bilinear_interp_v2", "data_layout", "X", "Out", 4},
    {"pixel_shuffle", "data_format", "X", "Out", 4},
    {"pixel_unshuffle", "data_format", "X", "Out", 4},
};

// Elementwise ops of X alone (no tensor attributes): they commute with any
// transpose.
const std::set<std::string>& UnaryOps() {
  static const auto* ops = new std::set<std::string>{
      "relu",  "relu6", "leaky_relu", "sigmoid", "tanh", "swish", "hard_swish",
      "hard_sigmoid", "elu", "gelu", "silu", "mish", "softplus", "abs", "exp",
      "sqrt", "square", "log", "scale", "clip"};
  return *ops;
}

const std::set<std::string>& BinaryOps() {
  static const auto* ops = new std::set<std::string>{
      "elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div",
      "elementwise_max", "elementwise_min", "elementwise_pow"};
  return *ops;
}

// transpose2 axes: out dim i is in dim perm[i].
std::vector<int> ToChannelFirst(int rank) {
  std::vector<int> p = {0, rank - 1};
  for (int i = 1; i < rank - 1; ++i) p.push_back(i);
  return p;
}
std::vector<int> ToChannelLast(int rank) {
  std::vector<int> p = {0};
  for (int i = 2; i < rank; ++i) p.push_back(i);
  p.push_back(1);
  return p;
}
// `second` applied after `first` gives the input back.
bool Cancels(const std::vector<int>& first, const std::vector<int>& second) {
  if (first.size() != second.size()) return false;
  for (size_t i = 0; i < second.size(); ++i) {
    if (first[second[i]] != static_cast<int>(i)) return false;
  }
  return true;
}

std::string OpName(const Node* op, const Node* out) {
  return "op " + op->stmt().desc.Type() + " (output: " + (out ? out->arg().name : "?") + ")";
}

}  // namespace

class NhwcToNchwPass : public Pass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    made_.clear();
    firsts_.clear();
    bool changed = false;
    for (Node* op : graph->StmtNodes()) {
      for (const ChannelLastOp& spec : kChannelLastOps) {
        if (op->stmt().desc.Type() != spec.type) continue;
        if (op->stmt().desc.GetAttr<std::string>(spec.attr, "NCHW") != "NHWC") break;
        RETURN_IF_ERROR(Rewrite(graph, op, spec));
        changed = true;
        break;
      }
    }
    if (made_.empty()) return changed;
    ASSIGN_OR_RETURN(std::vector<Node*> order, graph->StmtTopologicalOrder());
    // Only the current op and earlier ones are removed, so `order` stays valid.
    for (Node* op : order) {
      if (IsMade(op)) {
        Cancel(graph, op);
      } else {
        MoveThrough(graph, op);
      }
    }
    return true;
  }

 private:
  bool IsMade(const Node* op) const { return made_.count(op->id()) > 0; }

  // The perm of a transpose made here that writes `var`; nullptr otherwise.
  const std::vector<int>* MadePerm(const Node* var, Node** transpose = nullptr) const {
    if (!var || var->inlinks.size() != 1) return nullptr;
    auto it = made_.find(var->inlinks.front()->id());
    if (it == made_.end()) return nullptr;
    if (transpose) *transpose = var->inlinks.front();
    return &it->second;
  }

  // A new var named after `like` with its dims permuted by `perm`.
  static Node* NewVar(SSAGraph* graph, const Node* like, const std::vector<int>& perm) {
    cpp::VarDesc vd;
    if (const cpp::VarDesc* d = graph->FindVarDesc(like->arg().name)) vd = *d;
    vd.name = graph->UniqueVarName(like->arg().name + ".nchw");
    vd.persistable = false;
    if (vd.dims.size() == perm.size()) {
      std::vector<int64_t> dims(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) dims[i] = vd.dims[perm[i]];
      vd.dims = dims;
    }
    graph->SetVarDesc(vd);
    return graph->NewArgNode(vd.name);
  }

  Node* AddTranspose(SSAGraph* graph, Node* in, Node* out, const std::vector<int>& perm,
                     int64_t order) {
    cpp::OpDesc desc("transpose2");
    desc.SetInput("X", {in->arg().name});
    desc.SetOutput("Out", {out->arg().name});
    desc.SetAttr("axis", std::vector<int32_t>(perm.begin(), perm.end()));
    Node* t = graph->NewStmtNode(desc, order);
    SSAGraph::Link(in, t);
    SSAGraph::Link(t, out);
    made_[t->id()] = perm;
    return t;
  }

  // The declared rank of `var`; without one (a program that declares no
  // dims for activations), the rank of the transpose made here that it
  // comes from through elementwise ops. 0 when unknown.
  size_t Rank(const SSAGraph& graph, const Node* var) const {
    for (int hops = 0; var && hops < 64; ++hops) {
      const cpp::VarDesc* d = graph.FindVarDesc(var->arg().name);
      if (d && !d->dims.empty()) return d->dims.size();
      if (const std::vector<int>* perm = MadePerm(var)) return perm->size();
      if (var->inlinks.size() != 1) return 0;
      const Node* producer = var->inlinks.front();
      const std::string& type = producer->stmt().desc.Type();
      if (!UnaryOps().count(type) && !BinaryOps().count(type)) return 0;
      var = InputNode(const_cast<Node*>(producer), "X");
    }
    return 0;
  }

  Status Rewrite(SSAGraph* graph, Node* op, const ChannelLastOp& spec) {
    Node* x = InputNode(op, spec.input);
    Node* y = OutputNode(op, spec.output);
    const std::string what = name() + ": " + OpName(op, y) + " with " + spec.attr + " NHWC";
    if (!x || !y) {
      return InvalidArgument(what + ": needs exactly one " + spec.input + " and one " +
                             spec.output);
    }
    const size_t declared = Rank(*graph, x);
    int rank = spec.rank;
    if (rank == 0) {
      if (declared < 2 || declared > 5) {
        return InvalidArgument(what + ": input " + spec.input + " '" + x->arg().name +
                               "' must declare a rank of 2 to 5, got " +
                               std::to_string(declared));
      }
      rank = static_cast<int>(declared);
    } else if (declared != 0 && declared != static_cast<size_t>(rank)) {
      return InvalidArgument(what + ": input " + spec.input + " '" + x->arg().name +
                             "' must be " + std::to_string(rank) + "-D, got rank " +
                             std::to_string(declared));
    }
    op->stmt().desc.SetAttr(spec.attr, std::string("NCHW"));
    if (rank == 2) {  // [N, C] either way
      Count("relabelled");
      return Status::OK();
    }
    const int64_t order = op->stmt().order;
    // One transpose per input var, shared by the NHWC ops reading it.
    Node*& x_first = firsts_[x->id()];
    if (!x_first) {
      x_first = NewVar(graph, x, ToChannelFirst(rank));
      AddTranspose(graph, x, x_first, ToChannelFirst(rank), order);
    }
    ReplaceInput(op, x, x_first);
    Node* y_first = NewVar(graph, y, ToChannelFirst(rank));
    ReplaceOutput(op, y, y_first);
    AddTranspose(graph, y_first, y, ToChannelLast(rank), order);
    Count("rewritten");
    return Status::OK();
  }

  // `t` (made here) reads the output of a transpose made here that it
  // undoes: t's readers read that transpose's input instead.
  void Cancel(SSAGraph* graph, Node* t) {
    if (t->inlinks.size() != 1 || t->outlinks.size() != 1) return;
    Node* mid = t->inlinks.front();
    Node* before = nullptr;
    const std::vector<int>* first = MadePerm(mid, &before);
    if (!first || !Cancels(*first, made_.at(t->id()))) return;
    Node* src = before->inlinks.front();
    Node* out = t->outlinks.front();
    if (IsFetched(out)) return;
    for (Node* reader : std::vector<Node*>(out->outlinks)) ReplaceInput(reader, out, src);
    made_.erase(t->id());
    RemoveOp(graph, t);
    DropIfUnread(graph, before);
    Count("cancelled");
  }

  // Removes transpose `t` (made here) when nothing reads its output.
  void DropIfUnread(SSAGraph* graph, Node* t) {
    if (!t->outlinks.front()->outlinks.empty()) return;
    made_.erase(t->id());
    RemoveOp(graph, t);
  }

  // A layout-neutral elementwise op whose data inputs come from transposes
  // made here runs before them (see the file comment).
  void MoveThrough(SSAGraph* graph, Node* op) {
    cpp::OpDesc& desc = op->stmt().desc;
    const bool unary = UnaryOps().count(desc.Type()) > 0;
    const bool binary = BinaryOps().count(desc.Type()) > 0;
    if (!unary && !binary) return;
    if (desc.InputArgumentNames().size() != (unary ? 1u : 2u) || op->outlinks.size() != 1) return;
    Node* out = OutputNode(op, "Out");
    Node* x = InputNode(op, "X");
    Node* tx = nullptr;
    const std::vector<int>* perm = MadePerm(x, &tx);
    if (!out || !perm) return;
    const std::vector<int> p = *perm;
    const int rank = static_cast<int>(p.size());
    Node* y = nullptr;
    Node* ty = nullptr;
    bool channel_axis = false;  // Y is 1-D along the channel
    if (binary) {
      y = InputNode(op, "Y");
      if (!y) return;
      const std::vector<int>* yperm = y == x ? perm : MadePerm(y, &ty);
      if (yperm) {
        if (*yperm != p) return;
      } else {
        const cpp::VarDesc* yd = graph->FindVarDesc(y->arg().name);
        const int axis = desc.GetAttr<int>("axis", -1);
        if (p != ToChannelLast(rank) || !yd || yd->dims.size() != 1 ||
            (axis != -1 && axis != rank - 1)) {
          return;
        }
        channel_axis = true;
      }
    }
    // The inverse of p: the op's new output in the transposes' input order.
    std::vector<int> inverse(rank);
    for (int i = 0; i < rank; ++i) inverse[p[i]] = i;
    ReplaceInput(op, x, tx->inlinks.front());
    if (ty && y != x) ReplaceInput(op, y, ty->inlinks.front());
    if (channel_axis) desc.SetAttr("axis", 1);
    Node* out_first = NewVar(graph, out, inverse);
    ReplaceOutput(op, out, out_first);
    AddTranspose(graph, out_first, out, p, op->stmt().order);
    DropIfUnread(graph, tx);
    if (ty && ty != tx) DropIfUnread(graph, ty);
    Count("moved");
  }

  std::map<int, std::vector<int>> made_;  // transposes made here (node id -> axes)
  std::map<int, Node*> firsts_;           // var id -> its channel-first transpose's output
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(nhwc_to_nchw_pass, lite::mir::fusion::NhwcToNchwPass);
