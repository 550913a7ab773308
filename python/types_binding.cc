// Value types of paddlelite.lite: the TargetType / PrecisionType /
// DataLayoutType enums (Paddle-Lite's member names), Place, NpuOptions,
// TensorInfo and the NPU placement report.
#include <pybind11/stl.h>

#include "python/bindings.h"

namespace lite {
namespace python {

namespace {

using paddle::lite_api::OpPlacement;
using paddle::lite_api::PlacementReport;
using paddle::lite_api::SubgraphPlacement;
using paddle::lite_api::TensorInfo;

std::string PlaceRepr(const Place& p) {
  return std::string("Place(") + TargetName(p.target) + ", " + PrecisionName(p.precision) +
         ", " + LayoutName(p.layout) + ")";
}

}  // namespace

py::dtype NumpyDtype(DataType type) {
  switch (type) {
    case DataType::kBool: return py::dtype::of<bool>();
    case DataType::kInt8: return py::dtype::of<int8_t>();
    case DataType::kUInt8: return py::dtype::of<uint8_t>();
    case DataType::kInt16: return py::dtype::of<int16_t>();
    case DataType::kInt32: return py::dtype::of<int32_t>();
    case DataType::kInt64: return py::dtype::of<int64_t>();
    case DataType::kFloat16: return py::dtype("float16");
    case DataType::kFloat32: return py::dtype::of<float>();
    case DataType::kFloat64: return py::dtype::of<double>();
    default: break;
  }
  throw LiteError(std::string("no numpy dtype for engine type ") + DataTypeName(type));
}

void BindTypes(py::module_& m) {
  py::enum_<TargetType>(m, "TargetType", "Where a kernel runs (Host is the portable fallback).")
      .value("Host", TargetType::kHost)
      .value("X86", TargetType::kX86)
      .value("NPU", TargetType::kNPU)
      .value("ARM", TargetType::kARM)
      .value("Any", TargetType::kAny);
  py::enum_<PrecisionType>(m, "PrecisionType", "The element type a kernel computes in.")
      .value("FP32", PrecisionType::kFloat)
      .value("INT8", PrecisionType::kInt8)
      .value("INT32", PrecisionType::kInt32)
      .value("INT64", PrecisionType::kInt64)
      .value("BOOL", PrecisionType::kBool)
      .value("Any", PrecisionType::kAny);
  py::enum_<DataLayoutType>(m, "DataLayoutType", "Memory layout of a kernel's tensors.")
      .value("NCHW", DataLayoutType::kNCHW)
      .value("NHWC", DataLayoutType::kNHWC)
      .value("Any", DataLayoutType::kAny);

  py::class_<Place>(m, "Place",
                    "A kernel place: target, precision, layout. CxxConfig.set_valid_places "
                    "takes a list of them, preferred first.")
      .def(py::init<TargetType, PrecisionType, DataLayoutType>(), py::arg("target"),
           py::arg("precision") = PrecisionType::kFloat,
           py::arg("layout") = DataLayoutType::kNCHW)
      .def_readwrite("target", &Place::target)
      .def_readwrite("precision", &Place::precision)
      .def_readwrite("layout", &Place::layout)
      .def("__eq__", [](const Place& a, const Place& b) { return a == b; })
      .def("__repr__", &PlaceRepr);

  py::class_<NpuOptions>(m, "NpuOptions",
                         "Every NPU subgraph setting at once (CxxConfig.set_npu_options); "
                         "partition_text holds 'op_type[:in,...[:out,...]]' lines of ops "
                         "kept on host.")
      .def(py::init<>())
      .def_readwrite("driver", &NpuOptions::driver)
      .def_readwrite("strict", &NpuOptions::strict)
      .def_readwrite("min_subgraph_size", &NpuOptions::min_subgraph_size)
      .def_readwrite("partition_text", &NpuOptions::partition_text)
      .def_readwrite("cross_check", &NpuOptions::cross_check)
      .def_readwrite("driver_paths", &NpuOptions::driver_paths);

  py::class_<TensorInfo>(m, "TensorInfo",
                         "What the model declares about an input or output: name, shape "
                         "(-1 for run-time extents), numpy dtype, LoD level.")
      .def_readonly("name", &TensorInfo::name)
      .def_readonly("shape", &TensorInfo::shape)
      .def_property_readonly("dtype", [](const TensorInfo& i) { return NumpyDtype(i.dtype); })
      .def_readonly("lod_level", &TensorInfo::lod_level)
      .def("__repr__", [](const TensorInfo& i) {
        return "TensorInfo(" + i.name + ", " + py::str(py::cast(i.shape)).cast<std::string>() +
               ", " + DataTypeName(i.dtype) + ")";
      });

  py::class_<OpPlacement>(m, "OpPlacement", "Where one op runs and why.")
      .def_readonly("op", &OpPlacement::op)
      .def_readonly("subgraph", &OpPlacement::subgraph)
      .def_readonly("on_device", &OpPlacement::on_device)
      .def_readonly("reason", &OpPlacement::reason);
  py::class_<SubgraphPlacement>(m, "SubgraphPlacement",
                                "One NPU subgraph: driver, ops, state (device / host / "
                                "pending), compiles and cross-check differences.")
      .def_readonly("id", &SubgraphPlacement::id)
      .def_readonly("driver", &SubgraphPlacement::driver)
      .def_readonly("ops", &SubgraphPlacement::ops)
      .def_readonly("state", &SubgraphPlacement::state)
      .def_readonly("reason", &SubgraphPlacement::reason)
      .def_readonly("compiles", &SubgraphPlacement::compiles)
      .def_readonly("cross_checked_runs", &SubgraphPlacement::cross_checked_runs)
      .def_readonly("max_abs_diff", &SubgraphPlacement::max_abs_diff)
      .def_readonly("max_rel_diff", &SubgraphPlacement::max_rel_diff);
  py::class_<PlacementReport>(m, "PlacementReport",
                              "Where every op runs and how each NPU subgraph fared "
                              "(PaddlePredictor.get_placement_report()).")
      .def_readonly("ops", &PlacementReport::ops)
      .def_readonly("subgraphs", &PlacementReport::subgraphs)
      .def("summary", &PlacementReport::Summary, "One line: ops on the device, fallbacks.")
      .def("__str__", &PlacementReport::ToString);
}

}  // namespace python
}  // namespace lite
