// DeviceRecord: state a device library saves with a model, in the form the
// model formats carry it without knowing what it means: an id the library
// assigns, text fields in the library's own fixed order, and opaque bytes.
//
// The .nb format stores a list of them (docs/nb_format.md, "Compiled
// subgraphs"). The NPU library converts its compiled subgraphs to and from
// records (lite/backends/npu/compiled_subgraph.h), so the formats need not
// know the NPU and the NPU need not know the formats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lite {

struct DeviceRecord {
  int32_t id = 0;
  std::vector<std::string> fields;
  std::vector<uint8_t> blob;
};

}  // namespace lite
