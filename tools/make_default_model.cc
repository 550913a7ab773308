// make_default_model: writes the quickstart's default model (a small
// deterministic CNN, see tools/default_model.h) as a Paddle combined model:
//
//   make_default_model --out=out/default_model   -> __model__ + __params__
#include <gflags/gflags.h>

#include <iostream>

#include "tools/default_model.h"
#include "tools/tool_util.h"

DEFINE_string(out, "out/default_model", "directory to write __model__ and __params__ into");

int main(int argc, char** argv) {
  gflags::SetUsageMessage("make_default_model [--out=DIR]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return lite::tools::Fail("make_default_model", lite::InvalidArgument(
        std::string("unexpected argument '") + argv[1] + "'"));
  }
  lite::Status s = lite::tools::WriteDefaultModel(FLAGS_out);
  if (!s.ok()) return lite::tools::Fail("make_default_model", s);
  std::cout << "wrote " << FLAGS_out << "/__model__ and " << FLAGS_out
            << "/__params__ (input x [-1,3,32,32], output prob [-1,10])\n";
  return 0;
}
