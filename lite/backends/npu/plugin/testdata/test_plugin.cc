// A plugin built in several broken variants for the loader and adapter
// tests (compile-time switches below), against the ABI header only.
//   TEST_PLUGIN_MAJOR / TEST_PLUGIN_MINOR  the ABI version it claims
//   TEST_PLUGIN_NO_CREATE                  no lite_npu_driver_create symbol
//   TEST_PLUGIN_CREATE_NULL                lite_npu_driver_create returns NULL
//   TEST_PLUGIN_NAME                       the driver name (default "acme_test")
//   TEST_PLUGIN_NULL_EXECUTE               the instance has no execute function
//   TEST_PLUGIN_ABI10                      an ABI 1.0 struct: struct_size ends
//                                          before serialize (the 1.1 fields
//                                          hold garbage the engine must ignore)
// Once loaded, it accepts every operation and misbehaves at run time as
// the environment variable TEST_PLUGIN_MODE says (read at each call):
//   compile_fail     compile returns INTERNAL with a message
//   compile_null     compile returns OK without an executable
//   status           execute returns 77 and an unterminated, binary message
//   bytes            execute reports 3 bytes written per output
//   shape            execute reports the right byte count but rank 1
//   (else)           execute reports nothing at all (bytes_written untouched)
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "lite/backends/npu/plugin/lite_npu_driver_abi.h"

#ifndef TEST_PLUGIN_MAJOR
#define TEST_PLUGIN_MAJOR LITE_NPU_DRIVER_ABI_MAJOR
#endif
#ifndef TEST_PLUGIN_MINOR
#define TEST_PLUGIN_MINOR LITE_NPU_DRIVER_ABI_MINOR
#endif
#ifndef TEST_PLUGIN_NAME
#define TEST_PLUGIN_NAME "acme_test"
#endif

struct lite_npu_executable {
  int unused;
};

#if !defined(TEST_PLUGIN_NO_CREATE) && !defined(TEST_PLUGIN_CREATE_NULL)
namespace {

bool Mode(const char* mode) {
  const char* m = std::getenv("TEST_PLUGIN_MODE");
  return m && std::strcmp(m, mode) == 0;
}

int32_t Supports(lite_npu_driver*, const lite_npu_model*, size_t, char*, size_t) {
  return LITE_NPU_STATUS_OK;
}

int32_t Compile(lite_npu_driver*, const lite_npu_model*, const lite_npu_compile_options*,
                lite_npu_executable** out, char* message, size_t size) {
  if (Mode("compile_fail")) {
    std::strncpy(message, "the acme device is on fire", size);
    return LITE_NPU_STATUS_INTERNAL;
  }
  if (Mode("compile_null")) return LITE_NPU_STATUS_OK;
  *out = new lite_npu_executable{0};
  return LITE_NPU_STATUS_OK;
}

int32_t Execute(lite_npu_driver*, lite_npu_executable*, const lite_npu_input*, size_t,
                lite_npu_output* outputs, size_t output_count, char* message, size_t size) {
  if (Mode("status")) {
    std::memset(message, 'x', size);  // no terminating NUL anywhere
    message[0] = '\n';
    message[1] = '\x01';
    return 77;
  }
  for (size_t i = 0; i < output_count; ++i) {
    if (Mode("bytes")) outputs[i].bytes_written = 3;
    if (Mode("shape")) {
      outputs[i].bytes_written = outputs[i].capacity;
      outputs[i].rank = 1;
      outputs[i].dims[0] = 12345;
    }
  }
  return LITE_NPU_STATUS_OK;
}

void DestroyExecutable(lite_npu_driver*, lite_npu_executable* e) { delete e; }
void Destroy(lite_npu_driver* d) { delete d; }

}  // namespace
#endif

extern "C" {

LITE_NPU_DRIVER_EXPORT uint32_t lite_npu_driver_api_version(void) {
  return LITE_NPU_DRIVER_MAKE_VERSION(TEST_PLUGIN_MAJOR, TEST_PLUGIN_MINOR);
}

#ifndef TEST_PLUGIN_NO_CREATE
LITE_NPU_DRIVER_EXPORT lite_npu_driver* lite_npu_driver_create(void) {
#ifdef TEST_PLUGIN_CREATE_NULL
  return nullptr;
#else
  lite_npu_driver* d = new lite_npu_driver;
  std::memset(d, 0, sizeof(*d));
  d->struct_size = sizeof(*d);
  d->name = TEST_PLUGIN_NAME;
  d->version = "0.0.1-test";
  d->supports = Supports;
  d->compile = Compile;
#ifndef TEST_PLUGIN_NULL_EXECUTE
  d->execute = Execute;
#else
  (void)Execute;
#endif
  d->destroy_executable = DestroyExecutable;
  d->destroy = Destroy;
#ifdef TEST_PLUGIN_ABI10
  d->struct_size = offsetof(lite_npu_driver, serialize);
  std::memset(&d->serialize, 0x5a, sizeof(*d) - offsetof(lite_npu_driver, serialize));
#endif
  return d;
#endif
}
#endif

}  // extern "C"
