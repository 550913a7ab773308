// Every PIR rule added for the op-breadth work, one tiny program per rule:
// the PIR op with the operand order and attribute names of Paddle's op yaml
// (ops.yaml, inconsistent/static_ops.yaml; mutable Scalar / IntArray
// arguments from op_compat.yaml come as pd_op.full / full_int_array
// operands) is translated and the engine op's inputs and attributes are
// checked, read with the types the engine op reads them with.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace lite {
namespace {

using namespace pir_test;  // NOLINT
using Strings = std::vector<std::string>;

std::string I32(const std::string& n, int v) { return Attr(n, "0.a_i32", std::to_string(v)); }
std::string I64(const std::string& n, int64_t v) { return Attr(n, "0.a_i64", std::to_string(v)); }
std::string F32(const std::string& n, const std::string& v) { return Attr(n, "0.a_f32", v); }
std::string Bool(const std::string& n, bool v) { return Attr(n, "0.a_bool", v ? "true" : "false"); }
std::string Dtype(const std::string& n, const std::string& v) {
  return Attr(n, "1.a_dtype", "\"" + v + "\"");
}

// The program's data inputs: name -> (id, type).
struct DataVar {
  const char* name;
  int id;
  const char* dtype;  // type spelling / a_dtype spelling
  const char* dtype_name;
  const char* dims;
};
const DataVar kData[] = {{"x", 1, "f32", "float32", "[2,3,4,4]"},
                         {"y", 2, "f32", "float32", "[2,3,4,4]"},
                         {"idx", 3, "i64", "int64", "[2]"},
                         {"cond", 4, "b", "bool", "[2,3,4,4]"},
                         {"w", 5, "f32", "float32", "[4]"},
                         {"ints", 6, "i32", "int32", "[2,3]"}};

struct RuleCase {
  std::string pir_op;  // without the dialect prefix
  // Operands: a data name, "s:<value>" (a pd_op.full scalar), "a:<v,v>" (a
  // pd_op.full_int_array), "l:<name,name>" (a builtin.combine list) or ""
  // (an absent optional operand).
  Strings operands;
  Strings attrs;
  int results = 1;         // dense f32 results; -n: one list result of n
  std::string engine_type;
  std::map<std::string, Strings> inputs;  // engine parameter -> variables
  std::function<void(const cpp::OpDesc&)> check;
};

Strings Split(const std::string& s) {
  Strings out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

// Builds the program: data ops, constants, the op, a fetch of result 0.
std::string ProgramFor(const RuleCase& c) {
  Strings ops;
  std::map<std::string, int> ids;
  for (const DataVar& d : kData) {
    ops.push_back(OpJson("1.data",
                         {StrAttr("name", d.name), Attr("shape", "1.a_intarray", d.dims),
                          Dtype("dtype", d.dtype_name)},
                         {}, {{d.id, Dense(d.dtype, d.dims)}}));
    ids[d.name] = d.id;
  }
  int next = 10;
  std::vector<int> operands;
  for (const std::string& o : c.operands) {
    if (o.empty()) {
      operands.push_back(0);
    } else if (o.rfind("s:", 0) == 0) {
      ops.push_back(OpJson("1.full",
                           {Attr("shape", "1.a_intarray", "[1]"),
                            Attr("value", "0.a_f64", o.substr(2)), Dtype("dtype", "float32")},
                           {}, {{next, Dense("f32", "[1]")}}));
      operands.push_back(next++);
    } else if (o.rfind("a:", 0) == 0) {
      const std::string values = o.substr(2);
      ops.push_back(OpJson("1.full_int_array",
                           {ArrayAttr("value", "a_i64", values), Dtype("dtype", "int64")}, {},
                           {{next, Dense("i64", "[" + std::to_string(Split(values).size()) +
                                                    "]")}}));
      operands.push_back(next++);
    } else if (o.rfind("l:", 0) == 0) {
      std::vector<int> elems;
      std::string types;
      for (const std::string& n : Split(o.substr(2))) {
        elems.push_back(ids.at(n));
        types += (types.empty() ? "" : ",") + Dense("f32", "[2,3,4,4]");
      }
      ops.push_back(OpJson("c", {}, elems,
                           {{next, R"({"#":"0.t_vec","D":[)" + types + "]}"}}));
      operands.push_back(next++);
    } else {
      operands.push_back(ids.at(o));
    }
  }
  std::vector<std::pair<int, std::string>> results;
  if (c.results < 0) {
    std::string types;
    for (int i = 0; i < -c.results; ++i) {
      types += (types.empty() ? "" : ",") + Dense("f32", "[3,4,4]");
    }
    results.push_back({100, R"({"#":"0.t_vec","D":[)" + types + "]}"});
  } else {
    for (int i = 0; i < c.results; ++i) results.push_back({100 + i, Dense("f32", "[2,3,4,4]")});
  }
  ops.push_back(OpJson("1." + c.pir_op, c.attrs, operands, results));
  if (c.results > 0) {
    ops.push_back(OpJson("1.fetch", {StrAttr("name", "out"), I32("col", 0)}, {100},
                         {{200, Dense("f32", "[2,3,4,4]")}}));
  }
  return ProgramJson(ops);
}

template <typename T>
T Get(const cpp::OpDesc& d, const std::string& name) {
  EXPECT_TRUE(d.HasAttr(name)) << d.Type() << " has no attribute " << name;
  T out{};
  EXPECT_TRUE(d.TryGetAttr(name, &out)) << d.Type() << "." << name << " has the wrong type";
  return out;
}

using F = std::vector<float>;
using I64s = std::vector<int64_t>;

std::vector<RuleCase> Cases() {
  std::vector<RuleCase> c;
  // --- pir_rules_array.cc ---
  c.push_back({"full_like", {"x", "s:3.5"}, {Dtype("dtype", "int64")}, 1, "fill_any_like",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "value"), 3.5f);
                 EXPECT_EQ(Get<int32_t>(d, "dtype"), 3);
               }});
  c.push_back({"full_like", {"x", "s:0"}, {Dtype("dtype", "undefined")}, 1, "fill_any_like",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "dtype"), -1);  // like x
               }});
  c.push_back({"tile", {"x", "a:1,2,1,1"}, {}, 1, "tile", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<I64s>(d, "repeat_times"), (I64s{1, 2, 1, 1}));
               }});
  c.push_back({"expand", {"w", "a:3,4"}, {}, 1, "expand_v2", {{"X", {"w"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(Get<I64s>(d, "shape"), (I64s{3, 4})); }});
  // The run-time forms: one shape tensor, and a list of scalars (a
  // dynamic-batch export's cls_token.expand((B, -1, -1))).
  c.push_back({"expand", {"w", "idx"}, {}, 1, "expand_v2", {{"X", {"w"}}, {"Shape", {"idx"}}},
               nullptr});
  c.push_back({"expand", {"w", "l:idx,idx"}, {}, 1, "expand_v2",
               {{"X", {"w"}}, {"expand_shapes_tensor", {"idx", "idx"}}}, nullptr});
  c.push_back({"expand_as", {"w", "y"}, {ArrayAttr("target_shape", "a_i32", "2,3,4,4")}, 1,
               "expand_as_v2", {{"X", {"w"}}, {"Y", {"y"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<I64s>(d, "target_shape"), (I64s{2, 3, 4, 4}));
               }});
  c.push_back({"expand_as", {"w", ""}, {ArrayAttr("target_shape", "a_i32", "3,4")}, 1,
               "expand_as_v2", {{"X", {"w"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_TRUE(d.Input("Y").empty());
                 EXPECT_EQ(Get<I64s>(d, "target_shape"), (I64s{3, 4}));
               }});
  c.push_back({"gather", {"x", "idx", "s:1"}, {}, 1, "gather", {{"X", {"x"}}, {"Index", {"idx"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(Get<int32_t>(d, "axis"), 1); }});
  c.push_back({"gather_nd", {"x", "idx"}, {}, 1, "gather_nd", {{"X", {"x"}}, {"Index", {"idx"}}},
               nullptr});
  c.push_back({"where", {"cond", "x", "y"}, {}, 1, "where",
               {{"Condition", {"cond"}}, {"X", {"x"}}, {"Y", {"y"}}}, nullptr});
  c.push_back({"index_select", {"x", "idx"}, {I32("axis", 2)}, 1, "index_select",
               {{"X", {"x"}}, {"Index", {"idx"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(Get<int32_t>(d, "dim"), 2); }});
  c.push_back({"cumsum", {"x", "s:2"},
               {Bool("flatten", false), Bool("exclusive", true), Bool("reverse", true)}, 1,
               "cumsum", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "axis"), 2);
                 EXPECT_FALSE(Get<bool>(d, "flatten"));
                 EXPECT_TRUE(Get<bool>(d, "exclusive"));
                 EXPECT_TRUE(Get<bool>(d, "reverse"));
               }});
  c.push_back({"flip", {"x"}, {ArrayAttr("axis", "a_i32", "0,2")}, 1, "flip", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(Get<I64s>(d, "axis"), (I64s{0, 2})); }});
  c.push_back({"roll", {"x", "a:1,-2"}, {ArrayAttr("axis", "a_i64", "1,3")}, 1, "roll",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<I64s>(d, "shifts"), (I64s{1, -2}));
                 EXPECT_EQ(Get<I64s>(d, "axis"), (I64s{1, 3}));
               }});
  c.push_back({"one_hot", {"idx", "s:5"}, {}, 1, "one_hot_v2", {{"X", {"idx"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(Get<int32_t>(d, "depth"), 5); }});
  c.push_back({"one_hot", {"idx", "ints"}, {}, 1, "one_hot_v2",
               {{"X", {"idx"}}, {"depth_tensor", {"ints"}}}, nullptr});
  c.push_back({"topk", {"x", "s:2"},
               {I32("axis", 1), Bool("largest", false), Bool("sorted", true)}, 2, "top_k_v2",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "k"), 2);
                 EXPECT_EQ(Get<int32_t>(d, "axis"), 1);
                 EXPECT_FALSE(Get<bool>(d, "largest"));
                 EXPECT_EQ(d.Output("Indices").size(), 1u);
               }});
  c.push_back({"p_norm", {"x"},
               {F32("porder", "3.0"), I32("axis", 1), F32("epsilon", "1e-12"),
                Bool("keepdim", true), Bool("asvector", false)},
               1, "p_norm", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "porder"), 3.f);
                 EXPECT_EQ(Get<int32_t>(d, "axis"), 1);
                 EXPECT_TRUE(Get<bool>(d, "keepdim"));
                 EXPECT_FALSE(Get<bool>(d, "asvector"));
               }});
  c.push_back({"pixel_shuffle", {"x"}, {I32("upscale_factor", 2), StrAttr("data_format", "NCHW")},
               1, "pixel_shuffle", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "upscale_factor"), 2);
                 EXPECT_EQ(Get<std::string>(d, "data_format"), "NCHW");
               }});
  c.push_back({"pixel_unshuffle", {"x"},
               {I32("downscale_factor", 2), StrAttr("data_format", "NCHW")}, 1,
               "pixel_unshuffle", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(Get<int32_t>(d, "downscale_factor"), 2); }});
  // --- pir_rules_math.cc: activations, comparisons, argmin, bmm ---
  c.push_back({"elu", {"x"}, {F32("alpha", "0.5")}, 1, "elu", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_FLOAT_EQ(Get<float>(d, "alpha"), 0.5f); }});
  c.push_back({"selu", {"x"}, {F32("scale", "1.5"), F32("alpha", "1.25")}, 1, "selu",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "scale"), 1.5f);
                 EXPECT_FLOAT_EQ(Get<float>(d, "alpha"), 1.25f);
               }});
  c.push_back({"softplus", {"x"}, {F32("beta", "2.0"), F32("threshold", "15.0")}, 1, "softplus",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "beta"), 2.f);
                 EXPECT_FLOAT_EQ(Get<float>(d, "threshold"), 15.f);
               }});
  c.push_back({"mish", {"x"}, {F32("lambda", "10.0")}, 1, "mish", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_FLOAT_EQ(Get<float>(d, "threshold"), 10.f); }});
  c.push_back({"hardtanh", {"x"}, {F32("t_min", "-2.0"), F32("t_max", "3.0")}, 1, "hardtanh",
               {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "t_min"), -2.f);
                 EXPECT_FLOAT_EQ(Get<float>(d, "t_max"), 3.f);
               }});
  c.push_back({"thresholded_relu", {"x"}, {F32("threshold", "0.5"), F32("value", "-1.0")}, 1,
               "thresholded_relu", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "threshold"), 0.5f);
                 EXPECT_FLOAT_EQ(Get<float>(d, "value"), -1.f);
               }});
  // pow's y is a mutable Scalar: an operand in Paddle 3, an attribute before.
  c.push_back({"pow", {"x", "s:3"}, {}, 1, "pow", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_FLOAT_EQ(Get<float>(d, "factor"), 3.f); }});
  c.push_back({"pow", {"x"}, {F32("y", "2.5")}, 1, "pow", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_FLOAT_EQ(Get<float>(d, "factor"), 2.5f); }});
  c.push_back({"round", {"x"}, {I32("decimals", 2)}, 1, "round", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) { EXPECT_FLOAT_EQ(Get<float>(d, "decimals"), 2.f); }});
  for (const char* name : {"softsign", "logsigmoid", "rsqrt", "square", "floor", "ceil", "sign",
                           "erf", "logical_not", "bitwise_not"}) {
    c.push_back({name, {"x"}, {}, 1, name, {{"X", {"x"}}}, nullptr});
  }
  for (const char* name : {"equal", "not_equal", "less_than", "less_equal", "greater_than",
                           "greater_equal", "logical_and", "logical_or", "logical_xor",
                           "bitwise_and", "bitwise_or", "bitwise_xor"}) {
    c.push_back({name, {"x", "y"}, {}, 1, name, {{"X", {"x"}}, {"Y", {"y"}}}, nullptr});
  }
  c.push_back({"argmin", {"x", "s:1"},
               {Bool("keepdims", true), Bool("flatten", false), Dtype("dtype", "int32")}, 1,
               "arg_min", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int64_t>(d, "axis"), 1);
                 EXPECT_TRUE(Get<bool>(d, "keepdims"));
                 EXPECT_EQ(Get<int32_t>(d, "dtype"), 2);
               }});
  c.push_back({"bmm", {"x", "y"}, {}, 1, "bmm", {{"X", {"x"}}, {"Y", {"y"}}}, nullptr});
  // --- pir_rules_nn.cc: the 3-D window ops ---
  c.push_back({"conv3d", {"x", "y"},
               {ArrayAttr("strides", "a_i32", "1,2,2"), ArrayAttr("paddings", "a_i32", "0,1,1"),
                StrAttr("padding_algorithm", "EXPLICIT"), I32("groups", 1),
                ArrayAttr("dilations", "a_i32", "1,1,2"), StrAttr("data_format", "NCDHW")},
               1, "conv3d", {{"Input", {"x"}}, {"Filter", {"y"}}}, [](const cpp::OpDesc& d) {
                 using I32s = std::vector<int32_t>;
                 EXPECT_EQ(Get<I32s>(d, "strides"), (I32s{1, 2, 2}));
                 EXPECT_EQ(Get<I32s>(d, "paddings"), (I32s{0, 1, 1}));
                 EXPECT_EQ(Get<I32s>(d, "dilations"), (I32s{1, 1, 2}));
                 EXPECT_EQ(Get<int32_t>(d, "groups"), 1);
                 EXPECT_EQ(Get<std::string>(d, "data_format"), "NCDHW");
                 EXPECT_EQ(d.Output("Output").size(), 1u);
               }});
  c.push_back({"pool3d", {"x"},
               {ArrayAttr("kernel_size", "a_i32", "2,3,3"), ArrayAttr("strides", "a_i32", "2,2,1"),
                ArrayAttr("paddings", "a_i32", "0,1,1"), Bool("ceil_mode", true),
                Bool("exclusive", false), StrAttr("data_format", "NCDHW"),
                StrAttr("pooling_type", "avg"), Bool("global_pooling", false),
                Bool("adaptive", false), StrAttr("padding_algorithm", "SAME")},
               1, "pool3d", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 using I32s = std::vector<int32_t>;
                 EXPECT_EQ(Get<I32s>(d, "ksize"), (I32s{2, 3, 3}));
                 EXPECT_EQ(Get<I32s>(d, "strides"), (I32s{2, 2, 1}));
                 EXPECT_EQ(Get<I32s>(d, "paddings"), (I32s{0, 1, 1}));
                 EXPECT_TRUE(Get<bool>(d, "ceil_mode"));
                 EXPECT_FALSE(Get<bool>(d, "exclusive"));
                 EXPECT_EQ(Get<std::string>(d, "pooling_type"), "avg");
                 EXPECT_EQ(Get<std::string>(d, "padding_algorithm"), "SAME");
               }});
  // --- pir_rules_tensor.cc ---
  c.push_back({"pad", {"x", "s:1.5"}, {ArrayAttr("paddings", "a_i32", "0,0,1,1,2,2,0,1")}, 1,
               "pad", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<std::vector<int32_t>>(d, "paddings"),
                           (std::vector<int32_t>{0, 0, 1, 1, 2, 2, 0, 1}));
                 EXPECT_FLOAT_EQ(Get<float>(d, "pad_value"), 1.5f);
               }});
  c.push_back({"pad", {"w"}, {ArrayAttr("paddings", "a_i32", "1,2"), F32("pad_value", "-2.0")},
               1, "pad", {{"X", {"w"}}},
               [](const cpp::OpDesc& d) { EXPECT_FLOAT_EQ(Get<float>(d, "pad_value"), -2.f); }});
  c.push_back({"pad3d", {"x", "a:1,1,0,0,2,2"},
               {StrAttr("mode", "reflect"), F32("pad_value", "0.5"),
                StrAttr("data_format", "NCDHW")},
               1, "pad3d", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<std::vector<int32_t>>(d, "paddings"),
                           (std::vector<int32_t>{1, 1, 0, 0, 2, 2}));
                 EXPECT_EQ(Get<std::string>(d, "mode"), "reflect");
                 EXPECT_FLOAT_EQ(Get<float>(d, "value"), 0.5f);
               }});
  // --- pir_rules_select.cc ---
  c.push_back({"crop", {"x", "a:1,2,3,3", "a:0,1,1,0"}, {}, 1, "crop_tensor", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<I64s>(d, "shape"), (I64s{1, 2, 3, 3}));
                 EXPECT_EQ(Get<I64s>(d, "offsets"), (I64s{0, 1, 1, 0}));
               }});
  c.push_back({"unbind", {"x"}, {I32("axis", 0)}, -2, "unbind", {{"X", {"x"}}},
               [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "axis"), 0);
                 EXPECT_EQ(d.Output("Out").size(), 2u);
               }});
  c.push_back({"meshgrid", {"l:x,y"}, {}, -2, "meshgrid", {{"X", {"x", "y"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(d.Output("Out").size(), 2u); }});
  c.push_back({"scatter", {"x", "idx", "y"}, {Bool("overwrite", false)}, 1, "scatter",
               {{"X", {"x"}}, {"Ids", {"idx"}}, {"Updates", {"y"}}},
               [](const cpp::OpDesc& d) { EXPECT_FALSE(Get<bool>(d, "overwrite")); }});
  c.push_back({"scatter_nd_add", {"x", "idx", "y"}, {}, 1, "scatter_nd_add",
               {{"X", {"x"}}, {"Index", {"idx"}}, {"Updates", {"y"}}}, nullptr});
  c.push_back({"masked_select", {"x", "cond"}, {}, 1, "masked_select",
               {{"X", {"x"}}, {"Mask", {"cond"}}}, nullptr});
  c.push_back({"linspace", {"s:0", "s:1", "s:5"}, {Dtype("dtype", "float32")}, 1, "linspace", {},
               [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "dtype"), 5);
                 for (const char* in : {"Start", "Stop", "Num"}) {
                   EXPECT_EQ(d.Input(in).size(), 1u) << in;
                 }
               }});
  c.push_back({"assign_value_", {"x"},
               {ArrayAttr("shape", "a_i32", "2"), Dtype("dtype", "int32"),
                Attr("values", "0.a_array", R"([{"#":"0.a_i32","D":7},{"#":"0.a_i32","D":-1}])")},
               1, "assign_value", {}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<I64s>(d, "shape"), (I64s{2}));
                 EXPECT_EQ(Get<int32_t>(d, "dtype"), 2);
                 EXPECT_EQ(Get<I64s>(d, "int32_values"), (I64s{7, -1}));
               }});
  c.push_back({"assign_value", {},
               {ArrayAttr("shape", "a_i32", "2"), Dtype("dtype", "float32"),
                Attr("values", "0.a_array", R"([{"#":"0.a_f32","D":0.5},{"#":"0.a_f64","D":2}])")},
               1, "assign_value", {}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<F>(d, "fp32_values"), (F{0.5f, 2.f}));
               }});
  c.push_back({"norm", {"x"}, {I32("axis", 1), F32("epsilon", "1e-6"), Bool("is_test", true)}, 2,
               "norm", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<int32_t>(d, "axis"), 1);
                 EXPECT_FLOAT_EQ(Get<float>(d, "epsilon"), 1e-6f);
                 EXPECT_EQ(d.Output("Norm").size(), 1u);
               }});
  c.push_back({"dot", {"x", "y"}, {}, 1, "dot", {{"X", {"x"}}, {"Y", {"y"}}}, nullptr});
  c.push_back({"group_norm", {"x", "w", "w"},
               {F32("epsilon", "1e-3"), I32("groups", 3), StrAttr("data_format", "NCHW")}, 3,
               "group_norm", {{"X", {"x"}}, {"Scale", {"w"}}, {"Bias", {"w"}}},
               [](const cpp::OpDesc& d) {
                 EXPECT_FLOAT_EQ(Get<float>(d, "epsilon"), 1e-3f);
                 EXPECT_EQ(Get<int32_t>(d, "groups"), 3);
                 EXPECT_EQ(Get<std::string>(d, "data_layout"), "NCHW");
                 EXPECT_EQ(d.Output("Y").size(), 1u);
               }});
  c.push_back({"group_norm", {"x", "", ""}, {F32("epsilon", "1e-5"), I32("groups", 1)}, 3,
               "group_norm", {{"X", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_TRUE(d.Input("Scale").empty());
                 EXPECT_TRUE(d.Input("Bias").empty());
               }});
  c.push_back({"affine_channel", {"x", "w", "w"}, {StrAttr("data_layout", "NCHW")}, 1,
               "affine_channel", {{"X", {"x"}}, {"Scale", {"w"}}, {"Bias", {"w"}}},
               [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<std::string>(d, "data_layout"), "NCHW");
               }});
  c.push_back({"grid_sample", {"x", "y"},
               {StrAttr("mode", "nearest"), StrAttr("padding_mode", "border"),
                Bool("align_corners", false)},
               1, "grid_sampler", {{"X", {"x"}}, {"Grid", {"y"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<std::string>(d, "mode"), "nearest");
                 EXPECT_EQ(Get<std::string>(d, "padding_mode"), "border");
                 EXPECT_FALSE(Get<bool>(d, "align_corners"));
                 EXPECT_EQ(d.Output("Output").size(), 1u);
               }});
  c.push_back({"prior_box", {"x", "y"},
               {ArrayAttr("min_sizes", "a_f32", "16.0"), ArrayAttr("max_sizes", "a_f32", "32.0"),
                ArrayAttr("aspect_ratios", "a_f32", "2.0"),
                ArrayAttr("variances", "a_f32", "0.1,0.1,0.2,0.2"), Bool("flip", true),
                Bool("clip", false), F32("step_w", "8.0"), F32("step_h", "4.0"),
                F32("offset", "0.25"), Bool("min_max_aspect_ratios_order", true)},
               2, "prior_box", {{"Input", {"x"}}, {"Image", {"y"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<F>(d, "min_sizes"), (F{16.f}));
                 EXPECT_EQ(Get<F>(d, "max_sizes"), (F{32.f}));
                 EXPECT_EQ(Get<F>(d, "aspect_ratios"), (F{2.f}));
                 EXPECT_EQ(Get<F>(d, "variances"), (F{0.1f, 0.1f, 0.2f, 0.2f}));
                 EXPECT_TRUE(Get<bool>(d, "flip"));
                 EXPECT_FALSE(Get<bool>(d, "clip"));
                 EXPECT_FLOAT_EQ(Get<float>(d, "step_w"), 8.f);
                 EXPECT_FLOAT_EQ(Get<float>(d, "step_h"), 4.f);
                 EXPECT_FLOAT_EQ(Get<float>(d, "offset"), 0.25f);
                 EXPECT_TRUE(Get<bool>(d, "min_max_aspect_ratios_order"));
                 EXPECT_EQ(d.Output("Boxes").size(), 1u);
                 EXPECT_EQ(d.Output("Variances").size(), 1u);
               }});
  c.push_back({"box_coder", {"x", "", "y"},
               {StrAttr("code_type", "decode_center_size"), Bool("box_normalized", false),
                I32("axis", 1), ArrayAttr("variance", "a_f32", "0.1,0.1,0.2,0.2")},
               1, "box_coder", {{"PriorBox", {"x"}}, {"TargetBox", {"y"}}},
               [](const cpp::OpDesc& d) {
                 EXPECT_TRUE(d.Input("PriorBoxVar").empty());
                 EXPECT_EQ(Get<std::string>(d, "code_type"), "decode_center_size");
                 EXPECT_FALSE(Get<bool>(d, "box_normalized"));
                 EXPECT_EQ(Get<int32_t>(d, "axis"), 1);
                 EXPECT_EQ(Get<F>(d, "variance"), (F{0.1f, 0.1f, 0.2f, 0.2f}));
                 EXPECT_EQ(d.Output("OutputBox").size(), 1u);
               }});
  c.push_back({"anchor_generator", {"x"},
               {ArrayAttr("anchor_sizes", "a_f32", "64.0,128.0"),
                ArrayAttr("aspect_ratios", "a_f32", "0.5,1.0"),
                ArrayAttr("variances", "a_f32", "0.1,0.1,0.2,0.2"),
                ArrayAttr("stride", "a_f32", "16.0,16.0"), F32("offset", "0.5")},
               2, "anchor_generator", {{"Input", {"x"}}}, [](const cpp::OpDesc& d) {
                 EXPECT_EQ(Get<F>(d, "anchor_sizes"), (F{64.f, 128.f}));
                 EXPECT_EQ(Get<F>(d, "aspect_ratios"), (F{0.5f, 1.f}));
                 EXPECT_EQ(Get<F>(d, "stride"), (F{16.f, 16.f}));
                 EXPECT_FLOAT_EQ(Get<float>(d, "offset"), 0.5f);
                 EXPECT_EQ(d.Output("Anchors").size(), 1u);
                 EXPECT_EQ(d.Output("Variances").size(), 1u);
               }});
  c.push_back({"box_clip", {"x", "y"}, {}, 1, "box_clip",
               {{"Input", {"x"}}, {"ImInfo", {"y"}}},
               [](const cpp::OpDesc& d) { EXPECT_EQ(d.Output("Output").size(), 1u); }});
  return c;
}

const cpp::OpDesc* FindOp(const cpp::ProgramDesc& p, const std::string& type) {
  for (const auto& op : p.blocks[0].ops) {
    if (op.Type() == type) return &op;
  }
  return nullptr;
}

TEST(PirRulesTable, EveryRuleMatchesPaddlesOpDefinition) {
  const std::vector<RuleCase> cases = Cases();
  size_t checked = 0;
  for (const RuleCase& c : cases) {
    SCOPED_TRACE("pd_op." + c.pir_op);
    auto model = pir::ReadPirModel(ProgramFor(c), "inference.json");
    if (!model.ok()) {
      ADD_FAILURE() << model.status().ToString();
      continue;
    }
    const cpp::OpDesc* d = FindOp(model->program, c.engine_type);
    if (d == nullptr) {
      ADD_FAILURE() << "no " << c.engine_type << " op";
      continue;
    }
    ++checked;
    for (const auto& in : c.inputs) {
      EXPECT_EQ(d->Input(in.first), in.second) << "input " << in.first;
    }
    if (c.check) c.check(*d);
  }
  EXPECT_EQ(checked, cases.size());
}

// A pow whose exponent is computed at run time has no engine form: a clear
// error naming the operand, never a silent x^1.
TEST(PirRulesTable, PowWithComputedExponentIsRefused) {
  RuleCase c{"pow", {"x", "y"}, {}, 1, "pow", {}, nullptr};
  auto model = pir::ReadPirModel(ProgramFor(c), "inference.json");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("y"), std::string::npos) << model.status().ToString();
}

}  // namespace
}  // namespace lite
