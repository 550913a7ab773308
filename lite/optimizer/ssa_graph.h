// SSAGraph: the program block the passes rewrite.
//
// Built from one block of a cpp::ProgramDesc: a statement node per op, and a
// new argument node for each write of a variable (reads link to the latest
// version). The graph owns its nodes and a table of VarDescs (passes add
// descs for vars they create). The Scope holding weights is borrowed. The
// graph carries no user settings (passes get theirs when they are created)
// and no output: GenerateProgram (generate_program.h) lowers it.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lite/optimizer/node.h"
#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

class SSAGraph {
 public:
  SSAGraph() = default;
  SSAGraph(const SSAGraph&) = delete;
  SSAGraph& operator=(const SSAGraph&) = delete;

  // Builds the graph of `program.blocks[block_idx]`. `scope` holds weights
  // (vars with data there that are persistable become weight args).
  Status Build(const cpp::ProgramDesc& program, int block_idx, Scope* scope,
               const std::vector<Place>& valid_places);

  // All live nodes, ordered by id.
  std::vector<Node*> nodes() const;
  std::vector<Node*> StmtNodes() const;  // ordered by (order, id)
  // Statements in a deterministic topological order: among ready
  // statements the smallest (order, id) runs first. Error on a cycle.
  StatusOr<std::vector<Node*>> StmtTopologicalOrder() const;

  Node* NewStmtNode(const cpp::OpDesc& desc, int64_t order);
  Node* NewArgNode(const std::string& name);
  // Removes a node and every edge touching it.
  void RemoveNode(Node* node);
  static void Link(Node* from, Node* to);
  static void Unlink(Node* from, Node* to);
  size_t size() const { return nodes_.size(); }

  // Variable descriptions by name (block vars plus vars passes created).
  const cpp::VarDesc* FindVarDesc(const std::string& name) const;
  void SetVarDesc(const cpp::VarDesc& desc) { var_descs_[desc.name] = desc; }
  const std::map<std::string, cpp::VarDesc>& var_descs() const { return var_descs_; }

  Scope* scope() const { return scope_; }
  const std::vector<Place>& valid_places() const { return valid_places_; }
  // The program the graph came from (other blocks, version info).
  const cpp::ProgramDesc& source_program() const { return source_; }
  int block_idx() const { return block_idx_; }
  // For a sub-block: the vars its ancestor blocks declare and it does not
  // (their descs are in var_descs() too); empty for block 0.
  const std::set<std::string>& outer_names() const { return outer_names_; }

  // Blocks passes add to the program (subgraph bodies). The first added
  // block gets index source_program().blocks.size(). GenerateProgram
  // appends them to the lowered program; static_kernel_pick_pass picks
  // host kernels for their ops.
  int AddBlock(cpp::BlockDesc block);
  std::vector<cpp::BlockDesc>* mutable_added_blocks() { return &added_blocks_; }
  const std::vector<cpp::BlockDesc>& added_blocks() const { return added_blocks_; }

  // A fresh variable name derived from `base`, unused in this graph.
  std::string UniqueVarName(const std::string& base);

 private:
  std::vector<std::unique_ptr<Node>> nodes_;  // ids index this vector
  int live_ = 0;
  std::map<std::string, cpp::VarDesc> var_descs_;
  Scope* scope_ = nullptr;
  std::vector<Place> valid_places_;
  cpp::ProgramDesc source_;
  int block_idx_ = 0;
  std::set<std::string> outer_names_;
  int64_t next_order_ = 0;
  std::vector<cpp::BlockDesc> added_blocks_;
};

// The dims the graph declares for a var (what kernels' accept functions
// judge, see KernelDef::SetAcceptsDims); empty when it has no desc. The
// graph must outlive the function.
VarDimsFn DeclaredDims(const SSAGraph& graph);

// True for a control-flow op (while, conditional_block): its sub-block reads
// and writes outer vars by name, so passes keep the names it reads and
// writes (never renaming them, like fetched vars) and move nothing into or
// out of the block.
bool IsControlFlowOp(const cpp::OpDesc& desc);

// Name of the parameter of stmt `op` that lists variable `var` as an input
// (or output); "" when none.
std::string InputParamOf(const Node* op, const std::string& var);
std::string OutputParamOf(const Node* op, const std::string& var);

}  // namespace mir
}  // namespace lite
