#include "lite/operators/matmul_ops.h"

#include "lite/operators/op_with_param.h"

#include <algorithm>
#include <cmath>

namespace lite {
namespace operators {

namespace {

class MulOp : public OpWithParam<MulParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

// The op types MatMulOp serves.
enum class MatMulOpKind { kMatmul, kMatmulV2, kBmm };

class MatMulOp : public OpWithParam<MatMulParam> {
 public:
  MatMulOp(std::string type, MatMulOpKind kind)
      : OpWithParam<MatMulParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const MatMulOpKind kind_;
};

class FcOp : public OpWithParam<FcParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

namespace {

DDim Slice(const DDim& d, size_t begin, size_t end) {
  return DDim(d.begin() + begin, d.begin() + end);
}

StatusOr<FusedActivation> ReadAct(const cpp::OpDesc& desc) {
  return FusedActivation::FromOpDesc(desc);
}

// Output batch dims and, per output batch, the matrix index into X and Y.
// v1_flat: Paddle matmul v1 pairs batches by flat index when the batch sizes
// agree, keeping X's batch dims; otherwise numpy broadcasting applies.
Status PlanBatches(const DDim& bx, const DDim& by, bool v1_flat, DDim* out_batch,
                   std::vector<int64_t>* xi, std::vector<int64_t>* yi) {
  xi->clear();
  yi->clear();
  if (v1_flat && !bx.empty() && !by.empty() && Product(bx) == Product(by)) {
    *out_batch = bx;
    for (int64_t b = 0; b < Product(bx); ++b) {
      xi->push_back(b);
      yi->push_back(b);
    }
    return Status::OK();
  }
  const size_t r = std::max(bx.size(), by.size());
  DDim px(r, 1), py(r, 1);
  std::copy(bx.begin(), bx.end(), px.begin() + (r - bx.size()));
  std::copy(by.begin(), by.end(), py.begin() + (r - by.size()));
  out_batch->assign(r, 1);
  for (size_t i = 0; i < r; ++i) {
    if (px[i] == py[i] || py[i] == 1) {
      (*out_batch)[i] = px[i];
    } else if (px[i] == 1) {
      (*out_batch)[i] = py[i];
    } else {
      return InvalidArgument("batch dims " + DimsToString(bx) + " and " +
                             DimsToString(by) + " cannot broadcast");
    }
  }
  const int64_t total = Product(*out_batch);
  for (int64_t b = 0; b < total; ++b) {
    int64_t rem = b, x = 0, y = 0, xs = 1, ys = 1;
    for (size_t i = r; i-- > 0;) {
      const int64_t c = rem % (*out_batch)[i];
      rem /= (*out_batch)[i];
      if (px[i] != 1) x += c * xs;
      if (py[i] != 1) y += c * ys;
      xs *= px[i];
      ys *= py[i];
    }
    xi->push_back(x);
    yi->push_back(y);
  }
  return Status::OK();
}

}  // namespace

Status ParseMatMulInt8Form(const std::string& who, const cpp::OpDesc& desc,
                           const Tensor& weight, MatMulInt8Form* form) {
  form->enabled = desc.GetAttr<bool>("enable_int8", false);
  if (!form->enabled) return Status::OK();
  form->input_scale = desc.GetAttr<float>("Input_scale", 0.f);
  form->filter_scales = desc.GetAttr<std::vector<float>>("Filter_scales", {});
  form->quant_round_type = desc.GetAttr<int32_t>("quant_round_type", 1);
  const std::string prefix = "op " + who + ": int8 form ";
  if (!(form->input_scale > 0.f) || !std::isfinite(form->input_scale)) {
    return InvalidArgument(prefix + "needs Input_scale > 0, got " +
                           std::to_string(form->input_scale));
  }
  if (form->quant_round_type != 0 && form->quant_round_type != 1) {
    return InvalidArgument(prefix + "needs quant_round_type 0 or 1");
  }
  const DDim& w = weight.dims();
  if (weight.dtype() != DataType::kInt8 || w.size() != 2 ||
      static_cast<int64_t>(form->filter_scales.size()) != w[1]) {
    return InvalidArgument(prefix + "needs a 2-D int8 weight and one Filter_scales value per "
                           "column (weight " + std::string(DataTypeName(weight.dtype())) + " " +
                           DimsToString(w) + ", " +
                           std::to_string(form->filter_scales.size()) + " scales)");
  }
  // Negative and zero scales are allowed, as in conv's int8 form: a folded
  // batch norm can flip or zero a column.
  for (float s : form->filter_scales) {
    if (!std::isfinite(s)) {
      return InvalidArgument(prefix + "has a Filter_scales value " + std::to_string(s));
    }
  }
  return Status::OK();
}

// ---- mul ----

Status MulOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
  param_.x = x;
  param_.y = y;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.x_num_col_dims = desc.GetAttr<int32_t>("x_num_col_dims", 1);
  param_.y_num_col_dims = desc.GetAttr<int32_t>("y_num_col_dims", 1);
  ASSIGN_OR_RETURN(param_.act, ReadAct(desc));
  RETURN_IF_ERROR(ParseMatMulInt8Form(DebugName(), desc, *y, &param_.int8));
  if (param_.int8.enabled && param_.y_num_col_dims != 1) {
    return OpError("int8 form needs y_num_col_dims 1");
  }
  return Status::OK();
}

Status MulOp::CheckShape() const {
  if (param_.x_num_col_dims < 1 || param_.y_num_col_dims < 1) {
    return OpError("x_num_col_dims and y_num_col_dims must be >= 1");
  }
  return Status::OK();
}

Status MulOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const DDim& yd = param_.y->dims();
  const size_t xn = param_.x_num_col_dims, yn = param_.y_num_col_dims;
  if (xd.size() <= xn) {
    return OpError("X " + DimsToString(xd) + " needs rank > x_num_col_dims " +
                   std::to_string(xn));
  }
  if (yd.size() <= yn) {
    return OpError("Y " + DimsToString(yd) + " needs rank > y_num_col_dims " +
                   std::to_string(yn));
  }
  param_.m = Product(Slice(xd, 0, xn));
  param_.k = Product(Slice(xd, xn, xd.size()));
  const int64_t ky = Product(Slice(yd, 0, yn));
  param_.n = Product(Slice(yd, yn, yd.size()));
  if (param_.k != ky) {
    return OpError("X " + DimsToString(xd) + " flattened at " + std::to_string(xn) +
                   " has width " + std::to_string(param_.k) + " but Y " +
                   DimsToString(yd) + " flattened at " + std::to_string(yn) +
                   " has height " + std::to_string(ky));
  }
  DDim out = Slice(xd, 0, xn);
  out.insert(out.end(), yd.begin() + yn, yd.end());
  param_.out->Resize(out);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

// ---- matmul / matmul_v2 ----

Status MatMulOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
  param_.x = x;
  param_.y = y;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  // bmm: matmul_v2 of two 3-D
  param_.v2 = kind_ == MatMulOpKind::kMatmulV2 || kind_ == MatMulOpKind::kBmm;
  if (param_.v2) {
    param_.trans_x = desc.GetAttr<bool>("trans_x", false);
    param_.trans_y = desc.GetAttr<bool>("trans_y", false);
    param_.alpha = 1.f;
  } else {
    param_.trans_x = desc.GetAttr<bool>("transpose_X", false);
    param_.trans_y = desc.GetAttr<bool>("transpose_Y", false);
    param_.alpha = desc.GetAttr<float>("alpha", 1.f);
    if (desc.GetAttr<int32_t>("head_number", 1) != 1) {
      return Unimplemented("op " + DebugName() + ": head_number != 1");
    }
    for (const char* a : {"fused_reshape_X", "fused_reshape_Y", "fused_reshape_Out",
                          "fused_transpose_X", "fused_transpose_Y", "fused_transpose_Out"}) {
      if (!desc.GetAttr<std::vector<int32_t>>(a, {}).empty()) {
        return Unimplemented("op " + DebugName() + ": attribute " + a);
      }
    }
  }
  ASSIGN_OR_RETURN(param_.act, ReadAct(desc));
  RETURN_IF_ERROR(ParseMatMulInt8Form(DebugName(), desc, *y, &param_.int8));
  if (param_.int8.enabled && (param_.trans_y || kind_ == MatMulOpKind::kBmm)) {
    return OpError("int8 form needs an untransposed 2-D Y");
  }
  return Status::OK();
}

Status MatMulOp::CheckShape() const { return Status::OK(); }

Status MatMulOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const DDim& yd = param_.y->dims();
  if (xd.empty() || yd.empty()) return OpError("X and Y must have rank >= 1");
  if (kind_ == MatMulOpKind::kBmm && (xd.size() != 3 || yd.size() != 3 || xd[0] != yd[0])) {
    return OpError("X " + DimsToString(xd) + " and Y " + DimsToString(yd) +
                   " must be 3-D with the same batch");
  }
  const bool x_vec = xd.size() == 1, y_vec = yd.size() == 1;
  // matmul_v2 ignores the transpose flag of a 1-D operand.
  const bool tx = param_.trans_x && !(param_.v2 && x_vec);
  const bool ty = param_.trans_y && !(param_.v2 && y_vec);
  const DDim xm = x_vec ? DDim{1, xd[0]} : xd;
  const DDim ym = y_vec ? DDim{yd[0], 1} : yd;
  const int64_t xr = xm[xm.size() - 2], xc = xm.back();
  const int64_t yr = ym[ym.size() - 2], yc = ym.back();
  const int64_t m = tx ? xc : xr, kx = tx ? xr : xc;
  const int64_t ky = ty ? yc : yr, n = ty ? yr : yc;
  if (kx != ky) {
    return OpError("X " + DimsToString(xd) + (tx ? " (transposed)" : "") + " and Y " +
                   DimsToString(yd) + (ty ? " (transposed)" : "") +
                   " have mismatched inner dims " + std::to_string(kx) + " vs " +
                   std::to_string(ky));
  }
  DDim batch;
  std::vector<int64_t> xi, yi;
  Status s = PlanBatches(Slice(xm, 0, xm.size() - 2), Slice(ym, 0, ym.size() - 2),
                         !param_.v2, &batch, &xi, &yi);
  if (!s.ok()) return OpError(s.message());
  DDim out = batch;
  if (param_.v2) {
    if (!x_vec) out.push_back(m);
    if (!y_vec) out.push_back(n);
  } else {
    out.push_back(m);
    out.push_back(n);
    if (x_vec && out[out.size() - 2] == 1) out.erase(out.end() - 2);
    if (y_vec && out.back() == 1) out.pop_back();
  }
  if (out.empty()) out.push_back(1);

  param_.gemm_trans_a = tx;
  param_.gemm_trans_b = ty;
  param_.m = m;
  param_.k = kx;
  param_.n = n;
  param_.lda = xc;
  param_.ldb = yc;
  param_.x_offsets.resize(xi.size());
  param_.y_offsets.resize(yi.size());
  for (size_t b = 0; b < xi.size(); ++b) {
    param_.x_offsets[b] = xi[b] * xr * xc;
    param_.y_offsets[b] = yi[b] * yr * yc;
  }
  param_.out->Resize(out);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

// ---- fc ----

Status FcOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  ASSIGN_OR_RETURN(Tensor * w, Input("W"));
  param_.input = input;
  param_.w = w;
  param_.bias = OptionalInput("Bias");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.in_num_col_dims = desc.GetAttr<int32_t>("in_num_col_dims", 1);
  const std::string act = desc.GetAttr<std::string>("activation_type", "");
  if (act == "relu") {
    param_.relu = true;
  } else if (!act.empty()) {
    return Unimplemented("op " + DebugName() + ": unsupported activation_type '" + act + "'");
  }
  if (desc.GetAttr<bool>("padding_weights", false)) {
    return Unimplemented("op " + DebugName() + ": padding_weights = true");
  }
  ASSIGN_OR_RETURN(param_.act, ReadAct(desc));
  return ParseMatMulInt8Form(DebugName(), desc, *w, &param_.int8);
}

Status FcOp::CheckShape() const {
  if (param_.in_num_col_dims < 1) return OpError("in_num_col_dims must be >= 1");
  if (param_.w->dims().size() != 2) {
    return OpError("W must be 2-D, got " + DimsToString(param_.w->dims()));
  }
  return Status::OK();
}

Status FcOp::InferShape() {
  const DDim& in = param_.input->dims();
  const DDim& w = param_.w->dims();
  const size_t nc = param_.in_num_col_dims;
  if (w.size() != 2) return OpError("W must be 2-D, got " + DimsToString(w));
  if (in.size() < nc + 1) {
    return OpError("Input " + DimsToString(in) + " needs rank > in_num_col_dims " +
                   std::to_string(nc));
  }
  param_.m = Product(Slice(in, 0, nc));
  param_.k = Product(Slice(in, nc, in.size()));
  param_.n = w[1];
  if (param_.k != w[0]) {
    return OpError("Input " + DimsToString(in) + " flattened at " + std::to_string(nc) +
                   " has width " + std::to_string(param_.k) + " but W is " +
                   DimsToString(w));
  }
  if (param_.bias && param_.bias->numel() != param_.n) {
    return OpError("Bias " + DimsToString(param_.bias->dims()) + " must have " +
                   std::to_string(param_.n) + " elements");
  }
  DDim out = Slice(in, 0, nc);
  out.push_back(param_.n);
  param_.out->Resize(out);
  param_.out->set_lod(param_.input->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

namespace lite {
namespace operators {

int64_t MulOp::Flops() const {
  const Tensor* x = param_.x;
  const Tensor* out = param_.out;
  if (!x || !out || x->dims().empty()) return 0;
  int64_t k = 1;
  for (size_t i = param_.x_num_col_dims; i < x->dims().size(); ++i) k *= x->dims()[i];
  return 2 * out->numel() * k;
}

int64_t MatMulOp::Flops() const {
  const Tensor* x = param_.x;
  const Tensor* out = param_.out;
  if (!x || !out || x->dims().empty()) return 0;
  const auto& d = x->dims();
  const int64_t k = param_.trans_x && d.size() >= 2 ? d[d.size() - 2] : d.back();
  return 2 * out->numel() * k;
}

int64_t FcOp::Flops() const {
  const Tensor* w = param_.w;
  const Tensor* out = param_.out;
  if (!w || !out || w->dims().size() != 2) return 0;
  return 2 * out->numel() * w->dims()[0];
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(mul, lite::operators::MulOp);
REGISTER_LITE_OP_KIND(matmul, lite::operators::MatMulOp, lite::operators::MatMulOpKind::kMatmul);
REGISTER_LITE_OP_KIND(matmul_v2, lite::operators::MatMulOp,
                      lite::operators::MatMulOpKind::kMatmulV2);
REGISTER_LITE_OP_KIND(bmm, lite::operators::MatMulOp, lite::operators::MatMulOpKind::kBmm);
REGISTER_LITE_OP(fc, lite::operators::FcOp);
