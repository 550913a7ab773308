// PYBIND11_MODULE for paddlelite.lite: registers LiteError and every
// binding (see bindings.h).
#include "python/bindings.h"

#include "lite/base/version.h"

namespace lite {
namespace python {

void ThrowIfError(const Status& status) {
  if (!status.ok()) throw LiteError(status.ToString());
}

paddle::lite_api::ModelType ParseModelType(const std::string& name) {
  if (name == "naive_buffer") return paddle::lite_api::ModelType::kNaiveBuffer;
  if (name == "protobuf") return paddle::lite_api::ModelType::kProtobuf;
  throw LiteError("model type must be naive_buffer or protobuf, got '" + name + "'");
}

}  // namespace python
}  // namespace lite

PYBIND11_MODULE(lite, m) {
  namespace py = pybind11;
  using namespace lite::python;
  m.doc() =
      "paddle-lite-plus inference engine with Paddle-Lite's Python API.\n\n"
      "  config = MobileConfig(); config.set_model_from_file('model.nb')\n"
      "  predictor = create_paddle_predictor(config)\n"
      "  predictor.get_input(0).from_numpy(x)\n"
      "  predictor.run()\n"
      "  y = predictor.get_output(0).numpy()\n\n"
      "Engine errors raise LiteError (a RuntimeError) with the engine's message.";
  py::register_exception<LiteError>(m, "LiteError", PyExc_RuntimeError);
  m.def("get_version", &paddle::lite_api::GetVersion, "The engine version, e.g. '0.1.0'.");
  m.attr("__version__") = lite::kEngineVersion;
  BindTypes(m);
  BindConfigs(m);
  BindTensor(m);
  BindPredictor(m);
  BindOpt(m);
  BindOcr(m);
}
