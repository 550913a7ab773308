#include "lite/core/program_validator.h"

#include <limits>
#include <set>
#include <string>

namespace lite {
namespace {

std::string OpName(const cpp::BlockDesc& block, size_t i) {
  return "block " + std::to_string(block.idx) + " op #" + std::to_string(i) + " " +
         block.ops[i].DebugName();
}

// The VarDesc of `name` in `block` or its ancestors; null when undeclared.
const cpp::VarDesc* FindInScope(const cpp::ProgramDesc& program, const cpp::BlockDesc& block,
                                const std::string& name) {
  const cpp::BlockDesc* b = &block;
  for (int hops = 0; b && hops <= static_cast<int>(program.blocks.size()); ++hops) {
    if (const cpp::VarDesc* v = b->FindVar(name)) return v;
    if (b->parent_idx < 0 || b->parent_idx >= static_cast<int>(program.blocks.size())) break;
    b = &program.blocks[static_cast<size_t>(b->parent_idx)];
  }
  return nullptr;
}

Status CheckDims(const cpp::BlockDesc& block) {
  for (const auto& v : block.vars) {
    int64_t count = 1;
    for (int64_t d : v.dims) {
      if (d < -1) {
        return InvalidArgument("var '" + v.name + "' declares dim " + std::to_string(d) +
                               " (only -1 may stand for an unknown extent)");
      }
      if (d <= 0) continue;
      if (count > std::numeric_limits<int64_t>::max() / d) {
        return InvalidArgument("var '" + v.name + "': the element count of its declared dims " +
                               "overflows 64 bits");
      }
      count *= d;
    }
  }
  return Status::OK();
}

Status CheckBlockAttrs(const cpp::ProgramDesc& program, const cpp::BlockDesc& block) {
  const int n = static_cast<int>(program.blocks.size());
  for (size_t i = 0; i < block.ops.size(); ++i) {
    for (const auto& kv : block.ops[i].attrs()) {
      std::vector<int32_t> ids;
      if (kv.second.type == cpp::AttrType::BLOCK) {
        ids.push_back(std::get<int32_t>(kv.second.value));
      } else if (kv.second.type == cpp::AttrType::BLOCKS) {
        ids = std::get<std::vector<int32_t>>(kv.second.value);
      }
      for (int32_t id : ids) {
        if (id <= 0 || id >= n) {
          return InvalidArgument(OpName(block, i) + ": attribute '" + kv.first +
                                 "' points at block " + std::to_string(id) + " but the program " +
                                 "has blocks 0.." + std::to_string(n - 1) +
                                 " (block 0 is the main block)");
        }
      }
    }
  }
  return Status::OK();
}

Status CheckVarUses(const cpp::ProgramDesc& program, const cpp::BlockDesc& block) {
  std::set<std::string> written;
  const bool ordered = block.idx == 0;
  for (size_t i = 0; i < block.ops.size(); ++i) {
    const cpp::OpDesc& op = block.ops[i];
    if (op.OutputArgumentNames().empty() && op.Type() != "fetch") {
      return InvalidArgument(OpName(block, i) + " has no outputs (every op writes at least " +
                             "one var)");
    }
    for (const auto& kv : op.inputs()) {
      for (const auto& name : kv.second) {
        const cpp::VarDesc* v = FindInScope(program, block, name);
        if (!v) {
          return InvalidArgument(OpName(block, i) + " reads var '" + name + "' (input " +
                                 kv.first + ") that no block declares");
        }
        if (!ordered || v->persistable || v->kind == cpp::VarKind::kFeedList) continue;
        if (!written.count(name)) {
          return InvalidArgument(OpName(block, i) + " reads var '" + name + "' (input " +
                                 kv.first + ") that is never produced before it: no earlier " +
                                 "op writes it and it is neither a weight nor fed");
        }
      }
    }
    for (const auto& kv : op.outputs()) {
      for (const auto& name : kv.second) {
        written.insert(name);
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status ValidateProgram(const cpp::ProgramDesc& program) {
  if (program.blocks.empty()) return InvalidArgument("program has no blocks");
  bool has_fetch = false;
  for (const auto& op : program.blocks[0].ops) has_fetch |= op.Type() == "fetch";
  if (!has_fetch) return InvalidArgument("program has no fetch op: the model has no outputs");
  for (const auto& block : program.blocks) {
    RETURN_IF_ERROR(CheckDims(block));
    RETURN_IF_ERROR(CheckBlockAttrs(program, block));
    RETURN_IF_ERROR(CheckVarUses(program, block));
  }
  return Status::OK();
}

}  // namespace lite
