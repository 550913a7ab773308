#include "tools/standin_models.h"

#include <cmath>

#include "lite/model_parser/model_saver.h"
#include "tools/standin_classic.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

namespace {

using Ints = std::vector<int32_t>;

// Layer helpers over ProgramBuilder: each appends the ops of one layer and
// returns its output's name ("<op><n>.out"), declared [-1, C, -1, -1] (or
// the rank the op gives) with the channel count it computes.
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

  // conv2d (depthwise_conv2d when groups == C(x) == cout), He-uniform
  // weights times `gain`, the bias as Paddle exports it: an elementwise_add
  // on axis 1.
  std::string Conv(const std::string& x, int64_t cout, int k, int stride, int groups = 1,
                   bool bias = true, double gain = 1.0) {
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
    op.SetAttr("paddings", Ints{(k - 1) / 2, (k - 1) / 2});
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

// ---- restoration (NAFNet-style) ----

// LayerNorm over channels as NAFNet's exports spell it, then the affine.
std::string ChannelLayerNorm(Net& n, const std::string& x) {
  const int64_t c = n.C(x);
  const std::string mu = n.ReduceMeanC(x);
  const std::string d = n.Binary("elementwise_sub", x, mu);
  const std::string var = n.ReduceMeanC(n.Pow(d, 2.f));
  const std::string sd = n.Act("sqrt", n.Scale(var, 1.f, 1e-6f));
  const std::string xn = n.Binary("elementwise_div", d, sd);
  const std::string g = "ln" + xn + ".g", bt = "ln" + xn + ".b";
  n.b().Weight(g, {c}, 0.8, 1.2);
  n.b().Weight(bt, {c}, -0.1, 0.1);
  return n.Binary("elementwise_add", n.Binary("elementwise_mul", xn, g, 1), bt, 1);
}

std::string SimpleGate(Net& n, const std::string& x) {
  const auto halves = n.Split(x, 2);
  return n.Binary("elementwise_mul", halves[0], halves[1]);
}

std::string NafBlock(Net& n, const std::string& in) {
  const int64_t c = n.C(in);
  std::string x = ChannelLayerNorm(n, in);
  x = n.Conv(x, 2 * c, 1, 1);
  x = n.Conv(x, 2 * c, 3, 1, static_cast<int>(2 * c));
  x = SimpleGate(n, x);
  const std::string att = n.Conv(n.Pool(x, "avg", 0), c, 1, 1);  // channel attention
  x = n.Binary("elementwise_mul", x, att);
  x = n.Conv(x, c, 1, 1);
  const std::string beta = "beta" + x;
  n.b().Weight(beta, {1, c, 1, 1}, 0.1, 0.5);
  const std::string y = n.Binary("elementwise_add", in, n.Binary("elementwise_mul", x, beta));

  x = ChannelLayerNorm(n, y);
  x = n.Conv(x, 2 * c, 1, 1);
  x = SimpleGate(n, x);
  x = n.Conv(x, c, 1, 1);
  const std::string gamma = "gamma" + x;
  n.b().Weight(gamma, {1, c, 1, 1}, 0.1, 0.5);
  return n.Binary("elementwise_add", y, n.Binary("elementwise_mul", x, gamma));
}

BuiltProgram Restoration() {
  Net n(1000);
  n.b().Feed("x", {-1, 3, -1, -1});
  const int64_t w = 16;
  std::string x = n.Conv("x", w, 3, 1);
  const std::string e1 = NafBlock(n, x);
  const std::string e2 = NafBlock(n, n.Conv(e1, 2 * w, 2, 2));
  x = n.Conv(e2, 4 * w, 2, 2);
  for (int i = 0; i < 3; ++i) x = NafBlock(n, x);
  x = n.PixelShuffle(n.Conv(x, 8 * w, 1, 1, 1, false), 2);
  x = NafBlock(n, n.Binary("elementwise_add", x, e2));
  x = n.PixelShuffle(n.Conv(x, 4 * w, 1, 1, 1, false), 2);
  x = NafBlock(n, n.Binary("elementwise_add", x, e1));
  x = n.Conv(x, 3, 3, 1);
  auto& out = n.b().Op("elementwise_add");
  n.b().Activation("y", {-1, 3, -1, -1});
  out.SetInput("X", {x});
  out.SetInput("Y", {"x"});
  out.SetOutput("Out", {"y"});
  out.SetAttr("axis", -1);
  n.b().Fetch("y");
  return n.b().Finish();
}

// ---- face detector (BlazeFace-style) ----

std::string BlazeBlock(Net& n, const std::string& in, int64_t cout, int stride) {
  const int64_t cin = n.C(in);
  std::string x = n.BatchNorm(n.Conv(in, cin, 5, stride, static_cast<int>(cin), false));
  // A small gain keeps the sum of 14 residual blocks in range (BN with
  // random statistics does not renormalise).
  x = n.BatchNorm(n.Conv(x, cout, 1, 1, 1, false, 0.4));
  std::string sc = stride == 2 ? n.Pool(in, "max", 2) : in;
  if (cout > cin) sc = n.PadChannels(sc, cout);
  return n.Act("relu", n.Binary("elementwise_add", x, sc));
}

// The face class's probability [N, M, 1] of a head's 2-class logits.
void HeadScores(Net& n, const std::string& cls, int a, std::string* scores) {
  const std::string c = n.Reshape(n.Transpose(cls, {0, 2, 3, 1}, {-1, -1, -1, 2 * a}),
                                  {0, -1, 2}, {-1, -1, 2});
  std::string prob;
  n.Unary("softmax", c, &prob).SetAttr("axis", -1);
  *scores = n.Slice(prob, {-1, -1, 1}, 2, 1, 2);
}

// A head on one map with one anchor per min size: boxes [N, M, 4] decoded
// against prior_box anchors by box_coder (with `decode` false: the raw
// regression, no prior_box / box_coder), face scores [N, M, 1] as the face
// class of a 2-class softmax (a slice).
void Head(Net& n, const std::string& x, std::vector<float> min_sizes, bool decode,
          std::string* boxes, std::string* scores) {
  const int a = static_cast<int>(min_sizes.size());
  const std::string reg = n.Conv(x, 4 * a, 3, 1, 1, true, 0.1);
  const std::string cls = n.Conv(x, 2 * a, 3, 1, 1, true, 0.3);
  const std::string r = n.Reshape(n.Transpose(reg, {0, 2, 3, 1}, {-1, -1, -1, 4 * a}),
                                  {0, -1, 4}, {-1, -1, 4});
  if (!decode) {
    *boxes = r;
    return HeadScores(n, cls, a, scores);
  }
  const std::string pb = n.Out("prior_box", {-1, -1, a, 4});
  const std::string pv = n.Out("prior_var", {-1, -1, a, 4});
  auto& prior = n.b().Op("prior_box");
  prior.SetInput("Input", {x});
  prior.SetInput("Image", {"x"});
  prior.SetOutput("Boxes", {pb});
  prior.SetOutput("Variances", {pv});
  prior.SetAttr("min_sizes", min_sizes);
  prior.SetAttr("max_sizes", std::vector<float>{});
  prior.SetAttr("aspect_ratios", std::vector<float>{1.f});
  prior.SetAttr("variances", std::vector<float>{0.1f, 0.1f, 0.2f, 0.2f});
  prior.SetAttr("flip", false);
  prior.SetAttr("clip", false);
  prior.SetAttr("step_w", 0.f);
  prior.SetAttr("step_h", 0.f);
  prior.SetAttr("offset", 0.5f);
  prior.SetAttr("min_max_aspect_ratios_order", false);
  const std::string anchors = n.Reshape(pb, {-1, 4}, {-1, 4});
  const std::string vars = n.Reshape(pv, {-1, 4}, {-1, 4});
  *boxes = n.Out("box_coder", {-1, -1, 4});
  auto& coder = n.b().Op("box_coder");
  coder.SetInput("PriorBox", {anchors});
  coder.SetInput("PriorBoxVar", {vars});
  coder.SetInput("TargetBox", {r});
  coder.SetOutput("OutputBox", {*boxes});
  coder.SetAttr("code_type", std::string("decode_center_size"));
  coder.SetAttr("box_normalized", true);
  coder.SetAttr("axis", 0);
  HeadScores(n, cls, a, scores);
}

// With `with_nms` false (face_detector_heads) the program ends at the heads: the
// raw box regression `deltas` [N, M, 4] and the face scores `scores`
// [N, 1, M], no prior_box / box_coder / multiclass_nms3 (ops with no
// one-op ONNX form, so ONNX Runtime can run the same cut).
BuiltProgram FaceDetector(bool with_nms) {
  Net n(2000);
  n.b().Feed("x", {-1, 3, -1, -1});
  std::string x = n.Act("relu", n.BatchNorm(n.Conv("x", 24, 3, 2, 1, false)));
  const std::vector<std::pair<int64_t, int>> blocks = {
      {24, 1}, {28, 1}, {32, 2}, {36, 1}, {42, 1}, {48, 2}, {56, 1},
      {64, 1}, {72, 1}, {80, 1}, {88, 1}, {96, 2}, {96, 1}, {96, 1}};
  std::string s8;
  for (size_t i = 0; i < blocks.size(); ++i) {
    x = BlazeBlock(n, x, blocks[i].first, blocks[i].second);
    if (i == 10) s8 = x;  // stride 8, 88 channels
  }
  std::string b8, c8, b16, c16;
  Head(n, s8, {16.f, 24.f}, with_nms, &b8, &c8);
  Head(n, x, {32.f, 48.f, 64.f, 80.f, 96.f, 128.f}, with_nms, &b16, &c16);
  if (!with_nms) {
    n.b().Activation("deltas", {-1, -1, 4});
    auto& cat = n.b().Op("concat");
    cat.SetInput("X", {b8, b16});
    cat.SetOutput("Out", {"deltas"});
    cat.SetAttr("axis", 1);
    const std::string cat_scores = n.Concat({c8, c16}, 1, {-1, -1, 1});
    n.b().Activation("scores", {-1, 1, -1});
    auto& tr = n.b().Op("transpose2");
    tr.SetInput("X", {cat_scores});
    tr.SetOutput("Out", {"scores"});
    tr.SetAttr("axis", Ints{0, 2, 1});
    n.b().Fetch("deltas");
    n.b().Fetch("scores");
    return n.b().Finish();
  }
  const std::string boxes = n.Concat({b8, b16}, 1, {-1, -1, 4});
  const std::string scores =
      n.Transpose(n.Concat({c8, c16}, 1, {-1, -1, 1}), {0, 2, 1}, {-1, 1, -1});
  n.b().Activation("boxes", {-1, 6});
  n.b().Activation("index", {-1, 1}, DataType::kInt32);
  n.b().Activation("boxes_num", {-1}, DataType::kInt32);
  auto& nms = n.b().Op("multiclass_nms3");
  nms.SetInput("BBoxes", {boxes});
  nms.SetInput("Scores", {scores});
  nms.SetOutput("Out", {"boxes"});
  nms.SetOutput("Index", {"index"});
  nms.SetOutput("NmsRoisNum", {"boxes_num"});
  nms.SetAttr("background_label", -1);
  nms.SetAttr("score_threshold", 0.6f);
  nms.SetAttr("nms_top_k", 1000);
  nms.SetAttr("nms_threshold", 0.3f);
  nms.SetAttr("nms_eta", 1.f);
  nms.SetAttr("keep_top_k", 100);
  nms.SetAttr("normalized", true);
  n.b().Fetch("boxes");
  n.b().Fetch("boxes_num");
  return n.b().Finish();
}

// ---- portrait segmentation (PP-HumanSeg-style) ----

std::string ConvBnRelu(Net& n, const std::string& x, int64_t cout, int k, int stride,
                       int groups = 1) {
  return n.Act("relu", n.BatchNorm(n.Conv(x, cout, k, stride, groups, false)));
}

std::string DwSep(Net& n, const std::string& x, int64_t cout, int stride) {
  const int64_t c = n.C(x);
  return ConvBnRelu(n, ConvBnRelu(n, x, c, 3, stride, static_cast<int>(c)), cout, 1, 1);
}

BuiltProgram PortraitSeg() {
  Net n(3000);
  n.b().Feed("x", {-1, 3, -1, -1});
  std::string x = ConvBnRelu(n, "x", 16, 3, 2);                    // /2
  const std::string s4 = DwSep(n, DwSep(n, x, 24, 2), 24, 1);        // /4
  x = DwSep(n, DwSep(n, s4, 48, 2), 48, 1);                          // /8
  x = DwSep(n, DwSep(n, DwSep(n, x, 96, 2), 96, 1), 96, 1);          // /16
  // Pyramid pooling: adaptive avg pools, each resized back to x's run-time size.
  std::vector<std::string> branches = {x};
  for (int bins : {1, 2, 4}) {
    const std::string p = ConvBnRelu(n, n.Pool(x, "avg", bins, /*adaptive=*/true), 32, 1, 1);
    branches.push_back(n.ResizeLike(p, x, /*size_tensor=*/bins == 2));
  }
  x = ConvBnRelu(n, n.Concat(branches, 1, {-1, 96 + 3 * 32, -1, -1}), 64, 1, 1);
  // Decoder: up to /4 (SizeTensor), fuse the skip, classify, up to the input (OutSize).
  x = n.ResizeLike(x, s4, /*size_tensor=*/true);
  x = n.Concat({x, ConvBnRelu(n, s4, 16, 1, 1)}, 1, {-1, 80, -1, -1});
  x = DwSep(n, x, 32, 1);
  x = n.Conv(x, 2, 1, 1);
  x = n.ResizeLike(x, "x", /*size_tensor=*/false);
  n.b().Activation("prob", {-1, 2, -1, -1});
  auto& sm = n.b().Op("softmax");
  sm.SetInput("X", {x});
  sm.SetOutput("Out", {"prob"});
  sm.SetAttr("axis", 1);
  n.b().Fetch("prob");
  return n.b().Finish();
}

}  // namespace

const std::vector<StandinInfo>& StandinModels() {
  static const std::vector<StandinInfo> kModels = {
      {"restoration", {1, 3, 256, 256}},
      {"face_detector", {1, 3, 320, 320}},
      {"face_detector_heads", {1, 3, 320, 320}},
      {"portrait_seg", {1, 3, 256, 256}},
      {"googlenet", {1, 3, 224, 224}}, {"dqn", {1, 4, 84, 84}},  // tools/standin_classic.h
  };
  return kModels;
}

StatusOr<BuiltProgram> MakeStandinModel(const std::string& name) {
  if (name == "restoration") return Restoration();
  if (name == "face_detector") return FaceDetector(/*with_nms=*/true);
  if (name == "face_detector_heads") return FaceDetector(/*with_nms=*/false);
  if (name == "portrait_seg") return PortraitSeg();
  if (name == "googlenet") return GoogLeNetStandin();
  if (name == "dqn") return DqnStandin();
  return InvalidArgument("unknown stand-in model '" + name +
                         "' (known: restoration, face_detector, face_detector_heads, "
                         "portrait_seg, googlenet, dqn)");
}

Status WriteStandinModels(const std::string& dir) {
  for (const StandinInfo& info : StandinModels()) {
    const std::string sub = dir + "/" + info.name;
    RETURN_IF_ERROR(MakeDirs(sub));
    ASSIGN_OR_RETURN(BuiltProgram m, MakeStandinModel(info.name));
    RETURN_IF_ERROR(SaveCombinedModel(m.program, *m.scope, sub + "/__model__", sub + "/__params__"));
  }
  return Status::OK();
}

}  // namespace tools
}  // namespace lite
