#include "lite/base/program_desc.h"

#include <algorithm>
#include <type_traits>

namespace lite {
namespace cpp {

namespace {
const std::vector<std::string>& EmptyArgs() {
  static const std::vector<std::string> kEmpty;
  return kEmpty;
}

const std::vector<std::string>& Lookup(
    const std::map<std::string, std::vector<std::string>>& m,
    const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? EmptyArgs() : it->second;
}

std::vector<std::string> Flatten(
    const std::map<std::string, std::vector<std::string>>& m) {
  std::vector<std::string> out;
  for (const auto& kv : m) out.insert(out.end(), kv.second.begin(), kv.second.end());
  return out;
}

void Rename(std::map<std::string, std::vector<std::string>>* m,
            const std::string& from, const std::string& to) {
  for (auto& kv : *m) {
    std::replace(kv.second.begin(), kv.second.end(), from, to);
  }
}

// Reads a scalar numeric attribute of any numeric stored type.
template <typename T>
bool ReadNumber(const AttrValue& v, T* out) {
  return std::visit(
      [out](const auto& x) -> bool {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_arithmetic_v<X>) {
          *out = static_cast<T>(x);
          return true;
        }
        return false;
      },
      v);
}

// Reads a list attribute of any numeric element type.
template <typename T>
bool ReadList(const AttrValue& v, std::vector<T>* out) {
  return std::visit(
      [out](const auto& x) -> bool {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::vector<int32_t>> ||
                      std::is_same_v<X, std::vector<int64_t>> ||
                      std::is_same_v<X, std::vector<float>> ||
                      std::is_same_v<X, std::vector<double>> ||
                      std::is_same_v<X, std::vector<bool>>) {
          out->assign(x.begin(), x.end());
          return true;
        }
        return false;
      },
      v);
}
}  // namespace

bool OpDesc::HasInput(const std::string& p) const { return !Input(p).empty(); }
bool OpDesc::HasOutput(const std::string& p) const { return !Output(p).empty(); }
const std::vector<std::string>& OpDesc::Input(const std::string& p) const {
  return Lookup(inputs_, p);
}
const std::vector<std::string>& OpDesc::Output(const std::string& p) const {
  return Lookup(outputs_, p);
}
void OpDesc::SetInput(const std::string& p, std::vector<std::string> args) {
  inputs_[p] = std::move(args);
}
void OpDesc::SetOutput(const std::string& p, std::vector<std::string> args) {
  outputs_[p] = std::move(args);
}
std::vector<std::string> OpDesc::InputArgumentNames() const { return Flatten(inputs_); }
std::vector<std::string> OpDesc::OutputArgumentNames() const { return Flatten(outputs_); }
std::string OpDesc::DebugName() const {
  auto outs = OutputArgumentNames();
  return type_ + (outs.empty() ? "" : " (output: " + outs.front() + ")");
}
void OpDesc::RenameInput(const std::string& from, const std::string& to) {
  Rename(&inputs_, from, to);
}
void OpDesc::RenameOutput(const std::string& from, const std::string& to) {
  Rename(&outputs_, from, to);
}

const Attribute* OpDesc::FindAttr(const std::string& name) const {
  auto it = attrs_.find(name);
  return it == attrs_.end() ? nullptr : &it->second;
}

void OpDesc::SetAttr(const std::string& n, int32_t v) { attrs_[n] = {AttrType::INT, v}; }
void OpDesc::SetAttr(const std::string& n, int64_t v) { attrs_[n] = {AttrType::LONG, v}; }
void OpDesc::SetAttr(const std::string& n, float v) { attrs_[n] = {AttrType::FLOAT, v}; }
void OpDesc::SetAttr(const std::string& n, double v) { attrs_[n] = {AttrType::FLOAT64, v}; }
void OpDesc::SetAttr(const std::string& n, bool v) { attrs_[n] = {AttrType::BOOLEAN, v}; }
void OpDesc::SetAttr(const std::string& n, const char* v) {
  attrs_[n] = {AttrType::STRING, std::string(v)};
}
void OpDesc::SetAttr(const std::string& n, const std::string& v) {
  attrs_[n] = {AttrType::STRING, v};
}
void OpDesc::SetAttr(const std::string& n, const std::vector<int32_t>& v) {
  attrs_[n] = {AttrType::INTS, v};
}
void OpDesc::SetAttr(const std::string& n, const std::vector<int64_t>& v) {
  attrs_[n] = {AttrType::LONGS, v};
}
void OpDesc::SetAttr(const std::string& n, const std::vector<float>& v) {
  attrs_[n] = {AttrType::FLOATS, v};
}
void OpDesc::SetAttr(const std::string& n, const std::vector<std::string>& v) {
  attrs_[n] = {AttrType::STRINGS, v};
}
void OpDesc::SetAttr(const std::string& n, const std::vector<bool>& v) {
  attrs_[n] = {AttrType::BOOLEANS, v};
}

bool OpDesc::TryGetAttr(const std::string& n, int32_t* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadNumber(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, int64_t* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadNumber(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, float* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadNumber(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, double* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadNumber(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, bool* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadNumber(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, std::string* out) const {
  const Attribute* a = FindAttr(n);
  if (!a) return false;
  if (const auto* s = std::get_if<std::string>(&a->value)) {
    *out = *s;
    return true;
  }
  return false;
}
bool OpDesc::TryGetAttr(const std::string& n, std::vector<int32_t>* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadList(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, std::vector<int64_t>* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadList(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, std::vector<float>* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadList(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, std::vector<bool>* out) const {
  const Attribute* a = FindAttr(n);
  return a && ReadList(a->value, out);
}
bool OpDesc::TryGetAttr(const std::string& n, std::vector<std::string>* out) const {
  const Attribute* a = FindAttr(n);
  if (!a) return false;
  if (const auto* s = std::get_if<std::vector<std::string>>(&a->value)) {
    *out = *s;
    return true;
  }
  return false;
}

const VarDesc* BlockDesc::FindVar(const std::string& name) const {
  for (const auto& v : vars) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

VarDesc* BlockDesc::FindVar(const std::string& name) {
  for (auto& v : vars) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

const char* AttrTypeName(AttrType t) {
  static const char* const kNames[] = {"INT", "FLOAT", "STRING", "INTS", "FLOATS", "STRINGS",
                                       "BOOLEAN", "BOOLEANS", "BLOCK", "LONG", "BLOCKS", "LONGS",
                                       "FLOAT64S", "VAR", "VARS", "FLOAT64", "SCALAR", "SCALARS"};
  const int i = static_cast<int>(t);
  return i >= 0 && i < 18 ? kNames[i] : "?";
}

VarDesc FeedFetchListVar(const std::string& name, VarKind kind) {
  VarDesc v;
  v.name = name;
  v.kind = kind;
  v.persistable = true;
  v.dtype = DataType::kUnknown;
  return v;
}

}  // namespace cpp
}  // namespace lite
