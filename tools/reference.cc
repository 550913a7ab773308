#include "tools/reference.h"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lite/base/tensor.h"
#include "lite/operators/lod_util.h"

namespace lite {
namespace tools {

namespace {
using json = nlohmann::json;

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t DtypeSize(const std::string& dtype) {
  if (dtype == "float32" || dtype == "int32") return 4;
  if (dtype == "int64" || dtype == "float64") return 8;
  return 0;
}

StatusOr<RefTensor> ParseTensor(const json& j, const std::string& dir, bool input) {
  RefTensor t;
  try {
    t.name = j.at("name").get<std::string>();
    t.col = j.value(input ? "feed_col" : "fetch_col", 0);
    t.shape = j.at("shape").get<std::vector<int64_t>>();
    t.dtype = j.at("dtype").get<std::string>();
    if (j.contains("lod")) t.lod = j.at("lod").get<std::vector<std::vector<uint64_t>>>();
    const std::string file = dir + "/" + j.at("file").get<std::string>();
    ASSIGN_OR_RETURN(t.bytes, ReadFile(file));
    int64_t n = 1;
    for (int64_t d : t.shape) n *= d;
    if (DtypeSize(t.dtype) == 0) return Unimplemented(file + ": dtype " + t.dtype);
    if (t.bytes.size() != n * DtypeSize(t.dtype)) {
      return DataLoss(file + ": " + std::to_string(t.bytes.size()) +
                      " bytes, shape needs " + std::to_string(n * DtypeSize(t.dtype)));
    }
  } catch (const json::exception& e) {
    return InvalidArgument(dir + "/meta.json: " + e.what());
  }
  return t;
}

std::vector<double> AsDoubles(const void* data, const std::string& dtype, int64_t n) {
  std::vector<double> out(n);
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == "float32") out[i] = static_cast<const float*>(data)[i];
    else if (dtype == "int64") out[i] = static_cast<double>(static_cast<const int64_t*>(data)[i]);
    else if (dtype == "int32") out[i] = static_cast<const int32_t*>(data)[i];
    else if (dtype == "float64") out[i] = static_cast<const double*>(data)[i];
  }
  return out;
}

const char* EngineDtypeName(DataType t) {
  return t == DataType::kFloat32 ? "float32" : DataTypeName(t);
}
}  // namespace

StatusOr<Reference> LoadReference(const std::string& dir) {
  ASSIGN_OR_RETURN(std::string text, ReadFile(dir + "/meta.json"));
  Reference ref;
  ref.dir = dir;
  const std::string parent = dir + "/..";
  try {
    json meta = json::parse(text);
    ref.model = meta.value("model", "");
    ref.combined = meta.value("format", "") == "combined";
    if (meta.contains("model_dir") && meta["model_dir"].is_string()) {
      ref.model_dir = parent + "/" + meta["model_dir"].get<std::string>();
    }
    if (meta.contains("model_file") && meta["model_file"].is_string()) {
      ref.model_file = parent + "/" + meta["model_file"].get<std::string>();
    }
    if (meta.contains("params_file") && meta["params_file"].is_string()) {
      ref.params_file = parent + "/" + meta["params_file"].get<std::string>();
    }
    if (ref.model_dir.empty() && ref.model_file.empty()) ref.model_dir = parent;
    ref.max_abs = meta.at("tolerance").value("max_abs", 0.0);
    ref.max_rel = meta.at("tolerance").value("max_rel", 0.0);
    if (meta.contains("functional")) {
      auto rule = ParseFunctionalRule(meta["functional"].dump());
      if (!rule.ok()) return rule.status().WithContext(dir + "/meta.json");
      ref.functional = *rule;
    }
    for (const auto& j : meta.at("inputs")) {
      ASSIGN_OR_RETURN(RefTensor t, ParseTensor(j, dir, true));
      ref.inputs.push_back(std::move(t));
    }
    for (const auto& j : meta.at("outputs")) {
      ASSIGN_OR_RETURN(RefTensor t, ParseTensor(j, dir, false));
      ref.outputs.push_back(std::move(t));
    }
  } catch (const json::exception& e) {
    return InvalidArgument(dir + "/meta.json: " + e.what());
  }
  return ref;
}

void ConfigureModel(const Reference& ref, paddle::lite_api::CxxConfig* config) {
  if (!ref.model_file.empty()) {
    config->set_model_file(ref.model_file);
    config->set_param_file(ref.params_file);
  } else {
    config->set_model_dir(ref.model_dir);
  }
}

Status FeedInputs(const Reference& ref, paddle::lite_api::PaddlePredictor* predictor) {
  for (const auto& in : ref.inputs) {
    ASSIGN_OR_RETURN(auto t, predictor->GetInputByName(in.name));
    t->Resize(in.shape);
    if (in.dtype == "float32") {
      t->CopyFromCpu(reinterpret_cast<const float*>(in.bytes.data()));
    } else if (in.dtype == "int64") {
      t->CopyFromCpu(reinterpret_cast<const int64_t*>(in.bytes.data()));
    } else if (in.dtype == "int32") {
      t->CopyFromCpu(reinterpret_cast<const int32_t*>(in.bytes.data()));
    } else {
      return Unimplemented("input " + in.name + " dtype " + in.dtype);
    }
    t->SetLoD(in.lod);
  }
  return Status::OK();
}

StatusOr<std::vector<OutputCheck>> CompareOutputs(
    const Reference& ref, const paddle::lite_api::PaddlePredictor& predictor) {
  std::vector<OutputCheck> checks;
  const auto names = predictor.GetOutputNames();
  for (const auto& want : ref.outputs) {
    OutputCheck c;
    c.name = want.name;
    int col = -1;
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == want.name) col = static_cast<int>(i);
    }
    if (col < 0) return NotFound("predictor has no output named " + want.name);
    auto got = predictor.GetOutput(col);
    c.shape = got->shape();
    if (c.shape != want.shape) {
      c.note = "shape mismatch (reference " + DimsToString(want.shape) + ")";
      checks.push_back(c);
      continue;
    }
    if (EngineDtypeName(got->dtype()) != want.dtype) {
      c.note = std::string("dtype ") + EngineDtypeName(got->dtype()) + " != " + want.dtype;
      checks.push_back(c);
      continue;
    }
    if (got->lod() != want.lod) {
      c.note = "LoD " + lite::operators::LodToString(got->lod()) + " != reference " + lite::operators::LodToString(want.lod);
      checks.push_back(c);
      continue;
    }
    const int64_t n = got->numel();
    const void* raw = nullptr;
    if (want.dtype == "float32") raw = got->data<float>();
    else if (want.dtype == "int64") raw = got->data<int64_t>();
    else if (want.dtype == "int32") raw = got->data<int32_t>();
    if (!raw) {
      c.note = "output has no data";
      checks.push_back(c);
      continue;
    }
    auto e = AsDoubles(raw, want.dtype, n);
    auto r = AsDoubles(want.bytes.data(), want.dtype, n);
    for (int64_t i = 0; i < n; ++i) {
      double err = std::fabs(e[i] - r[i]);
      if (std::isnan(e[i]) != std::isnan(r[i])) err = INFINITY;
      c.max_abs_err = std::max(c.max_abs_err, err);
      if (r[i] != 0) c.max_rel_err = std::max(c.max_rel_err, err / std::fabs(r[i]));
      if (!(err <= ref.max_abs + ref.max_rel * std::fabs(r[i]))) ++c.mismatches;
    }
    c.passed = c.mismatches == 0;
    if (!c.passed) c.note = std::to_string(c.mismatches) + " element(s) out of tolerance";
    if (ref.functional.kind != FunctionalRule::Kind::kNone && want.dtype == "float32") {
      const FunctionalResult f = ApplyFunctionalRule(
          ref.functional, got->data<float>(), reinterpret_cast<const float*>(want.bytes.data()),
          n, want.shape.empty() ? n : want.shape.back());
      c.functional = std::string(f.passed ? "functional PASS: " : "functional FAIL: ") + f.summary;
      c.passed = c.passed && f.passed;
    }
    checks.push_back(c);
  }
  return checks;
}

std::string FormatCheck(const OutputCheck& c) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%-40s %-18s max_abs_err=%.3e  max_rel_err=%.3e  %s%s%s",
                c.name.c_str(), DimsToString(c.shape).c_str(), c.max_abs_err,
                c.max_rel_err, c.passed ? "PASS" : "FAIL", c.note.empty() ? "" : "  ",
                c.note.c_str());
  return c.functional.empty() ? std::string(buf) : std::string(buf) + "\n    " + c.functional;
}

std::vector<std::string> ListReferenceModels(const std::string& root) {
  std::vector<std::string> out;
  DIR* d = opendir(root.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name[0] == '.') continue;
    std::string meta = root + "/" + name + "/reference/meta.json";
    if (FILE* f = fopen(meta.c_str(), "r")) {
      fclose(f);
      out.push_back(name);
    }
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::string RunAndCheck(const Reference& ref, paddle::lite_api::PaddlePredictor* predictor,
                        const std::string& what, std::ostream* log) {
  Status fed = FeedInputs(ref, predictor);
  if (!fed.ok()) return fed.ToString();
  Status run = predictor->Run();
  if (!run.ok()) return run.ToString();
  auto checks = CompareOutputs(ref, *predictor);
  if (!checks.ok()) return checks.status().ToString();
  std::string failed;
  for (const auto& c : *checks) {
    *log << what << ": " << FormatCheck(c) << "\n";
    if (!c.passed) failed += FormatCheck(c) + "\n";
  }
  return failed;
}

}  // namespace tools
}  // namespace lite
