#include "lite/core/mir/dot.h"

#include <sstream>

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
      if (n->stmt().picked) label += "\\n" + Escape(n->stmt().picked->place.DebugString());
      os << "  " << NodeName(n) << " [shape=box, style=\"filled,rounded\", "
         << "fillcolor=\"#cfe2f3\", label=\"" << label << "\"];\n";
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
