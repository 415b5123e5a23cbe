/*
 * identical.h - whether two builds made the same program: a hash of what
 * the loader maps, not of the whole file.
 *
 * The code identity of an ELF binary is the SHA-256 over its loadable
 * sections (SHF_ALLOC) in file order: each one's name, type, flags,
 * address and size, and its bytes (for SHT_NOBITS, such as .bss, only the
 * size).  Left out are what a compiler writes about the build rather than
 * the program: notes (SHT_NOTE: .note.gnu.build-id, which hashes the
 * whole file, command line included) and every section not loaded
 * (.GCC.command.line from -frecord-gcc-switches, .comment, debug
 * information, symbol tables).  So `-O2` and `-O2 -Wall` give the same
 * identity when the code is the same; a flag that changes one byte of
 * code or data, or an address, gives another.  A file that is not ELF
 * (a script) is hashed whole.
 */
#ifndef FLAGSCOPE_IDENTICAL_H
#define FLAGSCOPE_IDENTICAL_H

#include "harness/build.h"

/* The code identity of one file (64 hex digits and a NUL in out).  0, or
 * -1 when it cannot be read (out untouched). */
int binary_code_hash(const char *path, char out[65]);

/* A build's: over each binary of its recipe, name and code identity, in
 * the recipe's order.  0, or -1 when the build failed or a binary cannot
 * be read. */
int build_code_hash(const struct build *b, char out[65]);

/* What a run of a configuration's binary depends on besides its code:
 * the emulated CPU model, the target (so the runner: native or
 * qemu-ARCH), the libc and sysroot its loader and libraries come from,
 * the linkage; one line each.  Two configurations share runs only when
 * their code and this agree (pipeline/identical.c).  Heap string. */
char *config_execution_key(const struct config *cfg);

/* A build's binaries as files: over each, name and SHA-256 of its bytes,
 * in the recipe's order (what a stored run records as the binary that
 * made it: analysis/store.h).  0, or -1 as build_code_hash. */
int build_binary_hash(const struct build *b, char out[65]);

#endif
