/*
 * switches.h - the compiler switches a compile unit recorded, and whether
 * they match the flags a configuration asked for.
 *
 * Where the strings come from (checked with Debian 12's compilers):
 *  - GCC 12 -frecord-gcc-switches: one string per unit in .GCC.command.line,
 *    "GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O3 -O2 ...": the
 *    producer, then the switches in command-line order, with the defaults
 *    GCC implies (-mtune=generic -march=x86-64, -mips3, -mel) included.
 *    Identical strings of several units are merged by the linker.
 *  - GCC's DW_AT_producer (-grecord-gcc-switches, the default with -g): the
 *    same string.
 *  - clang 14 -frecord-command-line: the whole command line,
 *    "/usr/lib/llvm-14/bin/clang -O2 -frecord-command-line -c a.c -o a.o";
 *    with -grecord-command-line the same line follows the version in
 *    DW_AT_producer.
 *
 * How expected flags are compared (switches_check):
 *  - the -O family: the last -O, -O0..-O3, -Os, -Oz, -Ofast, -Og wins
 *    (-O is -O1);
 *  - -fX and -fno-X are one flag, the last wins; -fX=V is keyed by X, and
 *    an expected -fX without a value accepts any -fX=V (-fprofile-use);
 *  - -mX and -mno-X likewise, -mX=V (-march=, -mabi=, -mcpu=, -mtune=,
 *    -mfpu=, ...) keyed by X, the last wins;
 *  - an expected flag of another kind (-g, -D..., -static, -pipe) is not
 *    checked: it leaves no trace per unit.
 * -mips3 and friends are GCC's own record of the ISA level; they are kept as
 * flags of their own (not as -march=) since GCC adds them after -march=.
 */
#ifndef FLAGSCOPE_SWITCHES_H
#define FLAGSCOPE_SWITCHES_H

#include <stddef.h>

#include "base/util.h"

/* Split a recorded line into blank-separated words; a backslash escapes the
 * next character (clang's record quotes blanks that way).  Appends to
 * *words; returns the number added. */
size_t switches_split(const char *line, struct strlist *words);

/* Split a recorded string into the producer (the words before the first
 * word that starts with '-': "GNU C17 12.2.0", "/usr/lib/llvm-14/bin/clang")
 * and the switches (the rest).  Either out-pointer may be NULL; each result
 * is a heap string or NULL when empty.  Returns 1 if the string records at
 * least one switch, else 0. */
int switches_split_producer(const char *recorded, char **producer, char **switches);

/* The source file a recorded clang command line compiled ("a.c"): the
 * first operand that is not an option's argument.  Heap string, or NULL
 * (GCC's records name no file). */
char *switches_source_name(const char *switches);

/* The key that says which flags override one another, written to key:
 * "-O3" -> "O", "-fno-inline" -> "finline", "-march=mips3" -> "march",
 * "-mno-avx" -> "mavx".  Returns 1 for a checked flag, 0 for any other. */
int switches_key(const char *flag, char *key, size_t keysize);

/* Compare the recorded switches of one unit with the expected flags (a
 * string as given on a command line).  For each expected flag that is
 * absent or overridden later, appends to *mismatches a line
 * "LABEL: -O3 expected, -O2 given last" or "LABEL: -O3 expected, absent"
 * (label: "unit foo.c").  Returns the number of lines appended. */
int switches_check(const char *label, const char *switches, const char *expect,
		   struct strlist *mismatches);

/*
 * LTO.  GCC records -flto=auto / -flto=N as "-flto" in each unit compiled
 * for LTO (the value is a job count, not recorded), and the code it
 * optimises at link time as units of its own: producer "GNU GIMPLE 12.2.0",
 * switches ending in -fltrans (named "<artificial>").  A unit compiled with
 * -flto whose code was linked without LTO (fat objects linked with
 * -fno-lto) leaves no such unit.  So switches_check() takes any recorded
 * -flto form for an expected one and does not ask an -fltrans unit for it,
 * and the binary as a whole must hold an -fltrans unit (elf.c).
 */
/* 1 for -flto and -flto=VALUE (not -flto-partition=, -fno-lto). */
int switches_is_lto(const char *flag);
/* 1 when the flags (a command line) ask for LTO: their last -flto form or
 * -fno-lto is an -flto form. */
int switches_want_lto(const char *flags);
/* 1 when the recorded switches hold word as one of their words. */
int switches_has(const char *switches, const char *word);
/* 1 for a unit GCC made at link time (recorded switches with -fltrans). */
int switches_is_ltrans(const char *switches);

#endif
