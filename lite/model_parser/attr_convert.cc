#include "lite/model_parser/attr_convert.h"

#include <type_traits>
#include <vector>

namespace lite {

namespace proto = paddle::framework::proto;

namespace {

// A SCALAR as double; false when the scalar has no usable kind.
bool ScalarToDouble(const proto::Scalar& s, double* out) {
  if (!s.has_type()) return false;
  switch (s.type()) {
    case proto::Scalar::BOOLEAN: *out = s.b() ? 1.0 : 0.0; return true;
    case proto::Scalar::LONG: *out = static_cast<double>(s.i()); return true;
    case proto::Scalar::FLOAT64: *out = s.r(); return true;
    case proto::Scalar::COMPLEX128: *out = s.c().r(); return true;
  }
  return false;
}

void DoubleToScalar(double v, proto::Scalar* s) {
  s->set_type(proto::Scalar::FLOAT64);
  s->set_r(v);
}

template <typename T, typename R>
std::vector<T> ToVector(const R& repeated) {
  return std::vector<T>(repeated.begin(), repeated.end());
}

// Reads the stored value as a number of type T, converting between numeric
// kinds; 0 when the value is not numeric.
template <typename T>
T Number(const cpp::AttrValue& v) {
  return std::visit(
      [](const auto& x) -> T {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_arithmetic_v<X>) return static_cast<T>(x);
        return T();
      },
      v);
}

// Reads the stored value as a list of T; empty when not a numeric list.
template <typename T>
std::vector<T> NumberList(const cpp::AttrValue& v) {
  return std::visit(
      [](const auto& x) -> std::vector<T> {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::vector<int32_t>> ||
                      std::is_same_v<X, std::vector<int64_t>> ||
                      std::is_same_v<X, std::vector<float>> ||
                      std::is_same_v<X, std::vector<double>> ||
                      std::is_same_v<X, std::vector<bool>>) {
          std::vector<T> out;
          out.reserve(x.size());
          for (auto e : x) out.push_back(static_cast<T>(e));
          return out;
        }
        return {};
      },
      v);
}

std::string Str(const cpp::AttrValue& v) {
  const auto* s = std::get_if<std::string>(&v);
  return s ? *s : std::string();
}

std::vector<std::string> StrList(const cpp::AttrValue& v) {
  const auto* s = std::get_if<std::vector<std::string>>(&v);
  return s ? *s : std::vector<std::string>();
}

}  // namespace

Status AttrFromProto(const proto::OpDesc::Attr& in, cpp::Attribute* out) {
  if (!in.has_type()) {
    return InvalidArgument("attribute '" + in.name() +
                           "' has no (or an unknown) AttrType");
  }
  out->type = static_cast<cpp::AttrType>(in.type());
  switch (in.type()) {
    case proto::INT: out->value = in.i(); break;
    case proto::FLOAT: out->value = in.f(); break;
    case proto::STRING: out->value = in.s(); break;
    case proto::INTS: out->value = ToVector<int32_t>(in.ints()); break;
    case proto::FLOATS: out->value = ToVector<float>(in.floats()); break;
    case proto::STRINGS:
      out->value = ToVector<std::string>(in.strings());
      break;
    case proto::BOOLEAN: out->value = in.b(); break;
    case proto::BOOLEANS: out->value = ToVector<bool>(in.bools()); break;
    case proto::BLOCK: out->value = in.block_idx(); break;
    case proto::LONG: out->value = in.l(); break;
    case proto::BLOCKS: out->value = ToVector<int32_t>(in.blocks_idx()); break;
    case proto::LONGS: out->value = ToVector<int64_t>(in.longs()); break;
    case proto::FLOAT64S: out->value = ToVector<double>(in.float64s()); break;
    case proto::VAR: out->value = in.var_name(); break;
    case proto::VARS: out->value = ToVector<std::string>(in.vars_name()); break;
    case proto::FLOAT64: out->value = in.float64(); break;
    case proto::SCALAR: {
      double v = 0;
      if (in.has_scalar() && !ScalarToDouble(in.scalar(), &v)) {
        return InvalidArgument("SCALAR attribute '" + in.name() +
                               "' has no scalar kind");
      }
      out->value = v;
      break;
    }
    case proto::SCALARS: {
      std::vector<double> vs;
      vs.reserve(in.scalars_size());
      for (const auto& s : in.scalars()) {
        double v = 0;
        if (!ScalarToDouble(s, &v)) {
          return InvalidArgument("SCALARS attribute '" + in.name() +
                                 "' has an element with no scalar kind");
        }
        vs.push_back(v);
      }
      out->value = std::move(vs);
      break;
    }
    default:
      return InvalidArgument("attribute '" + in.name() + "' has AttrType " +
                             std::to_string(static_cast<int>(in.type())) +
                             " that this engine does not know");
  }
  return Status::OK();
}

void AttrToProto(const std::string& name, const cpp::Attribute& in,
                 proto::OpDesc::Attr* out) {
  out->Clear();
  out->set_name(name);
  out->set_type(static_cast<proto::AttrType>(in.type));
  const cpp::AttrValue& v = in.value;
  switch (in.type) {
    case cpp::AttrType::INT: out->set_i(Number<int32_t>(v)); break;
    case cpp::AttrType::FLOAT: out->set_f(Number<float>(v)); break;
    case cpp::AttrType::STRING: out->set_s(Str(v)); break;
    case cpp::AttrType::INTS:
      for (int32_t x : NumberList<int32_t>(v)) out->add_ints(x);
      break;
    case cpp::AttrType::FLOATS:
      for (float x : NumberList<float>(v)) out->add_floats(x);
      break;
    case cpp::AttrType::STRINGS:
      for (const auto& s : StrList(v)) out->add_strings(s);
      break;
    case cpp::AttrType::BOOLEAN: out->set_b(Number<bool>(v)); break;
    case cpp::AttrType::BOOLEANS:
      for (bool x : NumberList<bool>(v)) out->add_bools(x);
      break;
    case cpp::AttrType::BLOCK: out->set_block_idx(Number<int32_t>(v)); break;
    case cpp::AttrType::LONG: out->set_l(Number<int64_t>(v)); break;
    case cpp::AttrType::BLOCKS:
      for (int32_t x : NumberList<int32_t>(v)) out->add_blocks_idx(x);
      break;
    case cpp::AttrType::LONGS:
      for (int64_t x : NumberList<int64_t>(v)) out->add_longs(x);
      break;
    case cpp::AttrType::FLOAT64S:
      for (double x : NumberList<double>(v)) out->add_float64s(x);
      break;
    case cpp::AttrType::VAR: out->set_var_name(Str(v)); break;
    case cpp::AttrType::VARS:
      for (const auto& s : StrList(v)) out->add_vars_name(s);
      break;
    case cpp::AttrType::FLOAT64: out->set_float64(Number<double>(v)); break;
    case cpp::AttrType::SCALAR:
      DoubleToScalar(Number<double>(v), out->mutable_scalar());
      break;
    case cpp::AttrType::SCALARS:
      for (double x : NumberList<double>(v)) DoubleToScalar(x, out->add_scalars());
      break;
  }
}

}  // namespace lite
