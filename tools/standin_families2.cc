#include "tools/standin_families2.h"

#include <cmath>
#include <cstring>

#include "tools/standin_layers.h"

namespace lite {
namespace tools {

namespace {

// fill_constant of one element (`dtype` a Paddle VarType code: 2 int32,
// 3 int64, 5 float32).
std::string FillConstant(Net& n, float value, int dtype) {
  const DataType t = dtype == 5 ? DataType::kFloat32
                                : dtype == 3 ? DataType::kInt64 : DataType::kInt32;
  const std::string y = n.Out("fill_constant", {1}, t);
  auto& fill = n.b().Op("fill_constant");
  fill.SetOutput("Out", {y});
  fill.SetAttr("shape", std::vector<int64_t>{1});
  fill.SetAttr("dtype", dtype);
  fill.SetAttr("value", value);
  fill.SetAttr("str_value", std::string(""));
  fill.SetAttr("force_cpu", false);
  return y;
}

std::string Cast(Net& n, const std::string& x, int in_dtype, int out_dtype, DataType t) {
  const std::string y = n.Out("cast", n.b().Dims(x), t);
  auto& op = n.b().Op("cast");
  op.SetInput("X", {x});
  op.SetOutput("Out", {y});
  op.SetAttr("in_dtype", in_dtype);
  op.SetAttr("out_dtype", out_dtype);
  return y;
}

std::string Softmax(Net& n, const std::string& x, int axis) {
  std::string y;
  n.Unary("softmax", x, &y).SetAttr("axis", axis);
  return y;
}

// ---- ernie ----

constexpr int64_t kErnieVocab = 64, kErnieDim = 32, kErnieHeads = 2, kErnieClasses = 3;

std::string Embedding(Net& n, const std::string& ids, const std::string& table, int64_t rows,
                      int64_t padding_idx) {
  n.b().Weight(table, {rows, kErnieDim}, -0.5, 0.5);
  const std::string y = n.Out("embedding", {-1, -1, kErnieDim});
  auto& op = n.b().Op("lookup_table_v2");
  op.SetInput("W", {table});
  op.SetInput("Ids", {ids});
  op.SetOutput("Out", {y});
  op.SetAttr("padding_idx", padding_idx);
  op.SetAttr("is_sparse", false);
  op.SetAttr("is_distributed", false);
  op.SetAttr("remote_prefetch", false);
  return y;
}

// paddle.nn.TransformerEncoderLayer (post-norm) as PaddleNLP exports it.
std::string ErnieLayer(Net& n, const std::string& x, const std::string& mask, int layer) {
  const int64_t c = kErnieDim, h = kErnieHeads, hd = c / h;
  const std::string p = "layer" + std::to_string(layer);
  auto heads = [&](const std::string& proj) {
    return n.Transpose(n.Reshape(Linear(n, x, c, {-1, -1, c}, 1.0, p + "." + proj),
                                 {0, 0, static_cast<int>(h), static_cast<int>(hd)},
                                 {-1, -1, h, hd}),
                       {0, 2, 1, 3}, {-1, h, -1, hd});
  };
  const std::string q = n.Scale(heads("q"), 1.f / std::sqrt(static_cast<float>(hd)), 0.f);
  const std::string k = heads("k");
  const std::string v = heads("v");
  const std::string att =
      n.Binary("elementwise_add", MatMul(n, q, k, /*trans_y=*/true, {-1, h, -1, -1}), mask);
  const std::string prob = Dropout(n, Softmax(n, att, -1));
  const std::string o = n.Reshape(
      n.Transpose(MatMul(n, prob, v, false, {-1, h, -1, hd}), {0, 2, 1, 3}, {-1, -1, h, hd}),
      {0, 0, static_cast<int>(c)}, {-1, -1, c});
  const std::string a = LayerNorm(
      n, n.Binary("elementwise_add", x,
                  Dropout(n, Linear(n, o, c, {-1, -1, c}, 0.5, p + ".out"))));
  std::string hidden;
  n.Unary("gelu", Linear(n, a, 2 * c, {-1, -1, 2 * c}, 1.0, p + ".ffn1"), &hidden)
      .SetAttr("approximate", false);
  return LayerNorm(
      n, n.Binary("elementwise_add", a,
                  Dropout(n, Linear(n, Dropout(n, hidden), c, {-1, -1, c}, 0.5, p + ".ffn2"))));
}

BuiltProgram Ernie() {
  Net n(7000);
  n.b().Feed("input_ids", {-1, -1});
  n.b().block().vars.back().dtype = DataType::kInt64;
  n.b().Feed("token_type_ids", {-1, -1});
  n.b().block().vars.back().dtype = DataType::kInt64;
  // position_ids = cumsum(ones_like(input_ids)) - ones.
  const std::string ones = n.Out("ones", {-1, -1}, DataType::kInt64);
  auto& like = n.b().Op("fill_any_like");
  like.SetInput("X", {"input_ids"});
  like.SetOutput("Out", {ones});
  like.SetAttr("value", 1.f);
  like.SetAttr("dtype", 3);  // int64
  const std::string seq = n.Out("cumsum", {-1, -1}, DataType::kInt64);
  auto& cumsum = n.b().Op("cumsum");
  cumsum.SetInput("X", {ones});
  cumsum.SetOutput("Out", {seq});
  cumsum.SetAttr("axis", -1);
  cumsum.SetAttr("flatten", false);
  cumsum.SetAttr("exclusive", false);
  cumsum.SetAttr("reverse", false);
  const std::string pos = n.Out("sub", {-1, -1}, DataType::kInt64);
  auto& sub = n.b().Op("elementwise_sub");
  sub.SetInput("X", {seq});
  sub.SetInput("Y", {ones});
  sub.SetOutput("Out", {pos});
  sub.SetAttr("axis", -1);
  std::string x = n.Binary(
      "elementwise_add",
      n.Binary("elementwise_add", Embedding(n, "input_ids", "word_emb", kErnieVocab, 0),
               Embedding(n, pos, "pos_emb", 32, -1)),
      Embedding(n, "token_type_ids", "type_emb", 2, -1));
  x = Dropout(n, LayerNorm(n, x));
  // mask = unsqueeze((input_ids == pad).astype(float32) * -1e4, [1, 2]).
  const std::string pad = FillConstant(n, 0.f, 3);
  const std::string is_pad = n.Out("equal", {-1, -1}, DataType::kBool);
  auto& eq = n.b().Op("equal");
  eq.SetInput("X", {"input_ids"});
  eq.SetInput("Y", {pad});
  eq.SetOutput("Out", {is_pad});
  eq.SetAttr("axis", -1);
  eq.SetAttr("force_cpu", false);
  const std::string scaled = n.Scale(Cast(n, is_pad, 0, 5, DataType::kFloat32), -1e4f, 0.f);
  const std::string mask = n.Out("unsqueeze", {-1, 1, 1, -1});
  auto& unsq = n.b().Op("unsqueeze2");
  unsq.SetInput("X", {scaled});
  unsq.SetOutput("Out", {mask});
  n.b().Activation(mask + ".xshape", {0, -1, -1});
  unsq.SetOutput("XShape", {mask + ".xshape"});
  unsq.SetAttr("axes", Ints{1, 2});
  for (int i = 0; i < 2; ++i) x = ErnieLayer(n, x, mask, i);
  std::string pooled;
  n.Unary("tanh", Linear(n, Index(n, x, 1, 0, {-1, kErnieDim}), kErnieDim, {-1, kErnieDim}),
          &pooled);
  const std::string logits =
      Linear(n, Dropout(n, pooled), kErnieClasses, {-1, kErnieClasses}, 2.0);
  n.b().Fetch(logits);
  AsExported(n.b());
  return n.b().Finish();
}

// ---- unet ----

std::string ConvBnRelu(Net& n, const std::string& x, int64_t cout, int stride = 1) {
  return n.Act("relu", n.BatchNorm(n.Conv(x, cout, 3, stride, 1, false)));
}

std::string DoubleConv(Net& n, const std::string& x, int64_t cout) {
  return ConvBnRelu(n, ConvBnRelu(n, x, cout), cout);
}

// conv2d_transpose 2x2 stride 2 (Conv2DTranspose), the bias on axis 1.
std::string UpConv(Net& n, const std::string& x, int64_t cout) {
  const int64_t cin = n.C(x);
  const std::string w = n.W("w");
  const double a = std::sqrt(3.0 / static_cast<double>(cin));
  n.b().Weight(w, {cin, cout, 2, 2}, -a, a);
  const std::string bias = n.W("b");
  n.b().Weight(bias, {cout}, -0.1, 0.1);
  const std::string y = n.Map("conv_transpose", cout);
  auto& op = n.b().Op("conv2d_transpose");
  op.SetInput("Input", {x});
  op.SetInput("Filter", {w});
  op.SetOutput("Output", {y});
  op.SetAttr("strides", Ints{2, 2});
  op.SetAttr("paddings", Ints{0, 0});
  op.SetAttr("output_padding", Ints{});
  op.SetAttr("output_size", Ints{});
  op.SetAttr("padding_algorithm", std::string("EXPLICIT"));
  op.SetAttr("dilations", Ints{1, 1});
  op.SetAttr("groups", 1);
  op.SetAttr("data_format", std::string("NCHW"));
  return n.Binary("elementwise_add", y, bias, 1);
}

BuiltProgram Unet() {
  Net n(8000);
  n.b().Feed("x", {-1, 3, -1, -1});
  const std::string e1 = DoubleConv(n, ConvBnRelu(n, "x", 8, 2), 8);        // /2
  const std::string e2 = DoubleConv(n, n.Pool(e1, "max", 2), 16);           // /4
  const std::string mid = DoubleConv(n, n.Pool(e2, "max", 2), 32);          // /8
  std::string d = DoubleConv(n, n.Concat({UpConv(n, mid, 16), e2}, 1, {-1, 32, -1, -1}), 16);
  d = DoubleConv(n, n.Concat({UpConv(n, d, 8), e1}, 1, {-1, 16, -1, -1}), 8);
  const std::string logit = n.ResizeLike(n.Conv(d, 3, 1, 1), "x", /*size_tensor=*/false);
  n.b().Activation("label", {-1, 1, -1, -1}, DataType::kInt64);
  auto& arg = n.b().Op("arg_max");
  arg.SetInput("X", {logit});
  arg.SetOutput("Out", {"label"});
  arg.SetAttr("axis", static_cast<int64_t>(1));
  arg.SetAttr("keepdims", true);
  arg.SetAttr("flatten", false);
  arg.SetAttr("dtype", 3);  // int64
  n.b().Activation("prob", {-1, 3, -1, -1});
  auto& sm = n.b().Op("softmax");
  sm.SetInput("X", {logit});
  sm.SetOutput("Out", {"prob"});
  sm.SetAttr("axis", 1);
  n.b().Fetch("label");
  n.b().Fetch("prob");
  AsExported(n.b());
  return n.b().Finish();
}

// ---- picodet ----

constexpr int kPicoClasses = 4, kPicoBins = 8, kPicoSize = 64;
constexpr int kPicoStrides[] = {8, 16, 32};

std::string HardSwish(Net& n, const std::string& x) {
  std::string y;
  auto& op = n.Unary("hard_swish", x, &y);
  op.SetAttr("threshold", 6.f);
  op.SetAttr("scale", 6.f);
  op.SetAttr("offset", 3.f);
  return y;
}

std::string ConvBnHs(Net& n, const std::string& x, int64_t cout, int k, int stride,
                     int groups = 1) {
  return HardSwish(n, n.BatchNorm(n.Conv(x, cout, k, stride, groups, false)));
}

// LCNet's squeeze-excitation: x * hard_sigmoid(1x1(relu(1x1(pool(x))))).
std::string Se(Net& n, const std::string& x) {
  const int64_t c = n.C(x);
  const std::string s = n.Act("relu", n.Conv(n.Pool(x, "avg", 1, /*adaptive=*/true), c / 4, 1, 1));
  std::string gate;
  auto& hs = n.Unary("hard_sigmoid", n.Conv(s, c, 1, 1), &gate);
  hs.SetAttr("slope", 0.1666667f);
  hs.SetAttr("offset", 0.5f);
  return n.Binary("elementwise_mul", x, gate);
}

// LCNet's depthwise separable block: dw 5x5 + SE, pointwise 1x1.
std::string LcBlock(Net& n, const std::string& x, int64_t cout, int stride) {
  const int c = static_cast<int>(n.C(x));
  return ConvBnHs(n, Se(n, ConvBnHs(n, x, c, 5, stride, c)), cout, 1, 1);
}

// One level's head: sigmoid class scores [N, HW, C] and the decoded boxes
// [N, HW, 4] (points -/+ the expected distances times the stride).
void PicoHead(Net& n, const std::string& x, int level, const std::string& bins,
              std::string* boxes, std::string* scores) {
  const int s = kPicoStrides[level];
  const int64_t hw = (kPicoSize / s) * (kPicoSize / s);
  const std::string feat = ConvBnHs(n, x, n.C(x), 3, 1, static_cast<int>(n.C(x)));
  const std::string cls = n.Act("sigmoid", n.Conv(feat, kPicoClasses, 1, 1, 1, true, 0.5));
  *scores = n.Transpose(Flatten(n, cls, 2, 3, {-1, kPicoClasses, hw}), {0, 2, 1},
                        {-1, hw, kPicoClasses});
  const std::string reg = n.Conv(feat, 4 * kPicoBins, 1, 1);
  const std::string dist = n.Transpose(Flatten(n, reg, 2, 3, {-1, 4 * kPicoBins, hw}), {0, 2, 1},
                                       {-1, hw, 4 * kPicoBins});
  const std::string prob = Softmax(
      n, n.Reshape(dist, {0, -1, 4, kPicoBins}, {-1, hw, 4, kPicoBins}), -1);
  const std::string d = n.Scale(MatMul(n, prob, bins, false, {-1, hw, 4}), static_cast<float>(s), 0.f);
  const std::string lt = n.Out("split", {-1, hw, 2});
  const std::string rb = n.Out("split", {-1, hw, 2});
  auto& split = n.b().Op("split");
  split.SetInput("X", {d});
  split.SetOutput("Out", {lt, rb});
  split.SetAttr("axis", -1);
  split.SetAttr("num", 2);
  split.SetAttr("sections", Ints{});
  const std::string points = "points" + std::to_string(level);
  n.b().Weight(points, {hw, 2}, 0, 1);  // replaced by the grid in Picodet()
  *boxes = n.Concat({n.Binary("elementwise_add", n.Scale(lt, -1.f, 0.f), points),
                     n.Binary("elementwise_add", rb, points)},
                    -1, {-1, hw, 4});
}

BuiltProgram Picodet() {
  Net n(9000);
  n.b().Feed("image", {-1, 3, kPicoSize, kPicoSize});
  n.b().Feed("scale_factor", {-1, 2});
  std::string x = ConvBnHs(n, "image", 16, 3, 2);               // /2
  x = LcBlock(n, x, 24, 2);                                      // /4
  const std::string c3 = LcBlock(n, x, 32, 2);                   // /8
  const std::string c4 = LcBlock(n, c3, 48, 2);                  // /16
  const std::string c5 = LcBlock(n, c4, 64, 2);                  // /32
  // PAN: 1x1 laterals, top-down nearest x2 + concat, bottom-up dw stride 2.
  const std::string l5 = ConvBnHs(n, c5, 24, 1, 1);
  const std::string l4 = ConvBnHs(
      n, n.Concat({NearestUp2(n, l5), ConvBnHs(n, c4, 24, 1, 1)}, 1, {-1, 48, -1, -1}), 24, 1, 1);
  const std::string p3 = ConvBnHs(
      n, n.Concat({NearestUp2(n, l4), ConvBnHs(n, c3, 24, 1, 1)}, 1, {-1, 48, -1, -1}), 24, 1, 1);
  const std::string p4 =
      ConvBnHs(n, n.Concat({ConvBnHs(n, p3, 24, 3, 2, 24), l4}, 1, {-1, 48, -1, -1}), 24, 1, 1);
  const std::string p5 =
      ConvBnHs(n, n.Concat({ConvBnHs(n, p4, 24, 3, 2, 24), l5}, 1, {-1, 48, -1, -1}), 24, 1, 1);
  // bins = range(0, 8, 1) as float: the distribution's support.
  const std::string start = FillConstant(n, 0.f, 5);
  const std::string end = FillConstant(n, static_cast<float>(kPicoBins), 5);
  const std::string step = FillConstant(n, 1.f, 5);
  const std::string bins = n.Out("range", {kPicoBins});
  auto& range = n.b().Op("range");
  range.SetInput("Start", {start});
  range.SetInput("End", {end});
  range.SetInput("Step", {step});
  range.SetOutput("Out", {bins});
  std::vector<std::string> boxes(3), scores(3);
  const std::string levels[] = {p3, p4, p5};
  for (int i = 0; i < 3; ++i) PicoHead(n, levels[i], i, bins, &boxes[i], &scores[i]);
  // The boxes divided by [sx, sy, sx, sy] from scale_factor's [sy, sx].
  const std::string sy = n.Out("split", {-1, 1});
  const std::string sx = n.Out("split", {-1, 1});
  auto& split = n.b().Op("split");
  split.SetInput("X", {"scale_factor"});
  split.SetOutput("Out", {sy, sx});
  split.SetAttr("axis", -1);
  split.SetAttr("num", 2);
  split.SetAttr("sections", Ints{});
  const std::string scale = n.Reshape(n.Concat({sx, sy, sx, sy}, -1, {-1, 4}), {-1, 1, 4},
                                      {-1, 1, 4});
  const std::string all = n.Binary(
      "elementwise_div", n.Concat(boxes, 1, {-1, -1, 4}), scale);
  const std::string all_scores =
      n.Transpose(n.Concat(scores, 1, {-1, -1, kPicoClasses}), {0, 2, 1}, {-1, kPicoClasses, -1});
  MulticlassNms(n, all, all_scores, 0.3f, 0.6f);
  AsExported(n.b());
  BuiltProgram m = n.b().Finish();
  // The anchor points: cell centres, (i + 0.5) * stride, x then y.
  for (int level = 0; level < 3; ++level) {
    const int s = kPicoStrides[level], g = kPicoSize / s;
    float* p = m.scope->FindVar("points" + std::to_string(level))
                   ->GetMutableTensor()
                   ->mutable_data<float>();
    for (int i = 0; i < g * g; ++i) {
      p[2 * i] = (static_cast<float>(i % g) + 0.5f) * static_cast<float>(s);
      p[2 * i + 1] = (static_cast<float>(i / g) + 0.5f) * static_cast<float>(s);
    }
  }
  return m;
}

}  // namespace

StatusOr<BuiltProgram> MakeFamily2Standin(const std::string& name) {
  if (name == "ernie") return Ernie();
  if (name == "unet") return Unet();
  if (name == "picodet") return Picodet();
  return NotFound("no family stand-in '" + name + "'");
}

}  // namespace tools
}  // namespace lite
