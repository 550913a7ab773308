// paddlelite.lite.PaddlePredictor and create_paddle_predictor. Creation,
// run(), clone() and save_optimized_model() release the GIL, so predictors
// (e.g. clones) run in parallel on Python threads.
#include <pybind11/stl.h>

#include "python/bindings.h"
#include "python/tensor_handle.h"

namespace lite {
namespace python {

namespace {

using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::PaddlePredictor;
using paddle::lite_api::TensorInfo;

class PredictorHandle {
 public:
  explicit PredictorHandle(std::shared_ptr<PaddlePredictor> p)
      : p_(std::move(p)), inputs_(p_->GetInputInfos()), outputs_(p_->GetOutputInfos()) {}

  TensorHandle Input(int i) {
    CheckIndex(i, inputs_, "input");
    return {p_, *p_->GetInput(i), inputs_[i].name, /*is_input=*/true, inputs_[i]};
  }
  TensorHandle Input(const std::string& name) {
    auto t = p_->GetInputByName(name);
    ThrowIfError(t.status());
    for (const auto& info : inputs_) {
      if (info.name == name) return {p_, **t, name, true, info};
    }
    return {p_, **t, name, true, std::nullopt};
  }
  TensorHandle Output(int i) {
    CheckIndex(i, outputs_, "output");
    return {p_, *p_->GetMutableOutput(i), outputs_[i].name, false, std::nullopt};
  }
  TensorHandle Output(const std::string& name) {
    const auto& names = p_->GetOutputNames();
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return Output(static_cast<int>(i));
    }
    ThrowIfError(p_->GetOutputByName(name).status());  // NotFound listing the outputs
    throw LiteError("output '" + name + "' not found");
  }

  void Run() { ThrowIfError(WithoutGil([&] { return p_->Run(); })); }
  PredictorHandle Clone() {
    auto clone = WithoutGil([&] { return p_->Clone(); });
    ThrowIfError(clone.status());
    return PredictorHandle(*clone);
  }
  void Save(const std::string& path, const std::string& type) {
    const auto model_type = ParseModelType(type);
    ThrowIfError(WithoutGil([&] { return p_->SaveOptimizedModel(path, model_type); }));
  }

  PaddlePredictor& get() { return *p_; }
  const std::vector<TensorInfo>& input_infos() const { return inputs_; }
  const std::vector<TensorInfo>& output_infos() const { return outputs_; }

 private:
  static void CheckIndex(int i, const std::vector<TensorInfo>& infos, const char* what) {
    if (i >= 0 && static_cast<size_t>(i) < infos.size()) return;
    std::string names;
    for (const auto& info : infos) names += (names.empty() ? "" : ", ") + info.name;
    throw py::index_error(std::string(what) + " index " + std::to_string(i) +
                          " out of range: the model has " + std::to_string(infos.size()) + " " +
                          what + "s (" + names + ")");
  }

  std::shared_ptr<PaddlePredictor> p_;
  std::vector<TensorInfo> inputs_, outputs_;
};

template <typename Config>
PredictorHandle Create(const Config& config) {
  auto p = WithoutGil([&] { return paddle::lite_api::CreatePaddlePredictor<Config>(config); });
  ThrowIfError(p.status());
  return PredictorHandle(*p);
}

}  // namespace

void BindPredictor(py::module_& m) {
  using P = PredictorHandle;
  py::class_<P>(m, "PaddlePredictor",
                "A loaded model (create_paddle_predictor). Use from one thread at a time;\n"
                "clone() gives a predictor sharing the weights for another thread. run()\n"
                "releases the GIL.")
      .def("get_input", py::overload_cast<int>(&P::Input), py::arg("index"),
           "Input by feed column (IndexError when out of range).")
      .def("get_input", py::overload_cast<const std::string&>(&P::Input), py::arg("name"),
           "Input by variable name.")
      .def("get_output", py::overload_cast<int>(&P::Output), py::arg("index"),
           "Output by fetch column (IndexError when out of range).")
      .def("get_output", py::overload_cast<const std::string&>(&P::Output), py::arg("name"),
           "Output by variable name.")
      .def("get_input_names", [](P& p) { return p.get().GetInputNames(); })
      .def("get_output_names", [](P& p) { return p.get().GetOutputNames(); })
      .def("get_input_infos", &P::input_infos, "Declared name, shape, dtype of each input.")
      .def("get_output_infos", &P::output_infos, "Declared name, shape, dtype of each output.")
      .def("run", &P::Run,
           "Checks the inputs against the model and runs it (GIL released). Raises\n"
           "LiteError naming the input or op on failure.")
      .def("clone", &P::Clone, "A predictor sharing weights and program, with its own tensors.")
      .def("save_optimized_model", &P::Save, py::arg("path"),
           py::arg("model_type") = "naive_buffer",
           "Writes the optimized model: naive_buffer -> path.nb ('.nb' appended when\n"
           "missing), protobuf -> directory path with __model__ and __params__.")
      .def("get_version", [](P&) { return paddle::lite_api::GetVersion(); })
      .def("get_placement_report", [](P& p) { return p.get().GetPlacementReport(); },
           "Where each op runs and how each NPU subgraph fared.")
      .def("get_pass_log", [](P& p) { return p.get().GetPassLog(); },
           "The optimization passes run (empty for the light predictor).")
      .def("get_profile_summary", [](P& p) { return p.get().GetProfileSummary(); },
           "With set_profiling(True): ms per run by op type and place ('' otherwise).")
      .def("get_profile_detail", [](P& p) { return p.get().GetProfileDetail(); },
           "With set_profiling(True): one row per op in program order.")
      .def("reset_profile", [](P& p) { p.get().ResetProfile(); },
           "Forgets the runs profiled so far (e.g. warm-up).")
      .def("get_memory_stats",
           [](P& p) {
             const paddle::lite_api::MemoryStats s = p.get().GetMemoryStats();
             py::dict d;
             d["rss_bytes"] = s.rss_bytes;
             d["limit_bytes"] = s.limit_bytes;
             d["arena_bytes"] = s.arena_bytes;
             d["pool_free_bytes"] = s.pool_free_bytes;
             d["pool_peak_bytes"] = s.pool_peak_bytes;
             d["npu_cached_shapes"] = s.npu_cached_shapes;
             d["npu_evictions"] = s.npu_evictions;
             d["budget_releases"] = s.budget_releases;
             d["budget_refusals"] = s.budget_refusals;
             d["estimate_bytes_per_input_element"] = s.estimate_bytes_per_input_element;
             d["estimate_bytes"] = s.estimate_bytes;
             d["planned_activation_bytes"] = s.planned_activation_bytes;
             d["process_caches"] = s.process_caches;
             d["bucket_multiple"] = s.bucket_multiple;
             d["bucket_runs"] = s.bucket_runs;
             d["bucket_hits"] = s.bucket_hits;
             d["bucket_padded_runs"] = s.bucket_padded_runs;
             d["bucket_shapes"] = s.bucket_shapes;
             d["bucket_check_runs"] = s.bucket_check_runs;
             return d;
           },
           "Memory held per input shape and the memory budget's counters, as a dict\n"
           "(rss_bytes, limit_bytes, arena_bytes, budget_refusals, ...).");

  m.def("create_paddle_predictor", &Create<CxxConfig>, py::arg("config"),
        "Loads and optimizes a Paddle model (CxxConfig); LiteError on failure.");
  m.def("create_paddle_predictor", &Create<MobileConfig>, py::arg("config"),
        "Loads an optimized .nb model (MobileConfig); LiteError on failure.");
}

}  // namespace python
}  // namespace lite
