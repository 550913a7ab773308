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
 * guest (Node.js runs compiler and garbage-collector threads) wants mode=exact.
 *
 * blocks=FILE (implies mode=exact) attributes the count: one line per
 * translated block that ran, "INSNS FILE OFFSET SYMBOL", its instructions
 * executed (runs x length, all threads; the per-block adds are not atomic,
 * so meant for one-thread guests), the file its code was mapped from and
 * the offset of its first instruction in that file (from the host's
 * /proc/self/maps: qemu-user maps the guest's files into its own memory),
 * and the symbol qemu knows for it (the main executable's) or "-".
 * tools/insn_profile.sh turns these lines into a table per function. */
#include <stdio.h>
#include <stdlib.h>
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

/* A translated block in blocks= mode (a list, written out at exit). */
struct Block {
  uint64_t n;     /* instructions */
  uint64_t runs;  /* times executed */
  uintptr_t haddr;
  const char* symbol;
  struct Block* next;
};

static uint64_t inline_count;
static struct Slot per_vcpu[kSlots];
static int exact_mode;
static char out_path[4096];
static char blocks_path[4096];
static struct Block* blocks;

static void AddToVcpu(unsigned int vcpu, uint64_t n) {
  if (vcpu < kSlots - 1) {
    per_vcpu[vcpu].n += n;
  } else {
    __atomic_fetch_add(&per_vcpu[kSlots - 1].n, n, __ATOMIC_RELAXED);
  }
}

static void OnBlockExec(unsigned int vcpu, void* userdata) {
  AddToVcpu(vcpu, (uint64_t)(uintptr_t)userdata);
}

static void OnProfiledBlockExec(unsigned int vcpu, void* userdata) {
  struct Block* b = (struct Block*)userdata;
  ++b->runs;
  AddToVcpu(vcpu, b->n);
}

static void OnBlockTranslate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  if (blocks_path[0] != '\0') {
    struct Block* b = calloc(1, sizeof(*b));
    if (b == NULL) abort();
    struct qemu_plugin_insn* first = qemu_plugin_tb_get_insn(tb, 0);
    b->n = n;
    b->haddr = (uintptr_t)qemu_plugin_insn_haddr(first);
    b->symbol = qemu_plugin_insn_symbol(first);
    b->next = blocks;
    blocks = b;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, OnProfiledBlockExec, QEMU_PLUGIN_CB_NO_REGS, b);
  } else if (exact_mode) {
    qemu_plugin_register_vcpu_tb_exec_cb(tb, OnBlockExec, QEMU_PLUGIN_CB_NO_REGS,
                                         (void*)(uintptr_t)n);
  } else {
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             &inline_count, n);
  }
}

/* Writes blocks= lines, each block's host address found in the host's
 * file mappings (lines of /proc/self/maps: "START-END PERMS OFFSET DEV
 * INODE PATH"). */
static void WriteBlocks(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  FILE* f = fopen(blocks_path, "w");
  if (maps == NULL || f == NULL) {
    fprintf(stderr, "insn_count: cannot read /proc/self/maps or write %s\n", blocks_path);
    if (maps != NULL) fclose(maps);
    if (f != NULL) fclose(f);
    return;
  }
  enum { kMaxMaps = 8192 };
  static uintptr_t start[kMaxMaps], end[kMaxMaps], offset[kMaxMaps];
  static char path[kMaxMaps][256];
  int count = 0;
  char line[4096];
  while (count < kMaxMaps && fgets(line, sizeof(line), maps) != NULL) {
    unsigned long s, e, o;
    char perms[8];
    int consumed = 0;
    if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &s, &e, perms, &o, &consumed) < 4) continue;
    char* p = line + consumed;
    p[strcspn(p, "\n")] = '\0';
    if (*p == '\0') continue;  /* anonymous */
    start[count] = s;
    end[count] = e;
    offset[count] = o;
    snprintf(path[count], sizeof(path[count]), "%s", p);
    ++count;
  }
  fclose(maps);
  for (struct Block* b = blocks; b != NULL; b = b->next) {
    if (b->runs == 0) continue;
    const char* file = "?";
    uintptr_t at = b->haddr;
    for (int i = 0; i < count; ++i) {
      if (b->haddr >= start[i] && b->haddr < end[i]) {
        file = path[i];
        at = b->haddr - start[i] + offset[i];
        break;
      }
    }
    fprintf(f, "%llu %s %lx %s\n", (unsigned long long)(b->runs * b->n), file,
            (unsigned long)at, b->symbol != NULL ? b->symbol : "-");
  }
  if (fclose(f) != 0) fprintf(stderr, "insn_count: cannot write %s\n", blocks_path);
}

static void OnExit(qemu_plugin_id_t id, void* userdata) {
  (void)id;
  (void)userdata;
  if (blocks_path[0] != '\0') WriteBlocks();
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
    } else if (strncmp(a, "blocks=", 7) == 0 && strlen(a + 7) < sizeof(blocks_path)) {
      strcpy(blocks_path, a + 7);
      exact_mode = 1;
    } else if (strcmp(a, "mode=exact") == 0) {
      exact_mode = 1;
    } else if (strcmp(a, "mode=inline") == 0 && blocks_path[0] == '\0') {
      exact_mode = 0;
    } else {
      fprintf(stderr, "insn_count: unknown argument '%s' (out=FILE, mode=inline|exact, blocks=FILE)\n", a);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, OnBlockTranslate);
  qemu_plugin_register_atexit_cb(id, OnExit, NULL);
  return 0;
}
