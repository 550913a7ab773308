#include "lite/backends/npu/compiled_subgraph.h"

#include <iterator>

namespace lite {

namespace {

// The entry's text fields in kCompiledFieldNames' order.
constexpr std::string CompiledSubgraph::*kFields[] = {
    &CompiledSubgraph::key,          &CompiledSubgraph::model_digest,
    &CompiledSubgraph::input_dims,   &CompiledSubgraph::driver,
    &CompiledSubgraph::driver_version, &CompiledSubgraph::driver_api,
    &CompiledSubgraph::engine_version, &CompiledSubgraph::cpu_features,
    &CompiledSubgraph::blob_sha256,
};
static_assert(std::size(kFields) == std::size(kCompiledFieldNames));

}  // namespace

DeviceRecord ToDeviceRecord(const CompiledSubgraph& entry) {
  DeviceRecord r;
  r.id = entry.subgraph_id;
  for (auto field : kFields) r.fields.push_back(entry.*field);
  r.blob = entry.blob;
  return r;
}

StatusOr<CompiledSubgraph> FromDeviceRecord(const DeviceRecord& record) {
  if (record.fields.size() != std::size(kFields)) {
    return InvalidArgument("compiled subgraph " + std::to_string(record.id) + ": " +
                           std::to_string(record.fields.size()) + " text fields, expected " +
                           std::to_string(std::size(kFields)));
  }
  CompiledSubgraph e;
  e.subgraph_id = record.id;
  for (size_t i = 0; i < std::size(kFields); ++i) e.*kFields[i] = record.fields[i];
  e.blob = record.blob;
  return e;
}

}  // namespace lite
