#include "lite/core/kernel.h"

#include <algorithm>

namespace lite {

std::string KernelDef::Key() const {
  return op_type + "/" + alias + "/" + TargetName(place.target) + "/" +
         PrecisionName(place.precision) + "/" + LayoutName(place.layout);
}

Place KernelDef::InputPlace(const std::string& arg) const {
  auto it = input_places.find(arg);
  return it == input_places.end() ? place : it->second;
}

Place KernelDef::OutputPlace(const std::string& arg) const {
  auto it = output_places.find(arg);
  return it == output_places.end() ? place : it->second;
}

KernelDef& KernelDef::BindInput(const std::string& arg, Place p) {
  input_places[arg] = p;
  return *this;
}

KernelDef& KernelDef::BindOutput(const std::string& arg, Place p) {
  output_places[arg] = p;
  return *this;
}

KernelRegistry& KernelRegistry::Global() {
  static KernelRegistry* registry = new KernelRegistry;
  return *registry;
}

KernelDef& KernelRegistry::Register(const std::string& op_type, Place place,
                                    const std::string& alias,
                                    KernelFactory factory) {
  KernelDef def;
  def.op_type = op_type;
  def.place = place;
  def.alias = alias;
  def.factory = std::move(factory);
  defs_.push_back(std::move(def));
  return defs_.back();
}

namespace {
void SortByKey(std::vector<const KernelDef*>* defs) {
  std::sort(defs->begin(), defs->end(),
            [](const KernelDef* a, const KernelDef* b) { return a->Key() < b->Key(); });
}
}  // namespace

std::vector<const KernelDef*> KernelRegistry::Find(const std::string& op_type) const {
  std::vector<const KernelDef*> out;
  for (const auto& d : defs_) {
    if (d.op_type == op_type) out.push_back(&d);
  }
  SortByKey(&out);
  return out;
}

const KernelDef* KernelRegistry::FindByKey(const std::string& key) const {
  for (const auto& d : defs_) {
    if (d.Key() == key) return &d;
  }
  return nullptr;
}

std::vector<const KernelDef*> KernelRegistry::All() const {
  std::vector<const KernelDef*> out;
  for (const auto& d : defs_) out.push_back(&d);
  SortByKey(&out);
  return out;
}

}  // namespace lite
