// Helpers shared by the fuzz targets (header only, no state): the .nb
// checksum fix-up that lets mutated .nb files reach the parser behind the
// checksum. Owned by tests/fuzz.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "lite/model_parser/naive_buffer/naive_buffer.h"

namespace lite {
namespace fuzz {

// `nb` with its last 4 bytes replaced by the FNV-1a checksum of the bytes
// before them, so a mutation elsewhere is not caught by the checksum alone.
inline std::string WithValidNbChecksum(std::string nb) {
  if (nb.size() < 4) return nb;
  const uint32_t sum = naive_buffer::Fnv1a32(nb.data(), nb.size() - 4);
  std::memcpy(&nb[nb.size() - 4], &sum, 4);
  return nb;
}

}  // namespace fuzz
}  // namespace lite
