#include "tools/standin_models.h"

#include <cmath>

#include "lite/model_parser/model_saver.h"
#include "tools/standin_classic.h"
#include "tools/standin_families.h"
#include "tools/standin_net.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

namespace {

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
      {"vit", {1, 3, 64, 64}}, {"yolov3", {1, 3, 320, 320}}, {"mobilenetv2", {1, 3, 224, 224}},
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
  if (auto family = MakeFamilyStandin(name); family.ok()) return family;
  std::string known;
  for (const StandinInfo& m : StandinModels()) known += (known.empty() ? "" : ", ") + m.name;
  return InvalidArgument("unknown stand-in model '" + name + "' (known: " + known + ")");
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
