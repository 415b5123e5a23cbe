/*
 * insn_count.c - QEMU TCG plugin: count executed guest instructions, in
 * total and by class (harness/qemu-plugin/insn_class.h), with inline
 * counters, and write the totals at exit.
 *
 *   qemu-mips64el -cpu Loongson-2F -plugin libinsncount.so,out=FILE[,mode=tb|insn] PROG
 *
 * out=FILE  where to write the counts (default: QEMU's log, i.e. stderr)
 * mode=tb   (default) one inline add per class per translation block
 * mode=insn one inline add per instruction; the same counts, slower; kept
 *           to cross-check the tb mode and to measure its cost
 *
 * The file is "key=value" lines: plugin, api, target, mode, then insns and
 * one line per class; insns is the sum of the classes.  A forked guest
 * child writes to FILE.<pid> so the parent's file stays its own.
 *
 * What counts as executed: every instruction whose translated code is
 * entered.  A MIPS branch-likely's annulled delay slot is counted, in both
 * modes, because QEMU places the plugin's instruction hook before the annul
 * test; a block left in the middle by a fault counts its whole rest in tb
 * mode.  Counts of multi-threaded guests may race (inline adds are not
 * atomic in plugin API 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "insn_class.h"
#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_API_VERSION;

enum isa { ISA_UNKNOWN, ISA_MIPS_LE, ISA_MIPS_BE, ISA_AARCH64 };

static struct {
	uint64_t insns;
	uint64_t by_class[INSN_NCLASSES];
} counts;

static char *out_path;
static char target[32];
static enum isa isa;
static int per_insn;
static pid_t install_pid;

static uint32_t insn_word(const struct qemu_plugin_insn *insn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 4)
		return 0;
	if (isa == ISA_MIPS_BE)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

static enum insn_class classify(const struct qemu_plugin_insn *insn)
{
	switch (isa) {
	case ISA_MIPS_LE:
	case ISA_MIPS_BE:
		return insn_class_mips(insn_word(insn));
	case ISA_AARCH64:
		return insn_class_aarch64(insn_word(insn));
	default:
		return INSN_OTHER;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t per_class[INSN_NCLASSES] = {0};

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		enum insn_class c = classify(insn);

		if (per_insn) {
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &counts.insns, 1);
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &counts.by_class[c], 1);
		}
		per_class[c]++;
	}
	if (per_insn)
		return;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &counts.insns, n);
	for (int c = 0; c < INSN_NCLASSES; c++)
		if (per_class[c])
			qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
								 &counts.by_class[c], per_class[c]);
}

static void write_counts(FILE *f)
{
	fprintf(f, "plugin=flagscope-insncount\napi=%d\ntarget=%s\nmode=%s\ninsns=%llu\n",
		QEMU_PLUGIN_API_VERSION, target, per_insn ? "insn" : "tb",
		(unsigned long long)counts.insns);
	for (int c = 0; c < INSN_NCLASSES; c++)
		fprintf(f, "%s=%llu\n", insn_class_names[c], (unsigned long long)counts.by_class[c]);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	char *path = out_path, *child_path = NULL;
	FILE *f;

	(void)id;
	(void)userdata;
	if (!out_path) {
		char *buf = NULL;
		size_t len = 0;
		f = open_memstream(&buf, &len);
		if (!f)
			return;
		write_counts(f);
		fclose(f);
		qemu_plugin_outs(buf);
		free(buf);
		return;
	}
	if (getpid() != install_pid) {
		size_t len = strlen(out_path) + 24;
		child_path = malloc(len);
		if (!child_path)
			return;
		snprintf(child_path, len, "%s.%ld", out_path, (long)getpid());
		path = child_path;
	}
	f = fopen(path, "w");
	if (f) {
		write_counts(f);
		if (fclose(f))
			qemu_plugin_outs("insncount: could not write the counts file\n");
	} else {
		qemu_plugin_outs("insncount: could not open the counts file\n");
	}
	free(child_path);
}

static enum isa isa_of(const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(name, "aarch64"))
		return ISA_AARCH64;
	if (!strncmp(name, "mips", 4))
		return (len > 2 && !strcmp(name + len - 2, "el")) ? ISA_MIPS_LE : ISA_MIPS_BE;
	return ISA_UNKNOWN;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			free(out_path);
			out_path = strdup(argv[i] + 4);
		} else if (!strcmp(argv[i], "mode=tb")) {
			per_insn = 0;
		} else if (!strcmp(argv[i], "mode=insn")) {
			per_insn = 1;
		} else {
			fprintf(stderr, "insncount: unknown argument '%s' (use out=FILE, mode=tb|insn)\n",
				argv[i]);
			return -1;
		}
	}
	snprintf(target, sizeof(target), "%s", info->target_name ? info->target_name : "unknown");
	isa = isa_of(target);
	install_pid = getpid();
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
