#include "tools/pir_report.h"

#include <sstream>

#include "lite/utils/file_util.h"
#include "lite/model_parser/pir/pir_json.h"
#include "lite/model_parser/pir/pir_loader.h"

namespace lite {
namespace tools {

StatusOr<PirSummary> DescribePir(const ModelSource& source) {
  PirSummary out;
  out.model_file = source.model_file;
  if (out.model_file.empty() && !source.model_dir.empty()) {
    ASSIGN_OR_RETURN(ModelFiles files, FindModelFiles(source.model_dir));
    out.model_file = files.model_file;
  }
  std::string bytes = source.model_buffer;
  if (bytes.empty()) {
    if (out.model_file.empty()) return out;
    RETURN_IF_ERROR(ReadFileToString(out.model_file, &bytes));
  }
  if (!pir::LooksLikePirJson(bytes)) return out;
  ASSIGN_OR_RETURN(pir::TranslatedModel model, pir::ReadPirModel(bytes, out.model_file));
  out.is_pir = true;
  out.version = model.pir_version;
  std::ostringstream os;
  os << "PIR op                          count  became\n";
  int total = 0;
  for (const auto& kv : model.op_uses) {
    std::string name = kv.first;
    name.resize(std::max<size_t>(name.size() + 1, 32), ' ');
    std::string count = std::to_string(kv.second.count);
    count.resize(std::max<size_t>(count.size() + 1, 7), ' ');
    std::string became;
    for (const auto& e : kv.second.engine_ops) became += (became.empty() ? "" : ", ") + e;
    os << name << count << (became.empty() ? "(folded: constants, lists, weights)" : became)
       << "\n";
    total += kv.second.count;
  }
  os << total << " PIR ops, " << model.op_uses.size() << " types -> "
     << model.program.blocks[0].ops.size() << " engine ops\n";
  out.table = os.str();
  return out;
}

}  // namespace tools
}  // namespace lite
