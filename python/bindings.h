// The pieces of the Python module paddlelite.lite (module.cc assembles
// them), with Paddle-Lite's Python names over lite/api/paddle_api.h.
//
// Ownership: a Python predictor holds a shared_ptr to its C++ predictor; a
// Python tensor holds the predictor too, so a tensor keeps its predictor
// alive and never dangles. numpy() returns a copy owned by numpy.
// Engine failures (Status values) are raised as paddlelite.lite.LiteError,
// a subclass of RuntimeError carrying the engine's message.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"

namespace lite {
namespace python {

namespace py = pybind11;

// Translated to paddlelite.lite.LiteError (module.cc registers it).
class LiteError : public std::runtime_error {
 public:
  explicit LiteError(const std::string& message) : std::runtime_error(message) {}
};

// Throws LiteError with the status's text when it is not OK.
void ThrowIfError(const Status& status);

// Runs f() with the GIL released (engine work that touches no Python
// object) and returns its result.
template <typename F>
auto WithoutGil(F&& f) {
  py::gil_scoped_release unlocked;
  return f();
}

// The numpy dtype of an engine data type; LiteError for types numpy lacks.
py::dtype NumpyDtype(DataType type);

// Parses "naive_buffer" / "protobuf" (Opt.set_model_type, save_optimized_model).
paddle::lite_api::ModelType ParseModelType(const std::string& name);

void BindTypes(py::module_& m);      // enums, Place, NpuOptions, infos, reports
void BindConfigs(py::module_& m);    // CxxConfig, MobileConfig
void BindTensor(py::module_& m);     // Tensor
void BindPredictor(py::module_& m);  // PaddlePredictor, create_paddle_predictor
void BindOpt(py::module_& m);        // Opt, the paddle_lite_opt entry point
void BindOcr(py::module_& m);        // lite/ocr: CTC decoding, DB boxes

}  // namespace python
}  // namespace lite
