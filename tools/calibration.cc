#include "tools/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include "lite/api/optimizer.h"
#include "lite/api/predictor_runtime.h"
#include "lite/utils/file_util.h"
#include "tools/reference.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

namespace {

constexpr char kActQdq[] = "fake_quantize_dequantize_moving_average_abs_max";
constexpr char kWeightQdq[] = "fake_channel_wise_quantize_dequantize_abs_max";

struct FeedVar {
  std::string name;
  std::vector<int64_t> dims;  // declared
  DataType dtype = DataType::kFloat32;
};

// The feed vars of block 0 by column.
std::vector<FeedVar> FeedVars(const cpp::ProgramDesc& program) {
  std::map<int, FeedVar> by_col;
  const cpp::BlockDesc& block = program.blocks[0];
  for (const auto& op : block.ops) {
    if (op.Type() != "feed" || op.Output("Out").empty()) continue;
    FeedVar f;
    f.name = op.Output("Out").front();
    if (const cpp::VarDesc* v = block.FindVar(f.name)) {
      f.dims = v->dims;
      f.dtype = v->dtype;
    }
    by_col[op.GetAttr<int32_t>("col", 0)] = f;
  }
  std::vector<FeedVar> out;
  for (auto& kv : by_col) out.push_back(kv.second);
  return out;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

StatusOr<CalibrationSample> SampleFromReference(const std::string& dir,
                                                const std::vector<FeedVar>& feeds) {
  ASSIGN_OR_RETURN(Reference ref, LoadReference(dir));
  CalibrationSample sample;
  sample.source = dir;
  for (const auto& f : feeds) {
    const RefTensor* found = nullptr;
    for (const auto& in : ref.inputs) found = in.name == f.name ? &in : found;
    if (!found) {
      return InvalidArgument("calibration folder " + dir + ": meta.json has no input '" + f.name +
                             "' (a feed of the model)");
    }
    if (found->dtype != "float32") {
      return InvalidArgument("calibration folder " + dir + ": input '" + f.name + "' is " +
                             found->dtype + "; calibration takes float32 inputs");
    }
    CalibrationFeed feed;
    feed.name = f.name;
    feed.shape = found->shape;
    feed.data.resize(found->bytes.size() / sizeof(float));
    std::memcpy(feed.data.data(), found->bytes.data(), feed.data.size() * sizeof(float));
    sample.feeds.push_back(std::move(feed));
  }
  return sample;
}

// The shape every .bin file must have.
StatusOr<std::vector<int64_t>> BinShape(const std::string& dir, const FeedVar& feed,
                                        const std::vector<int64_t>& shape) {
  if (feed.dtype != DataType::kFloat32) {
    return InvalidArgument("calibration folder " + dir + ": feed '" + feed.name + "' is " +
                           DataTypeName(feed.dtype) + "; .bin samples are float32");
  }
  if (!shape.empty()) return shape;
  std::vector<int64_t> dims = feed.dims;
  if (!dims.empty() && dims[0] < 0) dims[0] = 1;
  bool known = !dims.empty();
  for (int64_t d : dims) known = known && d > 0;
  if (!known) {
    return InvalidArgument("calibration folder " + dir + ": feed '" + feed.name + "' is declared " +
                           ShapeText(feed.dims) +
                           "; give the sample shape with --calibration_shape");
  }
  return dims;
}

// A copy of every persistable tensor of `from` in a new scope (fusion passes
// rewrite weights in the scope they optimize with).
std::shared_ptr<Scope> CopyWeights(const Scope& from) {
  auto to = std::make_shared<Scope>();
  for (const auto& name : from.LocalVarNames()) {
    const Variable* v = from.FindLocalVar(name);
    const Tensor& t = v->GetTensor();
    if (!t.IsInitialized()) continue;
    Tensor* copy = to->Var(name)->GetMutableTensor();
    copy->CopyDataFrom(t);
    copy->set_persistable(t.persistable());
  }
  return to;
}

struct QuantizableConv {
  size_t op_index;
  std::string input;
  std::string filter;
};

// Ops of `op_types` (conv2d / depthwise_conv2d) whose Filter is a 4-D
// float32 weight and whose Input is an activation, in program order.
std::vector<QuantizableConv> QuantizableConvs(const cpp::ProgramDesc& program, const Scope& weights,
                                              const std::vector<std::string>& op_types) {
  std::vector<QuantizableConv> convs;
  const auto& ops = program.blocks[0].ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    const auto& op = ops[i];
    if (std::find(op_types.begin(), op_types.end(), op.Type()) == op_types.end()) continue;
    if (op.Input("Input").size() != 1 || op.Input("Filter").size() != 1) continue;
    const std::string& input = op.Input("Input").front();
    const std::string& filter = op.Input("Filter").front();
    const Variable* w = weights.FindVar(filter);
    const Variable* x = weights.FindVar(input);
    if (!w || !w->GetTensor().IsInitialized() || w->GetTensor().dims().size() != 4 ||
        w->GetTensor().dtype() != DataType::kFloat32) {
      continue;
    }
    if (x && x->GetTensor().persistable()) continue;
    convs.push_back({i, input, filter});
  }
  return convs;
}

std::vector<Place> CalibrationPlaces(const std::vector<Place>& places) {
  std::vector<Place> out;
  for (const Place& p : places) {
    if (p.target != TargetType::kNPU) out.push_back(p);
  }
  if (out.empty()) out.push_back(Place(TargetType::kHost));
  return out;
}

// A name not yet used by a var of `block`.
std::string FreshName(const cpp::BlockDesc& block, const std::string& base) {
  std::string name = base;
  for (int i = 1; block.FindVar(name); ++i) name = base + "_" + std::to_string(i);
  return name;
}

cpp::VarDesc& AddVar(cpp::BlockDesc* block, const std::string& name,
                     const std::vector<int64_t>& dims, bool persistable) {
  cpp::VarDesc v;
  v.name = name;
  v.dims = dims;
  v.persistable = persistable;
  block->vars.push_back(v);
  return block->vars.back();
}

}  // namespace

Status CheckQuantizableOpTypes(const std::vector<std::string>& op_types) {
  if (op_types.empty()) return InvalidArgument("no op type to quantize");
  for (const auto& t : op_types) {
    if (t != "conv2d" && t != "depthwise_conv2d") {
      return InvalidArgument("cannot quantize op type '" + t +
                             "': only conv2d and depthwise_conv2d have int8 kernels");
    }
  }
  return Status::OK();
}

StatusOr<std::vector<CalibrationSample>> LoadCalibrationSamples(const std::string& dir,
                                                                const cpp::ProgramDesc& program,
                                                                const std::vector<int64_t>& shape) {
  if (!IsDirectory(dir)) {
    return NotFound("calibration folder " + dir + " does not exist or is not a folder");
  }
  const std::vector<FeedVar> feeds = FeedVars(program);
  if (feeds.empty()) return InvalidArgument("the model has no feed op to calibrate through");
  if (IsRegularFile(JoinPath(dir, "meta.json"))) {
    ASSIGN_OR_RETURN(CalibrationSample s, SampleFromReference(dir, feeds));
    for (const auto& f : s.feeds) {
      if (!shape.empty() && f.shape != shape) {
        return InvalidArgument("calibration folder " + dir + ": input '" + f.name + "' is " +
                               ShapeText(f.shape) + ", not the sample shape " + ShapeText(shape));
      }
    }
    return std::vector<CalibrationSample>{std::move(s)};
  }
  std::vector<std::string> names;
  RETURN_IF_ERROR(ListDirectory(dir, &names));
  std::vector<CalibrationSample> samples;
  for (const auto& n : names) {
    if (!EndsWith(n, ".bin")) continue;
    const std::string path = JoinPath(dir, n);
    if (feeds.size() != 1) {
      return InvalidArgument("calibration file " + path + ": the model has " +
                             std::to_string(feeds.size()) +
                             " feeds; .bin samples are for one-feed models (give a reference "
                             "folder with meta.json instead)");
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> dims, BinShape(dir, feeds[0], shape));
    std::string bytes;
    RETURN_IF_ERROR(ReadFileToString(path, &bytes));
    int64_t numel = 1;
    for (int64_t d : dims) numel *= d;
    if (static_cast<int64_t>(bytes.size()) != numel * static_cast<int64_t>(sizeof(float))) {
      return InvalidArgument("calibration file " + path + " has " + std::to_string(bytes.size()) +
                             " bytes; float32 " + ShapeText(dims) + " needs " +
                             std::to_string(numel * sizeof(float)));
    }
    CalibrationFeed feed;
    feed.name = feeds[0].name;
    feed.shape = dims;
    feed.data.resize(static_cast<size_t>(numel));
    std::memcpy(feed.data.data(), bytes.data(), bytes.size());
    for (float v : feed.data) {
      if (!std::isfinite(v)) {
        return InvalidArgument("calibration file " + path + " holds a value that is not finite");
      }
    }
    samples.push_back({path, {std::move(feed)}});
  }
  if (samples.empty()) {
    return InvalidArgument("calibration folder " + dir + " holds no .bin sample and no meta.json");
  }
  return samples;
}

StatusOr<std::vector<OutputValues>> RunSample(paddle::lite_api::PaddlePredictor* predictor,
                                              const CalibrationSample& sample) {
  for (size_t i = 0; i < sample.feeds.size(); ++i) {
    const CalibrationFeed& f = sample.feeds[i];
    auto in = predictor->GetInputByName(f.name);
    if (!in.ok()) return in.status().WithContext("calibration sample " + sample.source);
    (*in)->Resize(f.shape);
    RETURN_IF_ERROR((*in)->CopyFromCpu(f.data.data(), static_cast<int64_t>(f.data.size())));
  }
  Status s = predictor->Run();
  if (!s.ok()) return s.WithContext("running calibration sample " + sample.source);
  std::vector<OutputValues> outputs;
  const auto names = predictor->GetOutputNames();
  for (size_t i = 0; i < names.size(); ++i) {
    auto out = predictor->GetOutput(static_cast<int>(i));
    OutputValues v;
    v.name = names[i];
    v.shape = out->shape();
    if (out->dtype() == paddle::lite_api::DataType::kFloat32) {
      v.data.resize(static_cast<size_t>(out->numel()));
      RETURN_IF_ERROR(out->CopyToCpu(v.data.data(), out->numel()));
    }
    outputs.push_back(std::move(v));
  }
  return outputs;
}

StatusOr<CalibrationResult> Calibrate(const cpp::ProgramDesc& program, const Scope& weights,
                                      const std::vector<CalibrationSample>& samples,
                                      const CalibrationOptions& options,
                                      const std::vector<CalibrationSample>& held_out) {
  RETURN_IF_ERROR(CheckQuantizableOpTypes(options.op_types));
  // Every distinct conv input, fetched after the model's own outputs.
  std::vector<std::string> vars;
  for (const auto& c : QuantizableConvs(program, weights, options.op_types)) {
    if (std::find(vars.begin(), vars.end(), c.input) == vars.end()) vars.push_back(c.input);
  }
  cpp::ProgramDesc observed = program;
  auto& ops = observed.blocks[0].ops;
  int col = 0;
  for (const auto& op : ops) col += op.Type() == "fetch";
  const int first_extra = col;
  for (const auto& v : vars) {
    cpp::OpDesc fetch("fetch");
    fetch.SetInput("X", {v});
    fetch.SetOutput("Out", {"fetch"});
    fetch.SetAttr("col", col++);
    ops.push_back(fetch);
  }
  auto root = CopyWeights(weights);
  OptimizeOptions opt;
  opt.valid_places = CalibrationPlaces(options.places);
  auto optimized = OptimizeProgram(observed, root.get(), opt);
  if (!optimized.ok())
    return optimized.status().WithContext("optimizing the fp32 model to calibrate");
  ASSIGN_OR_RETURN(auto rt, PredictorRuntime::Create(optimized->program, root, options.threads));
  PredictorRuntime& predictor = *rt;

  CalibrationResult result;
  result.scales.resize(vars.size());
  for (size_t i = 0; i < vars.size(); ++i) result.scales[i].var = vars[i];
  for (const auto& sample : samples) {
    ASSIGN_OR_RETURN(auto outs, RunSample(&predictor, sample));
    for (size_t i = 0; i < vars.size(); ++i) {
      const auto& d = outs[first_extra + i].data;
      auto& s = result.scales[i];
      s.abs_max = std::max(s.abs_max, AbsMax(d.data(), static_cast<int64_t>(d.size())));
    }
    outs.resize(first_extra);
    result.outputs.push_back(std::move(outs));
  }
  for (const auto& sample : held_out) {
    ASSIGN_OR_RETURN(auto outs, RunSample(&predictor, sample));
    outs.resize(first_extra);
    result.held_out_outputs.push_back(std::move(outs));
  }
  if (options.method == CalibrationMethod::kAbsMax) {
    for (auto& s : result.scales) s.scale = s.abs_max;
    return result;
  }
  // Second pass: histograms over [0, abs_max] of each activation.
  std::vector<AbsHistogram> hists;
  for (const auto& s : result.scales) hists.emplace_back(s.abs_max);
  for (const auto& sample : samples) {
    ASSIGN_OR_RETURN(auto outs, RunSample(&predictor, sample));
    for (size_t i = 0; i < vars.size(); ++i) {
      const auto& d = outs[first_extra + i].data;
      hists[i].Add(d.data(), static_cast<int64_t>(d.size()));
    }
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    auto& s = result.scales[i];
    if (s.abs_max <= 0) continue;
    s.scale = options.method == CalibrationMethod::kKl
                  ? KlThreshold(hists[i])
                  : PercentileThreshold(hists[i], options.percentile);
  }
  return result;
}

StatusOr<int> InsertFakeQuantOps(const std::vector<ActivationScale>& scales,
                                 const std::vector<std::string>& op_types,
                                 cpp::ProgramDesc* program, Scope* weights) {
  RETURN_IF_ERROR(CheckQuantizableOpTypes(op_types));
  std::map<std::string, float> scale_of;
  for (const auto& s : scales) {
    if (s.scale > 0 && std::isfinite(s.scale)) scale_of[s.var] = s.scale;
  }
  cpp::BlockDesc& block = program->blocks[0];
  const std::vector<QuantizableConv> convs = QuantizableConvs(*program, *weights, op_types);
  std::map<std::string, std::string> quantized;  // activation -> its quant-dequant output
  std::vector<cpp::OpDesc> rewritten;
  size_t next = 0;
  int count = 0;
  for (size_t i = 0; i < block.ops.size(); ++i) {
    cpp::OpDesc op = block.ops[i];
    const bool is_conv = next < convs.size() && convs[next].op_index == i;
    if (!is_conv) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const QuantizableConv& c = convs[next++];
    auto it = scale_of.find(c.input);
    if (it == scale_of.end()) {
      rewritten.push_back(std::move(op));
      continue;
    }
    if (!quantized.count(c.input)) {
      const cpp::VarDesc* x = block.FindVar(c.input);
      const std::vector<int64_t> dims = x ? x->dims : std::vector<int64_t>{};
      const std::string scale_var = FreshName(block, c.input + ".calib_scale");
      AddVar(&block, scale_var, {1}, true);
      Tensor* t = weights->Var(scale_var)->GetMutableTensor();
      t->Resize({1});
      t->mutable_data<float>()[0] = it->second;
      t->set_persistable(true);
      const std::string out = FreshName(block, c.input + ".quant_dequant");
      AddVar(&block, out, dims, false);
      cpp::OpDesc act(kActQdq);
      act.SetInput("X", {c.input});
      act.SetInput("InScale", {scale_var});
      act.SetOutput("Out", {out});
      act.SetOutput("OutScale", {scale_var});
      act.SetAttr("bit_length", 8);
      act.SetAttr("is_test", true);
      rewritten.push_back(act);
      quantized[c.input] = out;
    }
    const Tensor& w = weights->FindVar(c.filter)->GetTensor();
    std::vector<int64_t> wdims(w.dims().begin(), w.dims().end());
    const std::string w_out = FreshName(block, c.filter + ".quant_dequant");
    AddVar(&block, w_out, wdims, false);
    const std::string w_scale = FreshName(block, c.filter + ".quant_scale");
    AddVar(&block, w_scale, {wdims[0]}, false);
    cpp::OpDesc wop(kWeightQdq);
    wop.SetInput("X", {c.filter});
    wop.SetOutput("Out", {w_out});
    wop.SetOutput("OutScale", {w_scale});
    wop.SetAttr("bit_length", 8);
    wop.SetAttr("quant_axis", 0);
    rewritten.push_back(wop);
    op.SetInput("Input", {quantized[c.input]});
    op.SetInput("Filter", {w_out});
    rewritten.push_back(std::move(op));
    ++count;
  }
  block.ops = std::move(rewritten);
  return count;
}

double BinaryMapIou(const float* a, const float* b, int64_t n, float threshold) {
  int64_t inter = 0, uni = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool x = a[i] > threshold, y = b[i] > threshold;
    inter += x && y;
    uni += x || y;
  }
  return uni == 0 ? 1.0 : static_cast<double>(inter) / uni;
}

StatusOr<std::vector<OutputAccuracy>> CompareWithFp32(
    paddle::lite_api::PaddlePredictor* quantized, const std::vector<CalibrationSample>& samples,
    const std::vector<std::vector<OutputValues>>& fp32) {
  if (fp32.size() != samples.size()) {
    return InvalidArgument("fp32 outputs of " + std::to_string(fp32.size()) + " samples for " +
                           std::to_string(samples.size()) + " samples");
  }
  std::vector<OutputAccuracy> acc;
  for (size_t s = 0; s < samples.size(); ++s) {
    ASSIGN_OR_RETURN(auto outs, RunSample(quantized, samples[s]));
    if (outs.size() != fp32[s].size()) {
      return Internal("the quantized model has " + std::to_string(outs.size()) +
                      " outputs, the fp32 model " + std::to_string(fp32[s].size()));
    }
    acc.resize(outs.size());
    for (size_t o = 0; o < outs.size(); ++o) {
      const auto& q = outs[o];
      const auto& f = fp32[s][o];
      OutputAccuracy& a = acc[o];
      a.name = q.name;
      if (q.data.size() != f.data.size()) {
        return Internal("output " + q.name + ": " + std::to_string(q.data.size()) +
                        " values, fp32 " + std::to_string(f.data.size()));
      }
      for (size_t i = 0; i < q.data.size(); ++i) {
        a.max_abs_diff =
            std::max(a.max_abs_diff, static_cast<double>(std::fabs(q.data[i] - f.data[i])));
      }
      a.is_map = q.shape.size() == 4 && q.shape[1] == 1;
      if (!a.is_map) continue;
      const double iou =
          BinaryMapIou(q.data.data(), f.data.data(), static_cast<int64_t>(q.data.size()), 0.3f);
      a.min_iou = s == 0 ? iou : std::min(a.min_iou, iou);
      a.mean_iou = (s == 0 ? 0 : a.mean_iou * s) / (s + 1) + iou / (s + 1);
    }
  }
  return acc;
}

std::string FormatAccuracy(const OutputAccuracy& acc, size_t samples) {
  std::ostringstream os;
  os << acc.name << ": max |int8 - fp32| " << acc.max_abs_diff;
  if (acc.is_map) {
    os << ", IoU(>0.3) min " << acc.min_iou << " mean " << acc.mean_iou;
  }
  os << " over " << samples << " sample(s)";
  return os.str();
}

}  // namespace tools
}  // namespace lite
