// NpuOptions: every user setting of NPU subgraphs, in one typed struct.
//
// The full predictor and tools/opt fill it from CxxConfig / flags; the
// subgraph pass reads the partitioning fields from the SSA graph, and the
// subgraph kernels read the run-time fields from their KernelContext (the
// light predictor fills those from MobileConfig). Plain value, no owner.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/compiled_subgraph.h"

namespace lite {

struct NpuOptions {
  // Driver that compiles and runs subgraphs (lite/backends/npu/driver.h).
  // The light predictor uses the driver recorded in the model unless this
  // is set there.
  std::string driver = "xnnpack";
  // Any subgraph falling back to its host ops is an error at creation.
  bool strict = false;
  // Clusters with fewer ops stay on host.
  int min_subgraph_size = 2;
  // Lines "op_type[:in_var,...[:out_var,...]]" of ops to keep on host (the
  // file's contents; tools read the file named by the user).
  std::string partition_text;
  // Run every subgraph on the device and on its host ops, and record the
  // largest differences (PlacementReport).
  bool cross_check = false;
  // Directories scanned for out-of-tree driver plugins
  // (<vendor>_<driver>_npu_driver.so) before the LITE_NPU_DRIVER_PATH ones;
  // see lite/backends/npu/plugin/plugin_loader.h.
  std::vector<std::string> driver_paths;

  // Compiled subgraphs as data (docs/nb_format.md). Loading an executable
  // from the model file or the cache directory runs native code from that
  // file: only with this set; otherwise every subgraph compiles and one line
  // says what was not loaded.
  bool trust_compiled_code = false;
  // A directory of compiled subgraphs, keyed as in the .nb: looked up
  // (with trust_compiled_code) before compiling, written after compiling.
  std::string cache_dir;
  // Subgraph kernels serialize what they compile into `compiled`, so that
  // SaveOptimizedModel / opt --npu_save_compiled store it in the .nb.
  bool save_compiled = false;
  // The entries loaded from the .nb (light predictor), or collected for
  // saving; shared by a predictor, its clones and its kernels. May be null.
  std::shared_ptr<CompiledSubgraphStore> compiled;
};

}  // namespace lite
