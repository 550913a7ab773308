#include "lite/core/profile.h"

#include <cstdio>
#include <sstream>

namespace lite {

namespace {
const Tensor* Bound(const OpLite& op, const std::string& param, bool input) {
  const auto& vars = input ? op.op_desc().Input(param) : op.op_desc().Output(param);
  if (vars.empty() || !op.scope()) return nullptr;
  return op.scope()->FindMutableTensor(vars.front());
}

// A conv with filter `f` writing `out`, as direct arithmetic; 0 when unknown.
int64_t ConvFlops(const Tensor* f, const Tensor* out) {
  if (!f || !out || f->dims().size() != 4) return 0;
  return 2 * out->numel() * f->dims()[1] * f->dims()[2] * f->dims()[3];
}
}  // namespace

int64_t OpFlops(const OpLite& op) {
  const std::string& t = op.Type();
  if (t == "conv2d" || t == "depthwise_conv2d" || t == "conv2d_max_pool") {
    const Tensor* f = Bound(op, "Filter", true);
    const Tensor* out = Bound(op, "Output", false);
    if (t == "conv2d_max_pool") {  // the conv's output: "<Out>@conv" (conv_max_pool_op.h)
      const auto& pooled = op.op_desc().Output("Out");
      out = pooled.empty() || !op.scope() ? nullptr
                                          : op.scope()->FindMutableTensor(pooled.front() + "@conv");
    }
    return ConvFlops(f, out);
  }
  if (t == "conv2d_concat") {  // conv i writes "<Out>@<i>" (conv_concat_op.h)
    const auto& filters = op.op_desc().Input("Filter");
    const auto& outs = op.op_desc().Output("Out");
    if (outs.empty() || !op.scope()) return 0;
    int64_t flops = 0;
    for (size_t i = 0; i < filters.size(); ++i) {
      const Tensor* f = op.scope()->FindMutableTensor(filters[i]);
      const Tensor* out = op.scope()->FindMutableTensor(outs[0] + "@" + std::to_string(i));
      if (!f || !out || f->dims().size() != 4) return 0;
      flops += ConvFlops(f, out);
    }
    return flops;
  }
  if (t == "conv2d_transpose" || t == "depthwise_conv2d_transpose") {
    const Tensor* f = Bound(op, "Filter", true);
    const Tensor* in = Bound(op, "Input", true);
    if (!f || !in || f->dims().size() != 4) return 0;
    return 2 * in->numel() * f->dims()[1] * f->dims()[2] * f->dims()[3];
  }
  if (t == "fc") {
    const Tensor* w = Bound(op, "W", true);
    const Tensor* out = Bound(op, "Out", false);
    if (!w || !out || w->dims().size() != 2) return 0;
    return 2 * out->numel() * w->dims()[0];
  }
  if (t == "mul" || t == "matmul" || t == "matmul_v2") {
    const Tensor* x = Bound(op, "X", true);
    const Tensor* out = Bound(op, "Out", false);
    if (!x || !out || x->dims().empty()) return 0;
    const bool trans_x = op.op_desc().GetAttr<bool>(t == "matmul" ? "transpose_X" : "trans_x", false);
    const auto& d = x->dims();
    int64_t k = trans_x && d.size() >= 2 ? d[d.size() - 2] : d.back();
    if (t == "mul") {
      const int cols = op.op_desc().GetAttr<int32_t>("x_num_col_dims", 1);
      k = 1;
      for (size_t i = cols; i < d.size(); ++i) k *= d[i];
    }
    return 2 * out->numel() * k;
  }
  return 0;
}

std::string FormatProfile(const std::vector<ProfileRow>& rows, double total_ms) {
  std::ostringstream os;
  char line[256];
  std::snprintf(line, sizeof(line), "%-26s %-20s %5s %10s %7s %9s\n", "op type", "place", "ops",
                "ms/run", "share", "GFLOP/s");
  os << line;
  for (const auto& r : rows) {
    char gf[32] = "-";
    if (r.gflops >= 0) std::snprintf(gf, sizeof(gf), "%.1f", r.gflops);
    std::snprintf(line, sizeof(line), "%-26s %-20s %5d %10.3f %6.1f%% %9s\n", r.op_type.c_str(),
                  r.place.c_str(), r.ops, r.ms, r.percent, gf);
    os << line;
  }
  std::snprintf(line, sizeof(line), "%-26s %-20s %5s %10.3f %6.1f%%\n", "total", "", "", total_ms,
                total_ms > 0 ? 100.0 : 0.0);
  os << line;
  return os.str();
}

std::string FormatProfileDetail(const std::vector<ProfileRow>& rows, double total_ms) {
  std::ostringstream os;
  char line[320];
  std::snprintf(line, sizeof(line), "%4s %-26s %-30s %-18s %9s %7s %9s\n", "#", "op type",
                "output", "place", "ms/run", "share", "GFLOP/s");
  os << line;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProfileRow& r = rows[i];
    char gf[32] = "-";
    if (r.gflops >= 0) std::snprintf(gf, sizeof(gf), "%.1f", r.gflops);
    std::snprintf(line, sizeof(line), "%4zu %-26s %-30s %-18s %9.3f %6.1f%% %9s\n", i,
                  r.op_type.c_str(), r.output.c_str(), r.place.c_str(), r.ms, r.percent, gf);
    os << line;
  }
  std::snprintf(line, sizeof(line), "%4s %-26s %-30s %-18s %9.3f %6.1f%%\n", "", "total", "", "",
                total_ms, total_ms > 0 ? 100.0 : 0.0);
  os << line;
  return os.str();
}

}  // namespace lite
