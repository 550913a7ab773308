// memory_optimize_pass: plans activation memory over the program order.
//
// A program step (it runs on the program lowered from the graph, after the
// graph passes; the name keeps its old flag spelling). For every
// activation of the graph's block (written there, not persistable, not a feed/fetch
// list, not named in a control-flow sub-block) it finds the op of its last use (read or write) and records it in
// that op's kReleaseAfterAttr. At run time the buffer of each listed var goes
// back to the program's BufferPool right after that op, and later
// allocations are served from the pool best fit by size (lite/core/
// buffer_pool.h), so the plan holds for any input shape. Counters: vars
// planned, and bytes without reuse vs the largest live set, estimated from
// the declared dims (-1 read as 1).
#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "lite/base/buffer_pool.h"
#include "lite/optimizer/pass.h"
#include "lite/optimizer/ssa_graph.h"

namespace lite {
namespace mir {

class MemoryOptimizeStep : public ProgramStep {
 public:

  Status Run(cpp::ProgramDesc* program, int block_idx) override {
    cpp::BlockDesc& block = program->blocks[block_idx];
    std::map<std::string, size_t> first_write, last_use;
    for (size_t i = 0; i < block.ops.size(); ++i) {
      cpp::OpDesc& op = block.ops[i];
      op.RemoveAttr(kReleaseAfterAttr);
      for (const auto& v : op.InputArgumentNames()) last_use[v] = i;
      for (const auto& v : op.OutputArgumentNames()) {
        first_write.emplace(v, i);
        last_use[v] = i;
      }
    }
    // Vars the sub-blocks of control-flow ops (while, conditional_block,
    // nested ones included) name are read or written while their op runs,
    // possibly again and again: never planned. (A device subgraph's block
    // is its op's own business: the op lists what it reads and writes.)
    std::set<std::string> in_sub_blocks;
    std::set<int> control_blocks;
    std::vector<int> pending = {block_idx};
    while (!pending.empty()) {
      const int b = pending.back();
      pending.pop_back();
      if (b < 0 || b >= static_cast<int>(program->blocks.size())) continue;
      for (const cpp::OpDesc& op : program->blocks[b].ops) {
        const cpp::Attribute* a = op.FindAttr("sub_block");
        if (!IsControlFlowOp(op) || !a || a->type != cpp::AttrType::BLOCK) continue;
        const int sub = std::get<int32_t>(a->value);
        if (sub != block_idx && control_blocks.insert(sub).second) pending.push_back(sub);
      }
    }
    for (int b : control_blocks) {
      if (b < 0 || b >= static_cast<int>(program->blocks.size())) continue;
      for (const cpp::OpDesc& op : program->blocks[b].ops) {
        for (const auto& v : op.InputArgumentNames()) in_sub_blocks.insert(v);
        for (const auto& v : op.OutputArgumentNames()) in_sub_blocks.insert(v);
      }
    }
    std::map<size_t, std::vector<std::string>> release;
    int64_t planned = 0;
    for (const auto& kv : last_use) {
      const std::string& var = kv.first;
      const cpp::VarDesc* vd = block.FindVar(var);
      auto w = first_write.find(var);
      if (!vd || vd->persistable || vd->kind != cpp::VarKind::kLoDTensor) continue;
      if (in_sub_blocks.count(var)) continue;
      if (w == first_write.end() || !ReadOnlyAfterWrite(block, var, w->second)) continue;
      release[kv.second].push_back(var);
      ++planned;
    }
    for (auto& kv : release) {
      std::sort(kv.second.begin(), kv.second.end());
      block.ops[kv.first].SetAttr(kReleaseAfterAttr, kv.second);
    }
    Count("vars_planned", planned);
    EstimateBytes(block, first_write, last_use, release);
    return Status::OK();
  }

 private:
  // No op before the first write reads `var` (a value from an earlier run
  // or from outside would be lost).
  static bool ReadOnlyAfterWrite(const cpp::BlockDesc& block, const std::string& var,
                                 size_t first_write) {
    for (size_t i = 0; i < first_write; ++i) {
      for (const auto& v : block.ops[i].InputArgumentNames()) {
        if (v == var) return false;
      }
    }
    const auto& w = block.ops[first_write].InputArgumentNames();
    return std::find(w.begin(), w.end(), var) == w.end();
  }

  void EstimateBytes(const cpp::BlockDesc& block, const std::map<std::string, size_t>& first_write,
                     const std::map<std::string, size_t>& last_use,
                     const std::map<size_t, std::vector<std::string>>& release) {
    std::set<std::string> planned;
    for (const auto& kv : release) planned.insert(kv.second.begin(), kv.second.end());
    // Saturating: declared dims come from the model file and may be huge.
    static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    auto add = [](int64_t a, int64_t b) {
      int64_t r = 0;
      return __builtin_add_overflow(a, b, &r) ? kMax : r;
    };
    auto bytes = [&](const std::string& var) {
      const cpp::VarDesc* vd = block.FindVar(var);
      int64_t n = 1;
      for (int64_t d : vd->dims) {
        if (__builtin_mul_overflow(n, d < 0 ? 1 : d, &n)) return kMax;
      }
      if (__builtin_mul_overflow(n, static_cast<int64_t>(DataTypeSize(vd->dtype)), &n)) {
        return kMax;
      }
      return n;
    };
    int64_t total = 0, live = 0, peak = 0;
    for (const auto& var : planned) total = add(total, bytes(var));
    for (size_t i = 0; i < block.ops.size(); ++i) {
      for (const auto& var : planned) {
        if (first_write.at(var) == i) live = add(live, bytes(var));
      }
      peak = std::max(peak, live);
      auto r = release.find(i);
      if (r != release.end()) {
        for (const auto& var : r->second) live -= bytes(var);
      }
    }
    (void)last_use;
    Count("bytes_without_reuse", total);
    Count("bytes_peak_live", peak);
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_PROGRAM_STEP(memory_optimize_pass, lite::mir::MemoryOptimizeStep);
