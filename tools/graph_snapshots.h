// opt's graph pictures: the DOT text of the graph after each pass that
// changed it, written as numbered files (00_loaded.dot, 01_<pass>.dot, ...)
// into a folder, each rendered to SVG by Graphviz's `dot` when it is on
// PATH. A run first removes the numbered pictures an earlier run left, so
// the folder shows exactly one run's passes.
#pragma once

#include <string>

#include "lite/utils/status.h"

namespace lite {
namespace tools {

// True when an executable named `exe` is on PATH.
bool OnPath(const std::string& exe);

// Writes `dir`/`name`.dot (and .svg with `svg`) and prints one line naming it.
Status WriteGraphSnapshot(const std::string& dir, const std::string& name,
                          const std::string& dot, bool svg);

// Removes NN_*.dot / NN_*.svg from `dir`.
Status ClearGraphSnapshots(const std::string& dir);

}  // namespace tools
}  // namespace lite
