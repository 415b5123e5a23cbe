/*
 * runner_qemu.c - a cross-built program run by qemu-user on the exact CPU
 * model, with flagscope's TCG plugin counting the instructions it executes.
 * The emulator is chosen from the program's ELF header (harness/qemu.c);
 * timing and limits are the native runner's.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/qemu.h"
#include "harness/runner.h"

static int qemu_exec(const struct run_spec *spec, struct run_result *res, struct strbuf *err)
{
	struct strlist argv = {0};
	if (qemu_command(spec->argv[0], spec->emu_cpu, spec->emu_counts, &argv, err))
		return -1;
	/* the runner execs without a shell: the emulator needs its full path */
	char *qemu = argv.n ? path_lookup(argv.v[0]) : NULL;
	if (!qemu) {
		sb_addf(err, "%s is not installed (apt-get install qemu-user)", argv.n ? argv.v[0] : "qemu");
		sl_release(&argv);
		return -1;
	}
	free(argv.v[0]);
	argv.v[0] = qemu;
	for (size_t i = 0; spec->argv[i]; i++)
		sl_push(&argv, spec->argv[i]);
	sl_push_owned(&argv, NULL);
	argv.n--;
	struct run_spec native = *spec;
	native.argv = argv.v;
	native.exit_memory = 0; /* it would measure QEMU, not the program */
	int rc = runner_native.exec(&native, res, err);
	sl_release(&argv);
	return rc;
}

const struct runner_ops runner_qemu = {
	.name = "qemu",
	.exec = qemu_exec,
};
