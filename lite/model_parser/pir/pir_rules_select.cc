// PIR -> engine rules for indexing, sorting, small algebra, vision and anchor
// ops: strided_slice, crop, unbind, meshgrid, scatter(_nd_add),
// masked_select, nonzero, argsort, linspace, assign_value(_), norm, dot,
// addmm, group_norm, affine_channel, grid_sample, prior_box, box_coder,
// box_clip, anchor_generator.
// IntArray operands that are tensors stay inputs of the engine op where it
// has one.
#include "lite/model_parser/paddle_types.h"
#include "lite/model_parser/pir/pir_translator.h"

namespace lite {
namespace pir {
namespace {

// strided_slice(x, starts, ends, strides) {axes}
Status StridedSlice(const Op& op, Translator* t) {
  AttrReader a(op);
  const auto axes = a.Ints("axes");
  RETURN_IF_ERROR(a.status());
  const char* const kNames[3] = {"starts", "ends", "strides"};
  const char* const kPrefix[3] = {"Starts", "Ends", "Strides"};
  IntArrayOperand v[3];
  for (int k = 0; k < 3; ++k) {
    ASSIGN_OR_RETURN(v[k], t->IntArray(op, k + 1, kNames[k]));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "strided_slice", {"Input"}));
  for (int k = 0; k < 3; ++k) {
    const std::string p = kPrefix[k];
    RETURN_IF_ERROR(BindIntArray(v[k], d, kNames[k], p + "Tensor", p + "TensorList"));
  }
  d->SetAttr("axes", axes);
  return Status::OK();
}

// crop(x, shape, offsets) -> crop_tensor
Status Crop(const Op& op, Translator* t) {
  ASSIGN_OR_RETURN(IntArrayOperand shape, t->IntArray(op, 1, "shape"));
  ASSIGN_OR_RETURN(IntArrayOperand offsets, t->IntArray(op, 2, "offsets"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "crop_tensor", {"X"}));
  RETURN_IF_ERROR(BindIntArray(shape, d, "shape", "Shape", "ShapeTensor"));
  return BindIntArray(offsets, d, "offsets", "Offsets", "OffsetsTensor");
}

// unbind(input) {axis} -> list
Status Unbind(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis", 0);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::string x, t->In(op, 0));
  ASSIGN_OR_RETURN(std::vector<std::string> outs, t->OutList(op, 0));
  cpp::OpDesc* d = t->Emit("unbind", op);
  d->SetInput("X", {x});
  d->SetOutput("Out", outs);
  d->SetAttr("axis", static_cast<int32_t>(axis));
  return Status::OK();
}

// meshgrid(list) -> list
Status Meshgrid(const Op& op, Translator* t) {
  ASSIGN_OR_RETURN(std::vector<std::string> xs, t->InList(op, 0));
  ASSIGN_OR_RETURN(std::vector<std::string> outs, t->OutList(op, 0));
  cpp::OpDesc* d = t->Emit("meshgrid", op);
  d->SetInput("X", xs);
  d->SetOutput("Out", outs);
  return Status::OK();
}

// argsort(x) {axis, descending, stable} -> (out, indices)
Status Argsort(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis", -1);
  const bool descending = a.Bool("descending", false);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "argsort", {"X"}));
  d->SetAttr("axis", static_cast<int32_t>(axis));
  d->SetAttr("descending", descending);
  ASSIGN_OR_RETURN(std::string indices, t->Out(op, 1));
  t->LastEmitted()->SetOutput("Indices", {indices});
  return Status::OK();
}

StatusOr<int32_t> PaddleDtype(AttrReader* a, const char* op_name) {
  const std::string dtype = a->Str("dtype", "float32");
  RETURN_IF_ERROR(a->status());
  int code = -1;
  if (!DataTypeToPaddle(DataTypeFromPirName(dtype), &code)) {
    return Unimplemented(std::string(op_name) + " of dtype '" + dtype + "'");
  }
  return static_cast<int32_t>(code);
}

// linspace(start, stop, number) {dtype}
Status Linspace(const Op& op, Translator* t) {
  AttrReader a(op);
  ASSIGN_OR_RETURN(int32_t code, PaddleDtype(&a, "linspace"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "linspace", {"Start", "Stop", "Num"}));
  d->SetAttr("dtype", code);
  return Status::OK();
}

// assign_value {shape, dtype, values}; assign_value_(output) ignores the
// tensor it overwrites (SSA: the result is a new variable).
Status AssignValue(const Op& op, Translator* t) {
  AttrReader a(op);
  ASSIGN_OR_RETURN(int32_t code, PaddleDtype(&a, "assign_value"));
  const std::vector<int64_t> shape = a.Ints("shape");
  const std::vector<double> values = a.Floats("values");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::string out, t->Out(op, 0));
  cpp::OpDesc* d = t->Emit("assign_value", op);
  d->SetOutput("Out", {out});
  d->SetAttr("shape", ToInt32s(shape));
  d->SetAttr("dtype", code);
  switch (DataTypeFromPaddle(code)) {
    case DataType::kFloat32:
    case DataType::kFloat64:
      d->SetAttr(code == 5 ? "fp32_values" : "fp64_values", ToFloats(values));
      break;
    case DataType::kInt64:
    case DataType::kInt32:
    case DataType::kBool: {
      std::vector<int64_t> ints(values.begin(), values.end());
      const char* name = code == 3 ? "int64_values" : (code == 2 ? "int32_values" : "bool_values");
      d->SetAttr(name, ints);
      break;
    }
    default:
      return Unimplemented("assign_value of dtype code " + std::to_string(code));
  }
  return Status::OK();
}

// norm(x) {axis, epsilon} -> (out, norm)
Status Norm(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis");
  const double epsilon = a.Float("epsilon", 1e-10);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "norm", {"X"}));
  d->SetAttr("axis", static_cast<int32_t>(axis));
  d->SetAttr("epsilon", static_cast<float>(epsilon));
  if (op.results.size() > 1) {
    ASSIGN_OR_RETURN(std::string norm, t->Out(op, 1));
    t->LastEmitted()->SetOutput("Norm", {norm});
  }
  return Status::OK();
}

// addmm(input, x, y) {beta, alpha}
Status Addmm(const Op& op, Translator* t) {
  AttrReader a(op);
  const double beta = a.Float("beta", 1.0);
  const double alpha = a.Float("alpha", 1.0);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "addmm", {"Input", "X", "Y"}));
  d->SetAttr("Beta", static_cast<float>(beta));
  d->SetAttr("Alpha", static_cast<float>(alpha));
  return Status::OK();
}

Status Scatter(const Op& op, Translator* t) {
  AttrReader a(op);
  const bool overwrite = a.Bool("overwrite", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "scatter", {"X", "Ids", "Updates"}));
  d->SetAttr("overwrite", overwrite);
  return Status::OK();
}

// group_norm(x, scale, bias) {epsilon, groups, data_format} -> (y, mean, variance)
Status GroupNorm(const Op& op, Translator* t) {
  AttrReader a(op);
  const double epsilon = a.Float("epsilon", 1e-5);
  const int64_t groups = a.Int("groups");
  const std::string format = a.Str("data_format", "NCHW");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "group_norm", {"X", "Scale", "Bias"}, "Y"));
  d->SetAttr("epsilon", static_cast<float>(epsilon));
  d->SetAttr("groups", static_cast<int32_t>(groups));
  d->SetAttr("data_layout", format);
  const char* const kStats[2] = {"Mean", "Variance"};
  for (size_t k = 1; k < op.results.size() && k < 3; ++k) {
    ASSIGN_OR_RETURN(std::string name, t->Out(op, k));
    t->LastEmitted()->SetOutput(kStats[k - 1], {name});
  }
  return Status::OK();
}

// affine_channel(x, scale, bias) {data_layout}
Status AffineChannel(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string layout = a.Str("data_layout", "AnyLayout");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "affine_channel", {"X", "Scale", "Bias"}));
  d->SetAttr("data_layout", layout);
  return Status::OK();
}

// grid_sample(x, grid) {mode, padding_mode, align_corners} -> grid_sampler
Status GridSample(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string mode = a.Str("mode", "bilinear");
  const std::string padding = a.Str("padding_mode", "zeros");
  const bool align = a.Bool("align_corners", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "grid_sampler", {"X", "Grid"}, "Output"));
  d->SetAttr("mode", mode);
  d->SetAttr("padding_mode", padding);
  d->SetAttr("align_corners", align);
  return Status::OK();
}

// prior_box(input, image) {min_sizes, max_sizes, aspect_ratios, variances,
// flip, clip, step_w, step_h, offset, min_max_aspect_ratios_order}
// -> (boxes, variances)
Status PriorBox(const Op& op, Translator* t) {
  AttrReader a(op);
  const auto min_sizes = a.Floats("min_sizes");
  const auto max_sizes = a.Has("max_sizes") ? a.Floats("max_sizes") : std::vector<double>{};
  const auto ratios =
      a.Has("aspect_ratios") ? a.Floats("aspect_ratios") : std::vector<double>{};
  const auto variances = a.Floats("variances");
  const bool flip = a.Bool("flip", true);
  const bool clip = a.Bool("clip", true);
  const double step_w = a.Float("step_w", 0.0);
  const double step_h = a.Float("step_h", 0.0);
  const double offset = a.Float("offset", 0.5);
  const bool order = a.Bool("min_max_aspect_ratios_order", false);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "prior_box", {"Input", "Image"}, "Boxes"));
  d->SetAttr("min_sizes", ToFloats(min_sizes));
  d->SetAttr("max_sizes", ToFloats(max_sizes));
  d->SetAttr("aspect_ratios", ToFloats(ratios));
  d->SetAttr("variances", ToFloats(variances));
  d->SetAttr("flip", flip);
  d->SetAttr("clip", clip);
  d->SetAttr("step_w", static_cast<float>(step_w));
  d->SetAttr("step_h", static_cast<float>(step_h));
  d->SetAttr("offset", static_cast<float>(offset));
  d->SetAttr("min_max_aspect_ratios_order", order);
  ASSIGN_OR_RETURN(std::string var, t->Out(op, 1));
  t->LastEmitted()->SetOutput("Variances", {var});
  return Status::OK();
}

// box_coder(prior_box, prior_box_var, target_box) {code_type,
// box_normalized, axis, variance} -> output_box
Status BoxCoder(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string code = a.Str("code_type", "encode_center_size");
  const bool normalized = a.Bool("box_normalized", true);
  const int64_t axis = a.Int("axis", 0);
  const auto variance = a.Has("variance") ? a.Floats("variance") : std::vector<double>{};
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, "box_coder", {"PriorBox", "PriorBoxVar", "TargetBox"},
                                 "OutputBox"));
  d->SetAttr("code_type", code);
  d->SetAttr("box_normalized", normalized);
  d->SetAttr("axis", static_cast<int32_t>(axis));
  d->SetAttr("variance", ToFloats(variance));
  return Status::OK();
}

// anchor_generator(input) {anchor_sizes, aspect_ratios, variances, stride,
// offset} -> (anchors, variances)
Status AnchorGenerator(const Op& op, Translator* t) {
  AttrReader a(op);
  const auto sizes = a.Floats("anchor_sizes");
  const auto ratios = a.Floats("aspect_ratios");
  const auto variances = a.Floats("variances");
  const auto stride = a.Floats("stride");
  const double offset = a.Float("offset", 0.5);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "anchor_generator", {"Input"}, "Anchors"));
  d->SetAttr("anchor_sizes", ToFloats(sizes));
  d->SetAttr("aspect_ratios", ToFloats(ratios));
  d->SetAttr("variances", ToFloats(variances));
  d->SetAttr("stride", ToFloats(stride));
  d->SetAttr("offset", static_cast<float>(offset));
  ASSIGN_OR_RETURN(std::string var, t->Out(op, 1));
  t->LastEmitted()->SetOutput("Variances", {var});
  return Status::OK();
}

}  // namespace

void AddSelectRules(RuleTable* table) {
  (*table)["pd_op.strided_slice"] = StridedSlice;
  (*table)["pd_op.crop"] = Crop;
  (*table)["pd_op.unbind"] = Unbind;
  (*table)["pd_op.meshgrid"] = Meshgrid;
  (*table)["pd_op.scatter"] = Scatter;
  (*table)["pd_op.scatter_nd_add"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "scatter_nd_add", {"X", "Index", "Updates"}).status();
  };
  (*table)["pd_op.masked_select"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "masked_select", {"X", "Mask"}, "Y").status();
  };
  (*table)["pd_op.nonzero"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "where_index", {"Condition"}).status();
  };
  (*table)["pd_op.argsort"] = Argsort;
  (*table)["pd_op.linspace"] = Linspace;
  (*table)["pd_op.assign_value"] = AssignValue;
  (*table)["pd_op.assign_value_"] = AssignValue;
  (*table)["pd_op.norm"] = Norm;
  (*table)["pd_op.dot"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "dot", {"X", "Y"}).status();
  };
  (*table)["pd_op.addmm"] = Addmm;
  (*table)["pd_op.group_norm"] = GroupNorm;
  (*table)["pd_op.affine_channel"] = AffineChannel;
  (*table)["pd_op.grid_sample"] = GridSample;
  (*table)["pd_op.prior_box"] = PriorBox;
  (*table)["pd_op.box_coder"] = BoxCoder;
  (*table)["pd_op.anchor_generator"] = AnchorGenerator;
  (*table)["pd_op.box_clip"] = [](const Op& op, Translator* t) {
    return t->EmitSimple(op, "box_clip", {"Input", "ImInfo"}, "Output").status();
  };
}

}  // namespace pir
}  // namespace lite
