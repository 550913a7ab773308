#include "lite/optimizer/dot.h"

#include <map>
#include <sstream>

#include "lite/backends/npu/placement.h"

namespace lite {
namespace mir {

namespace {
std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string NodeName(const Node* n) { return "n" + std::to_string(n->id()); }

// "\n12 ops: conv2d x5, relu x4, ..." for the block a subgraph op holds.
std::string SubBlockSummary(const SSAGraph& graph, const cpp::OpDesc& desc) {
  const cpp::Attribute* a = desc.FindAttr("sub_block");
  if (!a || a->type != cpp::AttrType::BLOCK) return "";
  const int idx = std::get<int32_t>(a->value);
  const int first_added = static_cast<int>(graph.source_program().blocks.size());
  const cpp::BlockDesc* block = nullptr;
  if (idx >= first_added && idx - first_added < static_cast<int>(graph.added_blocks().size())) {
    block = &graph.added_blocks()[idx - first_added];
  } else if (idx >= 0 && idx < first_added) {
    block = &graph.source_program().blocks[idx];
  }
  if (!block) return "";
  std::map<std::string, int> counts;
  for (const auto& op : block->ops) ++counts[op.Type()];
  std::string out = "\\n" + std::to_string(block->ops.size()) + " ops:";
  int line = 0;
  for (const auto& kv : counts) {
    out += (line++ % 3 == 0 ? "\\n" : ", ") + Escape(kv.first) + " x" + std::to_string(kv.second);
  }
  return out;
}
}  // namespace

std::string GraphToDot(const SSAGraph& graph, const std::string& title) {
  std::ostringstream os;
  os << "digraph G {\n";
  os << "  label=\"" << Escape(title) << "\";\n  labelloc=t;\n";
  os << "  node [fontname=\"Helvetica\", fontsize=10];\n";
  os << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
  for (const Node* n : graph.nodes()) {
    if (n->IsStmt()) {
      const cpp::OpDesc& desc = n->stmt().desc;
      std::string label = Escape(desc.Type());
      // Activations folded in by fusion passes stay visible.
      for (const char* attr : {"fuse_activation", "y_activation"}) {
        std::string act = desc.GetAttr<std::string>(attr, "");
        if (!act.empty()) {
          label += std::string("\\n+ ") + (attr[0] == 'y' ? "act(Y): " : "") + Escape(act);
        }
      }
      std::string fill = "#cfe2f3";
      if (desc.Type() == "subgraph") {
        // Subgraphs: coloured by id, labelled with their ops.
        static const char* const kPalette[] = {"#f9cb9c", "#b6d7a8", "#ffe599", "#d5a6bd",
                                               "#a2c4c9", "#f4cccc", "#b4a7d6", "#d9ead3"};
        const int id = desc.GetAttr<int32_t>("subgraph_id", 0);
        fill = kPalette[id % 8];
        label = "subgraph #" + std::to_string(id) + " (" +
                Escape(desc.GetAttr<std::string>("npu_driver", "")) + ")" +
                SubBlockSummary(graph, desc);
      } else if (desc.HasAttr(kHostReasonAttr)) {
        fill = "#e0e0e0";  // the subgraph pass left it on host
      }
      if (n->stmt().picked) label += "\\n" + Escape(n->stmt().picked->place.DebugString());
      os << "  " << NodeName(n) << " [shape=box, style=\"filled,rounded\", "
         << "fillcolor=\"" << fill << "\", label=\"" << label << "\"];\n";
    } else {
      os << "  " << NodeName(n) << " [shape=ellipse"
         << (n->arg().is_weight ? ", style=dashed" : "") << ", label=\""
         << Escape(n->arg().name) << "\"];\n";
    }
  }
  for (const Node* n : graph.nodes()) {
    for (const Node* out : n->outlinks) {
      std::string param = n->IsStmt() ? OutputParamOf(n, out->arg().name)
                                      : InputParamOf(out, n->arg().name);
      os << "  " << NodeName(n) << " -> " << NodeName(out) << " [label=\""
         << Escape(param) << "\"];\n";
    }
  }
  os << "}\n";
  return os.str();
}

}  // namespace mir
}  // namespace lite
