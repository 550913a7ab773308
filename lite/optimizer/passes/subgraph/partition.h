// Partition rules: the user's list of ops to keep on host.
//
// One rule per line, `op_type[:in_var,...[:out_var,...]]`; blank lines and
// lines starting with '#' are ignored. An op matches a rule when its type is
// op_type and every listed var is among its inputs (outputs). Every rule
// applies: an op matching any of them stays on host. Plain values.
#pragma once

#include <string>
#include <vector>

#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

struct PartitionRule {
  int line = 0;  // 1-based line in the text, for reasons
  std::string text;
  std::string op_type;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  bool Matches(const cpp::OpDesc& op) const;
};

// Errors name the line ("partition line 3: empty op type").
StatusOr<std::vector<PartitionRule>> ParsePartitionRules(const std::string& text);

}  // namespace mir
}  // namespace lite
