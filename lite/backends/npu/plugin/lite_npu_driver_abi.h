/* The NPU driver plugin ABI: the one header an out-of-tree driver is built
 * against. Plain C (C89 types plus <stddef.h>/<stdint.h>), no engine or STL
 * type crosses it.
 *
 * A plugin is a shared library named <vendor>_<driver>_npu_driver.so that
 * exports two functions (declared at the end of this file):
 *
 *   uint32_t lite_npu_driver_api_version(void);  LITE_NPU_DRIVER_ABI_VERSION
 *   lite_npu_driver* lite_npu_driver_create(void);
 *
 * The engine loads it when it scans a driver directory (CxxConfig /
 * MobileConfig set_npu_driver_paths, the tools' --npu_driver_paths, then the
 * LITE_NPU_DRIVER_PATH environment variable; see lite/backends/npu/README.md).
 * It loads a plugin whose ABI major equals the engine's and whose minor is
 * <= the engine's; any other is refused with a message naming both versions.
 * A plugin is never unloaded.
 *
 * The model a driver receives is the engine's NN IR (lite/backends/npu/
 * nn_ir.h states every operation's semantics; the values below are the same
 * enums), flattened into arrays of structs that refer to each other by index.
 *
 * Ownership: everything passed *into* a plugin function (models, attribute
 * names, dims arrays, constant data, tensors, message buffers) is owned by
 * the engine and valid only during that call; a driver copies what it keeps.
 * Everything a plugin returns (the lite_npu_driver struct, its name and
 * version strings, executables) is owned by the plugin and stays valid until
 * the matching destroy function is called.
 *
 * Threads: lite_npu_driver_api_version and lite_npu_driver_create may be
 * called from any thread (the engine serializes its own calls). One
 * lite_npu_driver instance is used by one thread at a time, but different
 * instances (each from its own create call) may be used concurrently, so a
 * plugin keeps no unguarded global mutable state.
 *
 * Errors: functions return a lite_npu_status; on anything but
 * LITE_NPU_STATUS_OK they should write a NUL-terminated, human-readable
 * message into the engine's `message` buffer (at most message_size bytes
 * including the NUL; the engine terminates it anyway). The engine validates
 * every value a plugin returns and treats a bad one as a failure of that
 * call (the subgraph falls back to host), never trusting it.
 */
#ifndef LITE_NPU_DRIVER_ABI_H_
#define LITE_NPU_DRIVER_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version: additions (new fields at the end of lite_npu_driver or of
 * lite_npu_model, new enum values) bump the minor; any other change bumps
 * the major. Minor 2 added quantized operands (LITE_NPU_INT8, the
 * quantizations array of lite_npu_model, LITE_NPU_OP_QUANTIZE). */
#define LITE_NPU_DRIVER_ABI_MAJOR 1
#define LITE_NPU_DRIVER_ABI_MINOR 2 /* 1.1: serialize, deserialize, cpu_features;
                                       1.2: int8 operands, quantize, quantization */
#define LITE_NPU_DRIVER_MAKE_VERSION(major, minor) \
  ((((uint32_t)(major)) << 16) | ((uint32_t)(minor) & 0xffffu))
#define LITE_NPU_DRIVER_ABI_VERSION \
  LITE_NPU_DRIVER_MAKE_VERSION(LITE_NPU_DRIVER_ABI_MAJOR, LITE_NPU_DRIVER_ABI_MINOR)

/* Return codes. Any other value is treated as LITE_NPU_STATUS_INTERNAL. */
typedef enum {
  LITE_NPU_STATUS_OK = 0,
  LITE_NPU_STATUS_UNSUPPORTED = 1,      /* supports(): no; compile(): cannot */
  LITE_NPU_STATUS_INVALID_ARGUMENT = 2, /* the engine passed something wrong */
  LITE_NPU_STATUS_INTERNAL = 3          /* the device or driver failed */
} lite_npu_status;

/* Element types (nn_ir.h ElementType). */
typedef enum {
  LITE_NPU_FLOAT32 = 0,
  LITE_NPU_INT32 = 1,
  LITE_NPU_INT64 = 2,
  LITE_NPU_INT8 = 3     /* minor 2: quantized levels, see lite_npu_quantization */
} lite_npu_element_type;

/* Operand lifetimes (nn_ir.h Lifetime). */
typedef enum {
  LITE_NPU_MODEL_INPUT = 0,  /* fed to execute(), in lite_npu_model.inputs order */
  LITE_NPU_MODEL_OUTPUT = 1, /* written by execute(), in lite_npu_model.outputs order */
  LITE_NPU_CONSTANT = 2,     /* data below */
  LITE_NPU_TEMPORARY = 3     /* produced and consumed inside the model */
} lite_npu_lifetime;

/* Operation types (nn_ir.h OperationType, same values; attributes named
 * there). "x", "y" are inputs[0], inputs[1]; "out" is outputs[0]. */
typedef enum {
  LITE_NPU_OP_CONV2D = 0,           /* x, filter, [bias]; strides, paddings, dilations, groups */
  LITE_NPU_OP_CONV2D_TRANSPOSE = 1, /* x, filter, [bias]; as conv2d */
  LITE_NPU_OP_POOL2D = 2,           /* pool_type, ksize, strides, paddings, exclusive */
  LITE_NPU_OP_FULLY_CONNECTED = 3,  /* x [M,K], w [K,N], [bias [N]] */
  LITE_NPU_OP_ADD = 4,              /* binary ops: numpy broadcasting */
  LITE_NPU_OP_SUB = 5,
  LITE_NPU_OP_MUL = 6,
  LITE_NPU_OP_DIV = 7,
  LITE_NPU_OP_MAX = 8,
  LITE_NPU_OP_MIN = 9,
  LITE_NPU_OP_RELU = 10,            /* unary ops */
  LITE_NPU_OP_RELU6 = 11,
  LITE_NPU_OP_LEAKY_RELU = 12,      /* alpha */
  LITE_NPU_OP_SIGMOID = 13,
  LITE_NPU_OP_TANH = 14,
  LITE_NPU_OP_SWISH = 15,           /* beta */
  LITE_NPU_OP_HARD_SWISH = 16,      /* threshold, scale, offset */
  LITE_NPU_OP_HARD_SIGMOID = 17,    /* slope, offset */
  LITE_NPU_OP_CLIP = 18,            /* min, max */
  LITE_NPU_OP_SCALE = 19,           /* scale, bias */
  LITE_NPU_OP_EXP = 20,
  LITE_NPU_OP_ABS = 21,
  LITE_NPU_OP_PRELU = 22,           /* x, alpha */
  LITE_NPU_OP_SOFTMAX = 23,         /* axis */
  LITE_NPU_OP_RESHAPE = 24,
  LITE_NPU_OP_TRANSPOSE = 25,       /* perm */
  LITE_NPU_OP_CONCAT = 26,          /* axis */
  LITE_NPU_OP_SPLIT = 27,           /* axis */
  LITE_NPU_OP_SLICE = 28,           /* begins */
  LITE_NPU_OP_PAD = 29,             /* paddings, mode, value */
  LITE_NPU_OP_RESIZE_NEAREST = 30,  /* align_corners, ratio_h, ratio_w */
  LITE_NPU_OP_RESIZE_BILINEAR = 31, /* align_corners, align_mode, ratio_h, ratio_w */
  LITE_NPU_OP_BATCH_NORM = 32,      /* x, scale, bias, mean, variance; epsilon */
  LITE_NPU_OP_QUANTIZE = 33,        /* minor 2: x float32 -> out int8; round_type */
  LITE_NPU_OP_COUNT = 34
} lite_npu_operation_type;

/* Attribute value kinds. */
typedef enum {
  LITE_NPU_ATTR_INT = 0,    /* int_value */
  LITE_NPU_ATTR_FLOAT = 1,  /* float_value */
  LITE_NPU_ATTR_INTS = 2,   /* ints[0 .. count) */
  LITE_NPU_ATTR_FLOATS = 3  /* floats[0 .. count) */
} lite_npu_attr_kind;

typedef struct {
  const char* name;     /* "strides", "axis", ... (NUL-terminated) */
  int32_t kind;         /* lite_npu_attr_kind */
  int64_t int_value;    /* LITE_NPU_ATTR_INT */
  float float_value;    /* LITE_NPU_ATTR_FLOAT */
  const int64_t* ints;  /* LITE_NPU_ATTR_INTS, else NULL */
  const float* floats;  /* LITE_NPU_ATTR_FLOATS, else NULL */
  size_t count;         /* elements of ints/floats; 0 for scalars */
} lite_npu_attr;

typedef struct {
  int32_t type;         /* lite_npu_element_type */
  int32_t lifetime;     /* lite_npu_lifetime */
  const int64_t* dims;  /* rank entries; -1 = unknown (supports() only) */
  size_t rank;
  const void* data;     /* LITE_NPU_CONSTANT: row-major; NULL when unknown */
  size_t data_bytes;    /* bytes at data (numel * element size), 0 if NULL */
  const char* name;     /* the Paddle variable it stands for (messages) */
} lite_npu_operand;

typedef struct {
  int32_t type;           /* lite_npu_operation_type */
  const int32_t* inputs;  /* operand indices */
  size_t input_count;
  const int32_t* outputs; /* operand indices */
  size_t output_count;
  const lite_npu_attr* attrs; /* sorted by name, names unique */
  size_t attr_count;
  const char* origin;     /* the Paddle op it came from (messages) */
} lite_npu_operation;

/* Minor 2: how the levels of a LITE_NPU_INT8 operand stand for real
 * values (nn_ir.h Quantization): real = scale * (level - zero_point), one
 * scale for the tensor or one per index of dimension `axis`. Conv2d and
 * fully_connected with int8 x and filter compute in int32 and rescale
 * (nn_ir.h states the arithmetic). */
typedef enum {
  LITE_NPU_QUANT_NONE = 0,        /* not quantized (every non-int8 operand) */
  LITE_NPU_QUANT_PER_TENSOR = 1,  /* scales[0], zero_point */
  LITE_NPU_QUANT_PER_CHANNEL = 2  /* scales[0 .. dims[axis]), zero point 0 */
} lite_npu_quant_kind;

typedef struct {
  int32_t kind;         /* lite_npu_quant_kind */
  const float* scales;  /* scale_count values, each > 0; NULL for NONE */
  size_t scale_count;
  int32_t zero_point;   /* PER_TENSOR only */
  int32_t axis;         /* PER_CHANNEL only */
} lite_npu_quantization;

/* A whole model. Operations are in execution order; every index is in
 * range and the engine has validated the structure (nn_ir.h
 * Model::Validate) before compile(). Layout is Paddle's (NCHW, OIHW). */
typedef struct {
  const lite_npu_operand* operands;
  size_t operand_count;
  const lite_npu_operation* operations;
  size_t operation_count;
  const int32_t* inputs;  /* LITE_NPU_MODEL_INPUT operand indices, feed order */
  size_t input_count;
  const int32_t* outputs; /* LITE_NPU_MODEL_OUTPUT operand indices */
  size_t output_count;
  /* Minor 2 (trailing, so a plugin built for minor 0 never reads them and
   * declines int8 operands and LITE_NPU_OP_QUANTIZE by their values): the
   * quantization of each operand, quantizations[i] for operands[i];
   * quantization_count == operand_count. An engine of minor >= 2 always
   * sets them; a plugin declaring minor 2 is only loaded by such an engine. */
  const lite_npu_quantization* quantizations;
  size_t quantization_count;
} lite_npu_model;

typedef struct {
  int32_t threads; /* the predictor's thread count (>= 1); a hint */
} lite_npu_compile_options;

/* A model input handed to execute(): host memory, row-major, dims equal to
 * the model operand's. Read only. */
typedef struct {
  const void* data;
  size_t bytes;
  const int64_t* dims;
  size_t rank;
} lite_npu_input;

/* A model output handed to execute(). The engine allocates `data`
 * (`capacity` bytes, at least the operand's numel * element size) and the
 * `dims` array (LITE_NPU_MAX_RANK entries). The driver writes the elements
 * and reports what it wrote in bytes_written, rank and dims; the engine
 * refuses the run unless they equal the model operand's. */
#define LITE_NPU_MAX_RANK 8
typedef struct {
  void* data;
  size_t capacity;
  size_t bytes_written; /* set by the driver */
  int64_t* dims;        /* set by the driver: rank entries */
  size_t rank;          /* set by the driver */
} lite_npu_output;

/* An executable: opaque to the engine, owned by the plugin. */
typedef struct lite_npu_executable lite_npu_executable;

/* One driver instance, returned by lite_npu_driver_create() and released
 * with destroy(). Every function takes the instance itself as `self`.
 * Fields are read by the engine only, never written. */
typedef struct lite_npu_driver lite_npu_driver;
struct lite_npu_driver {
  /* sizeof(lite_npu_driver) as the plugin was compiled; lets a newer engine
   * tell which trailing fields an older plugin has. */
  uint32_t struct_size;
  /* Registered driver name, [a-z0-9_]+, e.g. "sample_ref" (by convention
   * the file's <vendor>_<driver>). Must not change between create calls. */
  const char* name;
  /* Free-form version of the driver itself, e.g. "1.2.0" (reports). */
  const char* version;
  /* The plugin's own state (the engine never touches it). */
  void* user_data;

  /* LITE_NPU_STATUS_OK when the driver can run model->operations[operation]
   * (reading its operands from `model`), else UNSUPPORTED with a reason.
   * Called while partitioning: dims may hold -1 and constants may have no
   * data; answer from what is known and leave the rest to compile(). */
  int32_t (*supports)(lite_npu_driver* self, const lite_npu_model* model, size_t operation,
                      char* message, size_t message_size);

  /* Compiles a complete model (all dims known, constants with data) into
   * *executable (must be non-NULL on OK). */
  int32_t (*compile)(lite_npu_driver* self, const lite_npu_model* model,
                     const lite_npu_compile_options* options, lite_npu_executable** executable,
                     char* message, size_t message_size);

  /* Runs an executable of this instance: inputs/outputs in model order. */
  int32_t (*execute)(lite_npu_driver* self, lite_npu_executable* executable,
                     const lite_npu_input* inputs, size_t input_count,
                     lite_npu_output* outputs, size_t output_count, char* message,
                     size_t message_size);

  /* Releases an executable of this instance (called before destroy). */
  void (*destroy_executable)(lite_npu_driver* self, lite_npu_executable* executable);

  /* Releases the instance (its name/version strings may go with it). */
  void (*destroy)(lite_npu_driver* self);

  /* ABI 1.1, optional: compiled executables as data, so the engine can
   * store them with the model or in a cache directory. The engine uses them
   * only when struct_size covers them and both functions are non-NULL; a
   * plugin built for 1.0 (smaller struct_size) simply cannot serialize. The
   * engine keys stored bytes by `version` and `cpu_features` among others:
   * change `version` whenever the bytes or the code they hold would differ. */

  /* Writes the bytes of `executable` (of this instance). Called with
   * buffer NULL and capacity 0 first: set *size to the byte count and
   * return OK; then with a buffer of capacity >= *size: write the bytes and
   * set *size to the count written. */
  int32_t (*serialize)(lite_npu_driver* self, const lite_npu_executable* executable,
                       uint8_t* buffer, size_t capacity, size_t* size, char* message,
                       size_t message_size);

  /* Rebuilds an executable of `model` from serialize's bytes without
   * compiling. Bytes that are corrupt, truncated or of another model must
   * be an error (INVALID_ARGUMENT), never a crash or a wrong executable. */
  int32_t (*deserialize)(lite_npu_driver* self, const lite_npu_model* model,
                         const uint8_t* bytes, size_t size,
                         const lite_npu_compile_options* options,
                         lite_npu_executable** executable, char* message, size_t message_size);

  /* The CPU features the compiled code depends on (part of the key), e.g.
   * "x86_64 avx2 fma"; "any" when it holds no machine code; NULL: the
   * engine assumes this machine's features. */
  const char* cpu_features;
};

/* The entry points, looked up by name with dlsym. */
typedef uint32_t (*lite_npu_driver_api_version_fn)(void);
typedef lite_npu_driver* (*lite_npu_driver_create_fn)(void);

#if defined(__GNUC__)
#define LITE_NPU_DRIVER_EXPORT __attribute__((visibility("default")))
#else
#define LITE_NPU_DRIVER_EXPORT
#endif

/* The ABI version the plugin was built for: return
 * LITE_NPU_DRIVER_ABI_VERSION. */
LITE_NPU_DRIVER_EXPORT uint32_t lite_npu_driver_api_version(void);
/* A new driver instance, or NULL on failure (the plugin is then refused).
 * The engine calls it once when loading (to read name and version, then
 * destroys it) and once per driver instance it needs. */
LITE_NPU_DRIVER_EXPORT lite_npu_driver* lite_npu_driver_create(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* LITE_NPU_DRIVER_ABI_H_ */
