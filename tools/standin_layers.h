// Layers the Net builders (tools/standin_net.h) leave out, shared by the
// family stand-ins (tools/standin_families.cc, tools/standin_families2.cc):
// matmul_v2 and Linear, layer_norm, one-index slices, flatten, dropout as
// eval exports keep it, nearest x2 upsampling, multiclass_nms3, and AsExported (the outputs
// and attributes Paddle's exporters add to every program). Each writes the
// op types and attribute names Paddle's exporters write.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "tools/standin_net.h"

namespace lite {
namespace tools {

inline std::string MatMul(Net& n, const std::string& x, const std::string& y, bool trans_y,
                   std::vector<int64_t> dims) {
  const std::string z = n.Out("matmul", std::move(dims));
  auto& op = n.b().Op("matmul_v2");
  op.SetInput("X", {x});
  op.SetInput("Y", {y});
  op.SetOutput("Out", {z});
  op.SetAttr("trans_x", false);
  op.SetAttr("trans_y", trans_y);
  return z;
}

// A Paddle Linear as exported: matmul_v2 with a [K, M] weight, then the bias
// as an elementwise_add on the last axis. `dims` are the output's; the
// weights are named after `name` (x when empty).
inline std::string Linear(Net& n, const std::string& x, int64_t m, std::vector<int64_t> dims,
                          double gain = 1.0, const std::string& name = "") {
  const std::string p = name.empty() ? x : name;
  const int64_t k = n.b().Dims(x).back();
  const double a = gain * std::sqrt(3.0 / static_cast<double>(k));
  n.b().Weight(p + ".w", {k, m}, -a, a);
  n.b().Weight(p + ".b", {m}, -0.1, 0.1);
  return n.Binary("elementwise_add", MatMul(n, x, p + ".w", false, std::move(dims)), p + ".b");
}

// layer_norm over the last axis of a rank-3 [N, T, C] x, with Mean and
// Variance outputs as exports declare them.
inline std::string LayerNorm(Net& n, const std::string& x) {
  const auto dims = n.b().Dims(x);
  const int64_t c = dims.back();
  n.b().Weight(x + ".ln_g", {c}, 0.8, 1.2);
  n.b().Weight(x + ".ln_b", {c}, -0.1, 0.1);
  const std::string y = n.Out("layer_norm", dims);
  const std::string mean = n.Out("ln_mean", {-1});
  const std::string var = n.Out("ln_var", {-1});
  auto& op = n.b().Op("layer_norm");
  op.SetInput("X", {x});
  op.SetInput("Scale", {x + ".ln_g"});
  op.SetInput("Bias", {x + ".ln_b"});
  op.SetOutput("Y", {y});
  op.SetOutput("Mean", {mean});
  op.SetOutput("Variance", {var});
  op.SetAttr("begin_norm_axis", 2);
  op.SetAttr("epsilon", 1e-6f);
  return y;
}

// slice of one index on `axis`, the axis dropped (x[:, 0] / qkv[i]).
inline std::string Index(Net& n, const std::string& x, int axis, int i, std::vector<int64_t> dims,
                  DataType dtype = DataType::kFloat32) {
  const std::string y = n.Out("slice", std::move(dims), dtype);
  auto& op = n.b().Op("slice");
  op.SetInput("Input", {x});
  op.SetOutput("Out", {y});
  op.SetAttr("axes", Ints{axis});
  op.SetAttr("starts", Ints{i});
  op.SetAttr("ends", Ints{i + 1});
  op.SetAttr("decrease_axis", Ints{axis});
  op.SetAttr("infer_flags", Ints{1});
  return y;
}

inline std::string Flatten(Net& n, const std::string& x, int start, int stop,
                    std::vector<int64_t> dims) {
  const std::string y = n.Out("flatten", std::move(dims));
  auto& op = n.b().Op("flatten_contiguous_range");
  op.SetInput("X", {x});
  op.SetOutput("Out", {y});
  op.SetAttr("start_axis", start);
  op.SetAttr("stop_axis", stop);
  return y;
}

// What Paddle's exporters add to every program and the Net layers leave out:
// the XShape output of reshape2 / transpose2 / flatten_contiguous_range
// ([0, X's dims...]); batch_norm's training outputs (MeanOut / VarianceOut
// written over the Mean / Variance weights, SavedMean / SavedVariance) and
// attributes; the bookkeeping attributes every op carries.
inline void AsExported(ProgramBuilder& b) {
  auto& ops = b.block().ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    cpp::OpDesc& op = ops[i];
    const std::string type = op.Type();
    const std::string tag = "export" + std::to_string(i);
    if ((type == "reshape2" || type == "transpose2" || type == "flatten_contiguous_range") &&
        !op.HasOutput("XShape")) {
      std::vector<int64_t> dims = b.Dims(op.Input("X")[0]);
      dims.insert(dims.begin(), 0);
      b.Activation(tag + ".xshape", dims);
      op.SetOutput("XShape", {tag + ".xshape"});
    }
    if (type == "batch_norm") {
      const int64_t c = b.Dims(op.Input("Mean")[0])[0];
      op.SetOutput("MeanOut", op.Input("Mean"));
      op.SetOutput("VarianceOut", op.Input("Variance"));
      b.Activation(tag + ".saved_mean", {c});
      b.Activation(tag + ".saved_var", {c});
      op.SetOutput("SavedMean", {tag + ".saved_mean"});
      op.SetOutput("SavedVariance", {tag + ".saved_var"});
      op.SetAttr("momentum", 0.9f);
      op.SetAttr("data_layout", std::string("NCHW"));
      op.SetAttr("use_global_stats", false);
      op.SetAttr("trainable_statistics", false);
    }
    op.SetAttr("op_role", 0);
    op.SetAttr("op_namescope", std::string("/"));
    op.SetAttr("op_device", std::string(""));
    op.SetAttr("op_callstack", std::vector<std::string>{});
    op.SetAttr("with_quant_attr", false);
  }
}

// dropout as eval-mode exports keep it (drop rate 0, is_test).
inline std::string Dropout(Net& n, const std::string& x) {
  std::string y;
  auto& op = n.Unary("dropout", x, &y);
  const std::string mask = y + ".mask";
  n.b().Activation(mask, n.b().Dims(x), DataType::kUInt8);
  op.SetOutput("Mask", {mask});
  op.SetAttr("dropout_prob", 0.f);
  op.SetAttr("is_test", true);
  op.SetAttr("fix_seed", false);
  op.SetAttr("seed", 0);
  op.SetAttr("dropout_implementation", std::string("upscale_in_train"));
  return y;
}

// nearest_interp_v2 by a scale of 2 (F.upsample(scale_factor=2)).
inline std::string NearestUp2(Net& n, const std::string& x) {
  const std::string up = n.Map("nearest_interp", n.C(x));
  auto& interp = n.b().Op("nearest_interp_v2");
  interp.SetInput("X", {x});
  interp.SetOutput("Out", {up});
  interp.SetAttr("interp_method", std::string("nearest"));
  interp.SetAttr("scale", std::vector<float>{2.f, 2.f});
  interp.SetAttr("out_d", -1);
  interp.SetAttr("out_h", -1);
  interp.SetAttr("out_w", -1);
  interp.SetAttr("align_corners", false);
  interp.SetAttr("align_mode", 0);
  interp.SetAttr("data_layout", std::string("NCHW"));
  return up;
}

// multiclass_nms3 as PaddleDetection exports it (top 1000, keep 100,
// unnormalized boxes), its outputs "bbox" [K, 6] and "bbox_num" fetched.
inline void MulticlassNms(Net& n, const std::string& boxes, const std::string& scores,
                          float score_threshold, float nms_threshold) {
  n.b().Activation("bbox", {-1, 6});
  n.b().Activation("bbox_index", {-1, 1}, DataType::kInt32);
  n.b().Activation("bbox_num", {-1}, DataType::kInt32);
  auto& nms = n.b().Op("multiclass_nms3");
  nms.SetInput("BBoxes", {boxes});
  nms.SetInput("Scores", {scores});
  nms.SetOutput("Out", {"bbox"});
  nms.SetOutput("Index", {"bbox_index"});
  nms.SetOutput("NmsRoisNum", {"bbox_num"});
  nms.SetAttr("background_label", -1);
  nms.SetAttr("score_threshold", score_threshold);
  nms.SetAttr("nms_top_k", 1000);
  nms.SetAttr("nms_threshold", nms_threshold);
  nms.SetAttr("nms_eta", 1.f);
  nms.SetAttr("keep_top_k", 100);
  nms.SetAttr("normalized", false);
  n.b().Fetch("bbox");
  n.b().Fetch("bbox_num");
}

}  // namespace tools
}  // namespace lite
