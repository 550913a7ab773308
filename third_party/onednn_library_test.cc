// oneDNN, the x86 target's library (third_party:dnnl): links and reports its
// version. A test of its own, apart from system_libraries_test, because the
// aarch64 build has no oneDNN.
#include <dnnl.h>
#include <gtest/gtest.h>

TEST(SystemLibraries, OneDnnReportsItsVersion) {
  const dnnl_version_t* v = dnnl_version();
  ASSERT_NE(v, nullptr);
  EXPECT_GE(v->major, 2);
}
