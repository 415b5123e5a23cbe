/*
 * libc.h - the C library axis: glibc, musl, dietlibc.  Each is one const
 * struct libc_ops in libcs[] (libc.c): how to drive the compiler for it,
 * whether a linkage can exist on this machine, and how to tell from a
 * binary that it really is linked against it.
 *
 * How to add a C library (or a sysroot): fill a struct libc_ops, add it to
 * libcs[], add its level name to the study docs.
 */
#ifndef FLAGSCOPE_LIBC_H
#define FLAGSCOPE_LIBC_H

#include "harness/elf.h"
#include "base/util.h"

/* How a libc reaches a cross target (a configuration with target =). */
enum libc_cross {
	LIBC_CROSS_NONE,     /* it does not: the configuration is unsupported */
	LIBC_CROSS_DISTRO,   /* the distribution's TRIPLE-gcc and its libc, linked static */
	LIBC_CROSS_SYSROOT,  /* a sysroot built with the target's flags (harness/sysroot.h) */
};

struct libc_ops {
	const char *name;
	enum libc_cross cross;
	const char *cross_help; /* what it cross-compiles with, for messages */
	/* The compiler command that builds against this libc, from the
	 * configuration's compiler and linkage (1 static, 0 dynamic, -1 not
	 * said).  0 with *cmd (heap), or -1 with why this combination cannot
	 * exist here ("dietlibc has no shared library on this machine"). */
	int (*driver)(const char *cc, int link, char **cmd, struct strbuf *why);
	/* 0 when the linked binary uses this libc; -1 with what it uses
	 * instead. */
	int (*check)(const char *path, const struct elf_facts *f, struct strbuf *why);
};

/* 0, or -1 with what is wrong with libcs[] (at start-up: a bug). */
int libcs_check(struct strbuf *err);

/* NULL when unknown */
const struct libc_ops *libc_lookup(const char *name);
/* How a configuration with this libc level (NULL: none, which builds a
 * sysroot as musl does) reaches a cross target. */
enum libc_cross libc_cross_kind(const char *name);
/* "glibc (Debian's cross libc) or musl (a built sysroot)": the libcs that
 * cross-compile, for a refusal (heap). */
char *libc_cross_names(void);
/* "glibc musl dietlibc" */
const char *libc_names(void);

/* 1 when the file's symbol table (or dynamic symbols) defines name, 0 when
 * not, -1 when it has no symbol table (stripped) or cannot be read. */
int elf_defines_symbol(const char *path, const char *name);

#endif
