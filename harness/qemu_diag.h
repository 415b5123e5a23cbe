/*
 * qemu_diag.h - why did an emulated program die of SIGILL?  It is run once
 * more under qemu's GDB stub and gdb-multiarch reads the faulting
 * instruction and the function it is in, e.g. "dext v1,a0,0x0,0x20 in
 * __tunable_get_val+8": code the CPU model cannot execute (a release-2
 * instruction on a MIPS III Loongson 2F).
 */
#ifndef FLAGSCOPE_QEMU_DIAG_H
#define FLAGSCOPE_QEMU_DIAG_H

#include "base/util.h"

/* argv[0] is the program (an ELF of the guest), cpu the model (NULL:
 * QEMU's default).  Returns 0 with a one-line diagnosis in *detail (heap),
 * or -1 with the reason it could not tell (gdb-multiarch missing, no trap
 * this time) in *detail. */
int qemu_diagnose_trap(char *const argv[], const char *cpu, const char *cwd,
		       const char *stdin_path, char **detail);

#endif
