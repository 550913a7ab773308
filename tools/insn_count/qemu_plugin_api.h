/* The part of QEMU's TCG plugin API (version 1, as in QEMU 4.2 to 8.0 and
 * Debian 12's qemu-user 7.2) that the instruction counter uses. No Debian
 * package ships QEMU's qemu-plugin.h, so these declarations are written from
 * its documented API: the plugin exports qemu_plugin_install and the
 * qemu_plugin_version it was built against; the other functions are resolved
 * in the qemu-user executable that loads the plugin (dlopen of a shared
 * library with undefined references to them). The enum values and the
 * signatures must match QEMU's exactly: they are the ABI. */
#ifndef TOOLS_INSN_COUNT_QEMU_PLUGIN_API_H_
#define TOOLS_INSN_COUNT_QEMU_PLUGIN_API_H_

#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

/* The API version this plugin is written against; QEMU refuses a plugin
 * whose qemu_plugin_version is outside its [min, cur] range. */
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;

/* Details of the guest, only read through a pointer here (never by field). */
typedef struct qemu_info_t qemu_info_t;

/* Opaque handles of a translation block and of one of its instructions,
 * valid during the translation callback. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
  QEMU_PLUGIN_CB_NO_REGS,
  QEMU_PLUGIN_CB_R_REGS,
  QEMU_PLUGIN_CB_RW_REGS,
};

/* Inline operations QEMU emits into the translated code itself. */
enum qemu_plugin_op {
  QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void* userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb* tb);

/* Defined by the plugin. */
extern QEMU_PLUGIN_EXPORT int qemu_plugin_version;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t* info, int argc,
                                           char** argv);

/* Provided by QEMU. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb* tb,
                                          qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags,
                                          void* userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb,
                                              enum qemu_plugin_op op,
                                              void* ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb,
                                                 size_t idx);
/* The instruction's address in qemu's own (host) memory: in qemu-user the
 * guest's memory is mapped into the host process, a file's pages included. */
void* qemu_plugin_insn_haddr(const struct qemu_plugin_insn* insn);
/* The symbol of the instruction's address from the symbol tables qemu loaded
 * (the main executable's), or NULL. */
const char* qemu_plugin_insn_symbol(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void* userdata);
/* Writes through QEMU's log: shown only with `-d plugin` (`-D FILE` sends it
 * to a file). */
void qemu_plugin_outs(const char* string);

#endif /* TOOLS_INSN_COUNT_QEMU_PLUGIN_API_H_ */
