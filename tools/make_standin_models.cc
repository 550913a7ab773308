// make_standin_models: writes the stand-in models of tools/standin_models.h
// (restoration, face_detector, portrait_seg, and the families of
// tools/standin_families.h: vit, yolov3, mobilenetv2) as Paddle combined
// models:
//
//   make_standin_models --out=out/standin   -> out/standin/NAME/__model__ + __params__
#include <gflags/gflags.h>

#include <iostream>

#include "tools/standin_models.h"
#include "tools/tool_util.h"

DEFINE_string(out, "out/standin", "directory to write one NAME/ folder per stand-in into");

int main(int argc, char** argv) {
  gflags::SetUsageMessage("make_standin_models [--out=DIR]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return lite::tools::Fail("make_standin_models", lite::InvalidArgument(
        std::string("unexpected argument '") + argv[1] + "'"));
  }
  lite::Status s = lite::tools::WriteStandinModels(FLAGS_out);
  if (!s.ok()) return lite::tools::Fail("make_standin_models", s);
  for (const auto& m : lite::tools::StandinModels()) {
    std::string shape;
    for (int64_t d : m.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d);
    std::cout << "wrote " << FLAGS_out << "/" << m.name << " (image input profiled at " << shape
              << ")\n";
  }
  return 0;
}
