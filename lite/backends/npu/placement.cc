#include "lite/backends/npu/placement.h"

namespace lite {

const char* SubgraphStateName(SubgraphRecord::State s) {
  switch (s) {
    case SubgraphRecord::State::kOnDevice: return "device";
    case SubgraphRecord::State::kFellBack: return "host";
    case SubgraphRecord::State::kPending: return "pending";
  }
  return "?";
}

}  // namespace lite
