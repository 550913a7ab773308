// docs/ops.md is the current output of the generator: regenerated here from
// the registries and compared line by line.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tools/op_table.h"

namespace {

TEST(OpTable, DocsOpsMdIsUpToDate) {
#if !defined(__x86_64__)
  // docs/ops.md is the x86-64 build's table: its x86 column lists kernels
  // that other builds (--config=aarch64) leave out.
  GTEST_SKIP() << "docs/ops.md is generated from the x86-64 build";
#endif
  std::ifstream in("docs/ops.md", std::ios::binary);
  ASSERT_TRUE(in.good()) << "docs/ops.md is missing; generate it with: "
                         << lite::tools::kOpTableCommand;
  std::stringstream file;
  file << in.rdbuf();
  const std::string want = lite::tools::OpTableMarkdown();
  if (file.str() == want) return;
  std::istringstream a(file.str()), b(want);
  std::string la, lb;
  int line = 0;
  while (true) {
    ++line;
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) break;
    if (!more_a || !more_b || la != lb) break;
  }
  FAIL() << "docs/ops.md is out of date (first difference at line " << line << ":\n  file:      "
         << la << "\n  generated: " << lb << ")\nregenerate it with: "
         << lite::tools::kOpTableCommand;
}

TEST(OpTable, ListsControlFlowAndDeclaredValues) {
  const std::string table = lite::tools::OpTableMarkdown();
  EXPECT_NE(table.find("| while | any |"), std::string::npos);
  EXPECT_NE(table.find("| conditional_block | any |"), std::string::npos);
  EXPECT_NE(table.find("`pooling_type`: avg, max"), std::string::npos);
}

}  // namespace
