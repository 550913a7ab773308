// Test helper: builds small Paddle 3 PIR programs as inference.json text,
// one op at a time, in the exact shapes the Paddle serializer writes
// (compressed dialect ids, "p" parameters, typed attributes). Test-only.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lite {
namespace pir_test {

// {"#":"0.t_dtensor","D":[{"#":"0.t_<dtype>"},<dims>,"NCHW",[],0]}
inline std::string Dense(const std::string& dtype, const std::string& dims) {
  return R"({"#":"0.t_dtensor","D":[{"#":"0.t_)" + dtype + R"("},)" + dims +
         R"(,"NCHW",[],0]})";
}

// A named attribute with a typed value: Attr("axis", "0.a_i32", "1").
// A vector type (a builtin.combine result) of element types `elems`.
inline std::string Vec(const std::vector<std::string>& elems) {
  std::string d;
  for (const auto& e : elems) d += (d.empty() ? "" : ",") + e;
  return R"({"#":"0.t_vec","D":[)" + d + "]}";
}

inline std::string Attr(const std::string& name, const std::string& type,
                        const std::string& data) {
  return R"({"N":")" + name + R"(","AT":{"#":")" + type + R"(","D":)" + data + "}}";
}
inline std::string StrAttr(const std::string& name, const std::string& v) {
  return Attr(name, "0.a_str", "\"" + v + "\"");
}
// An a_array of `kind` ("a_i32", "a_i64", "a_f32") elements from "1,2,3".
inline std::string ArrayAttr(const std::string& name, const std::string& kind,
                             const std::string& values) {
  std::string elems;
  size_t start = 0;
  while (start < values.size()) {
    size_t end = values.find(',', start);
    if (end == std::string::npos) end = values.size();
    elems += (elems.empty() ? "" : ",") + std::string(R"({"#":"0.)") + kind + R"(","D":)" +
             values.substr(start, end - start) + "}";
    start = end + 1;
  }
  return Attr(name, "0.a_array", "[" + elems + "]");
}

// One op: name as serialized ("1.conv2d"), attributes, operand ids, results
// as (id, type).
inline std::string OpJson(const std::string& name, const std::vector<std::string>& attrs,
                          const std::vector<int>& operands,
                          const std::vector<std::pair<int, std::string>>& results) {
  std::string a, in, out;
  for (const auto& s : attrs) a += (a.empty() ? "" : ",") + s;
  for (int id : operands) {
    in += std::string(in.empty() ? "" : ",") + R"({"%":)" + std::to_string(id) + "}";
  }
  for (const auto& r : results) {
    out += std::string(out.empty() ? "" : ",") + R"({"%":)" + std::to_string(r.first) + R"(,"TT":)" +
           r.second + "}";
  }
  return R"({"#":")" + name + R"(","A":[)" + a + R"(],"I":[)" + in + R"(],"O":[)" + out + "]}";
}

// A compressed builtin.parameter op (float32 unless `dtype` says otherwise).
inline std::string ParamJson(int id, const std::string& name, const std::string& dims,
                             const std::string& dtype = "f32") {
  return R"({"#":"p","A":[0,1,1,")" + name + R"("],"DA":[],"O":{"%":)" + std::to_string(id) +
         R"(,"TT":)" + Dense(dtype, dims) + R"(},"OA":[],"QA":[]})";
}

inline std::string ProgramJson(const std::vector<std::string>& ops, int version = 1) {
  std::string body;
  for (const auto& o : ops) body += (body.empty() ? "" : ",") + o;
  return R"({"base_code":{"magic":"pir","trainable":true,"version":)" + std::to_string(version) +
         R"(},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":[)" +
         body + "]}]}]}}";
}

}  // namespace pir_test
}  // namespace lite
