// Plugin loading and the adapter: the sample plugin loads from a directory
// and computes what the reference driver computes; the broken variants of
// testdata/test_plugin.cc (wrong major, newer minor, missing entry point,
// create returning NULL, a built-in name), duplicates, non-plugins and
// garbage results are refused with messages that say why.
#include "lite/backends/npu/plugin/plugin_loader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "lite/backends/npu/reference/reference_driver.h"

namespace lite {
namespace npu {
namespace {

const char kSample[] = "examples/npu_plugin/sample_ref_npu_driver.so";
// The same sample built for ABI 1.0, registered as sample_abi0.
const char kSampleAbi0[] = "examples/npu_plugin/libsample_abi0_npu_driver.so";

std::string TestPlugin(const std::string& variant) {
  return "lite/backends/npu/plugin/libtest_" + variant + ".so";
}

// A fresh directory under TEST_TMPDIR.
std::string NewDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(tmp ? tmp : "/tmp") + "/" + name;
  mkdir(dir.c_str(), 0755);
  return dir;
}

void Copy(const std::string& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  ASSERT_TRUE(in.good()) << from;
  std::ofstream out(to, std::ios::binary);
  out << in.rdbuf();
  ASSERT_TRUE(out.good()) << to;
}

std::string Absolute(const std::string& path) {
  char buf[4096];
  return std::string(getcwd(buf, sizeof(buf))) + "/" + path;
}

// Loads one directory holding `file` (a copy of `plugin`); returns the scan.
PluginScan LoadOne(const std::string& dir_name, const std::string& plugin,
                   const std::string& file) {
  const std::string dir = NewDir(dir_name);
  Copy(plugin, dir + "/" + file);
  PluginScan scan;
  Status s = LoadPluginDrivers({dir}, &scan);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return scan;
}

void ExpectRefused(const PluginScan& scan, const std::string& message) {
  ASSERT_EQ(scan.refused.size(), 1u);
  EXPECT_EQ(scan.refused[0], message);
  EXPECT_TRUE(scan.loaded.empty());
}

TEST(PluginLoader, WrongMajorVersionIsRefusedStatingBothVersions) {
  auto scan = LoadOne("major", TestPlugin("bad_major"), "acme_major_npu_driver.so");
  ExpectRefused(scan, NewDir("major") + "/acme_major_npu_driver.so: built for driver ABI 2.2, "
                      "this engine has ABI 1.2 (it loads major 1 with minor <= 2)");
}

TEST(PluginLoader, NewerMinorVersionIsRefused) {
  auto scan = LoadOne("minor", TestPlugin("newer_minor"), "acme_minor_npu_driver.so");
  ExpectRefused(scan, NewDir("minor") + "/acme_minor_npu_driver.so: built for driver ABI 1.3, "
                      "this engine has ABI 1.2 (it loads major 1 with minor <= 2)");
}

TEST(PluginLoader, MissingEntryPointAndNullCreateAreRefused) {
  auto scan = LoadOne("nocreate", TestPlugin("no_create"), "acme_nocreate_npu_driver.so");
  ExpectRefused(scan,
                NewDir("nocreate") +
                    "/acme_nocreate_npu_driver.so: missing entry point lite_npu_driver_create");
  scan = LoadOne("nullcreate", TestPlugin("create_null"), "acme_null_npu_driver.so");
  ExpectRefused(scan, NewDir("nullcreate") +
                          "/acme_null_npu_driver.so: lite_npu_driver_create returned NULL");
  EXPECT_FALSE(DriverRegistry::Global().Has("acme_test"));
}

TEST(PluginLoader, AnInstanceWithoutAFunctionIsRefused) {
  auto scan = LoadOne("nullexec", TestPlugin("null_execute"), "acme_nullexec_npu_driver.so");
  ExpectRefused(scan, NewDir("nullexec") +
                          "/acme_nullexec_npu_driver.so: driver function execute is NULL");
}

TEST(PluginLoader, NotASharedLibraryIsRefusedByDlopen) {
  const std::string dir = NewDir("text");
  std::ofstream(dir + "/acme_text_npu_driver.so") << "not an ELF file\n";
  PluginScan scan;
  ASSERT_TRUE(LoadPluginDrivers({dir}, &scan).ok());
  ASSERT_EQ(scan.refused.size(), 1u);
  EXPECT_EQ(scan.refused[0].rfind(dir + "/acme_text_npu_driver.so: dlopen failed: ", 0), 0u)
      << scan.refused[0];
}

TEST(PluginLoader, ABuiltInNameIsRefused) {
  auto scan = LoadOne("builtin", TestPlugin("builtin_name"), "acme_builtin_npu_driver.so");
  ExpectRefused(scan, NewDir("builtin") + "/acme_builtin_npu_driver.so: driver name 'reference' "
                      "is already registered by a built-in driver (first one wins)");
  EXPECT_EQ(DriverRegistry::Global().Origin("reference"), DriverRegistry::kBuiltIn);
}

// Given directories first, then LITE_NPU_DRIVER_PATH; first name wins, the
// refusal names both files; other files are ignored; a rescan is quiet.
TEST(PluginLoader, SampleLoadsAndDuplicatesAreRefusedInScanOrder) {
  const std::string a = NewDir("dup_a"), b = NewDir("dup_b"), c = NewDir("dup_c");
  Copy(kSample, a + "/sample_ref_npu_driver.so");
  Copy(kSample, b + "/sample_ref_npu_driver.so");
  Copy(kSample, c + "/sample_ref_npu_driver.so");
  std::ofstream(a + "/README.txt") << "not a plugin\n";
  Copy(kSample, a + "/libsample_ref.so");
  ASSERT_EQ(symlink((a + "/missing.so").c_str(), (a + "/acme_dangling_npu_driver.so").c_str()), 0);
  ASSERT_EQ(setenv(kDriverPathEnv, (b + ":/nonexistent_dir_for_test").c_str(), 1), 0);
  PluginScan scan;
  Status s = LoadPluginDrivers({a, c}, &scan);
  unsetenv(kDriverPathEnv);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(scan.loaded.size(), 1u);
  EXPECT_EQ(scan.loaded[0].name, "sample_ref");
  EXPECT_EQ(scan.loaded[0].version, "1.0.0");
  EXPECT_EQ(scan.loaded[0].path, a + "/sample_ref_npu_driver.so");
  EXPECT_EQ(scan.loaded[0].abi_major, 1);
  EXPECT_EQ(scan.loaded[0].abi_minor, 2);
  EXPECT_EQ(DriverRegistry::Global().Origin("sample_ref"), a + "/sample_ref_npu_driver.so");
  const std::string dup = ": driver name 'sample_ref' is already registered by " + a +
                          "/sample_ref_npu_driver.so (first one wins)";
  ASSERT_EQ(scan.refused.size(), 2u);
  EXPECT_EQ(scan.refused[0], c + "/sample_ref_npu_driver.so" + dup);
  EXPECT_EQ(scan.refused[1], b + "/sample_ref_npu_driver.so" + dup);
  const std::vector<std::string> ignored = {
      a + "/README.txt: not named <vendor>_<driver>_npu_driver.so",
      a + "/acme_dangling_npu_driver.so: cannot stat (a dangling symlink?)",
      a + "/libsample_ref.so: not named <vendor>_<driver>_npu_driver.so"};
  EXPECT_EQ(scan.ignored, ignored);

  PluginScan again;
  ASSERT_TRUE(LoadPluginDrivers({a}, &again).ok());
  ASSERT_EQ(again.loaded.size(), 1u);
  EXPECT_EQ(again.loaded[0].path, a + "/sample_ref_npu_driver.so");

  EXPECT_FALSE(LoadPluginDrivers({a + "/README.txt"}).ok());
  EXPECT_EQ(LoadPluginDrivers({"/nonexistent_dir_for_test"}).message(),
            "npu driver path '/nonexistent_dir_for_test' is not a directory");
}

TEST(PluginLoader, SplitDriverPathsDropsEmptyEntries) {
  EXPECT_EQ(SplitDriverPaths("a::b:"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(SplitDriverPaths("").empty());
}

// A model touching every loop of the sample driver: grouped and depthwise
// convolution, max and average pooling, broadcasting add, activations,
// concat, reshape, fully connected and softmax.
Model SampleModel() {
  uint32_t seed = 1;
  auto constant = [&](std::vector<int64_t> dims) {
    Operand o;
    o.dims = dims;
    o.lifetime = Lifetime::kConstant;
    std::vector<float> v(o.numel());
    for (float& f : v) f = ((seed = seed * 1664525u + 1013904223u) >> 8) / 16777216.f - 0.5f;
    o.data.assign(reinterpret_cast<uint8_t*>(v.data()),
                  reinterpret_cast<uint8_t*>(v.data() + v.size()));
    return o;
  };
  auto tensor = [](std::vector<int64_t> dims, Lifetime l, const char* name) {
    Operand o;
    o.dims = dims;
    o.lifetime = l;
    o.name = name;
    return o;
  };
  Model m;
  auto op = [&](OperationType t, std::vector<int> in, int out,
                std::map<std::string, AttrValue> attrs = {}) {
    Operation o;
    o.type = t;
    o.inputs = in;
    o.outputs = {out};
    o.attrs = attrs;
    o.origin = OperationTypeName(t);
    m.AddOperation(o);
  };
  using V = std::vector<int64_t>;
  int x = m.AddOperand(tensor({1, 4, 5, 5}, Lifetime::kModelInput, "x"));
  int conv = m.AddOperand(tensor({1, 6, 5, 5}, Lifetime::kTemporary, "conv"));
  op(OperationType::kConv2D, {x, m.AddOperand(constant({6, 2, 3, 3})), m.AddOperand(constant({6}))},
     conv, {{"strides", V{1, 1}}, {"paddings", V{1, 1, 1, 1}}, {"dilations", V{1, 1}},
            {"groups", int64_t(2)}});
  int relu = m.AddOperand(tensor({1, 6, 5, 5}, Lifetime::kTemporary, "relu"));
  op(OperationType::kRelu, {conv}, relu);
  int dw = m.AddOperand(tensor({1, 6, 3, 3}, Lifetime::kTemporary, "dw"));
  op(OperationType::kConv2D, {relu, m.AddOperand(constant({6, 1, 3, 3}))}, dw,
     {{"strides", V{2, 2}}, {"paddings", V{1, 1, 1, 1}}, {"dilations", V{1, 1}},
      {"groups", int64_t(6)}});
  int mp = m.AddOperand(tensor({1, 6, 3, 3}, Lifetime::kTemporary, "maxpool"));
  op(OperationType::kPool2D, {relu}, mp, {{"pool_type", int64_t(0)}, {"ksize", V{3, 3}},
     {"strides", V{2, 2}}, {"paddings", V{1, 1, 1, 1}}, {"exclusive", int64_t(1)}});
  int ap = m.AddOperand(tensor({1, 6, 3, 3}, Lifetime::kTemporary, "avgpool"));
  op(OperationType::kPool2D, {dw}, ap, {{"pool_type", int64_t(1)}, {"ksize", V{2, 2}},
     {"strides", V{2, 2}}, {"paddings", V{1, 1, 1, 1}}, {"exclusive", int64_t(0)}});
  int cat = m.AddOperand(tensor({1, 12, 3, 3}, Lifetime::kTemporary, "concat"));
  op(OperationType::kConcat, {mp, ap}, cat, {{"axis", int64_t(1)}});
  int add = m.AddOperand(tensor({1, 12, 3, 3}, Lifetime::kTemporary, "add"));
  op(OperationType::kAdd, {cat, m.AddOperand(constant({12, 1, 1}))}, add);
  int hs = m.AddOperand(tensor({1, 12, 3, 3}, Lifetime::kTemporary, "hard_swish"));
  op(OperationType::kHardSwish, {add}, hs,
     {{"threshold", 6.f}, {"scale", 6.f}, {"offset", 3.f}});
  int flat = m.AddOperand(tensor({1, 108}, Lifetime::kTemporary, "flat"));
  op(OperationType::kReshape, {hs}, flat);
  int fc = m.AddOperand(tensor({1, 10}, Lifetime::kTemporary, "fc"));
  op(OperationType::kFullyConnected,
     {flat, m.AddOperand(constant({108, 10})), m.AddOperand(constant({10}))}, fc);
  int out = m.AddOperand(tensor({1, 10}, Lifetime::kModelOutput, "prob"));
  op(OperationType::kSoftmax, {fc}, out, {{"axis", int64_t(1)}});
  m.inputs = {x};
  m.outputs = {out};
  return m;
}

std::vector<float> RunModel(Driver* driver, const Model& model, const std::vector<float>& x) {
  auto exe = driver->Compile(model, CompileOptions());
  EXPECT_TRUE(exe.ok()) << exe.status().ToString();
  if (!exe.ok()) return {};
  std::vector<float> y(10, -1.f);
  std::vector<float> in = x;
  Status s = driver->Execute(exe->get(), {{in.data(), in.size() * 4, {1, 4, 5, 5}}},
                             {{y.data(), y.size() * 4, {1, 10}}});
  EXPECT_TRUE(s.ok()) << s.ToString();
  return y;
}

TEST(PluginDriver, SampleComputesWhatTheReferenceDriverComputes) {
  auto scan = LoadOne("sample_model", kSample, "sample_ref_npu_driver.so");  // may be a rescan
  ASSERT_TRUE(DriverRegistry::Global().Has("sample_ref"));
  const Model model = SampleModel();
  ASSERT_EQ(model.Validate(false), "");
  auto plugin = DriverRegistry::Global().Create("sample_ref");
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  for (const Operation& op : model.operations) {
    EXPECT_TRUE((*plugin)->Supports(model, op).ok()) << op.origin;
  }
  std::vector<float> x(100);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 17) / 8.f - 1.f;
  ReferenceDriver reference;
  const auto want = RunModel(&reference, model, x), got = RunModel(plugin->get(), model, x);
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << i;
  // What it does not implement, it refuses with its reason.
  Model t = model;
  t.operations[1].type = OperationType::kTranspose;
  Status s = (*plugin)->Supports(t, t.operations[1]);
  EXPECT_EQ(s.message(), "plugin sample_ref supports: operation type 25 is not implemented by "
                         "sample_ref");
}

// x [1, 4, 5, 5] -> quantize (scale 0.02) -> quantized conv2d (int8 filter
// [6, 4, 3, 3], per-channel scales) -> float32 out.
Model QuantizedModel() {
  Model m;
  Operand x;
  x.dims = {1, 4, 5, 5};
  x.lifetime = Lifetime::kModelInput;
  x.name = "x";
  Operand xq = x;
  xq.lifetime = Lifetime::kTemporary;
  xq.type = ElementType::kInt8;
  xq.name = "x.int8";
  xq.quant.kind = Quantization::kPerTensor;
  xq.quant.scales = {0.02f};
  Operand w;
  w.dims = {6, 4, 3, 3};
  w.lifetime = Lifetime::kConstant;
  w.type = ElementType::kInt8;
  w.name = "w";
  w.quant.kind = Quantization::kPerChannel;
  for (int c = 0; c < 6; ++c) w.quant.scales.push_back(0.01f * (c + 1));
  for (int i = 0; i < 6 * 4 * 9; ++i) w.data.push_back(static_cast<uint8_t>((i * 29) % 255 - 127));
  Operand y;
  y.dims = {1, 6, 5, 5};
  y.lifetime = Lifetime::kModelOutput;
  y.name = "y";
  const int xi = m.AddOperand(x), xqi = m.AddOperand(xq), wi = m.AddOperand(w), yi = m.AddOperand(y);
  Operation q;
  q.type = OperationType::kQuantize;
  q.inputs = {xi};
  q.outputs = {xqi};
  q.attrs = {{"round_type", int64_t(1)}};
  q.origin = "quantize";
  m.AddOperation(q);
  Operation conv;
  conv.type = OperationType::kConv2D;
  conv.inputs = {xqi, wi};
  conv.outputs = {yi};
  conv.attrs = {{"strides", std::vector<int64_t>{1, 1}},
                {"paddings", std::vector<int64_t>{1, 1, 1, 1}},
                {"dilations", std::vector<int64_t>{1, 1}},
                {"groups", int64_t(1)}};
  conv.origin = "conv2d";
  m.AddOperation(conv);
  m.inputs = {xi};
  m.outputs = {yi};
  return m;
}

// A minor-2 plugin reads the quantization the engine passes; a minor-0
// plugin still loads and declines int8 operands and the quantize operation
// by their values, never reading past the fields it knows.
TEST(PluginDriver, QuantizedOperationsReachNewPluginsAndOldOnesDecline) {
  LoadOne("quant_new", kSample, "sample_ref_npu_driver.so");  // may be a rescan
  auto old_scan = LoadOne("quant_old", kSampleAbi0, "sample_abi0_npu_driver.so");
  ASSERT_EQ(old_scan.loaded.size(), 1u) << (old_scan.refused.empty() ? "" : old_scan.refused[0]);
  EXPECT_EQ(old_scan.loaded[0].abi_minor, 0);
  const Model model = QuantizedModel();
  ASSERT_EQ(model.Validate(false), "");
  auto now = DriverRegistry::Global().Create("sample_ref");
  auto old = DriverRegistry::Global().Create("sample_abi0");
  ASSERT_TRUE(now.ok() && old.ok());
  EXPECT_EQ((*now)->Supports(model, model.operations[1]).message(),
            "plugin sample_ref supports: operand x.int8 is quantized per tensor (1 scales); "
            "sample_ref runs float32 only");
  EXPECT_EQ((*old)->Supports(model, model.operations[1]).message(),
            "plugin sample_abi0 supports: operand x.int8 is not float32");
  EXPECT_EQ((*old)->Supports(model, model.operations[0]).message(),
            "plugin sample_abi0 supports: operation type 33 is not implemented by sample_ref");
  // The reference driver runs it: int32 sums of the levels, rescaled.
  ReferenceDriver reference;
  auto exe = reference.Compile(model, CompileOptions());
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  std::vector<float> x(100), y(150);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 17) / 8.f - 1.f;
  ASSERT_TRUE(reference.Execute(exe->get(), {{x.data(), 400, {1, 4, 5, 5}}},
                                {{y.data(), 600, {1, 6, 5, 5}}}).ok());
  // Output (0, 0, 0, 0): window rows/cols 0..1 of the padded 3x3.
  int32_t acc = 0;
  for (int c = 0; c < 4; ++c) {
    for (int i = 1; i < 3; ++i) {
      for (int j = 1; j < 3; ++j) {
        const float v = x[c * 25 + (i - 1) * 5 + (j - 1)] / 0.02f;
        const int32_t level = static_cast<int32_t>(std::round(std::min(std::max(v, -127.f), 127.f)));
        acc += level * static_cast<int8_t>(model.operands[2].data[(c * 3 + i) * 3 + j]);
      }
    }
  }
  EXPECT_FLOAT_EQ(y[0], acc * 0.02f * 0.01f);
}

// The garbage plugin's results (TEST_PLUGIN_MODE) become errors, never
// trusted values.
TEST(PluginDriver, GarbageResultsAreErrors) {
  const std::string dir = NewDir("garbage");
  ASSERT_EQ(symlink(Absolute(TestPlugin("garbage")).c_str(),
                    (dir + "/acme_garbage_npu_driver.so").c_str()), 0);
  PluginScan scan;
  ASSERT_TRUE(LoadPluginDrivers({dir}, &scan).ok());
  ASSERT_EQ(scan.loaded.size(), 1u) << (scan.refused.empty() ? "" : scan.refused[0]);
  EXPECT_EQ(scan.loaded[0].name, "acme_test");  // loaded through the symlink
  auto driver = DriverRegistry::Global().Create("acme_test");
  ASSERT_TRUE(driver.ok());
  const Model model = SampleModel();
  std::vector<float> x(100, 0.5f), y(10);
  auto run = [&](const char* mode) -> Status {
    setenv("TEST_PLUGIN_MODE", mode, 1);
    auto exe = (*driver)->Compile(model, CompileOptions());
    if (!exe.ok()) return exe.status();
    return (*driver)->Execute(exe->get(), {{x.data(), 400, {1, 4, 5, 5}}},
                              {{y.data(), 40, {1, 10}}});
  };
  EXPECT_EQ(run("compile_fail").message(), "plugin acme_test compile: the acme device is on fire");
  EXPECT_EQ(run("compile_null").message(),
            "plugin acme_test compile: returned OK but no executable");
  Status s = run("status");
  EXPECT_EQ(s.message().rfind("plugin acme_test execute: returned unknown status 77 (??xxx", 0), 0u)
      << s.message();
  EXPECT_EQ(s.message().size(),
            std::string("plugin acme_test execute: returned unknown status 77 ()").size() + 1023);
  EXPECT_EQ(run("bytes").message(),
            "plugin acme_test execute: output 0 (prob) reports 3 bytes written, expected 40");
  EXPECT_EQ(run("shape").message(), "plugin acme_test execute: output 0 (prob) reports shape "
                                    "[12345] (rank 1), expected [1, 10]");
  EXPECT_EQ(run("silent").message(),
            "plugin acme_test execute: output 0 (prob) reports no bytes written, expected 40");
  unsetenv("TEST_PLUGIN_MODE");
}

TEST(PluginDriver, SampleSerializesAndRefusesForeignOrCorruptBytes) {
  auto scan = LoadOne("sample_serialize", kSample, "sample_ref_npu_driver.so");
  auto plugin = DriverRegistry::Global().Create("sample_ref");
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  Driver* d = plugin->get();
  EXPECT_TRUE(d->can_serialize());
  EXPECT_EQ(d->version(), "1.0.0");
  EXPECT_EQ(d->cpu_features(), "any");
  const Model model = SampleModel();
  auto exe = d->Compile(model, CompileOptions());
  ASSERT_TRUE(exe.ok());
  auto bytes = d->Serialize(**exe);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto again = d->Deserialize(model, *bytes, CompileOptions());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  std::vector<float> x(100, 0.25f), y1(10), y2(10);
  ASSERT_TRUE(d->Execute(exe->get(), {{x.data(), 400, {1, 4, 5, 5}}}, {{y1.data(), 40, {1, 10}}})
                  .ok());
  ASSERT_TRUE(d->Execute(again->get(), {{x.data(), 400, {1, 4, 5, 5}}},
                         {{y2.data(), 40, {1, 10}}})
                  .ok());
  EXPECT_EQ(y1, y2);
  // Another model (one weight changed), a flipped weight byte, truncation.
  Model other = model;
  for (Operand& o : other.operands) {
    if (o.lifetime == Lifetime::kConstant) {
      o.data.mutable_data()[0] ^= 1;
      break;
    }
  }
  auto s = d->Deserialize(other, *bytes, CompileOptions());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("plugin sample_ref deserialize: constant"),
            std::string::npos)
      << s.status().message();
  for (size_t cut = 0; cut < bytes->size(); cut += 7) {
    std::vector<uint8_t> part(bytes->begin(), bytes->begin() + cut);
    EXPECT_FALSE(d->Deserialize(model, part, CompileOptions()).ok()) << cut;
  }
}

TEST(PluginDriver, AnAbi10PluginLoadsAndCannotSerialize) {
  const std::string dir = NewDir("abi10");
  ASSERT_EQ(symlink(Absolute(TestPlugin("abi10")).c_str(),
                    (dir + "/acme_old_npu_driver.so").c_str()), 0);
  PluginScan scan;
  ASSERT_TRUE(LoadPluginDrivers({dir}, &scan).ok());
  ASSERT_EQ(scan.loaded.size(), 1u) << (scan.refused.empty() ? "" : scan.refused[0]);
  EXPECT_EQ(scan.loaded[0].abi_minor, 0);
  auto driver = DriverRegistry::Global().Create("acme_old");
  ASSERT_TRUE(driver.ok());
  // The garbage in the 1.1 fields beyond struct_size is never read.
  EXPECT_FALSE((*driver)->can_serialize());
  EXPECT_EQ((*driver)->cpu_features(), HostCpuFeatures());
  auto exe = (*driver)->Compile(SampleModel(), CompileOptions());
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  EXPECT_EQ((*driver)->Serialize(**exe).status().code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace npu
}  // namespace lite
