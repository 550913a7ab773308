// Prints docs/ops.md (tools/op_table.h) to stdout:
//   bazel run //tools:op_table > docs/ops.md
#include <iostream>

#include "tools/op_table.h"

int main() {
  std::cout << lite::tools::OpTableMarkdown();
  return 0;
}
