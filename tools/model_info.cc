// model_info: what a Paddle model is and whether this engine can run it.
//
//   model_info --model_dir=../shared/models/squeezenet_v1.1_caffe2fluid
//   model_info --model_file=m/inference.pdmodel --param_file=m/inference.pdiparams
//   model_info --model_dir=... --valid_targets=npu,host
//
// Prints the format (combined or not, files), the program version and op
// version map, the feeds and fetches (by column, with dtype and shape), the
// weights (count, elements, dtypes), and the ops with counts and per-target
// support (tools/opt_report.h). Exit 0 when every op is supported on the
// valid targets, 2 when some are not, 1 with a one-line error when the model
// cannot be read.
#include <gflags/gflags.h>

#include <iostream>
#include <map>

#include "lite/base/scope.h"
#include "lite/model_parser/model_loader.h"
#include "tools/opt_report.h"
#include "tools/pir_report.h"
#include "tools/tool_util.h"

DEFINE_string(model_dir, "", "model directory (combined or not)");
DEFINE_string(model_file, "", "program file (with --param_file)");
DEFINE_string(param_file, "", "combined params file");
DEFINE_string(valid_targets, "host", "targets to check support for: host, x86, npu");

namespace {

using lite::Status;

std::string PaddleVersion(int64_t v) {
  if (v <= 0) return "not recorded (Paddle 1.x)";
  return std::to_string(v / 1000000) + "." + std::to_string(v / 1000 % 1000) + "." +
         std::to_string(v % 1000) + " (" + std::to_string(v) + ")";
}

void PrintIo(const lite::cpp::BlockDesc& block, const std::string& op_type) {
  std::map<int, std::string> by_col;
  for (const auto& op : block.ops) {
    if (op.Type() != op_type) continue;
    const auto& vars = op_type == "feed" ? op.Output("Out") : op.Input("X");
    if (!vars.empty()) by_col[op.GetAttr<int32_t>("col", 0)] = vars.front();
  }
  std::cout << (op_type == "feed" ? "feeds:\n" : "fetches:\n");
  for (const auto& kv : by_col) {
    const lite::cpp::VarDesc* vd = block.FindVar(kv.second);
    std::cout << "  col " << kv.first << "  " << kv.second;
    if (vd) {
      std::cout << "  " << lite::DataTypeName(vd->dtype) << " " << lite::DimsToString(vd->dims);
      if (vd->lod_level > 0) std::cout << "  lod_level=" << vd->lod_level;
    }
    std::cout << "\n";
  }
}

Status Describe(bool* all_supported) {
  lite::ModelSource source;
  source.model_dir = FLAGS_model_dir;
  source.model_file = FLAGS_model_file;
  source.params_file = FLAGS_param_file;
  std::string format = "combined (" + FLAGS_model_file + " + " + FLAGS_param_file + ")";
  if (!FLAGS_model_dir.empty() && FLAGS_model_file.empty()) {
    ASSIGN_OR_RETURN(lite::ModelFiles files, lite::FindModelFiles(FLAGS_model_dir));
    format = files.combined
                 ? "combined (" + files.model_file + " + " + files.params_file + ")"
                 : "non-combined (" + files.model_file + " + one file per weight)";
  } else if (FLAGS_model_file.empty()) {
    return lite::InvalidArgument("give --model_dir, or --model_file and --param_file");
  }
  ASSIGN_OR_RETURN(lite::tools::PirSummary pir, lite::tools::DescribePir(source));
  if (pir.is_pir) {
    format = "Paddle 3 PIR program, PIR version " + std::to_string(pir.version) +
             format.substr(format.find(' '));
  }
  ASSIGN_OR_RETURN(auto places, lite::tools::ParseValidTargets(FLAGS_valid_targets));
  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  RETURN_IF_ERROR(lite::LoadModel(source, &program, &scope));
  const auto& block = program.blocks[0];

  std::cout << "format: " << format << "\n";
  if (pir.is_pir) {
    std::cout << "program version: PIR " << pir.version << " (Paddle 3)\n";
  } else {
    std::cout << "program version: "
              << PaddleVersion(program.has_version ? program.version : 0) << "\n";
  }
  std::cout << "op_version_map: " << program.op_versions.size() << " entries\n";
  std::cout << "blocks: " << program.blocks.size() << ", ops in block 0: " << block.ops.size()
            << ", vars: " << block.vars.size() << "\n";
  PrintIo(block, "feed");
  PrintIo(block, "fetch");

  int64_t weights = 0, elements = 0;
  std::map<std::string, int> dtypes;
  for (const auto& name : scope.LocalVarNames()) {
    const lite::Tensor& t = scope.FindVar(name)->GetTensor();
    ++weights;
    elements += t.numel();
    ++dtypes[lite::DataTypeName(t.dtype())];
  }
  std::cout << "weights: " << weights << " tensors, " << elements << " elements (";
  bool first = true;
  for (const auto& kv : dtypes) {
    std::cout << (first ? "" : ", ") << kv.first << " x" << kv.second;
    first = false;
  }
  std::cout << ")\n\n";
  if (pir.is_pir) std::cout << pir.table << "\nengine ops after translation:\n";
  std::cout << lite::tools::ModelOpsTable(program, places);
  *all_supported = true;
  for (const auto& p : program.blocks) {
    for (const auto& op : p.ops) {
      *all_supported = *all_supported && lite::tools::SupportedBy(op.Type(), places);
    }
  }
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("model_info --model_dir=DIR | --model_file=F --param_file=P");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  bool all_supported = false;
  Status s = Describe(&all_supported);
  if (!s.ok()) return lite::tools::Fail("model_info", s);
  return all_supported ? 0 : 2;
}
