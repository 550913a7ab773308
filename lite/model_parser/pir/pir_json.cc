#include "lite/model_parser/pir/pir_json.h"

#include <cmath>
#include <limits>
#include <utility>

#include "rapidjson/document.h"
#include "rapidjson/error/en.h"

namespace lite {
namespace pir {
namespace {

using Json = rapidjson::Value;

// Attributes and types nest (arrays of arrays, vectors of tensors); real
// programs stay below 4 levels.
constexpr int kMaxNesting = 32;

// "0.a_i32" -> "a_i32"; "a_i32" stays.
std::string AfterDialect(const char* s) {
  std::string str(s);
  const size_t dot = str.find('.');
  return dot == std::string::npos ? str : str.substr(dot + 1);
}

const Json* Member(const Json& obj, const char* key) {
  if (!obj.IsObject()) return nullptr;
  auto it = obj.FindMember(key);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::string IdOf(const Json& obj) {
  const Json* id = Member(obj, "#");
  return id != nullptr && id->IsString() ? id->GetString() : "";
}

bool SetNumber(const Json& d, Attr* a) {
  if (d.IsBool()) {
    a->b = d.GetBool();
    a->i = a->b;
    a->f = a->b;
    return true;
  }
  if (d.IsInt64()) {
    a->i = d.GetInt64();
    a->f = static_cast<double>(a->i);
    return true;
  }
  if (d.IsUint64()) {  // above int64 range: keep the double only
    a->f = static_cast<double>(d.GetUint64());
    a->i = std::numeric_limits<int64_t>::max();
    return true;
  }
  if (d.IsDouble()) {
    a->f = d.GetDouble();
    a->i = std::isfinite(a->f) && std::fabs(a->f) < 9.2e18 ? static_cast<int64_t>(a->f) : 0;
    return true;
  }
  if (d.IsString()) {  // NaN and infinities are written as strings
    const std::string s = d.GetString();
    const double inf = std::numeric_limits<double>::infinity();
    if (s == "NaN" || s == "nan") a->f = std::numeric_limits<double>::quiet_NaN();
    else if (s == "Inf" || s == "inf" || s == "Infinity") a->f = inf;
    else if (s == "-Inf" || s == "-inf" || s == "-Infinity") a->f = -inf;
    else return false;
    return true;
  }
  return false;
}

Status ParseAttr(const Json& j, int depth, Attr* a);

Status ParseAttrData(const Json& d, int depth, Attr* a) {
  if (d.IsArray()) {
    for (const Json& e : d.GetArray()) {
      Attr elem;
      if (e.IsObject()) {
        RETURN_IF_ERROR(ParseAttr(e, depth + 1, &elem));
      } else {
        elem.kind = a->kind == "a_intarray" ? "a_i64" : "";
        if (e.IsString()) elem.s = e.GetString();
        if (!SetNumber(e, &elem) && !e.IsString()) {
          return InvalidArgument("attribute '" + a->kind + "' holds a nested array");
        }
      }
      a->elems.push_back(std::move(elem));
    }
    return Status::OK();
  }
  if (d.IsObject()) {  // a_scalar wraps a typed attribute
    Attr inner;
    RETURN_IF_ERROR(ParseAttr(d, depth + 1, &inner));
    const std::string kind = a->kind;
    *a = std::move(inner);
    a->kind = kind + ":" + a->kind;  // "a_scalar:a_f32"
    return Status::OK();
  }
  if (d.IsString()) {
    a->s = d.GetString();
    if (a->kind == "a_f32" || a->kind == "a_f64") {
      if (!SetNumber(d, a)) {
        return InvalidArgument("attribute '" + a->kind + "' holds the string '" + a->s +
                               "', not a number");
      }
    }
    return Status::OK();
  }
  if (d.IsNull()) return Status::OK();
  if (!SetNumber(d, a)) return InvalidArgument("attribute '" + a->kind + "' has no data");
  return Status::OK();
}

Status ParseAttr(const Json& j, int depth, Attr* a) {
  if (depth > kMaxNesting) return InvalidArgument("attributes nested too deeply");
  const std::string id = IdOf(j);
  if (id.empty()) return InvalidArgument("attribute without a type ('#')");
  a->kind = AfterDialect(id.c_str());
  const Json* d = Member(j, "D");
  if (d == nullptr) return Status::OK();
  return ParseAttrData(*d, depth, a);
}

Status ParseType(const Json& j, int depth, Type* t) {
  if (depth > kMaxNesting) return InvalidArgument("types nested too deeply");
  const std::string kind = AfterDialect(IdOf(j).c_str());
  const Json* d = Member(j, "D");
  if (kind == "t_vec") {
    t->is_vector = true;
    if (d == nullptr || !d->IsArray()) return InvalidArgument("t_vec type without a list");
    for (const Json& e : d->GetArray()) {
      Type elem;
      RETURN_IF_ERROR(ParseType(e, depth + 1, &elem));
      t->elems.push_back(std::move(elem));
    }
    return Status::OK();
  }
  if (kind != "t_dtensor") return Status::OK();  // NULL or a type we never read
  if (d == nullptr || !d->IsArray() || d->Size() < 2 || !(*d)[1].IsArray()) {
    return InvalidArgument("t_dtensor type without [dtype, dims, ...]");
  }
  t->dtype = AfterDialect(IdOf((*d)[0]).c_str());
  if (t->dtype.rfind("t_", 0) == 0) t->dtype = t->dtype.substr(2);
  for (const Json& e : (*d)[1].GetArray()) {
    if (!e.IsInt64()) return InvalidArgument("t_dtensor dims hold a non-integer");
    t->dims.push_back(e.GetInt64());
  }
  return Status::OK();
}

Status ParseResult(const Json& j, Result* r) {
  const Json* id = Member(j, "%");
  if (id == nullptr || !id->IsInt64()) return InvalidArgument("result without an integer id");
  r->id = id->GetInt64();
  if (r->id <= 0) return InvalidArgument("result id " + std::to_string(r->id) + " is not positive");
  const Json* tt = Member(j, "TT");
  if (tt != nullptr) RETURN_IF_ERROR(ParseType(*tt, 0, &r->type));
  return Status::OK();
}

std::string ExpandName(const std::string& compressed) {
  if (compressed == "p") return "builtin.parameter";
  if (compressed == "c") return "builtin.combine";
  const size_t dot = compressed.find('.');
  if (dot == std::string::npos) return compressed;
  static const char* const kDialects[] = {"builtin", "pd_op", "cf", "custom_op", "dist"};
  const std::string head = compressed.substr(0, dot);
  if (head.size() == 1 && head[0] >= '0' && head[0] <= '4') {
    return std::string(kDialects[head[0] - '0']) + compressed.substr(dot);
  }
  return compressed;
}

Status ParseParameter(const Json& j, Op* op) {
  const Json* a = Member(j, "A");
  if (a == nullptr || !a->IsArray() || a->Size() < 4 || !(*a)[3].IsString()) {
    return InvalidArgument("parameter op without [.., .., .., \"name\"] in 'A'");
  }
  op->parameter_name = (*a)[3].GetString();
  if (op->parameter_name.empty()) return InvalidArgument("parameter with an empty name");
  const Json* o = Member(j, "O");
  if (o == nullptr) return InvalidArgument("parameter op without a result 'O'");
  Result r;
  RETURN_IF_ERROR(ParseResult(o->IsArray() && o->Size() == 1 ? (*o)[0] : *o, &r));
  op->results.push_back(std::move(r));
  return Status::OK();
}

Status ParseOpBody(const Json& j, Op* op) {
  if (op->name == "builtin.parameter") return ParseParameter(j, op);
  if (const Json* in = Member(j, "I")) {
    if (!in->IsArray()) return InvalidArgument("operands 'I' is not a list");
    for (const Json& e : in->GetArray()) {
      const Json* id = Member(e, "%");
      if (id == nullptr || !id->IsInt64()) return InvalidArgument("operand without an integer id");
      op->operands.push_back(id->GetInt64());
    }
  }
  if (const Json* out = Member(j, "O")) {
    if (out->IsObject()) {
      Result r;
      RETURN_IF_ERROR(ParseResult(*out, &r));
      op->results.push_back(std::move(r));
    } else if (out->IsArray()) {
      for (const Json& e : out->GetArray()) {
        Result r;
        RETURN_IF_ERROR(ParseResult(e, &r));
        op->results.push_back(std::move(r));
      }
    } else {
      return InvalidArgument("results 'O' is neither a list nor an object");
    }
  }
  if (const Json* attrs = Member(j, "A")) {
    if (!attrs->IsArray()) return InvalidArgument("attributes 'A' is not a list");
    for (const Json& e : attrs->GetArray()) {
      const Json* n = Member(e, "N");
      const Json* at = Member(e, "AT");
      if (n == nullptr || !n->IsString() || at == nullptr) {
        return InvalidArgument("attribute without a name 'N' or a value 'AT'");
      }
      Attr a;
      Status s = ParseAttr(*at, 0, &a);
      if (!s.ok()) return s.WithContext(std::string("attribute '") + n->GetString() + "'");
      op->attrs[n->GetString()] = std::move(a);
    }
  }
  const Json* regions = Member(j, "regions");
  op->has_regions = regions != nullptr && regions->IsArray() && !regions->Empty();
  return Status::OK();
}

}  // namespace

bool Attr::is_number() const {
  static const char* const kNumbers[] = {"a_bool", "a_i32", "a_i64", "a_f32", "a_f64",
                                         "a_index"};
  for (const char* k : kNumbers) {
    if (kind == k) return true;
  }
  return kind.rfind("a_scalar:", 0) == 0;
}

std::string OpLabel(const Op& op) {
  std::string label = op.name + " (op #" + std::to_string(op.index);
  if (!op.parameter_name.empty()) label += ", '" + op.parameter_name + "'";
  if (!op.results.empty()) label += ", result %" + std::to_string(op.results[0].id);
  return label + ")";
}

bool LooksLikePirJson(const std::string& bytes) {
  size_t i = 0;
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' ||
                              bytes[i] == '\t')) {
    ++i;
  }
  if (i == bytes.size() || bytes[i] != '{') return false;
  return bytes.substr(i, 4096).find("\"base_code\"") != std::string::npos;
}

StatusOr<Program> ParsePirJson(const std::string& bytes, const std::string& name) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag>(
      bytes.data(), bytes.size());
  if (doc.HasParseError()) {
    return InvalidArgument(name + ": malformed JSON at byte " +
                           std::to_string(doc.GetErrorOffset()) + " of " +
                           std::to_string(bytes.size()) + ": " +
                           rapidjson::GetParseError_En(doc.GetParseError()));
  }
  const Json* base = Member(doc, "base_code");
  const Json* magic = base != nullptr ? Member(*base, "magic") : nullptr;
  if (magic == nullptr || !magic->IsString() || std::string(magic->GetString()) != "pir") {
    return InvalidArgument(name + ": not a PIR program (base_code.magic is not \"pir\")");
  }
  const Json* version = Member(*base, "version");
  if (version == nullptr || !version->IsInt64()) {
    return InvalidArgument(name + ": base_code.version is missing or not an integer");
  }
  Program prog;
  prog.version = version->GetInt64();
  if (prog.version < 0 || prog.version > kMaxPirVersion) {
    return Unimplemented(name + ": PIR version " + std::to_string(prog.version) +
                         " is newer than this engine reads (up to version " +
                         std::to_string(kMaxPirVersion) + ")");
  }
  const Json* program = Member(doc, "program");
  const Json* regions = program != nullptr ? Member(*program, "regions") : nullptr;
  if (regions == nullptr || !regions->IsArray() || regions->Empty()) {
    return InvalidArgument(name + ": no program.regions");
  }
  const Json* blocks = Member((*regions)[0], "blocks");
  if (blocks == nullptr || !blocks->IsArray() || blocks->Empty()) {
    return InvalidArgument(name + ": region 0 has no blocks");
  }
  const Json* ops = Member((*blocks)[0], "ops");
  if (ops == nullptr || !ops->IsArray()) return InvalidArgument(name + ": block 0 has no ops");
  prog.ops.reserve(ops->Size());
  for (const Json& j : ops->GetArray()) {
    Op op;
    op.index = static_cast<int>(prog.ops.size());
    const std::string id = IdOf(j);
    if (id.empty()) {
      return InvalidArgument(name + ": op #" + std::to_string(op.index) + " has no name ('#')");
    }
    op.name = ExpandName(id);
    Status s = ParseOpBody(j, &op);
    if (!s.ok()) return s.WithContext(name + ": " + OpLabel(op));
    prog.ops.push_back(std::move(op));
  }
  return prog;
}

}  // namespace pir
}  // namespace lite
