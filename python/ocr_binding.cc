// The OCR helpers of lite/ocr for Python: CTC greedy decoding with a
// dictionary and DB text boxes of a probability map, so that the Python
// example (examples/python/ocr.py) decodes and finds boxes with the same
// code as tools/ocr. Inputs are numpy arrays (copied to float32 when they
// are not), outputs plain Python values and numpy arrays.
#include <pybind11/stl.h>

#include "lite/ocr/ctc_decode.h"
#include "lite/ocr/db_postprocess.h"
#include "python/bindings.h"

namespace lite {
namespace python {

namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

}  // namespace

void BindOcr(py::module_& m) {
  m.def(
      "load_ctc_dictionary",
      [](const std::string& path, bool use_space_char) {
        auto dict = ocr::LoadCtcDictionary(path, use_space_char);
        ThrowIfError(dict.status());
        return dict->classes;
      },
      py::arg("path"), py::arg("use_space_char") = true,
      "The CTC classes of a dictionary file: '' (blank), one per line, then ' '\n"
      "with use_space_char.");
  m.def(
      "ctc_greedy_decode",
      [](FloatArray probs, const std::vector<std::string>& classes) {
        if (probs.ndim() != 2) {
          throw LiteError("ctc_greedy_decode: probabilities must be [steps, classes], got " +
                          std::to_string(probs.ndim()) + " dims");
        }
        ocr::CtcDictionary dict{classes};
        auto r = WithoutGil([&] {
          return ocr::CtcGreedyDecode(probs.data(), probs.shape(0), probs.shape(1), dict);
        });
        ThrowIfError(r.status());
        return py::make_tuple(r->text, r->score);
      },
      py::arg("probs"), py::arg("classes"),
      "(text, score) of one line's [steps, classes] probabilities: argmax per step,\n"
      "repeats collapsed, blanks (class 0) dropped, classes[i] per kept class;\n"
      "score = mean of the kept steps' maxima.");
  m.def(
      "db_boxes",
      [](FloatArray prob, float thresh, float box_thresh, float unclip_ratio, int min_size) {
        if (prob.ndim() != 2) {
          throw LiteError("db_boxes: the map must be [height, width], got " +
                          std::to_string(prob.ndim()) + " dims");
        }
        ocr::DbOptions options;
        options.thresh = thresh;
        options.box_thresh = box_thresh;
        options.unclip_ratio = unclip_ratio;
        options.min_size = min_size;
        auto boxes = WithoutGil([&] {
          return ocr::DbBoxes(prob.data(), static_cast<int>(prob.shape(0)),
                              static_cast<int>(prob.shape(1)), options);
        });
        ThrowIfError(boxes.status());
        py::list out;
        for (const ocr::TextBox& box : *boxes) {
          py::array_t<double> corners({4, 2});
          auto c = corners.mutable_unchecked<2>();
          for (int i = 0; i < 4; ++i) c(i, 0) = box.corners[i].x, c(i, 1) = box.corners[i].y;
          out.append(py::make_tuple(corners, box.score));
        }
        return out;
      },
      py::arg("prob"), py::arg("thresh") = 0.3f, py::arg("box_thresh") = 0.6f,
      py::arg("unclip_ratio") = 1.5f, py::arg("min_size") = 3,
      "DB post-processing of a [height, width] probability map: [(corners [4, 2]\n"
      "top-left first, clockwise on screen, score)] in reading order, map pixels.");
}

}  // namespace python
}  // namespace lite
