// Table-driven elementwise unary ops: Out = f(X; attributes), same dims and
// LoD as X, float32.
//
// Each row of UnaryOpTable() is one Paddle op type: its numeric attributes
// with Paddle's defaults (read as float, in row order) and the scalar
// function. UnaryOp serves every row (it reads the attributes once at
// Attach); the host kernel (lite/kernels/host/unary_compute.cc) maps the
// row's function over X. Adding an op of this kind is adding one row. The
// table is static and read only; every op and kernel of these types is
// registered from it.
//
// The older activations with fusion passes and x86/npu kernels (relu,
// sigmoid, hard_swish, ...) stay in activation_ops.h.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

constexpr int kMaxUnaryAttrs = 3;

struct UnaryAttr {
  const char* name;
  float default_value;
  bool nonzero = false;  // CheckShape refuses 0 (softplus's beta divides)
};

// x and the row's attribute values, in row order.
using UnaryFn = float (*)(float x, const float* attrs);

struct UnaryOpDef {
  const char* type;
  std::vector<UnaryAttr> attrs;  // at most kMaxUnaryAttrs
  UnaryFn fn;
  // Inputs Paddle allows that override an attribute at run time (pow's
  // FactorTensor): refused when bound, the attribute form runs.
  std::vector<const char*> refused_inputs;
};

// Every row, in type order.
const std::vector<UnaryOpDef>& UnaryOpTable();
// The row of `type`; null when the table has none.
const UnaryOpDef* FindUnaryOp(const std::string& type);

struct UnaryParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  const UnaryOpDef* def = nullptr;
  float attrs[kMaxUnaryAttrs] = {};
};

}  // namespace operators
}  // namespace lite
