// In-memory view of a Paddle program, independent of the protobuf wire
// classes: ProgramDesc owns BlockDescs, which own VarDescs and OpDescs.
//
// Every pass, op and tool works on these plain value types; only the
// model_parser converts them to and from framework.proto. Maps are ordered
// (std::map) so iteration, and therefore everything derived from it, is
// deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "lite/base/types.h"

namespace lite {
namespace cpp {

// Mirrors paddle.framework.proto.AttrType so a program saves back unchanged.
enum class AttrType : int {
  INT = 0, FLOAT = 1, STRING = 2, INTS = 3, FLOATS = 4, STRINGS = 5,
  BOOLEAN = 6, BOOLEANS = 7, BLOCK = 8, LONG = 9, BLOCKS = 10, LONGS = 11,
  FLOAT64S = 12, VAR = 13, VARS = 14, FLOAT64 = 15, SCALAR = 16, SCALARS = 17,
};

// One attribute value. BLOCK is stored as int32 and BLOCKS as
// vector<int32> with the AttrType telling them apart from INT/INTS; VAR/VARS
// are stored as string / vector<string>; SCALAR as double.
using AttrValue = std::variant<int32_t, float, std::string, std::vector<int32_t>,
                               std::vector<float>, std::vector<std::string>,
                               bool, std::vector<bool>, int64_t,
                               std::vector<int64_t>, std::vector<double>,
                               double>;

struct Attribute {
  AttrType type = AttrType::INT;
  AttrValue value;
};

class OpDesc {
 public:
  OpDesc() = default;
  explicit OpDesc(std::string type) : type_(std::move(type)) {}

  const std::string& Type() const { return type_; }
  void SetType(const std::string& t) { type_ = t; }

  // Argument maps: parameter name ("X", "Filter") -> variable names.
  const std::map<std::string, std::vector<std::string>>& inputs() const {
    return inputs_;
  }
  const std::map<std::string, std::vector<std::string>>& outputs() const {
    return outputs_;
  }
  std::map<std::string, std::vector<std::string>>* mutable_inputs() {
    return &inputs_;
  }
  std::map<std::string, std::vector<std::string>>* mutable_outputs() {
    return &outputs_;
  }
  bool HasInput(const std::string& param) const;   // present and non-empty
  bool HasOutput(const std::string& param) const;  // present and non-empty
  // Variable names of `param`, empty when absent.
  const std::vector<std::string>& Input(const std::string& param) const;
  const std::vector<std::string>& Output(const std::string& param) const;
  void SetInput(const std::string& param, std::vector<std::string> args);
  void SetOutput(const std::string& param, std::vector<std::string> args);
  // All variable names read / written, in parameter order.
  std::vector<std::string> InputArgumentNames() const;
  std::vector<std::string> OutputArgumentNames() const;
  // "conv2d (output: conv2d_0.tmp_0)" (the type alone when nothing is
  // written): how errors, reasons and reports name an op.
  std::string DebugName() const;
  // Renames every use of `from` among the inputs (outputs) to `to`.
  void RenameInput(const std::string& from, const std::string& to);
  void RenameOutput(const std::string& from, const std::string& to);

  // Attributes.
  const std::map<std::string, Attribute>& attrs() const { return attrs_; }
  bool HasAttr(const std::string& name) const { return attrs_.count(name); }
  void RemoveAttr(const std::string& name) { attrs_.erase(name); }
  const Attribute* FindAttr(const std::string& name) const;
  void SetRawAttr(const std::string& name, Attribute a) { attrs_[name] = a; }

  // Typed setters pick the natural AttrType for T.
  void SetAttr(const std::string& name, int32_t v);
  void SetAttr(const std::string& name, int64_t v);
  void SetAttr(const std::string& name, float v);
  void SetAttr(const std::string& name, double v);
  void SetAttr(const std::string& name, bool v);
  void SetAttr(const std::string& name, const char* v);
  void SetAttr(const std::string& name, const std::string& v);
  void SetAttr(const std::string& name, const std::vector<int32_t>& v);
  void SetAttr(const std::string& name, const std::vector<int64_t>& v);
  void SetAttr(const std::string& name, const std::vector<float>& v);
  void SetAttr(const std::string& name, const std::vector<std::string>& v);
  void SetAttr(const std::string& name, const std::vector<bool>& v);

  // Typed getters with conversion between compatible stored types (an INT
  // attribute read as int64/float/bool, LONGS read as vector<int>, FLOAT64 as
  // float, ...). Return `fallback` when the attribute is absent. Return false
  // from TryGetAttr when it is present but cannot convert to T.
  //
  // An attribute present with a type that cannot convert to T is recorded
  // in mistyped_attrs() (OpLite::Attach turns that into an error naming the
  // op and attribute, so a malformed model never runs with defaults). Only
  // such a read writes to the desc, and a program holding one is refused.
  template <typename T>
  T GetAttr(const std::string& name, const T& fallback = T()) const {
    T out;
    if (TryGetAttr(name, &out)) return out;
    if (HasAttr(name)) mistyped_attrs_.insert(name);
    return fallback;
  }
  const std::set<std::string>& mistyped_attrs() const { return mistyped_attrs_; }
  bool TryGetAttr(const std::string& name, int32_t* out) const;
  bool TryGetAttr(const std::string& name, int64_t* out) const;
  bool TryGetAttr(const std::string& name, float* out) const;
  bool TryGetAttr(const std::string& name, double* out) const;
  bool TryGetAttr(const std::string& name, bool* out) const;
  bool TryGetAttr(const std::string& name, std::string* out) const;
  bool TryGetAttr(const std::string& name, std::vector<int32_t>* out) const;
  bool TryGetAttr(const std::string& name, std::vector<int64_t>* out) const;
  bool TryGetAttr(const std::string& name, std::vector<float>* out) const;
  bool TryGetAttr(const std::string& name, std::vector<std::string>* out) const;
  bool TryGetAttr(const std::string& name, std::vector<bool>* out) const;

 private:
  std::string type_;
  std::map<std::string, std::vector<std::string>> inputs_;
  std::map<std::string, std::vector<std::string>> outputs_;
  std::map<std::string, Attribute> attrs_;
  mutable std::set<std::string> mistyped_attrs_;
};

const char* AttrTypeName(AttrType t);  // "INT", "FLOATS", ...

// What kind of variable: a dense (LoD) tensor, or the feed/fetch lists.
enum class VarKind : int { kLoDTensor = 0, kFeedList, kFetchList, kTensorArray, kOther };

struct VarDesc {
  std::string name;
  VarKind kind = VarKind::kLoDTensor;
  DataType dtype = DataType::kFloat32;
  std::vector<int64_t> dims;  // -1 for unknown extents
  int lod_level = 0;
  bool persistable = false;
  bool need_check_feed = false;
  // Paddle VarType::Type code of `kind` when it was kOther (kept for saving).
  int raw_type = 7;
};

// The persistable "feed" / "fetch" list variable of a program's block 0.
VarDesc FeedFetchListVar(const std::string& name, VarKind kind);

struct BlockDesc {
  int idx = 0;
  int parent_idx = -1;
  int forward_block_idx = -1;
  std::vector<VarDesc> vars;
  std::vector<OpDesc> ops;

  const VarDesc* FindVar(const std::string& name) const;
  VarDesc* FindVar(const std::string& name);
};

struct ProgramDesc {
  std::vector<BlockDesc> blocks;
  int64_t version = 0;
  bool has_version = false;
  // Paddle 2.x op_version_map (op name -> version), ordered.
  std::map<std::string, int32_t> op_versions;
  // Serialized bytes of fields the in-memory view does not model
  // (op_compatible_map, unknown fields), restored on save.
  std::string opaque_extras;
};

}  // namespace cpp
}  // namespace lite
