#include "lite/optimizer/passes/subgraph/partition.h"

#include <algorithm>
#include <sstream>

namespace lite {
namespace mir {

namespace {
std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(Trim(item));
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

bool Contains(const std::vector<std::string>& have, const std::string& want) {
  return std::find(have.begin(), have.end(), want) != have.end();
}
}  // namespace

bool PartitionRule::Matches(const cpp::OpDesc& op) const {
  if (op.Type() != op_type) return false;
  const auto ins = op.InputArgumentNames();
  const auto outs = op.OutputArgumentNames();
  for (const auto& v : inputs) {
    if (!Contains(ins, v)) return false;
  }
  for (const auto& v : outputs) {
    if (!Contains(outs, v)) return false;
  }
  return true;
}

StatusOr<std::vector<PartitionRule>> ParsePartitionRules(const std::string& text) {
  std::vector<PartitionRule> rules;
  std::istringstream in(text);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string s = Trim(raw);
    if (s.empty() || s[0] == '#') continue;
    const std::string where = "partition line " + std::to_string(line) + " '" + s + "'";
    std::vector<std::string> fields = Split(s, ':');
    if (fields.size() > 3) return InvalidArgument(where + ": more than 3 ':'-separated fields");
    PartitionRule r;
    r.line = line;
    r.text = s;
    r.op_type = fields[0];
    if (r.op_type.empty()) return InvalidArgument(where + ": empty op type");
    for (size_t f = 1; f < fields.size(); ++f) {
      if (fields[f].empty()) continue;
      for (const auto& v : Split(fields[f], ',')) {
        if (v.empty()) return InvalidArgument(where + ": empty var name");
        (f == 1 ? r.inputs : r.outputs).push_back(v);
      }
    }
    rules.push_back(std::move(r));
  }
  return rules;
}

}  // namespace mir
}  // namespace lite
