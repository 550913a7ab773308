// Test helper: where the shared real Paddle models live.
//
// The models sit outside the Bazel workspace, at <repo root>/../shared/models
// (normally /work/shared/models), so they cannot be declared as data; this
// finds them at test time. Tests own nothing here; they skip when "" is
// returned.
#pragma once

#include <string>

namespace lite {

// The first existing directory among: $LITE_SHARED_MODELS;
// $BUILD_WORKSPACE_DIRECTORY/../shared/models (bazel run); <repo root>/../
// shared/models where the repo root is found by resolving the runfile
// lite/model_parser/test_models.cc (the test target must list it in data)
// back to its source; <ancestor of the working directory>/shared/models;
// /work/shared/models. "" when none exists.
std::string SharedModelsDir();

// The source tree root, found by resolving the runfile
// lite/model_parser/test_models.cc back to its source; "" outside a Bazel
// test or when the target does not list the file in data.
std::string RepoRootFromRunfiles();

// Message for GTEST_SKIP when SharedModelsDir() is "".
constexpr const char* kSharedModelsMissing =
    "../shared/models not found; skipping real-model test";

}  // namespace lite
