/*
 * qemu-plugin-api.h - the part of QEMU's TCG plugin API (API version 1, as
 * shipped by QEMU 7.2 in Debian 12) that insn_count.c uses, declared by the
 * project.
 *
 * Why declare it here rather than take include/qemu/qemu-plugin.h from the
 * qemu source package at build time: Debian ships the header in no binary
 * package, and `apt-get source qemu` downloads and unpacks ~130 MB to read
 * one file, on every fresh CI machine.  The functions below are QEMU's
 * documented, exported plugin interface; QEMU checks the plugin's declared
 * `qemu_plugin_version` against what it supports when it loads the plugin,
 * so a mismatch fails loudly at load time, never silently.
 *
 * Contract (from QEMU's documentation of API version 1):
 *  - qemu_plugin_install() is called once at load; returning non-zero
 *    refuses the load.  argv holds the "key=value" plugin arguments.
 *  - the tb_trans callback runs when a translation block is translated;
 *    inline operations registered there run every time it executes.
 *  - QEMU_PLUGIN_INLINE_ADD_U64 adds imm to the uint64_t at ptr; it is not
 *    atomic, so counts of multi-threaded guests may race.
 *  - qemu_plugin_insn_data() points at the instruction's bytes in guest
 *    byte order, valid during the tb_trans callback only.
 *  - atexit callbacks run when the guest exits, including exits by a fatal
 *    signal in user mode.
 */
#ifndef FLAGSCOPE_QEMU_PLUGIN_API_H
#define FLAGSCOPE_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_API_VERSION 1

typedef uint64_t qemu_plugin_id_t;

typedef struct qemu_info_t {
	const char *target_name; /* "mips64el", "mipsn32el", "mipsel", "aarch64" */
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

void qemu_plugin_outs(const char *string);

#endif
