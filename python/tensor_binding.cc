// paddlelite.lite.Tensor: numpy in (from_numpy, checked against the model's
// declaration) and out (numpy(), always a copy owned by numpy, valid after
// the predictor is gone), shape / resize / lod / set_lod, and Paddle-Lite's
// list accessors (set_float_data / float_data, ...).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "lite/api/predictor_runtime.h"
#include "python/bindings.h"
#include "python/tensor_handle.h"

namespace lite {
namespace python {

namespace {

using paddle::lite_api::shape_t;

std::string ShapeString(const shape_t& shape) {
  return py::str(py::cast(shape)).cast<std::string>();
}

std::string Describe(const TensorHandle& t) {
  return std::string(t.is_input ? "input" : "output") + " '" + t.name + "'";
}

// A failed copy names the tensor.
void ThrowIfCopyFailed(const TensorHandle& t, const Status& s) {
  if (!s.ok()) ThrowIfError(s.WithContext(Describe(t)));
}

// The array's shape against the declared one, by the predictor's own rule.
void CheckDeclaredShape(const TensorHandle& t, const shape_t& shape) {
  if (!t.declared) return;
  const shape_t& want = t.declared->shape;
  const bool ok = lite::FeedShapeFits(want, shape);
  if (!ok) {
    throw LiteError(Describe(t) + ": array shape " + ShapeString(shape) +
                    " does not match the model's " + ShapeString(want) + " (-1 = any)");
  }
}

template <typename T>
bool CopyIn(TensorHandle& t, const py::array& array) {
  if (!py::isinstance<py::array_t<T>>(array)) return false;
  auto contiguous = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(array);
  shape_t shape(contiguous.shape(), contiguous.shape() + contiguous.ndim());
  CheckDeclaredShape(t, shape);
  t.tensor.Resize(shape);
  ThrowIfCopyFailed(t, t.tensor.CopyFromCpu<T>(contiguous.data(), contiguous.size()));
  return true;
}

void FromNumpy(TensorHandle& t, const py::array& array) {
  if (!t.is_input) throw LiteError(Describe(t) + " is an output: from_numpy writes inputs");
  const DataType want = t.declared ? t.declared->dtype : DataType::kUnknown;
  if (want != DataType::kUnknown && !py::object(array.dtype()).equal(NumpyDtype(want))) {
    throw LiteError(Describe(t) + ": array dtype " + py::str(array.dtype()).cast<std::string>() +
                    " does not match the model's " + DataTypeName(want) +
                    " (convert with .astype)");
  }
  const bool copied = CopyIn<float>(t, array) || CopyIn<double>(t, array) ||
                      CopyIn<int8_t>(t, array) || CopyIn<uint8_t>(t, array) ||
                      CopyIn<int32_t>(t, array) || CopyIn<int64_t>(t, array) ||
                      CopyIn<bool>(t, array);
  if (!copied) {
    throw LiteError(Describe(t) + ": unsupported array dtype " +
                    py::str(array.dtype()).cast<std::string>());
  }
}

template <typename T>
py::array CopyOut(const TensorHandle& t) {
  py::array_t<T> out(t.tensor.shape());
  ThrowIfCopyFailed(t, t.tensor.CopyToCpu<T>(out.mutable_data(), out.size()));
  return std::move(out);
}

py::array ToNumpy(const TensorHandle& t) {
  switch (t.tensor.dtype()) {
    case DataType::kFloat32: return CopyOut<float>(t);
    case DataType::kFloat64: return CopyOut<double>(t);
    case DataType::kInt8: return CopyOut<int8_t>(t);
    case DataType::kUInt8: return CopyOut<uint8_t>(t);
    case DataType::kInt32: return CopyOut<int32_t>(t);
    case DataType::kInt64: return CopyOut<int64_t>(t);
    case DataType::kBool: return CopyOut<bool>(t);
    default: break;
  }
  throw LiteError(Describe(t) + " holds no data of a numpy type (" +
                  DataTypeName(t.tensor.dtype()) + "; run() first?)");
}

// Paddle-Lite's set_<type>_data(list) / <type>_data(): flat lists, the
// shape set beforehand with resize().
template <typename T>
void BindListAccessors(py::class_<TensorHandle>& c, const std::string& type) {
  c.def(
      ("set_" + type + "_data").c_str(),
      [](TensorHandle& t, const std::vector<T>& data) {
        ThrowIfCopyFailed(t, t.tensor.CopyFromCpu<T>(data.data(), static_cast<int64_t>(data.size())));
      },
      py::arg("data"), "Copies a flat list in (resize() first; Paddle-Lite compatibility).");
  c.def(
      (type + "_data").c_str(),
      [](const TensorHandle& t) {
        std::vector<T> data(static_cast<size_t>(t.tensor.numel()));
        ThrowIfCopyFailed(t, t.tensor.CopyToCpu<T>(data.data(), static_cast<int64_t>(data.size())));
        return data;
      },
      "The data as a flat list (Paddle-Lite compatibility; numpy() is faster).");
}

}  // namespace

void BindTensor(py::module_& m) {
  py::class_<TensorHandle> c(
      m, "Tensor",
      "An input or output of a predictor (from get_input / get_output). It keeps\n"
      "its predictor alive. numpy() returns a copy: later runs do not change it.");
  c.def("from_numpy", &FromNumpy, py::arg("array"),
        "Sets this input's shape and data from a numpy array. The dtype must be the\n"
        "model's (no silent conversion) and the shape must match its fixed dims;\n"
        "otherwise LiteError.")
      .def("numpy", &ToNumpy, "A copy of the data as a numpy array of shape shape().")
      .def("shape", [](const TensorHandle& t) { return t.tensor.shape(); })
      .def("resize", [](TensorHandle& t, const shape_t& s) { t.tensor.Resize(s); },
           py::arg("shape"), "Sets the shape (for set_<type>_data).")
      .def("numel", [](const TensorHandle& t) { return t.tensor.numel(); })
      .def_property_readonly("dtype", [](const TensorHandle& t) { return NumpyDtype(t.tensor.dtype()); },
                             "numpy dtype of the data held")
      .def_readonly("name", &TensorHandle::name)
      .def("lod", [](const TensorHandle& t) { return t.tensor.lod(); },
           "Level-of-detail offsets, e.g. [[0, 2, 5]] for sequences of 2 and 3 rows.")
      .def("set_lod", [](TensorHandle& t, const paddle::lite_api::lod_t& l) { t.tensor.SetLoD(l); },
           py::arg("lod"), "Sets the LoD of a sequence input.")
      .def("__repr__", [](const TensorHandle& t) {
        return "Tensor(" + Describe(t) + ", shape=" + ShapeString(t.tensor.shape()) + ")";
      });
  BindListAccessors<float>(c, "float");
  BindListAccessors<int32_t>(c, "int32");
  BindListAccessors<int64_t>(c, "int64");
  BindListAccessors<int8_t>(c, "int8");
}

}  // namespace python
}  // namespace lite
