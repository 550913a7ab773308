// A Paddle 3 PIR program as read from `inference.json`, before translation:
// plain value types that mirror the JSON (ops with operand ids, typed
// results and named attributes) with the compressed names expanded
// ("1.conv2d" -> "pd_op.conv2d", "p" -> "builtin.parameter").
//
// pir_json.h builds it; pir_translator.h turns it into the engine's
// cpp::ProgramDesc. Nothing here knows about either.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lite {
namespace pir {

// One attribute value. `kind` is the PIR attribute type without its dialect
// ("a_i32", "a_f64", "a_str", "a_array", "a_intarray", "a_dtype", ...).
// Scalars fill `i`/`f`/`b`/`s` (numbers fill both `i` and `f`; NaN and
// infinities, written as strings in the JSON, fill `f`); arrays fill
// `elems`; a_intarray fills `elems` with a_i64 entries.
struct Attr {
  std::string kind;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Attr> elems;

  bool is_number() const;
  bool is_array() const { return kind == "a_array" || kind == "a_intarray"; }
};

// A value's type: a dense tensor (`dtype` as "f32", "i64", "ui8", ...,
// `dims` with -1 for unknown extents) or a vector of types (builtin.combine
// results). `dtype` is empty for a null or unknown type.
struct Type {
  bool is_vector = false;
  std::string dtype;
  std::vector<int64_t> dims;
  std::vector<Type> elems;
};

struct Result {
  int64_t id = 0;
  Type type;
};

struct Op {
  std::string name;               // "pd_op.conv2d", "builtin.combine", ...
  std::vector<int64_t> operands;  // value ids; 0 = absent optional operand
  std::vector<Result> results;
  std::map<std::string, Attr> attrs;
  // builtin.parameter: the parameter's name (from the compressed "A" list).
  std::string parameter_name;
  bool has_regions = false;       // control flow (if / while bodies)
  int index = 0;                  // position in the block, for messages
};

struct Program {
  int64_t version = 0;  // base_code.version
  std::vector<Op> ops;  // block 0 of region 0, in order
};

// "pd_op.conv2d #12" style label for error messages.
std::string OpLabel(const Op& op);

}  // namespace pir
}  // namespace lite
