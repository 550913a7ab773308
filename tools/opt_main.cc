// The body of tools/opt (the offline optimizer) as a function, so that the
// opt binary and the Python module's `paddle_lite_opt` console script run
// the same code with the same flags. See opt.cc for the flags.
//
// OptMain parses gflags from argv (process-global state): call it once per
// process, as a program's main does.
#include <gflags/gflags.h>

#include <iostream>

#include "lite/api/optimizer.h"
#include "lite/api/predictor_runtime.h"
#include "lite/api/saving.h"
#include "lite/base/version.h"
#include "lite/optimizer/pass.h"
#include "lite/core/program_validator.h"
#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/naive_buffer/naive_buffer.h"
#include "tools/calibration.h"
#include "tools/graph_snapshots.h"
#include "tools/opt_main.h"
#include "tools/opt_report.h"
#include "tools/pir_report.h"
#include "tools/npu_flags.h"
#include "tools/tool_util.h"

DEFINE_string(model_dir, "", "Paddle model directory (combined or one file per param)");
DEFINE_string(model_file, "", "program file of a combined model (with --param_file)");
DEFINE_string(param_file, "", "params file of a combined model (with --model_file)");
DEFINE_string(optimize_out, "",
              "output: path without extension for naive_buffer (writes <out>.nb), "
              "a directory for protobuf");
DEFINE_string(optimize_out_type, "naive_buffer", "naive_buffer | protobuf");
DEFINE_string(valid_targets, "host",
              "comma list of host, x86, npu in preference order (host is always "
              "appended as the fallback)");
DEFINE_bool(print_drivers, false, "print the NPU drivers and op bridges in this build");
DEFINE_string(disable_passes, "", "comma list of passes to skip");
DEFINE_bool(enable_fp16, false,
            "conv2d / depthwise_conv2d on arm compute in fp16 (XNNPACK f16 operators; needs arm "
            "in --valid_targets and a CPU with fp16 arithmetic)");
DEFINE_bool(print_all_ops, false, "print every op type x target (kernel registered?)");
DEFINE_bool(print_supported_ops, false, "print the ops --valid_targets can run");
DEFINE_bool(print_model_ops, false, "print the model's ops with counts and support");
DEFINE_bool(display_kernels, false, "print every registered kernel key");
DEFINE_string(visualize_dir, "",
              "write 00_loaded.dot and NN_<pass>.dot for each pass that changed the "
              "graph (and .svg when `dot` is on PATH)");
DEFINE_string(visualize_mode, "changed",
              "with --visualize_dir: 'changed' (passes that changed the graph), 'all' "
              "(every pass that ran), or a pass name (only after that pass)");
DEFINE_int32(threads, 1, "threads of the runtime built to verify the output");
DEFINE_string(quantize, "",
              "int8: post-training quantization of the conv inputs and weights, calibrated "
              "on --calibration_dir (empty: keep the model's precision)");
DEFINE_string(calibration_dir, "",
              "with --quantize: a reference folder (meta.json) or a folder of *.bin samples "
              "(raw float32, one sample each, of the one feed's shape)");
DEFINE_string(calibration_method, "abs_max",
              "with --quantize: activation scales by abs_max, kl (entropy) or percentile "
              "(99.99)");
DEFINE_string(calibration_eval_dir, "",
              "with --quantize: samples (same layout as --calibration_dir) not used for "
              "calibration, on which opt also prints int8 vs fp32 accuracy");
DEFINE_string(quantize_op_types, "conv2d",
              "with --quantize: comma list of the op types made int8, conv2d and/or "
              "depthwise_conv2d (depthwise is off by default: see tools/calibration.h)");
DEFINE_string(calibration_shape, "",
              "with --quantize: the shape of each .bin sample, e.g. 1,3,640,640 (default: the "
              "feed's declared shape)");
DEFINE_bool(npu_save_compiled, false,
            "compile each NPU subgraph whose input shapes are known and store the compiled "
            "executable in the .nb (used at load time only with --npu_trust_compiled_code)");

namespace {

using lite::Status;
using lite::StatusOr;
using paddle::lite_api::ModelType;

// --quantize and the calibration flags: an error when they do not go
// together (a calibration flag without --quantize would do nothing).
StatusOr<bool> QuantizeRequested() {
  if (FLAGS_quantize.empty()) {
    const bool calib = !FLAGS_calibration_dir.empty() || !FLAGS_calibration_shape.empty() ||
                       !FLAGS_calibration_eval_dir.empty() ||
                       !gflags::GetCommandLineFlagInfoOrDie("quantize_op_types").is_default ||
                       !gflags::GetCommandLineFlagInfoOrDie("calibration_method").is_default;
    if (calib) {
      return lite::InvalidArgument(
          "--calibration_dir, --calibration_eval_dir, --calibration_method, "
          "--calibration_shape and --quantize_op_types need --quantize=int8");
    }
    return false;
  }
  if (FLAGS_quantize != "int8") {
    return lite::InvalidArgument("--quantize must be int8, got '" + FLAGS_quantize + "'");
  }
  if (FLAGS_calibration_dir.empty()) {
    return lite::InvalidArgument("--quantize=int8 needs --calibration_dir");
  }
  return true;
}

StatusOr<std::vector<int64_t>> CalibrationShape() {
  std::vector<int64_t> shape;
  for (const auto& d : lite::tools::SplitList(FLAGS_calibration_shape)) {
    char* end = nullptr;
    const long long v = std::strtoll(d.c_str(), &end, 10);
    if (d.empty() || *end != '\0' || v <= 0) {
      return lite::InvalidArgument("--calibration_shape must be positive integers separated by "
                                   "commas, got '" + FLAGS_calibration_shape + "'");
    }
    shape.push_back(v);
  }
  return shape;
}

// Calibrates the fp32 `program` on the samples and rewrites it (and `root`)
// into the fake-quantized form the int8 passes take.
Status QuantizeForInt8(const std::vector<lite::Place>& places,
                       const std::vector<lite::tools::CalibrationSample>& samples,
                       const std::vector<lite::tools::CalibrationSample>& held_out,
                       lite::cpp::ProgramDesc* program, lite::Scope* root,
                       lite::tools::CalibrationResult* result) {
  lite::tools::CalibrationOptions options;
  ASSIGN_OR_RETURN(options.method, lite::tools::ParseCalibrationMethod(FLAGS_calibration_method));
  options.places = places;
  options.threads = FLAGS_threads;
  options.op_types = lite::tools::SplitList(FLAGS_quantize_op_types);
  RETURN_IF_ERROR(lite::tools::CheckQuantizableOpTypes(options.op_types));
  std::cout << "calibrating (" << lite::tools::CalibrationMethodName(options.method) << ") on "
            << samples.size() << " sample(s) from " << FLAGS_calibration_dir << "\n";
  ASSIGN_OR_RETURN(*result, lite::tools::Calibrate(*program, *root, samples, options, held_out));
  ASSIGN_OR_RETURN(int convs,
                   lite::tools::InsertFakeQuantOps(result->scales, options.op_types, program, root));
  int clipped = 0;
  for (const auto& s : result->scales) clipped += s.scale < s.abs_max;
  std::cout << "quantized " << convs << " " << FLAGS_quantize_op_types << " op(s) over "
            << result->scales.size() << " activation(s); " << clipped
            << " scale(s) below the abs-max\n";
  return Status::OK();
}

// What quant_dequant_fuse_pass made of the calibrated ops (convs, and fc /
// matmul where quant ops precede them).
void PrintInt8Outcome(const lite::mir::PassReport& report) {
  for (const auto& rec : report.passes) {
    if (rec.name != "quant_dequant_fuse_pass") continue;
    int64_t made = 0;
    std::string declined;
    for (const auto& kv : rec.counters) {
      if (kv.first == "made_int8") made = kv.second;
      if (kv.first.rfind("declined", 0) == 0) {
        declined += " " + kv.first + "=" + std::to_string(kv.second);
      }
    }
    std::cout << "int8 ops: " << made;
    if (!declined.empty()) {
      std::cout << "; kept as the fp32 simulation of their quant ops:" << declined;
    }
    std::cout << "\n";
    return;
  }
  std::cout << "int8 ops: none (quant_dequant_fuse_pass did not run)\n";
}

Status PrintAccuracy(const std::string& what, paddle::lite_api::PaddlePredictor* quantized,
                     const std::vector<lite::tools::CalibrationSample>& samples,
                     const std::vector<std::vector<lite::tools::OutputValues>>& fp32) {
  ASSIGN_OR_RETURN(auto accuracy, lite::tools::CompareWithFp32(quantized, samples, fp32));
  std::cout << "int8 vs fp32 on " << what << ":\n";
  for (const auto& a : accuracy) {
    std::cout << "  " << lite::tools::FormatAccuracy(a, samples.size()) << "\n";
  }
  return Status::OK();
}

Status CheckSaveCompiled(const std::vector<lite::Place>& places, ModelType type) {
  bool npu = false;
  for (const lite::Place& p : places) npu |= p.target == lite::TargetType::kNPU;
  if (!npu) {
    return lite::InvalidArgument(
        "--npu_save_compiled needs npu among --valid_targets (e.g. --valid_targets=npu,host)");
  }
  if (type != ModelType::kNaiveBuffer) {
    return lite::InvalidArgument(
        "--npu_save_compiled stores compiled subgraphs in .nb files: use "
        "--optimize_out_type=naive_buffer");
  }
  return Status::OK();
}

// Builds the optimized program's runtime once so that every subgraph whose
// input shapes are known compiles, and returns what they serialized.
StatusOr<std::vector<lite::DeviceRecord>> CompileSubgraphs(
    const lite::cpp::ProgramDesc& program, const std::shared_ptr<lite::Scope>& root,
    const lite::NpuOptions& npu) {
  ASSIGN_OR_RETURN(auto rt, lite::PredictorRuntime::Create(program, root, FLAGS_threads, npu));
  const auto report = rt->GetPlacementReport();
  std::vector<lite::CompiledSubgraph> compiled = npu.compiled->All();
  std::cout << "npu: " << compiled.size() << " of " << report.subgraphs.size()
            << " subgraph(s) compiled and stored in the model";
  for (const auto& s : report.subgraphs) {
    if (s.state == "pending") {
      std::cout << "; #" << s.id << " not (" << s.reason
                << "): give its shapes at run time with --npu_cache_dir";
    }
  }
  std::cout << "\n";
  std::vector<lite::DeviceRecord> records;
  for (const auto& e : compiled) records.push_back(lite::ToDeviceRecord(e));
  return records;
}

bool HaveModelFlags() {
  return !FLAGS_model_dir.empty() || !FLAGS_model_file.empty() || !FLAGS_param_file.empty();
}

Status Optimize(const std::vector<lite::Place>& places, ModelType type) {
  lite::ModelSource source;
  source.model_dir = FLAGS_model_dir;
  source.model_file = FLAGS_model_file;
  source.params_file = FLAGS_param_file;
  auto root = std::make_shared<lite::Scope>();
  lite::cpp::ProgramDesc program;
  RETURN_IF_ERROR(lite::LoadModel(source, &program, root.get()));
  // The predictors' structural checks, before any pass sees the program.
  RETURN_IF_ERROR(lite::ValidateProgram(program));
  if (FLAGS_print_model_ops) {
    ASSIGN_OR_RETURN(lite::tools::PirSummary pir, lite::tools::DescribePir(source));
    if (pir.is_pir) {
      std::cout << "Paddle 3 PIR program " << pir.model_file << " (PIR version " << pir.version
                << ")\n" << pir.table << "\nengine ops after translation:\n";
    }
    std::cout << lite::tools::ModelOpsTable(program, places);
    const auto unsupported = lite::tools::UnsupportedModelOps(program, places);
    if (!unsupported.empty()) {
      return lite::Unimplemented(std::to_string(unsupported.size()) + " op type(s) of the model " +
                                 "have no kernel for " + lite::tools::TargetsText(places) + ": " +
                                 lite::tools::UnsupportedOpsText(unsupported));
    }
  }
  if (FLAGS_optimize_out.empty()) {
    if (FLAGS_print_model_ops) return Status::OK();
    return lite::InvalidArgument("--optimize_out is required to write an optimized model");
  }

  ASSIGN_OR_RETURN(bool quantize, QuantizeRequested());
  std::vector<lite::tools::CalibrationSample> samples, held_out;
  lite::tools::CalibrationResult calibration;
  if (quantize) {
    ASSIGN_OR_RETURN(std::vector<int64_t> shape, CalibrationShape());
    ASSIGN_OR_RETURN(samples,
                     lite::tools::LoadCalibrationSamples(FLAGS_calibration_dir, program, shape));
    if (!FLAGS_calibration_eval_dir.empty()) {
      ASSIGN_OR_RETURN(held_out, lite::tools::LoadCalibrationSamples(FLAGS_calibration_eval_dir,
                                                                     program, shape));
    }
    RETURN_IF_ERROR(
        QuantizeForInt8(places, samples, held_out, &program, root.get(), &calibration));
  }

  lite::OptimizeOptions options;
  options.valid_places = places;
  options.disabled_passes = lite::tools::SplitList(FLAGS_disable_passes);
  options.enable_fp16 = FLAGS_enable_fp16;
  ASSIGN_OR_RETURN(options.npu, lite::tools::NpuOptionsFromFlags(places, /*light=*/false));
  if (FLAGS_npu_save_compiled) {
    RETURN_IF_ERROR(CheckSaveCompiled(places, type));
    options.npu.save_compiled = true;
    options.npu.compiled = std::make_shared<lite::CompiledSubgraphStore>();
  }
  if (options.npu.cross_check) {
    return lite::InvalidArgument(
        "--npu_cross_check compares outputs while running; opt does not run the model (use it "
        "with run_model, accuracy or benchmark)");
  }
  if (!FLAGS_visualize_dir.empty()) {
    RETURN_IF_ERROR(lite::tools::MakeDirs(FLAGS_visualize_dir));
    RETURN_IF_ERROR(lite::tools::ClearGraphSnapshots(FLAGS_visualize_dir));
    if (FLAGS_visualize_mode == "changed") {
      options.dot_mode = lite::mir::DotDumpMode::kChangedPasses;
    } else if (FLAGS_visualize_mode == "all") {
      options.dot_mode = lite::mir::DotDumpMode::kEveryPass;
    } else if (lite::mir::PassRegistry::Global().Has(FLAGS_visualize_mode)) {
      options.dot_mode = lite::mir::DotDumpMode::kNamedPass;
      options.dot_pass = FLAGS_visualize_mode;
    } else {
      return lite::InvalidArgument("--visualize_mode must be changed, all or a registered pass "
                                   "name, got '" + FLAGS_visualize_mode + "'");
    }
  }
  options.on_pass_done = [](const lite::mir::PassRecord& rec) {
    lite::mir::PassReport one;
    one.passes.push_back(rec);
    std::cout << "  " << one.ToString() << std::flush;
  };
  std::cout << "optimizing for " << lite::tools::TargetsText(places) << ":\n";
  ASSIGN_OR_RETURN(lite::OptimizeResult result,
                   lite::OptimizeProgram(program, root.get(), options));

  if (!FLAGS_visualize_dir.empty()) {
    const bool svg = lite::tools::OnPath("dot");
    std::cout << "visualization (" << FLAGS_visualize_dir << (svg ? "" : ", no `dot` on PATH: DOT only")
              << "):\n";
    RETURN_IF_ERROR(
        lite::tools::WriteGraphSnapshot(FLAGS_visualize_dir, "00_loaded", result.dot_before, svg));
    for (const auto& rec : result.report.passes) {
      if (rec.dot_after.empty()) continue;
      char name[128];
      std::snprintf(name, sizeof(name), "%02d_%s", rec.index, rec.name.c_str());
      RETURN_IF_ERROR(
          lite::tools::WriteGraphSnapshot(FLAGS_visualize_dir, name, rec.dot_after, svg));
    }
  }
  std::cout << lite::tools::SummaryText(program, result.program);
  if (quantize) PrintInt8Outcome(result.report);

  std::vector<lite::DeviceRecord> compiled;
  if (FLAGS_npu_save_compiled) {
    ASSIGN_OR_RETURN(compiled, CompileSubgraphs(result.program, root, options.npu));
  }

  // Written under a temporary name, verified to build a runtime as the
  // predictors will build it, and only then renamed to the output name.
  std::unique_ptr<lite::PredictorRuntime> checked;
  std::shared_ptr<lite::Scope> check_root;
  auto verify = [&](const std::string& temporary) -> Status {
    lite::cpp::ProgramDesc check_program;
    check_root = std::make_shared<lite::Scope>();
    lite::NpuOptions check_npu = options.npu;
    check_npu.save_compiled = false;
    check_npu.compiled = nullptr;
    if (type == ModelType::kNaiveBuffer) {
      std::vector<lite::DeviceRecord> written;
      RETURN_IF_ERROR(lite::naive_buffer::LoadFromFile(temporary, &check_program,
                                                       check_root.get(), nullptr, &written));
      if (!written.empty()) {
        // Bytes this process just produced: loading them checks they
        // deserialize (trust is about files from elsewhere).
        check_npu.trust_compiled_code = true;
        check_npu.compiled = std::make_shared<lite::CompiledSubgraphStore>();
        for (const lite::DeviceRecord& record : written) {
          ASSIGN_OR_RETURN(lite::CompiledSubgraph e, lite::FromDeviceRecord(record));
          check_npu.compiled->Put(std::move(e));
        }
      }
    } else {
      lite::ModelSource written_source;
      written_source.model_dir = temporary;
      RETURN_IF_ERROR(lite::LoadModel(written_source, &check_program, check_root.get()));
    }
    auto rt = lite::PredictorRuntime::Create(check_program, check_root, FLAGS_threads, check_npu);
    if (!rt.ok()) return rt.status().WithContext("the optimized model does not load");
    checked = std::move(*rt);
    return Status::OK();
  };
  std::string written;
  RETURN_IF_ERROR(lite::SaveOptimizedVerified(result.program, *root, FLAGS_optimize_out, type,
                                              verify, &written, compiled));
  if (!checked->GetPlacementReport().subgraphs.empty()) {
    std::cout << "placement: " << checked->GetPlacementReport().ToString();
  }
  std::cout << "wrote " << written << " ("
            << (type == ModelType::kNaiveBuffer ? "naive_buffer" : "protobuf") << ", "
            << result.program.blocks[0].ops.size() << " ops, verified loadable)\n";
  if (quantize) {
    // The written model against the fp32 one on the calibration samples.
    lite::PredictorRuntime* written_model = checked.get();
    RETURN_IF_ERROR(PrintAccuracy("the calibration samples", written_model, samples,
                                  calibration.outputs));
    if (!held_out.empty()) {
      RETURN_IF_ERROR(PrintAccuracy("held-out samples (" + FLAGS_calibration_eval_dir + ")",
                                    written_model, held_out, calibration.held_out_outputs));
    }
  }
  return Status::OK();
}

int Main() {
  const std::string tool = "opt";
  ModelType type;
  if (FLAGS_optimize_out_type == "naive_buffer") {
    type = ModelType::kNaiveBuffer;
  } else if (FLAGS_optimize_out_type == "protobuf") {
    type = ModelType::kProtobuf;
  } else {
    return lite::tools::Fail(tool, lite::InvalidArgument(
        "--optimize_out_type must be naive_buffer or protobuf, got '" +
        FLAGS_optimize_out_type + "'"));
  }
  auto places = lite::tools::ParseValidTargets(FLAGS_valid_targets);
  if (!places.ok()) return lite::tools::Fail(tool, places.status());
  if ((!FLAGS_model_file.empty()) != (!FLAGS_param_file.empty())) {
    return lite::tools::Fail(tool, lite::InvalidArgument(
        "--model_file and --param_file go together (or use --model_dir)"));
  }

  auto quantize = QuantizeRequested();
  if (!quantize.ok()) return lite::tools::Fail(tool, quantize.status());
  if (*quantize && FLAGS_optimize_out.empty()) {
    return lite::tools::Fail(tool, lite::InvalidArgument("--quantize=int8 needs --optimize_out"));
  }

  bool printed = false;
  if (FLAGS_print_all_ops) std::cout << lite::tools::AllOpsTable(), printed = true;
  if (FLAGS_print_supported_ops) {
    std::cout << "ops supported by " << lite::tools::TargetsText(*places) << ":\n"
              << lite::tools::SupportedOpsText(*places);
    printed = true;
  }
  if (FLAGS_display_kernels) std::cout << lite::tools::KernelsText(), printed = true;
  if (FLAGS_print_drivers) {
    lite::npu::PluginScan scan;
    Status s = lite::npu::LoadPluginDrivers(lite::tools::DriverPathsFromFlags(), &scan);
    if (!s.ok()) return lite::tools::Fail(tool, s);
    std::cout << lite::tools::DriversText(scan);
    printed = true;
  }
  if (!HaveModelFlags()) {
    if (printed) return 0;
    if (FLAGS_print_model_ops) {
      return lite::tools::Fail(tool, lite::InvalidArgument("--print_model_ops needs a model"));
    }
    return lite::tools::Fail(tool, lite::InvalidArgument(
        "no model: give --model_dir, or --model_file and --param_file (see --help)"));
  }
  std::cout << "opt (engine " << lite::kEngineVersion << ")\n";
  Status s = Optimize(*places, type);
  if (!s.ok()) return lite::tools::Fail(tool, s);
  return 0;
}

}  // namespace

namespace lite {
namespace tools {

int OptMain(int argc, char** argv) {
  gflags::SetUsageMessage(
      "opt --model_dir=DIR | --model_file=F --param_file=F --optimize_out=OUT\n"
      "    [--optimize_out_type=naive_buffer|protobuf] [--valid_targets=host,x86,npu]\n"
      "    [--visualize_dir=DIR] [--disable_passes=a,b] [--print_model_ops]\n"
      "    [--quantize=int8 --calibration_dir=DIR [--calibration_method=abs_max|kl|percentile]\n"
      "     [--calibration_shape=1,3,H,W] [--calibration_eval_dir=DIR]\n"
      "     [--quantize_op_types=conv2d,depthwise_conv2d]]\n"
      "  or: opt --print_all_ops | --print_supported_ops | --display_kernels | --print_drivers");
  gflags::SetVersionString(lite::kEngineVersion);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return lite::tools::Fail(
        "opt", lite::InvalidArgument(std::string("unexpected argument '") + argv[1] +
                                     "' (flags are --name=value)"));
  }
  const int code = Main();
  std::cout.flush();
  return code;
}

}  // namespace tools
}  // namespace lite
