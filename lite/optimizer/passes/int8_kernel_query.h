// Whether some kInt8 kernel of a valid place takes an int8 op as described:
// the int8 passes (quant_dequant_fuse_pass, int8_requantize_pass) ask before
// they rewrite, so a graph never holds an int8 form no kernel runs.
#pragma once

#include "lite/base/program_desc.h"
#include "lite/optimizer/ssa_graph.h"

namespace lite {
namespace mir {
namespace fusion {

bool Int8KernelTakes(const SSAGraph& graph, const cpp::OpDesc& desc);

}  // namespace fusion
}  // namespace mir
}  // namespace lite
