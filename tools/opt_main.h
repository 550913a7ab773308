// tools/opt as a callable: OptMain(argc, argv) parses opt's flags (gflags,
// process-global: call it once per process), does what they ask and returns
// the exit code (0, or 1 after one line "opt: error: <reason>" on stderr).
// Used by opt.cc's main and by the Python module's `paddle_lite_opt` script.
#pragma once

namespace lite {
namespace tools {

int OptMain(int argc, char** argv);

}  // namespace tools
}  // namespace lite
