// Node of the SSA graph: a statement (one op) or an argument (one write of a
// variable). Edges run arg -> stmt (op input) and stmt -> arg (op output).
//
// Nodes are owned by their SSAGraph and identified by `id`, assigned in
// creation order, which together with a statement's `order` (its program
// position) makes every traversal deterministic: nothing is ever ordered by
// pointer.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/base/types.h"
#include "lite/base/program_desc.h"

namespace lite {
namespace mir {

struct StmtInfo {
  cpp::OpDesc desc;             // the op; passes edit it in place
  const KernelDef* picked = nullptr;  // set by static_kernel_pick_pass
  int64_t order = 0;            // program position; fused ops inherit one
};

struct ArgInfo {
  std::string name;             // variable name (shared by SSA versions)
  bool is_weight = false;       // persistable with data in the scope
  bool place_known = false;     // set by variable_place_inference_pass
  Place place;
};

class Node {
 public:
  enum class Role { kStmt, kArg };

  Node(int id, Role role) : id_(id), role_(role) {}
  int id() const { return id_; }
  bool IsStmt() const { return role_ == Role::kStmt; }
  bool IsArg() const { return role_ == Role::kArg; }

  StmtInfo& stmt() { return stmt_; }
  const StmtInfo& stmt() const { return stmt_; }
  ArgInfo& arg() { return arg_; }
  const ArgInfo& arg() const { return arg_; }

  // Op type for statements, var name for arguments.
  const std::string& label() const {
    return IsStmt() ? stmt_.desc.Type() : arg_.name;
  }

  std::vector<Node*> inlinks;   // producers (for an arg: at most one stmt)
  std::vector<Node*> outlinks;  // consumers

 private:
  int id_;
  Role role_;
  StmtInfo stmt_;
  ArgInfo arg_;
};

}  // namespace mir
}  // namespace lite
