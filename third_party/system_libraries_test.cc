// Links every system-library wrapper in third_party/BUILD and calls one
// function of each, so a missing Debian package or a wrong link flag fails
// here rather than in the first kernel that needs the library.
#include <gflags/gflags.h>
#include <glog/logging.h>
#include <google/protobuf/stubs/common.h>
#include <gtest/gtest.h>
#include <xnnpack.h>

TEST(SystemLibraries, XnnpackInitializes) {
  EXPECT_EQ(xnn_initialize(/*allocator=*/nullptr), xnn_status_success);
}

TEST(SystemLibraries, ProtobufGlogGflagsLink) {
  EXPECT_GT(GOOGLE_PROTOBUF_VERSION, 3000000);
  EXPECT_FALSE(gflags::GetArgv0() == nullptr);
  google::InitGoogleLogging("system_libraries_test");
  LOG(INFO) << "glog works";
  google::ShutdownGoogleLogging();
}
