// The op x target table of docs/ops.md, generated from the registries: one
// row per op type known to the op, kernel or NPU bridge registry (sorted),
// with the precisions of its host and x86 kernels, kernels of other
// targets, whether an NPU bridge converts it, and the attribute values it
// declares (DECLARE_LITE_OP_ATTR_VALUES). Reads only the registries linked
// into the caller; owns nothing. `bazel run //tools:op_table > docs/ops.md`
// writes the file; //tools:op_table_test fails when it is out of date.
#pragma once

#include <string>

namespace lite {
namespace tools {

// The regeneration command docs/ops.md names.
inline constexpr const char* kOpTableCommand = "bazel run //tools:op_table > docs/ops.md";

// The whole Markdown file (deterministic: sorted, no timestamps).
std::string OpTableMarkdown();

}  // namespace tools
}  // namespace lite
