/*
 * qemu.h - running cross-built programs under qemu-user with the project's
 * instruction-count plugin (harness/qemu-plugin/), for the qemu runner.
 *
 * The emulator follows from the ELF header alone: class, machine and, for
 * MIPS, the e_flags ABI bits (EF_MIPS_ABI2 is n32, otherwise ELFCLASS32 is
 * o32) and the machine extension (Loongson 2E/2F/3).  The CPU models a
 * qemu offers are read from its own `-cpu help`, never from a list kept
 * here, so a newer QEMU is described as it is.
 *
 * How the qemu runner uses this:
 *   qemu_cpu_can_run(elf, study_cpu, &cpu, &why)   1 / 0 UNRUNNABLE / -1
 *   qemu_command(elf, cpu, counts_file, &prefix, &err)  argv words to put
 *       before the program's own argv (qemu, -cpu, -plugin ...)
 *   ... run prefix + argv with the native runner (rusage, timeout) ...
 *   qemu_counts_read(counts_file, &counts, &err)
 * or qemu_run() for all three in one call (tests, `flagscope sysroot`).
 * A measured run (the qemu runner, runner_qemu.c) goes through
 * qemu_plan_init(), which also covers a recipe's script that starts guest
 * programs through $EMU, and qemu_plan_counts() (the qemu-insn meter).
 */
#ifndef FLAGSCOPE_QEMU_H
#define FLAGSCOPE_QEMU_H

#include "harness/qemu-plugin/insn_class.h"
#include "base/util.h"

/* What the ELF header says about the guest.  Strings are static. */
struct qemu_guest {
	const char *qemu; /* "qemu-mips64el", "qemu-mipsn32el", "qemu-mipsel", "qemu-aarch64", ... */
	const char *abi;  /* "n64", "n32", "o32", "lp64" */
	const char *isa;  /* "mips1" ... "mips64r2", "armv8" */
	const char *ext;  /* "loongson-2e", "loongson-2f", "loongson-3a", or NULL */
};

/* Read the guest facts of an ELF executable.  0, or -1 with the reason in
 * err (unreadable, not ELF, or a machine no qemu-user here runs). */
int qemu_guest_read(const char *elf_path, struct qemu_guest *g, struct strbuf *err);

/* The qemu-user binary (a name on PATH, static string) that runs elf_path.
 * 0, or -1 with the reason in err. */
int qemu_pick(const char *elf_path, const char **qemu_binary, struct strbuf *err);

/* The CPU models qemu_binary offers (its `-cpu help`), appended to models.
 * 0, or -1 with the reason in err (not installed, no list). */
int qemu_cpu_models(const char *qemu_binary, struct strlist *models, struct strbuf *err);

/*
 * Can the study's CPU model run this ELF under emulation?
 *  1  yes: *run_cpu is the model to pass to -cpu (cpu itself, or a stand-in
 *     when the emulator lacks it; then reason says which and why, and the
 *     report must show it).  cpu NULL or "" means QEMU's default model.
 *  0  UNRUNNABLE under emulation: reason says why (e.g. qemu-mipsel has no
 *     64-bit CPU model, and o32 Loongson 2F code uses multu.g, on which
 *     every 32-bit model traps).  The configuration stays in the study for
 *     a real board.
 * -1  could not tell (ELF unreadable, qemu not installed): reason says why.
 * *run_cpu points into static storage or at cpu.
 */
int qemu_cpu_can_run(const char *elf_path, const char *cpu, const char **run_cpu,
		     struct strbuf *reason);

/* The plugin's path: $FLAGSCOPE_QEMU_PLUGIN, else an installed binary's
 * own (PREFIX/lib/flagscope, base/paths.h), else the one this build made.
 * NULL (with the reason in err) when neither exists. */
const char *qemu_plugin_path(struct strbuf *err);

/* The argv words that go before the program's argv to run elf_path under
 * its qemu on model cpu (NULL: QEMU's default), counting instructions into
 * counts_path (NULL: no plugin).  0, or -1 with the reason in err. */
int qemu_command(const char *elf_path, const char *cpu, const char *counts_path,
		 struct strlist *prefix, struct strbuf *err);

/* The plugin's counts file. */
struct qemu_counts {
	char target[32]; /* QEMU's target name, "mips64el" */
	char mode[8];    /* "tb" or "insn" */
	unsigned long long insns;
	unsigned long long by_class[INSN_NCLASSES]; /* names: insn_class_names[] */
};

/* Parse a counts file.  0; -1 with the reason in err (missing — the
 * guest did not get to exit —, malformed); -2 when its classes do not add
 * up to insns: the plugin's inline counters are not atomic (plugin API 1),
 * so a guest that ran threads lost updates and no count of it is exact. */
int qemu_counts_read(const char *path, struct qemu_counts *c, struct strbuf *err);

/* One run of argv (argv[0] is the ELF) under qemu with the plugin.
 * Returns the run's exit status as run_capture() does (0..255, 128+signal),
 * or -1 with the reason in err when qemu could not run it or the counts
 * could not be read.  output (may be NULL) gets stdout+stderr; counts is
 * filled when the return is not -1. */
int qemu_run(char *const argv[], const char *cpu, struct qemu_counts *counts, char **output,
	     struct strbuf *err);

/*
 * Does path run on this machine rather than under qemu?  A recipe's run
 * may start a script (gzip's roundtrip.sh) that runs the build's guest
 * programs itself.  1: native (not an ELF file - a script -, or an ELF for
 * this machine); 0: an ELF for another machine (qemu_guest_read() says
 * whether a qemu here runs it); -1: unreadable, with the reason in err.
 */
int qemu_runs_natively(const char *path, struct strbuf *err);

/*
 * How one run of a cross-built build goes under emulation.
 *
 * An ELF argv[0] runs under its qemu with the plugin counting into counts.
 * A script argv[0] (qemu_runs_natively) runs here, with EMU=emu in its
 * environment: emu is a small wrapper that runs its arguments under the
 * qemu of the build's guest programs, on cpu, with the plugin counting each
 * guest process it starts into counts.<pid>.  A script writes `$EMU "$prog"
 * args` (unquoted $EMU, which is empty natively); its insns are the sum
 * over those guest processes - the shell and the native tools it runs
 * (cmp) are not counted.
 */
struct qemu_plan {
	const char *cpu;  /* the -cpu model (NULL: QEMU's default); static or the study's */
	char *stand_in;   /* why cpu is not the study's model, for the report; or NULL */
	char *counts;     /* the counts file; a script's guests write counts.<pid> */
	int script;       /* argv[0] runs natively and starts its guests through $EMU */
	char *emu;        /* script only: the wrapper's path, the run's $EMU */
	char *emu_plain;  /* $EMU for uncounted steps (a recipe's tolerate): blank-separated
			     words, "qemu-mipsel -cpu 24Kf" */
};

/*
 * Plan a run of argv0 from a build whose own programs are guests[] (full
 * paths, NULL-terminated: the one a script's $EMU runs is the first guest
 * ELF among them), on the study's model cpu (NULL or "": QEMU's default).
 * scratch is a path prefix for the files the run writes (counts, wrapper).
 * Returns as qemu_cpu_can_run(): 1 (p filled; release it), 0 UNRUNNABLE,
 * -1 could not tell; on 0 and -1 the reason is in why and p holds nothing.
 */
int qemu_plan_init(struct qemu_plan *p, const char *argv0, char *const guests[], const char *cpu,
		   const char *scratch, struct strbuf *why);

/*
 * The planned run's instruction counts, summed over its guest processes:
 * counts itself (an ELF run: required, it is the program) and every
 * counts.* (forked guest children, or one file per program a script
 * started through $EMU).  The files are removed.  *nproc (may be NULL)
 * gets how many processes were counted.  0; -1 with the reason in err (the
 * program did not reach exit, a script started no guest, a malformed
 * file); -2 as qemu_counts_read() (a threaded guest's counts raced).
 */
int qemu_plan_counts(const struct qemu_plan *p, struct qemu_counts *c, int *nproc,
		     struct strbuf *err);

/* Frees what p holds and removes the wrapper and any counts left. */
void qemu_plan_release(struct qemu_plan *p);

#endif
