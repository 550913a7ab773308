// CompiledSubgraph: one NPU subgraph's compiled executable as bytes (what a
// driver's Serialize returned), with the key it was compiled under and that
// key's ingredients in plain text, so a mismatch can be explained. The .nb
// format stores a list of them (docs/nb_format.md, "Compiled subgraphs");
// the subgraph kernel computes keys (lite/backends/npu/compiled_key.h) and
// decides whether an entry may be used. The formats store entries as
// neutral DeviceRecords (lite/base/device_record.h): ToDeviceRecord and
// FromDeviceRecord convert, fields in the order kCompiledFieldNames lists.
//
// CompiledSubgraphStore: the entries one predictor loaded from its .nb, or
// collects to save. Shared (shared_ptr in NpuOptions) by the predictor, its
// clones and its subgraph kernels; every method is thread-safe and returns
// copies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "lite/base/device_record.h"
#include "lite/utils/status.h"

namespace lite {

struct CompiledSubgraph {
  int32_t subgraph_id = 0;
  std::string key;  // 64 lowercase hex digits: SHA-256 over the ingredients
  // The ingredients (see lite/backends/npu/compiled_key.h).
  std::string model_digest;  // SHA-256 hex of the subgraph's canonical NN IR
  std::string input_dims;    // "1x3x32x32;1x8" (also inside the NN IR)
  std::string driver;
  std::string driver_version;
  std::string driver_api;  // "1.3"
  std::string engine_version;
  std::string cpu_features;
  std::string blob_sha256;  // SHA-256 hex of `blob`, checked before Deserialize
  std::vector<uint8_t> blob;
};

// The record's text fields, in order: key, then the ingredients, then the
// blob's SHA-256 (the .nb's nine strings).
inline constexpr const char* kCompiledFieldNames[] = {
    "key",        "model_digest",   "input_dims",   "driver",      "driver_version",
    "driver_api", "engine_version", "cpu_features", "blob_sha256",
};

DeviceRecord ToDeviceRecord(const CompiledSubgraph& entry);
// InvalidArgument (naming the record's id) when the field count differs.
StatusOr<CompiledSubgraph> FromDeviceRecord(const DeviceRecord& record);

class CompiledSubgraphStore {
 public:
  // Adds `entry`, replacing one with the same subgraph id and key.
  void Put(CompiledSubgraph entry) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& e : entries_) {
      if (e.subgraph_id == entry.subgraph_id && e.key == entry.key) {
        e = std::move(entry);
        return;
      }
    }
    entries_.push_back(std::move(entry));
  }
  // Entries of subgraph `id`, in insertion order.
  std::vector<CompiledSubgraph> ForSubgraph(int32_t id) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<CompiledSubgraph> out;
    for (const auto& e : entries_) {
      if (e.subgraph_id == id) out.push_back(e);
    }
    return out;
  }
  // Every entry, ordered by subgraph id then key (deterministic files).
  std::vector<CompiledSubgraph> All() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<CompiledSubgraph> out = entries_;
    std::sort(out.begin(), out.end(), [](const CompiledSubgraph& a, const CompiledSubgraph& b) {
      return std::tie(a.subgraph_id, a.key) < std::tie(b.subgraph_id, b.key);
    });
    return out;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_.size();
  }

 private:
  mutable std::mutex mu_;
  std::vector<CompiledSubgraph> entries_;
};

}  // namespace lite
