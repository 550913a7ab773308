// PIR -> engine rules for the neural-network ops: convolutions, pooling,
// normalizations, interpolation, dropout, softmax, the fused rnn.
#include "lite/model_parser/pir/pir_translator.h"

namespace lite {
namespace pir {
namespace {

Status Conv(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const auto strides = a.Ints("strides");
  const auto paddings = a.Ints("paddings");
  const auto dilations = a.Ints("dilations");
  const int64_t groups = a.Int("groups", 1);
  const std::string algo = a.Str("padding_algorithm", "EXPLICIT");
  const std::string format = a.Str("data_format", type == "conv3d" ? "NCDHW" : "NCHW");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"Input", "Filter"}, "Output"));
  d->SetAttr("strides", ToInt32s(strides));
  d->SetAttr("paddings", ToInt32s(paddings));
  d->SetAttr("dilations", ToInt32s(dilations));
  d->SetAttr("groups", static_cast<int32_t>(groups));
  d->SetAttr("padding_algorithm", algo);
  d->SetAttr("data_format", format);
  return Status::OK();
}

// conv2d_transpose(x, filter, output_size)
Status ConvTranspose(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const auto strides = a.Ints("strides");
  const auto paddings = a.Ints("paddings");
  const auto dilations = a.Ints("dilations");
  const auto output_padding = a.Ints("output_padding", {});
  const int64_t groups = a.Int("groups", 1);
  const std::string algo = a.Str("padding_algorithm", "EXPLICIT");
  const std::string format = a.Str("data_format", "NCHW");
  RETURN_IF_ERROR(a.status());
  // A constant output_size is the attribute; a computed one the OutputSize input.
  const bool constant_size = t->ConstOperand(op, 2) != nullptr;
  std::vector<int64_t> output_size;
  if (constant_size) {
    ASSIGN_OR_RETURN(output_size, t->ConstInts(op, 2, "output_size"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, type,
                                 {"Input", "Filter", constant_size ? "" : "OutputSize"},
                                 "Output"));
  d->SetAttr("strides", ToInt32s(strides));
  d->SetAttr("paddings", ToInt32s(paddings));
  d->SetAttr("dilations", ToInt32s(dilations));
  d->SetAttr("output_padding", ToInt32s(output_padding));
  d->SetAttr("output_size", ToInt32s(output_size));
  d->SetAttr("groups", static_cast<int32_t>(groups));
  d->SetAttr("padding_algorithm", algo);
  d->SetAttr("data_format", format);
  return Status::OK();
}

// pool2d(x, kernel_size): kernel_size is an IntArray operand; pool3d(x)
// has it as the int[] attribute kernel_size.
Status Pool(const Op& op, Translator* t, bool is3d) {
  AttrReader a(op);
  const auto strides = a.Ints("strides");
  const auto paddings = a.Ints("paddings");
  const bool ceil_mode = a.Bool("ceil_mode", false);
  const bool exclusive = a.Bool("exclusive", true);
  const std::string format = a.Str("data_format", is3d ? "NCDHW" : "NCHW");
  const std::string type = a.Str("pooling_type");
  const std::vector<int64_t> ksize3 = is3d ? a.Ints("kernel_size") : std::vector<int64_t>{};
  const bool global = a.Bool("global_pooling", false);
  const bool adaptive = a.Bool("adaptive", false);
  const std::string algo = a.Str("padding_algorithm", "EXPLICIT");
  RETURN_IF_ERROR(a.status());
  std::vector<int64_t> ksize = ksize3;
  if (!is3d) {
    ASSIGN_OR_RETURN(ksize, t->ConstInts(op, 1, "kernel_size"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, is3d ? "pool3d" : "pool2d", {"X"}));
  d->SetAttr("ksize", ToInt32s(ksize));
  d->SetAttr("strides", ToInt32s(strides));
  d->SetAttr("paddings", ToInt32s(paddings));
  d->SetAttr("ceil_mode", ceil_mode);
  d->SetAttr("exclusive", exclusive);
  d->SetAttr("data_format", format);
  d->SetAttr("pooling_type", type);
  d->SetAttr("global_pooling", global);
  d->SetAttr("adaptive", adaptive);
  d->SetAttr("padding_algorithm", algo);
  return Status::OK();
}

// batch_norm(_)(x, mean, variance, scale, bias): phi operand order.
Status BatchNorm(const Op& op, Translator* t) {
  AttrReader a(op);
  const double epsilon = a.Float("epsilon");
  const double momentum = a.Float("momentum", 0.9);
  const std::string layout = a.Str("data_format", a.Str("data_layout", "NCHW"));
  const bool use_global_stats = a.Bool("use_global_stats", false);
  const bool trainable_statistics = a.Bool("trainable_statistics", false);
  RETURN_IF_ERROR(a.status());
  if (!t->Present(op, 1) || !t->Present(op, 2)) {
    return InvalidArgument("batch_norm needs its mean and variance operands");
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, "batch_norm",
                                 {"X", "Mean", "Variance", "Scale", "Bias"}, "Y"));
  d->SetAttr("epsilon", static_cast<float>(epsilon));
  d->SetAttr("momentum", static_cast<float>(momentum));
  d->SetAttr("data_layout", layout);
  d->SetAttr("is_test", true);
  d->SetAttr("use_global_stats", use_global_stats);
  d->SetAttr("trainable_statistics", trainable_statistics);
  return Status::OK();
}

// layer_norm / instance_norm (x, scale, bias)
Status Norm(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const double epsilon = a.Float("epsilon");
  const int64_t begin = type == "layer_norm" ? a.Int("begin_norm_axis") : 0;
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X", "Scale", "Bias"}, "Y"));
  d->SetAttr("epsilon", static_cast<float>(epsilon));
  if (type == "layer_norm") d->SetAttr("begin_norm_axis", static_cast<int32_t>(begin));
  return Status::OK();
}

// nearest_interp / bilinear_interp (x, out_size, size_tensor, scale_tensor)
Status Interp(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const std::string layout = a.Str("data_format", a.Str("data_layout", "NCHW"));
  const int64_t out_h = a.Int("out_h", -1);
  const int64_t out_w = a.Int("out_w", -1);
  const auto scale = a.Has("scale") ? a.Floats("scale") : std::vector<double>{};
  const std::string method = a.Str("interp_method");
  const bool align_corners = a.Bool("align_corners", false);
  const int64_t align_mode = a.Int("align_mode", 1);
  RETURN_IF_ERROR(a.status());
  std::vector<std::string> size_list;
  if (t->Present(op, 2)) {
    ASSIGN_OR_RETURN(size_list, t->InList(op, 2));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X", "OutSize", "", "Scale"}));
  if (!size_list.empty()) d->SetInput("SizeTensor", size_list);
  d->SetAttr("data_layout", layout);
  d->SetAttr("out_d", int32_t{-1});
  d->SetAttr("out_h", static_cast<int32_t>(out_h));
  d->SetAttr("out_w", static_cast<int32_t>(out_w));
  d->SetAttr("scale", ToFloats(scale));
  d->SetAttr("interp_method", method);
  d->SetAttr("align_corners", align_corners);
  d->SetAttr("align_mode", static_cast<int32_t>(align_mode));
  return Status::OK();
}

// dropout(x, seed_tensor, p): inference only.
Status Dropout(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string mode = a.Str("mode", "upscale_in_train");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(double p, t->ConstScalar(op, 2, "p"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "dropout", {"X"}));
  d->SetAttr("dropout_prob", static_cast<float>(p));
  d->SetAttr("is_test", true);
  d->SetAttr("dropout_implementation", mode);
  return Status::OK();
}

Status Softmax(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis", -1);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X"}));
  d->SetAttr("axis", static_cast<int32_t>(axis));
  return Status::OK();
}

// prelu(x, alpha)
Status Prelu(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string mode = a.Str("mode", "all");
  const std::string format = a.Str("data_format", "NCHW");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "prelu", {"X", "Alpha"}));
  d->SetAttr("mode", mode);
  d->SetAttr("data_format", format);
  return Status::OK();
}

// multiclass_nms3(bboxes, scores, rois_num) -> (out, index, nms_rois_num)
Status MulticlassNms3(const Op& op, Translator* t) {
  AttrReader a(op);
  const double score_threshold = a.Float("score_threshold");
  const int64_t nms_top_k = a.Int("nms_top_k");
  const int64_t keep_top_k = a.Int("keep_top_k");
  const double nms_threshold = a.Float("nms_threshold", 0.3);
  const bool normalized = a.Bool("normalized", true);
  const double nms_eta = a.Float("nms_eta", 1.0);
  const int64_t background = a.Int("background_label", 0);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, "multiclass_nms3", {"BBoxes", "Scores", "RoisNum"}));
  d->SetAttr("score_threshold", static_cast<float>(score_threshold));
  d->SetAttr("nms_top_k", static_cast<int32_t>(nms_top_k));
  d->SetAttr("keep_top_k", static_cast<int32_t>(keep_top_k));
  d->SetAttr("nms_threshold", static_cast<float>(nms_threshold));
  d->SetAttr("normalized", normalized);
  d->SetAttr("nms_eta", static_cast<float>(nms_eta));
  d->SetAttr("background_label", static_cast<int32_t>(background));
  // Index and NmsRoisNum are written after Out is defined.
  const std::string out_names[] = {"Index", "NmsRoisNum"};
  std::vector<std::pair<std::string, std::string>> extra;
  for (size_t k = 1; k < op.results.size() && k < 3; ++k) {
    ASSIGN_OR_RETURN(std::string name, t->Out(op, k));
    extra.emplace_back(out_names[k - 1], name);
  }
  cpp::OpDesc* last = t->LastEmitted();
  for (const auto& e : extra) last->SetOutput(e.first, {e.second});
  return Status::OK();
}

// embedding(x, weight) {padding_idx}
Status Embedding(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t padding_idx = a.Int("padding_idx", -1);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "lookup_table_v2", {"Ids", "W"}));
  d->SetAttr("padding_idx", padding_idx);
  return Status::OK();
}

// rnn(x, pre_state[], weight_list[], sequence_length?, dropout_state_in?)
//   -> (out, dropout_state_out, state[], reserve): the fused rnn op.
Status Rnn(const Op& op, Translator* t) {
  AttrReader a(op);
  const double dropout_prob = a.Float("dropout_prob", 0.0);
  const bool is_bidirec = a.Bool("is_bidirec", false);
  const int64_t input_size = a.Int("input_size");
  const int64_t hidden_size = a.Int("hidden_size");
  const int64_t num_layers = a.Int("num_layers", 1);
  const std::string mode = a.Str("mode");
  const int64_t seed = a.Int("seed", 0);
  const bool is_test = a.Bool("is_test", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::string x, t->In(op, 0));
  ASSIGN_OR_RETURN(std::vector<std::string> pre_state, t->InList(op, 1));
  ASSIGN_OR_RETURN(std::vector<std::string> weights, t->InList(op, 2));
  std::string sequence_length;
  if (t->Present(op, 3)) {
    ASSIGN_OR_RETURN(sequence_length, t->In(op, 3));
  }
  ASSIGN_OR_RETURN(std::string out, t->Out(op, 0));
  ASSIGN_OR_RETURN(std::string dropout_state, t->Out(op, 1));
  ASSIGN_OR_RETURN(std::vector<std::string> state, t->OutList(op, 2));
  ASSIGN_OR_RETURN(std::string reserve, t->Out(op, 3));
  cpp::OpDesc* d = t->Emit("rnn", op);
  d->SetInput("Input", {x});
  d->SetInput("PreState", pre_state);
  d->SetInput("WeightList", weights);
  if (!sequence_length.empty()) d->SetInput("SequenceLength", {sequence_length});
  d->SetOutput("Out", {out});
  d->SetOutput("DropoutState", {dropout_state});
  d->SetOutput("State", state);
  d->SetOutput("Reserve", {reserve});
  d->SetAttr("dropout_prob", static_cast<float>(dropout_prob));
  d->SetAttr("is_bidirec", is_bidirec);
  d->SetAttr("input_size", static_cast<int32_t>(input_size));
  d->SetAttr("hidden_size", static_cast<int32_t>(hidden_size));
  d->SetAttr("num_layers", static_cast<int32_t>(num_layers));
  d->SetAttr("mode", mode);
  d->SetAttr("seed", static_cast<int32_t>(seed));
  d->SetAttr("is_test", is_test);
  return Status::OK();
}

// Registers `rule` under "pd_op.<name>" and its in-place twin "pd_op.<name>_".
void Both(RuleTable* table, const std::string& name, const Rule& rule) {
  (*table)["pd_op." + name] = rule;
  (*table)["pd_op." + name + "_"] = rule;
}

}  // namespace

// The quantization ops of PaddleSlim exports (operators/quantize_ops.h).
// quantize_linear / dequantize_linear(x, scale, zero_point, in_accum,
// in_state) -> y, out_state, out_accum, out_scale: inference form only
// (is_test; the scale is read, out_scale is the scale itself);
// only_observer carried (the op then copies X).
Status LinearQuant(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const int64_t axis = a.Int("quant_axis", -1);
  const int64_t bits = a.Int("bit_length", 8);
  const int64_t round_type = a.Int("round_type", 0);
  const bool observer = a.Bool("only_observer", false);
  const int64_t qmin = a.Int("qmin", -128);
  const int64_t qmax = a.Int("qmax", 127);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X", "Scale", "ZeroPoint"}, "Y"));
  d->SetAttr("quant_axis", static_cast<int32_t>(axis));
  d->SetAttr("bit_length", static_cast<int32_t>(bits));
  d->SetAttr("round_type", static_cast<int32_t>(round_type));
  d->SetAttr("qmin", static_cast<int32_t>(qmin));
  d->SetAttr("qmax", static_cast<int32_t>(qmax));
  d->SetAttr("only_observer", observer);
  if (op.results.size() > 3) {
    ASSIGN_OR_RETURN(std::string scale, t->In(op, 1));
    RETURN_IF_ERROR(t->Alias(op, 3, scale));
  }
  return Status::OK();
}

// The fake quantize family (Paddle's ops.yaml; round_type's default there is
// 1): the InScale ops
//   fake_quantize_dequantize_moving_average_abs_max,
//   fake_quantize_moving_average_abs_max (x, in_scale, in_accum, in_state)
//     -> out, out_scale (in place of in_scale), out_state, out_accum;
//   fake_quantize_range_abs_max(x, in_scale, iter) -> out, out_scale (in
//     place), out_scales;
// and the abs-max ops (x) -> out, out_scale: fake_quantize_abs_max,
// fake_quantize_dequantize_abs_max, fake_channel_wise_quantize_abs_max,
// fake_channel_wise_quantize_dequantize_abs_max (quant_axis).
Status FakeQuant(const Op& op, Translator* t, const std::string& type, bool in_scale,
                 bool channel_wise) {
  AttrReader a(op);
  const int64_t bits = a.Int("bit_length", 8);
  const int64_t round_type = a.Int("round_type", 1);
  const int64_t axis = channel_wise ? a.Int("quant_axis", 0) : -1;
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, type, {"X", in_scale ? "InScale" : ""}, "Out"));
  d->SetAttr("bit_length", static_cast<int32_t>(bits));
  d->SetAttr("round_type", static_cast<int32_t>(round_type));
  if (channel_wise) d->SetAttr("quant_axis", static_cast<int32_t>(axis));
  if (!in_scale) {
    ASSIGN_OR_RETURN(std::string out_scale, t->Out(op, 1));
    t->LastEmitted()->SetOutput("OutScale", {out_scale});
  } else if (op.results.size() > 1) {
    ASSIGN_OR_RETURN(std::string scale, t->In(op, 1));
    RETURN_IF_ERROR(t->Alias(op, 1, scale));
  }
  return Status::OK();
}

// The frozen form's dequantize ops: fake_dequantize_max_abs(x, scale,
// max_range) -> out; fake_channel_wise_dequantize_max_abs(x, scales[],
// quant_bits, quant_axis, x_num_col_dims) -> out.
Status FakeDequant(const Op& op, Translator* t, const std::string& type) {
  AttrReader a(op);
  const bool channel_wise = type == "fake_channel_wise_dequantize_max_abs";
  const double max_range = channel_wise ? 0.0 : a.Float("max_range");
  const std::vector<int64_t> bits = channel_wise ? a.Ints("quant_bits", {8}) : std::vector<int64_t>{};
  const int64_t axis = channel_wise ? a.Int("quant_axis", 0) : 0;
  const int64_t x_num_col_dims = channel_wise ? a.Int("x_num_col_dims", 1) : 1;
  RETURN_IF_ERROR(a.status());
  if (!channel_wise) {
    ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X", "Scale"}, "Out"));
    d->SetAttr("max_range", static_cast<float>(max_range));
    return Status::OK();
  }
  ASSIGN_OR_RETURN(std::string x, t->In(op, 0));
  ASSIGN_OR_RETURN(std::vector<std::string> scales, t->InList(op, 1));
  ASSIGN_OR_RETURN(std::string out, t->Out(op, 0));
  cpp::OpDesc* d = t->Emit(type, op);
  d->SetInput("X", {x});
  d->SetInput("Scales", scales);
  d->SetOutput("Out", {out});
  d->SetAttr("quant_bits", ToInt32s(bits));
  d->SetAttr("quant_axis", static_cast<int32_t>(axis));
  d->SetAttr("x_num_col_dims", static_cast<int32_t>(x_num_col_dims));
  return Status::OK();
}

// moving_average_abs_max_scale(x, in_accum, in_state) -> out, out_scale,
// out_state, out_accum: an observer; Out is a copy of X.
Status ScaleObserver(const Op& op, Translator* t) {
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, "moving_average_abs_max_scale", {"X"}, "Out"));
  d->SetAttr("is_test", true);
  return Status::OK();
}

void AddNnRules(RuleTable* table) {
  for (const char* type : {"conv2d", "depthwise_conv2d", "conv3d"}) {
    const std::string ty = type;
    (*table)["pd_op." + ty] = [ty](const Op& op, Translator* t) { return Conv(op, t, ty); };
  }
  for (const char* type : {"conv2d_transpose", "depthwise_conv2d_transpose"}) {
    const std::string ty = type;
    (*table)["pd_op." + ty] = [ty](const Op& op, Translator* t) {
      return ConvTranspose(op, t, ty);
    };
  }
  (*table)["pd_op.pool2d"] = [](const Op& op, Translator* t) { return Pool(op, t, false); };
  (*table)["pd_op.pool3d"] = [](const Op& op, Translator* t) { return Pool(op, t, true); };
  Both(table, "batch_norm", BatchNorm);
  for (const char* type : {"layer_norm", "instance_norm"}) {
    const std::string ty = type;
    (*table)["pd_op." + ty] = [ty](const Op& op, Translator* t) { return Norm(op, t, ty); };
  }
  for (const char* type : {"nearest_interp", "bilinear_interp"}) {
    const std::string ty = type;
    (*table)["pd_op." + ty] = [ty](const Op& op, Translator* t) {
      return Interp(op, t, ty + "_v2");
    };
  }
  (*table)["pd_op.dropout"] = Dropout;
  for (const char* type : {"softmax", "log_softmax"}) {
    const std::string ty = type;
    Both(table, ty, [ty](const Op& op, Translator* t) { return Softmax(op, t, ty); });
  }
  (*table)["pd_op.prelu"] = Prelu;
  (*table)["pd_op.multiclass_nms3"] = MulticlassNms3;
  (*table)["pd_op.embedding"] = Embedding;
  for (const char* type : {"quantize_linear", "dequantize_linear"}) {
    const std::string ty = type;
    Both(table, ty, [ty](const Op& op, Translator* t) { return LinearQuant(op, t, ty); });
  }
  for (const char* type :
       {"fake_quantize_dequantize_moving_average_abs_max", "fake_quantize_moving_average_abs_max",
        "fake_quantize_range_abs_max", "fake_quantize_abs_max", "fake_quantize_dequantize_abs_max",
        "fake_channel_wise_quantize_abs_max", "fake_channel_wise_quantize_dequantize_abs_max"}) {
    const std::string ty = type;
    const bool channel_wise = ty.find("channel_wise") != std::string::npos;
    const bool in_scale = ty.find("moving_average") != std::string::npos ||
                          ty.find("range_abs_max") != std::string::npos;
    Both(table, ty, [ty, in_scale, channel_wise](const Op& op, Translator* t) {
      return FakeQuant(op, t, ty, in_scale, channel_wise);
    });
  }
  for (const char* type : {"fake_dequantize_max_abs", "fake_channel_wise_dequantize_max_abs"}) {
    const std::string ty = type;
    (*table)["pd_op." + ty] = [ty](const Op& op, Translator* t) { return FakeDequant(op, t, ty); };
  }
  Both(table, "moving_average_abs_max_scale", ScaleObserver);
  (*table)["pd_op.rnn"] = Rnn;
}

}  // namespace pir
}  // namespace lite
