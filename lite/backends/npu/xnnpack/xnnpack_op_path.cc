#include "lite/backends/npu/xnnpack/xnnpack_op_path.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string_view>

#include "lite/backends/npu/xnnpack/kept_blocks.h"
#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

namespace lite {
namespace npu {

// The created nodes of one structure, shared by its executables.
struct NodeSet {
  std::string key;
  std::vector<std::unique_ptr<OpNode>> nodes;  // one per step
  // The executable (serial) and workspace generation last set up.
  uint64_t set_up_for = 0, set_up_generation = 0;
};

// The activation buffer of a driver's executables: one runs at a time, so
// they share it; it grows to the largest plan among them (its old block
// goes back to KeptBlocks) and is freed with the last of them.
struct Workspace {
  KeptFloats block;
  size_t floats = 0;
  uint64_t generation = 0;  // bumped at each growth: buffers moved
  float* Reserve(size_t n) {
    if (n > floats) {
      block.reset();
      block = AllocateKeptFloats(n);
      floats = n;
      ++generation;
    }
    return block.get();
  }
};

namespace {

// One node's run: operation `op` writing operand `out`.
struct Step {
  size_t op;
  int out;
};

class OperatorExecutable : public Executable {
 public:
  std::string Describe() const override { return "xnnpack operators"; }
  Model dims;  // the model without constant data: this size's dims and attributes
  std::vector<Step> steps;
  std::shared_ptr<NodeSet> nodes;
  std::shared_ptr<pthreadpool> pool;
  std::shared_ptr<Workspace> workspace;
  std::vector<int64_t> offsets;  // per operand, in floats (-1: no buffer)
  size_t floats = 0;             // the plan's size
  std::vector<float*> buffers;   // per operand, into the workspace (null: none)
  uint64_t generation = 0;       // the workspace generation `buffers` point into
  uint64_t serial = 0;
};

std::atomic<uint64_t> next_serial{1};

constexpr size_t kAlignFloats = 16;  // 64 bytes; also covers XNN_EXTRA_BYTES reads

size_t Aligned(size_t n) { return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }

void KeyInt(std::string* key, int64_t v) {
  key->append(reinterpret_cast<const char*>(&v), sizeof v);
}

// The key's model part: operations and wiring; operands' type, lifetime
// and rank; constants' dims and bytes (hashed). A constant that shares its
// buffer with the same operand of the last model keyed (`bytes`, `hashes`,
// by operand index; updated here) takes that hash without reading the
// bytes: a shared buffer is never written (SharedBytes), and the held copy
// keeps its address from being reused. Counts the constants hashed.
std::string ModelKey(const Model& m, std::vector<SharedBytes>* bytes,
                     std::vector<int64_t>* hashes, int* hashed) {
  std::string key;
  for (const Operation& op : m.operations) {
    KeyInt(&key, static_cast<int64_t>(op.type));
    for (const auto* list : {&op.inputs, &op.outputs}) {
      KeyInt(&key, static_cast<int64_t>(list->size()));
      for (int idx : *list) KeyInt(&key, idx);
    }
  }
  std::vector<SharedBytes> next_bytes(m.operands.size());
  std::vector<int64_t> next_hashes(m.operands.size(), 0);
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand& o = m.operands[i];
    KeyInt(&key, static_cast<int64_t>(o.type));
    KeyInt(&key, static_cast<int64_t>(o.lifetime));
    KeyInt(&key, static_cast<int64_t>(o.dims.size()));
    if (o.lifetime != Lifetime::kConstant) continue;
    for (int64_t d : o.dims) KeyInt(&key, d);
    if (i < bytes->size() && o.data.SameBuffer((*bytes)[i])) {
      next_hashes[i] = (*hashes)[i];
    } else {
      const std::string_view view(reinterpret_cast<const char*>(o.data.data()), o.data.size());
      next_hashes[i] = static_cast<int64_t>(std::hash<std::string_view>()(view));
      ++*hashed;
    }
    next_bytes[i] = o.data;
    KeyInt(&key, next_hashes[i]);
  }
  *bytes = std::move(next_bytes);
  *hashes = std::move(next_hashes);
  KeyInt(&key, static_cast<int64_t>(m.inputs.size()));
  for (int idx : m.inputs) KeyInt(&key, idx);
  for (int idx : m.outputs) KeyInt(&key, idx);
  return key;
}

// Steps and their nodes: relu / relu6 / clip whose input only they read
// fold into the producing node's output bounds.
Status MakeSteps(const Model& m, std::vector<Step>* steps,
                 std::vector<std::unique_ptr<OpNode>>* nodes) {
  std::vector<int> readers(m.operands.size(), 0), reader(m.operands.size(), -1);
  for (size_t i = 0; i < m.operations.size(); ++i) {
    for (int idx : m.operations[i].inputs) {
      ++readers[idx];
      reader[idx] = static_cast<int>(i);
    }
  }
  std::vector<bool> folded(m.operations.size(), false);
  for (size_t i = 0; i < m.operations.size(); ++i) {
    if (folded[i]) continue;
    const Operation& op = m.operations[i];
    int out = op.outputs[0];
    float lo = -std::numeric_limits<float>::infinity(), hi = -lo;
    if (TakesOutputBounds(op) && m.operands[out].lifetime == Lifetime::kTemporary &&
        readers[out] == 1) {
      const Operation& next = m.operations[reader[out]];
      if (next.inputs[0] == out && (next.type == OperationType::kRelu ||
                                    next.type == OperationType::kRelu6 ||
                                    next.type == OperationType::kClip)) {
        lo = next.type == OperationType::kClip ? next.Float("min") : 0.f;
        hi = next.type == OperationType::kRelu6 ? 6.f
             : next.type == OperationType::kClip ? next.Float("max")
                                                  : hi;
        folded[reader[out]] = true;
        out = next.outputs[0];
      }
    }
    auto node = MakeOpNode(m, op, lo, hi);
    if (!node.ok()) return node.status();
    steps->push_back({i, out});
    nodes->push_back(std::move(node).value());
  }
  return Status::OK();
}

// First-fit offsets (in floats) by liveness; returns the buffer's size.
size_t Plan(const Model& m, const std::vector<Step>& steps, std::vector<int64_t>* offset) {
  const int n = static_cast<int>(steps.size());
  std::vector<int> first(m.operands.size(), n + 1), last(m.operands.size(), -2);
  for (int idx : m.inputs) first[idx] = -1;
  for (int s = 0; s < n; ++s) {
    const Operation& op = m.operations[steps[s].op];
    for (int idx : op.inputs) {
      if (m.operands[idx].lifetime != Lifetime::kConstant) last[idx] = std::max(last[idx], s);
    }
    const std::vector<int> written =
        steps[s].out == op.outputs[0] ? op.outputs : std::vector<int>{steps[s].out};
    for (int idx : written) first[idx] = std::min(first[idx], s);
  }
  for (int idx : m.outputs) last[idx] = n;
  for (size_t idx = 0; idx < m.operands.size(); ++idx) {
    if (first[idx] <= n && last[idx] < first[idx]) last[idx] = first[idx];  // written, unread
  }
  offset->assign(m.operands.size(), -1);
  std::map<size_t, std::pair<size_t, int>> live;  // offset -> (floats, last step)
  size_t total = 0;
  for (int s = -1; s <= n; ++s) {
    for (auto it = live.begin(); it != live.end();) {
      it = it->second.second < s ? live.erase(it) : std::next(it);
    }
    for (size_t idx = 0; idx < m.operands.size(); ++idx) {
      if (first[idx] != s) continue;
      const size_t need = Aligned(Numel(m.operands[idx].dims)) + kAlignFloats;
      size_t at = 0;
      for (const auto& kv : live) {
        if (kv.first >= at + need) break;
        at = std::max(at, kv.first + kv.second.first);
      }
      live[at] = {need, last[idx]};
      (*offset)[idx] = static_cast<int64_t>(at);
      total = std::max(total, at + need);
    }
  }
  return total;
}

// Points exe's buffers into the workspace, grown to its plan if need be.
void Bind(OperatorExecutable* exe) {
  float* base = exe->workspace->Reserve(exe->floats);
  if (exe->generation == exe->workspace->generation && !exe->buffers.empty()) return;
  exe->buffers.assign(exe->offsets.size(), nullptr);
  for (size_t idx = 0; idx < exe->offsets.size(); ++idx) {
    if (exe->offsets[idx] >= 0) exe->buffers[idx] = base + exe->offsets[idx];
  }
  exe->generation = exe->workspace->generation;
}

// Each node's Check for exe's sizes (Compile: nothing set up yet).
Status CheckSizes(OperatorExecutable* exe) {
  for (size_t s = 0; s < exe->steps.size(); ++s) {
    const Operation& op = exe->dims.operations[exe->steps[s].op];
    OpEnv env{exe->dims, op, exe->steps[s].out, exe->buffers, exe->pool.get()};
    RETURN_IF_ERROR(exe->nodes->nodes[s]->Check(env));
  }
  return Status::OK();
}

}  // namespace

OperatorPath::OperatorPath() = default;
OperatorPath::~OperatorPath() = default;

StatusOr<std::unique_ptr<Executable>> OperatorPath::Compile(const Model& model, int threads) {
  for (const Operand& o : model.operands) {
    if (o.type == ElementType::kInt8) {
      return Unimplemented("int8 operand " + o.name + " (quantized operations)");
    }
    if (o.type != ElementType::kFloat32 && o.lifetime != Lifetime::kConstant) {
      return Unimplemented(std::string(ElementTypeName(o.type)) + " operand " + o.name);
    }
  }
  auto exe = std::make_unique<OperatorExecutable>();
  std::vector<std::unique_ptr<OpNode>> nodes;
  RETURN_IF_ERROR(MakeSteps(model, &exe->steps, &nodes));
  std::string key = ModelKey(model, &key_bytes_, &key_hashes_, &hashed_);
  for (const auto& node : nodes) {
    KeyInt(&key, static_cast<int64_t>(node->key().size()));
    key += node->key();
  }
  if (kept_ && kept_->key == key) {
    ++reused_;
  } else {
    auto set = std::make_shared<NodeSet>();
    set->key = std::move(key);
    for (auto& node : nodes) RETURN_IF_ERROR(node->Create(model));
    set->nodes = std::move(nodes);
    kept_ = std::move(set);
    ++created_;
  }
  exe->nodes = kept_;
  if (threads <= 1) {
    pool_.reset();
    pool_threads_ = 0;
  } else if (pool_threads_ != threads) {
    pool_.reset(pthreadpool_create(static_cast<size_t>(threads)), pthreadpool_destroy);
    pool_threads_ = threads;
  }
  exe->pool = pool_;
  exe->dims.operations = model.operations;
  exe->dims.inputs = model.inputs;
  exe->dims.outputs = model.outputs;
  exe->dims.operands.reserve(model.operands.size());
  for (const Operand& o : model.operands) {
    Operand slim;
    slim.type = o.type;
    slim.dims = o.dims;
    slim.lifetime = o.lifetime;
    slim.name = o.name;
    exe->dims.operands.push_back(std::move(slim));
  }
  exe->floats = Plan(model, exe->steps, &exe->offsets);
  exe->workspace = workspace_.lock();
  if (!exe->workspace) {
    exe->workspace = std::make_shared<Workspace>();
    workspace_ = exe->workspace;
  }
  exe->serial = next_serial++;
  Bind(exe.get());
  // Set up at the first run, each node just before it runs.
  RETURN_IF_ERROR(CheckSizes(exe.get()));
  return std::unique_ptr<Executable>(std::move(exe));
}

bool OperatorPath::Owns(const Executable* executable) {
  return dynamic_cast<const OperatorExecutable*>(executable) != nullptr;
}

Status OperatorPath::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                             const std::vector<HostTensor>& outputs) {
  auto* exe = dynamic_cast<OperatorExecutable*>(executable);
  if (!exe) return InvalidArgument("not an executable of the xnnpack operator path");
  const Model& m = exe->dims;
  RETURN_IF_ERROR(CheckHostTensors(m, inputs, outputs));
  Bind(exe);
  // Each node is set up just before it runs, its indirection buffers still
  // in cache when the run reads them.
  NodeSet& set = *exe->nodes;
  const bool set_up = set.set_up_for == exe->serial && set.set_up_generation == exe->generation;
  set.set_up_for = 0;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    ToStored(static_cast<const float*>(inputs[i].data), exe->buffers[m.inputs[i]],
             m.operands[m.inputs[i]].dims);
  }
  for (size_t s = 0; s < exe->steps.size(); ++s) {
    const Operation& op = m.operations[exe->steps[s].op];
    OpEnv env{m, op, exe->steps[s].out, exe->buffers, exe->pool.get()};
    if (!set_up) RETURN_IF_ERROR(set.nodes[s]->Setup(env));
    RETURN_IF_ERROR(set.nodes[s]->Run(env));
  }
  set.set_up_for = exe->serial;
  set.set_up_generation = exe->generation;
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    FromStored(exe->buffers[m.outputs[i]], static_cast<float*>(outputs[i].data),
               m.operands[m.outputs[i]].dims);
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite
