// Net: layer builders over ProgramBuilder for the stand-in models
// (tools/standin_models.h, tools/standin_families.h): each appends the ops of
// one layer as Paddle's exporters write them and returns its output's name
// ("<op><n>.out"), declared [-1, C, -1, -1] (or the rank the op gives) with
// the channel count it computes. Weights come from the builder's LCG, so the
// same calls give the same bytes.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "tools/program_builder.h"

namespace lite {
namespace tools {

using Ints = std::vector<int32_t>;

class Net {
 public:
  explicit Net(uint32_t seed) : b_(seed) {}

  ProgramBuilder& b() { return b_; }

  int64_t C(const std::string& x) const { return b_.Dims(x)[1]; }

  std::string Out(const std::string& type, std::vector<int64_t> dims,
                  DataType dtype = DataType::kFloat32) {
    std::string name = type + std::to_string(++count_) + ".out";
    b_.Activation(name, std::move(dims), dtype);
    return name;
  }
  std::string Map(const std::string& type, int64_t c) { return Out(type, {-1, c, -1, -1}); }
  // The name of the next layer's weight of `kind` ("w", "b", ...).
  std::string W(const std::string& kind) const { return kind + std::to_string(count_ + 1); }

  // conv2d (depthwise_conv2d when groups == C(x) == cout), He-uniform
  // weights times `gain`, the bias as Paddle exports it: an elementwise_add
  // on axis 1. Padding `pad`, (k - 1) / 2 when negative.
  std::string Conv(const std::string& x, int64_t cout, int k, int stride, int groups = 1,
                   bool bias = true, double gain = 1.0, int pad = -1) {
    const int64_t cin = C(x);
    const bool dw = groups > 1 && groups == cin && cout == cin;
    const std::string w = "w" + std::to_string(count_ + 1);
    const double a = gain * std::sqrt(3.0 / static_cast<double>(cin / groups * k * k));
    b_.Weight(w, {cout, cin / groups, k, k}, -a, a);
    std::string y = Map(dw ? "dwconv" : "conv", cout);
    auto& op = b_.Op(dw ? "depthwise_conv2d" : "conv2d");
    op.SetInput("Input", {x});
    op.SetInput("Filter", {w});
    op.SetOutput("Output", {y});
    op.SetAttr("strides", Ints{stride, stride});
    if (pad < 0) pad = (k - 1) / 2;
    op.SetAttr("paddings", Ints{pad, pad});
    op.SetAttr("dilations", Ints{1, 1});
    op.SetAttr("groups", groups);
    if (!bias) return y;
    const std::string bw = "b" + std::to_string(count_ + 1);
    b_.Weight(bw, {cout}, -0.1, 0.1);
    return Binary("elementwise_add", y, bw, 1);
  }

  std::string BatchNorm(const std::string& x) {
    const int64_t c = C(x);
    const std::string p = "bn" + std::to_string(count_ + 1);
    b_.Weight(p + ".scale", {c}, 0.5, 1.5);
    b_.Weight(p + ".bias", {c}, -0.2, 0.2);
    b_.Weight(p + ".mean", {c}, -0.1, 0.1);
    b_.Weight(p + ".var", {c}, 0.5, 1.5);
    std::string y = Map("bn", c);
    auto& op = b_.Op("batch_norm");
    op.SetInput("X", {x});
    op.SetInput("Scale", {p + ".scale"});
    op.SetInput("Bias", {p + ".bias"});
    op.SetInput("Mean", {p + ".mean"});
    op.SetInput("Variance", {p + ".var"});
    op.SetOutput("Y", {y});
    op.SetAttr("epsilon", 1e-5f);
    op.SetAttr("is_test", true);
    return y;
  }

  // A one-input op keeping X's dims (activations, pow, sqrt, scale, ...).
  cpp::OpDesc& Unary(const std::string& type, const std::string& x, std::string* y) {
    *y = Out(type, b_.Dims(x));
    auto& op = b_.Op(type);
    op.SetInput("X", {x});
    op.SetOutput("Out", {*y});
    return op;
  }
  std::string Act(const std::string& type, const std::string& x) {
    std::string y;
    Unary(type, x, &y);
    return y;
  }
  std::string Pow(const std::string& x, float factor) {
    std::string y;
    Unary("pow", x, &y).SetAttr("factor", factor);
    return y;
  }
  std::string Scale(const std::string& x, float scale, float bias) {
    std::string y;
    auto& op = Unary("scale", x, &y);
    op.SetAttr("scale", scale);
    op.SetAttr("bias", bias);
    op.SetAttr("bias_after_scale", true);
    return y;
  }

  // Y broadcast into X from `axis` (-1: trailing), the output has X's dims.
  std::string Binary(const std::string& type, const std::string& x, const std::string& y,
                     int axis = -1) {
    std::string z = Out(type.substr(std::string("elementwise_").size()), b_.Dims(x));
    auto& op = b_.Op(type);
    op.SetInput("X", {x});
    op.SetInput("Y", {y});
    op.SetOutput("Out", {z});
    op.SetAttr("axis", axis);
    return z;
  }

  std::string ReduceMeanC(const std::string& x) {
    std::string y = Map("mean", 1);
    auto& op = b_.Op("reduce_mean");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("dim", Ints{1});
    op.SetAttr("keep_dim", true);
    op.SetAttr("reduce_all", false);
    return y;
  }

  std::vector<std::string> Split(const std::string& x, int num) {
    std::vector<std::string> ys;
    for (int i = 0; i < num; ++i) ys.push_back(Map("split", C(x) / num));
    auto& op = b_.Op("split");
    op.SetInput("X", {x});
    op.SetOutput("Out", ys);
    op.SetAttr("axis", 1);
    op.SetAttr("num", num);
    return ys;
  }

  // Global (k == 0), adaptive (adaptive, output k x k) or k x k / stride k.
  std::string Pool(const std::string& x, const std::string& type, int k, bool adaptive = false) {
    std::vector<int64_t> dims = {-1, C(x), -1, -1};
    if (k == 0) dims[2] = dims[3] = 1;
    if (adaptive) dims[2] = dims[3] = k;
    std::string y = Out("pool", dims);
    auto& op = b_.Op("pool2d");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("pooling_type", type);
    op.SetAttr("ksize", Ints{k == 0 ? 1 : k, k == 0 ? 1 : k});
    op.SetAttr("strides", Ints{adaptive || k == 0 ? 1 : k, adaptive || k == 0 ? 1 : k});
    op.SetAttr("paddings", Ints{0, 0});
    op.SetAttr("global_pooling", k == 0);
    op.SetAttr("adaptive", adaptive);
    return y;
  }

  std::string PixelShuffle(const std::string& x, int r) {
    std::string y = Map("pixel_shuffle", C(x) / (r * r));
    auto& op = b_.Op("pixel_shuffle");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("upscale_factor", r);
    return y;
  }

  std::string PadChannels(const std::string& x, int64_t cout) {
    std::string y = Map("pad", cout);
    auto& op = b_.Op("pad");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("paddings", Ints{0, 0, 0, static_cast<int32_t>(cout - C(x)), 0, 0, 0, 0});
    op.SetAttr("pad_value", 0.f);
    return y;
  }

  std::string Concat(const std::vector<std::string>& xs, int axis, std::vector<int64_t> dims) {
    std::string y = Out("concat", std::move(dims));
    auto& op = b_.Op("concat");
    op.SetInput("X", xs);
    op.SetOutput("Out", {y});
    op.SetAttr("axis", axis);
    return y;
  }

  std::string Shape(const std::string& x) {
    std::string y = Out("shape", {4}, DataType::kInt32);
    auto& op = b_.Op("shape");
    op.SetInput("Input", {x});
    op.SetOutput("Out", {y});
    return y;
  }

  std::string Slice(const std::string& x, std::vector<int64_t> dims, int axis, int start, int end,
                    DataType dtype = DataType::kFloat32) {
    std::string y = Out("slice", std::move(dims), dtype);
    auto& op = b_.Op("slice");
    op.SetInput("Input", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("axes", Ints{axis});
    op.SetAttr("starts", Ints{start});
    op.SetAttr("ends", Ints{end});
    op.SetAttr("decrease_axis", Ints{});
    op.SetAttr("infer_flags", Ints{1});
    return y;
  }

  // bilinear_interp_v2 to the H, W of `like` read at run time: shape + slice
  // as OutSize, or (size_tensor) two one-element slices as SizeTensor.
  std::string ResizeLike(const std::string& x, const std::string& like, bool size_tensor) {
    const std::string s = Shape(like);
    std::vector<std::string> sizes;
    if (size_tensor) {
      sizes.push_back(Slice(s, {1}, 0, 2, 3, DataType::kInt32));
      sizes.push_back(Slice(s, {1}, 0, 3, 4, DataType::kInt32));
    } else {
      sizes.push_back(Slice(s, {2}, 0, 2, 4, DataType::kInt32));
    }
    std::string y = Map("interp", C(x));
    auto& op = b_.Op("bilinear_interp_v2");
    op.SetInput("X", {x});
    op.SetInput(size_tensor ? "SizeTensor" : "OutSize", sizes);
    op.SetOutput("Out", {y});
    op.SetAttr("interp_method", std::string("bilinear"));
    op.SetAttr("align_corners", false);
    op.SetAttr("align_mode", 0);
    op.SetAttr("data_layout", std::string("NCHW"));
    op.SetAttr("out_h", -1);
    op.SetAttr("out_w", -1);
    return y;
  }

  std::string Reshape(const std::string& x, Ints shape, std::vector<int64_t> dims) {
    std::string y = Out("reshape", std::move(dims));
    auto& op = b_.Op("reshape2");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("shape", shape);
    return y;
  }

  std::string Transpose(const std::string& x, Ints axis, std::vector<int64_t> dims) {
    std::string y = Out("transpose", std::move(dims));
    auto& op = b_.Op("transpose2");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("axis", axis);
    return y;
  }

 private:
  ProgramBuilder b_;
  int count_ = 0;
};

}  // namespace tools
}  // namespace lite
