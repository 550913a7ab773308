#include "tools/feed_util.h"

#include <cstdlib>

namespace lite {
namespace tools {

namespace {

using paddle::lite_api::PaddlePredictor;
using paddle::lite_api::TensorInfo;

StatusOr<std::vector<int64_t>> ParseShape(const std::string& text) {
  std::vector<int64_t> shape;
  for (const auto& item : SplitList(text)) {
    char* end = nullptr;
    long long v = std::strtoll(item.c_str(), &end, 10);
    if (*end != '\0' || v < 0) {
      return InvalidArgument("--input_shape: bad dimension '" + item + "' in '" + text + "'");
    }
    shape.push_back(v);
  }
  return shape;
}

}  // namespace

Status FeedGenerated(const std::string& input_shape, PaddlePredictor* predictor,
                     std::ostream* log) {
  // Names, declared dims and dtypes of the inputs, by feed column, as the
  // predictor's program declares them.
  const std::vector<TensorInfo> vars = predictor->GetInputInfos();
  const auto shapes = SplitList(input_shape, ':');
  if (!shapes.empty() && shapes.size() != vars.size()) {
    return InvalidArgument("--input_shape gives " + std::to_string(shapes.size()) +
                           " shape(s) but the model has " + std::to_string(vars.size()) +
                           " input(s)");
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    std::vector<int64_t> shape;
    if (!shapes.empty()) {
      ASSIGN_OR_RETURN(shape, ParseShape(shapes[i]));
    } else {
      for (int64_t d : vars[i].shape) shape.push_back(d < 0 ? 1 : d);
    }
    auto in = predictor->GetInput(static_cast<int>(i));
    in->Resize(shape);
    const size_t n = static_cast<size_t>(in->numel());
    std::vector<float> values = LcgUniform(n, 1, -1.0, 1.0);
    switch (vars[i].dtype) {
      case DataType::kInt64: {
        int64_t* p = in->mutable_data<int64_t>();
        for (size_t k = 0; k < n; ++k) p[k] = static_cast<int64_t>((values[k] + 1) * 5);
        break;
      }
      case DataType::kInt32: {
        int32_t* p = in->mutable_data<int32_t>();
        for (size_t k = 0; k < n; ++k) p[k] = static_cast<int32_t>((values[k] + 1) * 5);
        break;
      }
      default:
        in->CopyFromCpu(values.data());
    }
    *log << "input  " << vars[i].name << " " << ShapeText(shape)
         << " (generated, LCG seed 1 in [-1, 1])\n";
  }
  return Status::OK();
}

}  // namespace tools
}  // namespace lite
