// nb_diff: runs two optimized models of the same program (e.g. opt's output
// with and without --enable_fp16) on a reference folder's inputs and compares
// every float activation op by op, in program order, to find the first op
// whose error jumps.
//
//   nb_diff --reference=$M/reference --base=out/det.nb --test=out/det_fp16.nb
//
// Each .nb is loaded, its memory plan (kReleaseAfterAttr) dropped and a
// fetch op appended for every float output of every op, then run by the
// light predictor. One line per op output: op index and type, var, shape,
// reduction length K of ops with a Filter (Cin/groups * kh * kw), max |base|,
// max |test - base|, relative L2 error ||test - base|| / ||base||, and the
// count of non-finite test values. Both models must hold the same ops and
// var names (opt on the same model and targets); the tool stops at the
// first op where they differ.
#include <gflags/gflags.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <set>

#include "lite/api/paddle_api.h"
#include "lite/base/buffer_pool.h"
#include "lite/base/scope.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tools/reference.h"
#include "tools/tool_util.h"

DEFINE_string(reference, "", "reference folder holding meta.json (its inputs are fed)");
DEFINE_string(base, "", "the .nb taken as exact (e.g. fp32)");
DEFINE_string(test, "", "the .nb compared with it (e.g. fp16)");
DEFINE_int32(threads, 1, "threads");

namespace {

using lite::Status;
using lite::StatusOr;
using paddle::lite_api::PaddlePredictor;

struct Fetched {
  std::string op_type;
  std::string var;
  int64_t k = 0;  // reduction length of ops with a Filter, else 0
};

// The program of `path` with a fetch per float op output and no memory plan,
// as .nb bytes; `fetched` lists the outputs in program order.
Status AddFetches(const std::string& path, std::string* bytes, std::vector<Fetched>* fetched) {
  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  RETURN_IF_ERROR(lite::naive_buffer::LoadFromFile(path, &program, &scope));
  auto& block = program.blocks[0];
  int col = 0;
  const lite::cpp::OpDesc* last_fetch = nullptr;
  std::set<std::string> fetched_already;  // the model's outputs
  for (const auto& op : block.ops) {
    if (op.Type() != "fetch") continue;
    ++col;
    last_fetch = &op;
    fetched_already.insert(op.Input("X")[0]);
  }
  if (!last_fetch) return lite::InvalidArgument(path + ": no fetch op");
  // The model's own fetch, kernel pick included, re-pointed per output.
  const lite::cpp::OpDesc fetch_template = *last_fetch;
  std::vector<lite::cpp::OpDesc> fetches;
  for (auto& op : block.ops) {
    op.RemoveAttr(lite::kReleaseAfterAttr);
    if (op.Type() == "feed" || op.Type() == "fetch") continue;
    int64_t k = 0;
    if (op.HasInput("Filter")) {
      const lite::Tensor* f = scope.FindMutableTensor(op.Input("Filter")[0]);
      if (f && f->dims().size() == 4) k = f->dims()[1] * f->dims()[2] * f->dims()[3];
    }
    for (const std::string& out : op.OutputArgumentNames()) {
      const lite::cpp::VarDesc* v = block.FindVar(out);
      if (!v || v->persistable || v->dtype != lite::DataType::kFloat32) continue;
      fetched->push_back({op.Type(), out, k});
      if (fetched_already.count(out)) continue;
      lite::cpp::OpDesc fetch = fetch_template;
      fetch.SetInput("X", {out});
      fetch.SetAttr("col", col++);
      fetches.push_back(fetch);
    }
  }
  block.ops.insert(block.ops.end(), fetches.begin(), fetches.end());
  return lite::naive_buffer::SaveToBuffer(program, scope, bytes);
}

StatusOr<std::shared_ptr<PaddlePredictor>> RunAll(const lite::tools::Reference& ref,
                                                  const std::string& path,
                                                  std::vector<Fetched>* fetched) {
  std::string bytes;
  RETURN_IF_ERROR(AddFetches(path, &bytes, fetched));
  paddle::lite_api::MobileConfig config;
  config.set_model_from_buffer(bytes);
  config.set_threads(FLAGS_threads);
  ASSIGN_OR_RETURN(auto p, paddle::lite_api::CreatePaddlePredictor<paddle::lite_api::MobileConfig>(config));
  std::shared_ptr<PaddlePredictor> predictor(std::move(p));
  RETURN_IF_ERROR(lite::tools::FeedInputs(ref, predictor.get()));
  RETURN_IF_ERROR(predictor->Run());
  return predictor;
}

Status Compare() {
  if (FLAGS_reference.empty() || FLAGS_base.empty() || FLAGS_test.empty()) {
    return lite::InvalidArgument("--reference, --base and --test are required");
  }
  ASSIGN_OR_RETURN(lite::tools::Reference ref, lite::tools::LoadReference(FLAGS_reference));
  std::vector<Fetched> base_vars, test_vars;
  ASSIGN_OR_RETURN(auto base, RunAll(ref, FLAGS_base, &base_vars));
  ASSIGN_OR_RETURN(auto test, RunAll(ref, FLAGS_test, &test_vars));
  std::cout << "#   op                      K      max|base|  max|diff|  rel_l2     nonfinite  var "
               "[shape]\n";
  for (size_t i = 0; i < base_vars.size(); ++i) {
    const Fetched& b = base_vars[i];
    if (i >= test_vars.size() || test_vars[i].var != b.var) {
      return lite::InvalidArgument("the models differ at output " + std::to_string(i) + " ('" +
                                   b.var + "')");
    }
    ASSIGN_OR_RETURN(auto tb, base->GetOutputByName(b.var));
    ASSIGN_OR_RETURN(auto tt, test->GetOutputByName(b.var));
    const float* x = tb->data<float>();
    const float* y = tt->data<float>();
    if (!x || !y || tb->numel() != tt->numel()) {
      return lite::InvalidArgument("output '" + b.var + "' is not float or differs in size");
    }
    double max_base = 0, max_diff = 0, sq_base = 0, sq_diff = 0;
    int64_t nonfinite = 0;
    for (int64_t j = 0; j < tb->numel(); ++j) {
      if (!std::isfinite(y[j])) {
        ++nonfinite;
        continue;
      }
      const double d = static_cast<double>(y[j]) - x[j];
      max_base = std::max(max_base, std::fabs(static_cast<double>(x[j])));
      max_diff = std::max(max_diff, std::fabs(d));
      sq_base += static_cast<double>(x[j]) * x[j];
      sq_diff += d * d;
    }
    const double rel = sq_base > 0 ? std::sqrt(sq_diff / sq_base) : std::sqrt(sq_diff);
    std::cout << std::left << std::setw(4) << i << std::setw(24) << b.op_type << std::setw(7)
              << b.k << std::setprecision(3) << std::setw(11) << max_base << std::setw(11)
              << max_diff << std::setw(11) << rel << std::setw(11) << nonfinite << b.var << " "
              << lite::tools::ShapeText(tb->shape()) << "\n";
  }
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("nb_diff --reference=DIR --base=A.nb --test=B.nb [--threads=N]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  const Status s = Compare();
  if (!s.ok()) return lite::tools::Fail("nb_diff", s);
  return 0;
}
