/* A QEMU TCG plugin that counts the guest instructions a program executes
 * under qemu-user and reports the total when the program exits:
 *
 *   qemu-aarch64 -plugin libinsn_count.so[,out=FILE][,mode=exact] PROGRAM ...
 *
 * Each translated block adds its instruction count when it starts executing
 * (a block is entered at its start and runs to its end except on a fault, so
 * this is the usual block-granular count). The total goes to FILE (one line,
 * "insns N", the file replaced) or, without out=, through QEMU's log
 * (`-d plugin`).
 *
 * mode=inline (the default): QEMU adds to one counter inside the translated
 * code, the fastest way; the adds are not atomic, so when several guest
 * threads run at once some can be lost. mode=exact: a callback per executed
 * block adds to a counter of its own per vCPU (qemu-user runs each guest
 * thread as a vCPU), exact with any number of threads, somewhat slower; it
 * adds a line "vcpu0 N", the instructions of the guest's first thread (the
 * main thread, which runs a single-threaded inference; helper threads, such
 * as Node.js's compiler and garbage collector, are left out of it).
 * The engine's single-threaded runs are exact either way; a multi-threaded
 * guest (Node.js runs helper threads) wants mode=exact. */
#include <stdio.h>
#include <string.h>

#include "tools/insn_count/qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* vCPUs beyond this many share the last slot with atomic adds. */
#define kSlots 1024

/* One cache line per vCPU, so threads do not contend on a line. */
struct Slot {
  uint64_t n;
  char pad[56];
};

static uint64_t inline_count;
static struct Slot per_vcpu[kSlots];
static int exact_mode;
static char out_path[4096];

static void OnBlockExec(unsigned int vcpu, void* userdata) {
  uint64_t n = (uint64_t)(uintptr_t)userdata;
  if (vcpu < kSlots - 1) {
    per_vcpu[vcpu].n += n;
  } else {
    __atomic_fetch_add(&per_vcpu[kSlots - 1].n, n, __ATOMIC_RELAXED);
  }
}

static void OnBlockTranslate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  if (exact_mode) {
    qemu_plugin_register_vcpu_tb_exec_cb(tb, OnBlockExec, QEMU_PLUGIN_CB_NO_REGS,
                                         (void*)(uintptr_t)n);
  } else {
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             &inline_count, n);
  }
}

static void OnExit(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  uint64_t total = inline_count;
  for (int i = 0; i < kSlots; ++i) total += per_vcpu[i].n;
  char line[96];
  int len = snprintf(line, sizeof(line), "insns %llu\n", (unsigned long long)total);
  if (exact_mode) {
    snprintf(line + len, sizeof(line) - len, "vcpu0 %llu\n",
             (unsigned long long)per_vcpu[0].n);
  }
  if (out_path[0] == '\0') {
    qemu_plugin_outs(line);
    return;
  }
  FILE* f = fopen(out_path, "w");
  if (f == NULL || fputs(line, f) == EOF || fclose(f) != 0) {
    fprintf(stderr, "insn_count: cannot write %s\n", out_path);
  }
}

/* Arguments are "key=value"; an unknown key or value refuses the load, so no
 * accepted option is ignored. */
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t* info, int argc,
                                           char** argv) {
  (void)info;
  for (int i = 0; i < argc; ++i) {
    const char* a = argv[i];
    if (strncmp(a, "out=", 4) == 0 && strlen(a + 4) < sizeof(out_path)) {
      strcpy(out_path, a + 4);
    } else if (strcmp(a, "mode=exact") == 0) {
      exact_mode = 1;
    } else if (strcmp(a, "mode=inline") == 0) {
      exact_mode = 0;
    } else {
      fprintf(stderr, "insn_count: unknown argument '%s' (out=FILE, mode=inline|exact)\n", a);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, OnBlockTranslate);
  qemu_plugin_register_atexit_cb(id, OnExit, NULL);
  return 0;
}
