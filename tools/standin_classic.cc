#include "tools/standin_classic.h"

#include <cmath>
#include <string>
#include <vector>

#include "tools/standin_net.h"

namespace lite {
namespace tools {

namespace {

// Net (tools/standin_net.h) with the layers as PaddleClas's classic nets
// write them: explicit padding attributes, declared spatial extents, and
// paddle.nn.Linear as matmul_v2.
class Layers : public Net {
 public:
  using Net::Net;

  // conv2d k x k / stride with `pad` on each side; uniform weights of
  // variance gain^2 / fan_in (gain sqrt(2) keeps a relu'd map's scale), with
  // `bias` the bias as Paddle exports it: elementwise_add on axis 1.
  std::string Conv(const std::string& x, int64_t cout, int k, int stride, int pad, double gain,
                   bool bias, std::vector<int64_t> out_hw = {-1, -1}) {
    const int64_t cin = C(x);
    const std::string w = W("w");
    const double a = gain * std::sqrt(3.0 / static_cast<double>(cin * k * k));
    b().Weight(w, {cout, cin, k, k}, -a, a);
    std::string y = Out("conv", {-1, cout, out_hw[0], out_hw[1]});
    auto& op = b().Op("conv2d");
    op.SetInput("Input", {x});
    op.SetInput("Filter", {w});
    op.SetOutput("Output", {y});
    op.SetAttr("strides", Ints{stride, stride});
    op.SetAttr("paddings", Ints{pad, pad});
    op.SetAttr("dilations", Ints{1, 1});
    op.SetAttr("groups", 1);
    op.SetAttr("padding_algorithm", std::string("EXPLICIT"));
    op.SetAttr("data_format", std::string("NCHW"));
    if (!bias) return y;
    const std::string bw = W("b");
    b().Weight(bw, {cout}, -0.1, 0.1);
    return Add(y, bw, 1);
  }

  // X + Y (Y aligned at `axis`); the output `name`, or a fresh one.
  std::string Add(const std::string& x, const std::string& y, int axis,
                  const std::string& name = "") {
    if (name.empty()) return Binary("elementwise_add", x, y, axis);
    b().Activation(name, b().Dims(x));
    auto& op = b().Op("elementwise_add");
    op.SetInput("X", {x});
    op.SetInput("Y", {y});
    op.SetOutput("Out", {name});
    op.SetAttr("axis", axis);
    return name;
  }

  // Max k x k / stride (ceil mode, no padding) or 3x3/1 padded 1; global avg.
  std::string Pool(const std::string& x, const std::string& type, int k, int stride, int pad,
                   bool ceil_mode, bool global = false) {
    std::string y = Out("pool", {-1, C(x), global ? 1 : -1, global ? 1 : -1});
    auto& op = b().Op("pool2d");
    op.SetInput("X", {x});
    op.SetOutput("Out", {y});
    op.SetAttr("pooling_type", type);
    op.SetAttr("ksize", Ints{k, k});
    op.SetAttr("strides", Ints{stride, stride});
    op.SetAttr("paddings", Ints{pad, pad});
    op.SetAttr("global_pooling", global);
    op.SetAttr("adaptive", false);
    op.SetAttr("ceil_mode", ceil_mode);
    op.SetAttr("exclusive", true);
    op.SetAttr("padding_algorithm", std::string("EXPLICIT"));
    op.SetAttr("data_format", std::string("NCHW"));
    return y;
  }

  // paddle.nn.Linear as exported: matmul_v2 with [in, out] weights, then
  // the bias added on the last axis.
  std::string Linear(const std::string& x, int64_t out, double gain,
                     const std::string& name = "") {
    const int64_t in = b().Dims(x)[1];
    const std::string w = W("fc_w");
    const double a = gain * std::sqrt(3.0 / static_cast<double>(in));
    b().Weight(w, {in, out}, -a, a);
    std::string y = Out("matmul", {-1, out});
    auto& op = b().Op("matmul_v2");
    op.SetInput("X", {x});
    op.SetInput("Y", {w});
    op.SetOutput("Out", {y});
    op.SetAttr("trans_x", false);
    op.SetAttr("trans_y", false);
    const std::string bw = W("fc_b");
    b().Weight(bw, {out}, -0.1, 0.1);
    return Add(y, bw, -1, name);
  }

  // An op with X, Out and (reshape family) XShape.
  cpp::OpDesc& Reshaping(const std::string& type, const std::string& x, std::string* y,
                         std::vector<int64_t> dims) {
    *y = Out(type, std::move(dims));
    const std::string xshape = Out(type + "_xshape", {0, -1, -1, -1, -1});
    auto& op = b().Op(type);
    op.SetInput("X", {x});
    op.SetOutput("Out", {*y});
    op.SetOutput("XShape", {xshape});
    return op;
  }

};

const double kReluGain = std::sqrt(2.0);

// One inception block: four branches concatenated on channels, then relu
// (PaddleClas's convs have neither bias nor activation of their own).
std::string Inception(Layers& n, const std::string& x, int64_t c1, int64_t c3r, int64_t c3,
                      int64_t c5r, int64_t c5, int64_t proj) {
  const std::string b1 = n.Conv(x, c1, 1, 1, 0, kReluGain, false);
  const std::string b3 = n.Conv(n.Conv(x, c3r, 1, 1, 0, 1.0, false), c3, 3, 1, 1, kReluGain,
                                false);
  const std::string b5 = n.Conv(n.Conv(x, c5r, 1, 1, 0, 1.0, false), c5, 5, 1, 2, kReluGain,
                                false);
  const std::string bp = n.Conv(n.Pool(x, "max", 3, 1, 1, false), proj, 1, 1, 0, 1.0, false);
  const std::string cat = n.Concat({b1, b3, b5, bp}, 1, {-1, c1 + c3 + c5 + proj, -1, -1});
  return n.Act("relu", cat);
}

}  // namespace

BuiltProgram GoogLeNetStandin() {
  Layers n(4000);
  n.b().Feed("x", {-1, 3, -1, -1});
  auto pool = [&](const std::string& x) { return n.Pool(x, "max", 3, 2, 0, true); };
  std::string x = pool(n.Conv("x", 64, 7, 2, 3, 1.0, false));
  x = n.Conv(n.Conv(x, 64, 1, 1, 0, 1.0, false), 192, 3, 1, 1, 1.0, false);
  x = pool(x);
  x = Inception(n, x, 64, 96, 128, 16, 32, 32);      // 3a
  x = Inception(n, x, 128, 128, 192, 32, 96, 64);    // 3b
  x = pool(x);
  x = Inception(n, x, 192, 96, 208, 16, 48, 64);     // 4a
  x = Inception(n, x, 160, 112, 224, 24, 64, 64);    // 4b
  x = Inception(n, x, 128, 128, 256, 24, 64, 64);    // 4c
  x = Inception(n, x, 112, 144, 288, 32, 64, 64);    // 4d
  x = Inception(n, x, 256, 160, 320, 32, 128, 128);  // 4e
  x = pool(x);
  x = Inception(n, x, 256, 160, 320, 32, 128, 128);  // 5a
  x = Inception(n, x, 384, 192, 384, 48, 128, 128);  // 5b
  x = n.Pool(x, "avg", 1, 1, 0, false, /*global=*/true);
  const std::string dropped = n.Out("dropout", {-1, 1024, 1, 1});
  const std::string mask = n.Out("dropout_mask", {-1, 1024, 1, 1});
  auto& drop = n.b().Op("dropout");
  drop.SetInput("X", {x});
  drop.SetOutput("Out", {dropped});
  drop.SetOutput("Mask", {mask});
  drop.SetAttr("dropout_prob", 0.4f);
  drop.SetAttr("is_test", true);
  drop.SetAttr("dropout_implementation", std::string("downgrade_in_infer"));
  drop.SetAttr("fix_seed", false);
  drop.SetAttr("seed", 0);
  std::string flat;
  n.Reshaping("squeeze2", dropped, &flat, {-1, 1024}).SetAttr("axes", Ints{2, 3});
  const std::string logits = n.Linear(flat, 1000, 1.0);
  n.b().Activation("prob", {-1, 1000});
  auto& sm = n.b().Op("softmax");
  sm.SetInput("X", {logits});
  sm.SetOutput("Out", {"prob"});
  sm.SetAttr("axis", -1);
  n.b().Fetch("prob");
  return n.b().Finish();
}

BuiltProgram DqnStandin() {
  Layers n(5000);
  n.b().Feed("x", {-1, 4, 84, 84});
  const std::string scaled = n.Scale("x", 1.f / 255.f, 0.f);
  std::string x = n.Act("relu", n.Conv(scaled, 32, 8, 4, 0, kReluGain, true, {20, 20}));
  x = n.Act("relu", n.Conv(x, 64, 4, 2, 0, kReluGain, true, {9, 9}));
  x = n.Act("relu", n.Conv(x, 64, 3, 1, 0, kReluGain, true, {7, 7}));
  std::string flat;
  auto& fl = n.Reshaping("flatten_contiguous_range", x, &flat, {-1, 3136});
  fl.SetAttr("start_axis", 1);
  fl.SetAttr("stop_axis", 3);
  x = n.Act("relu", n.Linear(flat, 512, kReluGain));
  n.b().Fetch(n.Linear(x, 6, 1.0, "q"));
  return n.b().Finish();
}

}  // namespace tools
}  // namespace lite
