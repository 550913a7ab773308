#include "tools/standin_families.h"

#include <cmath>

#include "tools/standin_families2.h"
#include "tools/standin_layers.h"

namespace lite {
namespace tools {

namespace {

// ---- vit ----

constexpr int64_t kVitDim = 64, kVitHeads = 4, kVitTokens = 17, kVitClasses = 10;

std::string Attention(Net& n, const std::string& x) {
  const int64_t c = kVitDim, t = kVitTokens, h = kVitHeads, hd = c / h;
  const std::string qkv = Linear(n, LayerNorm(n, x), 3 * c, {-1, t, 3 * c});
  const std::string heads =
      n.Transpose(n.Reshape(qkv, {-1, static_cast<int>(t), 3, static_cast<int>(h),
                                  static_cast<int>(hd)},
                            {-1, t, 3, h, hd}),
                  {2, 0, 3, 1, 4}, {3, -1, h, t, hd});
  const std::string q = Index(n, heads, 0, 0, {-1, h, t, hd});
  const std::string k = Index(n, heads, 0, 1, {-1, h, t, hd});
  const std::string v = Index(n, heads, 0, 2, {-1, h, t, hd});
  std::string att = n.Scale(MatMul(n, q, k, /*trans_y=*/true, {-1, h, t, t}),
                            1.f / std::sqrt(static_cast<float>(hd)), 0.f);
  std::string prob;
  n.Unary("softmax", att, &prob).SetAttr("axis", -1);
  prob = Dropout(n, prob);
  const std::string o = n.Reshape(n.Transpose(MatMul(n, prob, v, false, {-1, h, t, hd}),
                                              {0, 2, 1, 3}, {-1, t, h, hd}),
                                  {-1, static_cast<int>(t), static_cast<int>(c)}, {-1, t, c});
  return n.Binary("elementwise_add", x, Dropout(n, Linear(n, o, c, {-1, t, c}, 0.5)));
}

std::string Mlp(Net& n, const std::string& x) {
  const int64_t c = kVitDim, t = kVitTokens;
  std::string hidden;
  n.Unary("gelu", Linear(n, LayerNorm(n, x), 2 * c, {-1, t, 2 * c}), &hidden)
      .SetAttr("approximate", false);
  return n.Binary("elementwise_add", x,
                  Dropout(n, Linear(n, Dropout(n, hidden), c, {-1, t, c}, 0.5)));
}

// The cls token expanded to the batch read at run time, as
// `cls_token.expand((paddle.shape(x)[0], -1, -1))` exports: attribute shape
// [-2, -1, -1] (-2 where a tensor gives the value) and expand_shapes_tensor
// [batch, fill_constant(-1), fill_constant(-1)].
std::string ClsTokens(Net& n, const std::string& image) {
  const std::string batch = Index(n, n.Shape(image), 0, 0, {1}, DataType::kInt32);
  std::vector<std::string> sizes = {batch};
  for (int i = 0; i < 2; ++i) {
    sizes.push_back(n.Out("fill_constant", {1}, DataType::kInt32));
    auto& fill = n.b().Op("fill_constant");
    fill.SetOutput("Out", {sizes.back()});
    fill.SetAttr("shape", std::vector<int64_t>{1});
    fill.SetAttr("dtype", 2);  // int32
    fill.SetAttr("value", -1.f);
    fill.SetAttr("str_value", std::string("-1"));
    fill.SetAttr("force_cpu", true);
  }
  n.b().Weight("cls_token", {1, 1, kVitDim}, -0.5, 0.5);
  const std::string y = n.Out("expand", {-1, 1, kVitDim});
  auto& op = n.b().Op("expand_v2");
  op.SetInput("X", {"cls_token"});
  op.SetInput("expand_shapes_tensor", sizes);
  op.SetOutput("Out", {y});
  op.SetAttr("shape", Ints{-2, -1, -1});
  return y;
}

BuiltProgram Vit() {
  Net n(4000);
  n.b().Feed("x", {-1, 3, 64, 64});
  const int64_t c = kVitDim, t = kVitTokens;
  const std::string patches = n.Conv("x", c, 16, 16, 1, true, 1.0, /*pad=*/0);
  std::string x = n.Transpose(Flatten(n, patches, 2, 3, {-1, c, t - 1}), {0, 2, 1},
                              {-1, t - 1, c});
  x = n.Concat({ClsTokens(n, "x"), x}, 1, {-1, t, c});
  n.b().Weight("pos_embed", {1, t, c}, -0.5, 0.5);
  x = Dropout(n, n.Binary("elementwise_add", x, "pos_embed"));
  for (int i = 0; i < 2; ++i) x = Mlp(n, Attention(n, x));
  x = Index(n, LayerNorm(n, x), 1, 0, {-1, c});
  const std::string logits = Linear(n, x, kVitClasses, {-1, kVitClasses});
  n.b().Fetch(logits);
  AsExported(n.b());
  return n.b().Finish();
}

// ---- yolov3 ----

constexpr int kYoloClasses = 4;

std::string ConvBnLeaky(Net& n, const std::string& x, int64_t cout, int k, int stride) {
  std::string y;
  n.Unary("leaky_relu", n.BatchNorm(n.Conv(x, cout, k, stride, 1, false)), &y)
      .SetAttr("alpha", 0.1f);
  return y;
}

// DarkNet's basic block: 1x1 halving, 3x3 back, residual add.
std::string DarkBlock(Net& n, const std::string& x) {
  const int64_t c = n.C(x);
  return n.Binary("elementwise_add", x,
                  ConvBnLeaky(n, ConvBnLeaky(n, x, c / 2, 1, 1), c, 3, 1));
}

// One yolo head: the detection conv, yolo_box against ImgSize; the scores
// transposed to [N, classes, M] as PaddleDetection's YOLOBox does.
void YoloHead(Net& n, const std::string& x, const std::string& img_size, Ints anchors,
              int ratio, std::string* boxes, std::string* scores) {
  const int a = static_cast<int>(anchors.size() / 2);
  const std::string head = n.Conv(x, a * (5 + kYoloClasses), 1, 1, 1, true, 0.5);
  *boxes = n.Out("yolo_boxes", {-1, -1, 4});
  const std::string s = n.Out("yolo_scores", {-1, -1, kYoloClasses});
  auto& op = n.b().Op("yolo_box");
  op.SetInput("X", {head});
  op.SetInput("ImgSize", {img_size});
  op.SetOutput("Boxes", {*boxes});
  op.SetOutput("Scores", {s});
  op.SetAttr("anchors", anchors);
  op.SetAttr("class_num", kYoloClasses);
  op.SetAttr("conf_thresh", 0.005f);
  op.SetAttr("downsample_ratio", ratio);
  op.SetAttr("clip_bbox", true);
  op.SetAttr("scale_x_y", 1.f);
  op.SetAttr("iou_aware", false);
  op.SetAttr("iou_aware_factor", 0.5f);
  *scores = n.Transpose(s, {0, 2, 1}, {-1, kYoloClasses, -1});
}

BuiltProgram Yolov3() {
  Net n(5000);
  n.b().Feed("im_shape", {-1, 2});
  n.b().Feed("image", {-1, 3, -1, -1});
  n.b().Feed("scale_factor", {-1, 2});
  std::string x = ConvBnLeaky(n, "image", 16, 3, 2);                   // /2
  x = DarkBlock(n, ConvBnLeaky(n, x, 32, 3, 2));                        // /4
  x = DarkBlock(n, ConvBnLeaky(n, x, 48, 3, 2));                        // /8
  const std::string c4 = DarkBlock(n, ConvBnLeaky(n, x, 64, 3, 2));     // /16
  const std::string c5 = DarkBlock(n, ConvBnLeaky(n, c4, 96, 3, 2));    // /32
  // ImgSize: the original image size, cast(im_shape / scale_factor).
  const std::string origin = n.Binary("elementwise_div", "im_shape", "scale_factor");
  const std::string img_size = n.Out("cast", {-1, 2}, DataType::kInt32);
  auto& cast = n.b().Op("cast");
  cast.SetInput("X", {origin});
  cast.SetOutput("Out", {img_size});
  cast.SetAttr("in_dtype", 5);   // float32
  cast.SetAttr("out_dtype", 2);  // int32
  const std::string r5 = ConvBnLeaky(n, ConvBnLeaky(n, c5, 48, 1, 1), 96, 3, 1);
  std::string b5, s5, b4, s4;
  YoloHead(n, r5, img_size, {116, 90, 156, 198, 373, 326}, 32, &b5, &s5);
  const std::string lateral = ConvBnLeaky(n, r5, 32, 1, 1);
  const std::string up = NearestUp2(n, lateral);
  const std::string r4 = ConvBnLeaky(
      n, ConvBnLeaky(n, n.Concat({up, c4}, 1, {-1, 32 + 64, -1, -1}), 32, 1, 1), 64, 3, 1);
  YoloHead(n, r4, img_size, {30, 61, 62, 45, 59, 119}, 16, &b4, &s4);
  const std::string boxes = n.Concat({b5, b4}, 1, {-1, -1, 4});
  const std::string scores = n.Concat({s5, s4}, 2, {-1, kYoloClasses, -1});
  MulticlassNms(n, boxes, scores, 0.2f, 0.45f);
  AsExported(n.b());
  return n.b().Finish();
}

// ---- mobilenetv2 ----

std::string ConvBnRelu6(Net& n, const std::string& x, int64_t cout, int k, int stride,
                        int groups = 1) {
  std::string y;
  n.Unary("relu6", n.BatchNorm(n.Conv(x, cout, k, stride, groups, false)), &y)
      .SetAttr("threshold", 6.f);
  return y;
}

// Expand 1x1 (unless t == 1), depthwise 3x3, linear 1x1 projection; the
// residual add when the stride is 1 and the channels stay.
std::string InvertedResidual(Net& n, const std::string& in, int t, int64_t cout, int stride) {
  const int64_t cin = n.C(in);
  std::string x = t == 1 ? in : ConvBnRelu6(n, in, cin * t, 1, 1);
  x = ConvBnRelu6(n, x, n.C(x), 3, stride, static_cast<int>(n.C(x)));
  x = n.BatchNorm(n.Conv(x, cout, 1, 1, 1, false, 0.5));
  return stride == 1 && cin == cout ? n.Binary("elementwise_add", in, x) : x;
}

BuiltProgram MobileNetV2() {
  Net n(6000);
  n.b().Feed("x", {-1, 3, -1, -1});
  std::string x = ConvBnRelu6(n, "x", 16, 3, 2);
  const struct { int t; int64_t c; int stride; } blocks[] = {
      {1, 8, 1}, {6, 12, 2}, {6, 12, 1}, {6, 16, 2}, {6, 16, 1}, {6, 24, 2}, {6, 24, 1}};
  for (const auto& b : blocks) x = InvertedResidual(n, x, b.t, b.c, b.stride);
  x = ConvBnRelu6(n, x, 64, 1, 1);
  x = Flatten(n, n.Pool(x, "avg", 1, /*adaptive=*/true), 1, -1, {-1, 64});
  const std::string logits = Linear(n, x, 10, {-1, 10}, 3.0);
  n.b().Fetch(logits);
  AsExported(n.b());
  return n.b().Finish();
}

}  // namespace

const std::vector<std::string>& FamilyStandinNames() {
  static const std::vector<std::string> kNames = {"vit",  "yolov3", "mobilenetv2",
                                                  "ernie", "unet",   "picodet"};
  return kNames;
}

StatusOr<BuiltProgram> MakeFamilyStandin(const std::string& name) {
  if (name == "vit") return Vit();
  if (name == "yolov3") return Yolov3();
  if (name == "mobilenetv2") return MobileNetV2();
  return MakeFamily2Standin(name);  // tools/standin_families2.h
}

}  // namespace tools
}  // namespace lite
