// paddlelite.lite.Opt (Paddle-Lite's offline optimizer class: set the model,
// places, output and format, then run()) and _opt_main, the body of the
// paddle_lite_opt console script (tools/opt's main, same flags).
#include <pybind11/stl.h>

#include <iostream>

#include "python/bindings.h"
#include "tools/opt_main.h"
#include "tools/opt_report.h"
#include "tools/tool_util.h"

namespace lite {
namespace python {

namespace {

using paddle::lite_api::CxxConfig;

class Opt {
 public:
  void set_model_dir(const std::string& d) { model_dir_ = d; }
  void set_model_file(const std::string& f) { model_file_ = f; }
  void set_param_file(const std::string& f) { param_file_ = f; }
  void set_valid_places(const std::string& targets) { targets_ = targets; }
  void set_optimize_out(const std::string& out) { optimize_out_ = out; }
  void set_model_type(const std::string& type) {
    ParseModelType(type);  // rejects unknown names now
    model_type_ = type;
  }
  void set_disabled_passes(const std::vector<std::string>& p) { disabled_passes_ = p; }

  void Run() const {
    if (model_dir_.empty() && model_file_.empty()) {
      throw LiteError("Opt: no model: call set_model_dir, or set_model_file and set_param_file");
    }
    if (model_file_.empty() != param_file_.empty()) {
      throw LiteError("Opt: set_model_file and set_param_file go together (or set_model_dir)");
    }
    if (optimize_out_.empty()) throw LiteError("Opt: set_optimize_out first");
    CxxConfig config;
    config.set_model_dir(model_dir_);
    config.set_model_file(model_file_);
    config.set_param_file(param_file_);
    config.set_valid_places(Places());
    config.set_disabled_passes(disabled_passes_);
    const auto type = ParseModelType(model_type_);
    ThrowIfError(WithoutGil([&] {
      auto p = paddle::lite_api::CreatePaddlePredictor<CxxConfig>(config);
      return p.ok() ? (*p)->SaveOptimizedModel(optimize_out_, type) : p.status();
    }));
  }

  std::vector<Place> Places() const {
    auto places = tools::ParseValidTargets(targets_);
    ThrowIfError(places.status());
    return *places;
  }

 private:
  std::string targets_ = "host";
  std::string model_dir_, model_file_, param_file_, optimize_out_;
  std::string model_type_ = "naive_buffer";
  std::vector<std::string> disabled_passes_;
};

// argv[0] is the program name, as in main.
int OptMainFromPython(const std::vector<std::string>& argv) {
  std::vector<std::string> args = argv;
  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(&a[0]);
  raw.push_back(nullptr);
  return WithoutGil([&] { return tools::OptMain(static_cast<int>(args.size()), raw.data()); });
}

}  // namespace

void BindOpt(py::module_& m) {
  py::class_<Opt>(m, "Opt",
                  "The offline optimizer (as tools/opt): loads a Paddle model, runs the passes\n"
                  "for the valid places and writes the optimized model.\n\n"
                  "  opt = Opt()\n"
                  "  opt.set_model_dir('mobilenet_v1')\n"
                  "  opt.set_valid_places('x86,host')\n"
                  "  opt.set_model_type('naive_buffer')\n"
                  "  opt.set_optimize_out('mobilenet_v1_opt')   # writes mobilenet_v1_opt.nb\n"
                  "  opt.run()")
      .def(py::init<>())
      .def("set_model_dir", &Opt::set_model_dir, py::arg("model_dir"),
           "Model directory (combined or one file per param).")
      .def("set_model_file", &Opt::set_model_file, py::arg("model_file"),
           "Program file of a combined model (with set_param_file).")
      .def("set_param_file", &Opt::set_param_file, py::arg("param_file"),
           "Params file of a combined model (with set_model_file).")
      .def("set_valid_places", &Opt::set_valid_places, py::arg("valid_places"),
           "Comma list of host, x86, npu in preference order (host is always the fallback).")
      .def("set_optimize_out", &Opt::set_optimize_out, py::arg("optimized_model_name"),
           "Output: path without extension for naive_buffer (writes <out>.nb), a directory "
           "for protobuf.")
      .def("set_model_type", &Opt::set_model_type, py::arg("type"),
           "naive_buffer (default; for MobileConfig) or protobuf.")
      .def("set_disabled_passes", &Opt::set_disabled_passes, py::arg("passes"),
           "Names of passes to skip.")
      .def("run", &Opt::Run, "Optimizes and writes the model; LiteError on failure.")
      .def(
          "run_optimize",
          [](Opt& o, const std::string& model_dir, const std::string& model_file,
             const std::string& param_file, const std::string& type,
             const std::string& valid_places, const std::string& optimize_out) {
            o.set_model_dir(model_dir);
            o.set_model_file(model_file);
            o.set_param_file(param_file);
            o.set_model_type(type);
            o.set_valid_places(valid_places);
            o.set_optimize_out(optimize_out);
            o.Run();
          },
          py::arg("model_dir"), py::arg("model_file"), py::arg("param_file"), py::arg("type"),
          py::arg("valid_places"), py::arg("optimize_out"), "Every setting and run() at once.")
      .def(
          "print_supported_ops",
          [](const Opt& o) {
            const auto places = o.Places();
            py::print("ops supported by " + tools::TargetsText(places) + ":\n" +
                          tools::SupportedOpsText(places),
                      py::arg("end") = "");
          },
          "Prints the ops the valid places can run.")
      .def("print_all_ops", [](const Opt&) { py::print(tools::AllOpsTable(), py::arg("end") = ""); },
           "Prints every op type x target (kernel registered?).")
      .def("display_kernels_info",
           [](const Opt&) { py::print(tools::KernelsText(), py::arg("end") = ""); },
           "Prints every registered kernel key.");

  m.def("_opt_main", &OptMainFromPython, py::arg("argv"),
        "tools/opt's main with these arguments (argv[0] = program name); returns the exit "
        "code. Parses process-global flags: once per process (the paddle_lite_opt script).");
}

}  // namespace python
}  // namespace lite
