/*
 * native_cpu.h - what -march=native, -mcpu=native and -mtune=native stand
 * for when a compiler builds on this machine, made explicit: the CPU its
 * driver resolves them to, and the instruction-set features in which this
 * machine's native differs from that CPU's (a virtual machine hides some:
 * here native is znver3 without MWAITX and with SHSTK).
 *
 * The pipeline stores the answer with each configuration that uses a
 * native word (the fact native.ID), on the machine that builds; recommend
 * writes it instead of the word (analysis/recommend.h).
 */
#ifndef FLAGSCOPE_NATIVE_CPU_H
#define FLAGSCOPE_NATIVE_CPU_H

/* The explicit flags for each -march=native, -mcpu=native and
 * -mtune=native word of cflags when command (a compiler command, maybe
 * with options) compiles here, in cflags' order:
 * "-march=znver3 -mno-mwaitx -mshstk -mtune=znver3".
 *   The CPU: from the driver's `-###` (clang's "-target-cpu" and
 *   "-tune-cpu", gcc's cc1 -march=/-mtune=).
 *   The features (after -march=CPU or -mcpu=CPU): -mX / -mno-X for each
 *   upper-case feature macro (__SHSTK__) that `-dM -E` predefines with
 *   native and not with the CPU or the other way round, spelt as clang's
 *   -target-feature list names it where the driver gives one (__AMXTILE__
 *   is -mamx-tile; a macro the list does not name, such as __FLT16_DIG__,
 *   follows from another feature and gives no switch); kept only when
 *   the CPU with them predefines exactly native's feature macros (a flag
 *   the compiler refuses, or one that does not give the macro back, and
 *   the CPU is written alone).
 * Heap string; NULL when cflags has no native word or the compiler names
 * no CPU for any (one it cannot tell is left out). */
char *native_cpu_flags(const char *command, const char *cflags);

#endif
