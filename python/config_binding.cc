// CxxConfig (full predictor: loads a Paddle model and runs the passes) and
// MobileConfig (light predictor: loads an optimized .nb), with Paddle-Lite's
// method names plus threads, profiling and the NPU options.
#include <pybind11/stl.h>

#include "python/bindings.h"

namespace lite {
namespace python {

namespace {

using paddle::lite_api::ConfigBase;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;

template <typename Config>
void BindCommon(py::class_<Config, ConfigBase>& c) {
  c.def("set_npu_driver", &Config::set_npu_driver, py::arg("driver"),
        "NPU driver that runs the subgraphs (e.g. 'xnnpack', 'reference').")
      .def("set_npu_strict", &Config::set_npu_strict, py::arg("strict"),
           "Fail instead of falling back to host when a subgraph cannot run on the device.")
      .def("set_npu_cross_check", &Config::set_npu_cross_check, py::arg("on"),
           "Also run every subgraph on host and record the largest difference "
           "(get_placement_report()).")
      .def("set_npu_driver_paths", &Config::set_npu_driver_paths, py::arg("dirs"),
           "Directories scanned for NPU driver plugins before $LITE_NPU_DRIVER_PATH.")
      .def("npu_options", &Config::npu_options, "The NPU settings as an NpuOptions.");
}

}  // namespace

void BindConfigs(py::module_& m) {
  py::class_<ConfigBase>(m, "ConfigBase", "Settings shared by CxxConfig and MobileConfig.")
      .def("set_threads", &ConfigBase::set_threads, py::arg("threads"),
           "Threads each run() uses (default 1).")
      .def("threads", &ConfigBase::threads)
      .def("set_adaptive_threads", &ConfigBase::set_adaptive_threads, py::arg("on"),
           "With threads > 1 (default on): run on one thread while other processes keep "
           "the CPUs busy, and on threads() again once a CPU is idle.")
      .def("adaptive_threads", &ConfigBase::adaptive_threads)
      .def("set_profiling", &ConfigBase::set_profiling, py::arg("on"),
           "Time every op of every run(); read with get_profile_summary() / "
           "get_profile_detail().")
      .def("profiling", &ConfigBase::profiling)
      .def("set_memory_limit_mb", &ConfigBase::set_memory_limit_mb, py::arg("mb"),
           "A budget on the process's resident memory in MB (0: none). Past it the\n"
           "predictor releases cached per-shape state before a run of a new input size,\n"
           "and run() raises LiteError (nothing run, the predictor stays usable) when\n"
           "the run's estimated need does not fit even then (docs/memory.md).")
      .def("memory_limit_mb", &ConfigBase::memory_limit_mb)
      .def(
          "set_shape_buckets",
          [](ConfigBase& c, int multiple, const std::string& crops) {
            auto parsed = paddle::lite_api::ParseBucketCrops(crops);
            ThrowIfError(parsed.status());
            c.set_shape_buckets(multiple, *parsed);
          },
          py::arg("multiple"), py::arg("crops") = "",
          "Shape buckets (0: off): the 4-D input's H and W are rounded up to a multiple\n"
          "of `multiple`, the data zero-padded at the bottom and right, the outputs\n"
          "cropped back. `crops`: 'name[=num/den],...' the outputs to crop and their\n"
          "scale; '' infers them (every output 4-D, H and W a fixed ratio of the input's),\n"
          "and run() raises LiteError where a crop is not well defined (docs/memory.md).")
      .def("shape_buckets",
           [](const ConfigBase& c) {
             std::string crops;
             for (const auto& b : c.shape_buckets().crops) {
               crops += (crops.empty() ? "" : ",") + b.output + "=" + std::to_string(b.num) +
                        "/" + std::to_string(b.den);
             }
             return py::make_tuple(c.shape_buckets().multiple, crops);
           },
           "(multiple, crops) as set_shape_buckets took them.");

  py::class_<CxxConfig, ConfigBase> cxx(
      m, "CxxConfig",
      "Configuration of the full predictor: loads a Paddle model (a directory, or\n"
      "model + params files, or both from memory), runs the optimization passes for\n"
      "the valid places and runs it.\n\n"
      "  config = CxxConfig()\n"
      "  config.set_model_file('inference.pdmodel')\n"
      "  config.set_param_file('inference.pdiparams')\n"
      "  config.set_valid_places([Place(TargetType.X86), Place(TargetType.Host)])\n"
      "  predictor = create_paddle_predictor(config)");
  cxx.def(py::init<>())
      .def("set_model_dir", &CxxConfig::set_model_dir, py::arg("model_dir"),
           "A model directory (combined __model__/__params__ or one file per param).")
      .def("model_dir", &CxxConfig::model_dir)
      .def("set_model_file", &CxxConfig::set_model_file, py::arg("model_file"),
           "Program file of a combined model (with set_param_file).")
      .def("model_file", &CxxConfig::model_file)
      .def("set_param_file", &CxxConfig::set_param_file, py::arg("param_file"),
           "Params file of a combined model (with set_model_file).")
      .def("param_file", &CxxConfig::param_file)
      .def(
          "set_model_buffer",
          [](CxxConfig& c, const py::bytes& model, const py::bytes& params) {
            const std::string m = model, p = params;
            c.set_model_buffer(m.data(), m.size(), p.data(), p.size());
          },
          py::arg("model_buffer"), py::arg("param_buffer"),
          "Program and params from memory (bytes; copied).")
      .def("set_valid_places", &CxxConfig::set_valid_places, py::arg("places"),
           "Places to pick kernels for, preferred first; host is always the fallback.")
      .def("valid_places", &CxxConfig::valid_places)
      .def("set_disabled_passes", &CxxConfig::set_disabled_passes, py::arg("passes"),
           "Names of optimization passes to skip.")
      .def("enable_fp16", &CxxConfig::enable_fp16, py::arg("on") = true,
           "conv2d / depthwise_conv2d on the arm target compute in fp16 (XNNPACK f16 "
           "operators); predictor creation fails without arm or fp16 arithmetic.")
      .def("fp16_enabled", &CxxConfig::fp16_enabled)
      .def("set_npu_min_subgraph_size", &CxxConfig::set_npu_min_subgraph_size, py::arg("n"),
           "Clusters with fewer ops stay on host (default 2).")
      .def("set_npu_partition_file", &CxxConfig::set_npu_partition_file, py::arg("path"),
           "A file of 'op_type[:in,...[:out,...]]' lines: ops kept on host.")
      .def("set_npu_options", &CxxConfig::set_npu_options, py::arg("options"),
           "All NPU settings at once (an NpuOptions).");
  BindCommon(cxx);

  py::class_<MobileConfig, ConfigBase> mobile(
      m, "MobileConfig",
      "Configuration of the light predictor: loads a model optimized by Opt /\n"
      "paddle_lite_opt (.nb) and runs it without passes.\n\n"
      "  config = MobileConfig()\n"
      "  config.set_model_from_file('model.nb')\n"
      "  predictor = create_paddle_predictor(config)");
  mobile.def(py::init<>())
      .def("set_model_from_file", &MobileConfig::set_model_from_file, py::arg("model_file"),
           "The optimized model file (.nb).")
      .def("model_file", &MobileConfig::model_file)
      .def(
          "set_model_from_buffer",
          [](MobileConfig& c, const py::bytes& buffer) { c.set_model_from_buffer(buffer); },
          py::arg("buffer"), "The optimized model's bytes (copied).");
  BindCommon(mobile);
}

}  // namespace python
}  // namespace lite
