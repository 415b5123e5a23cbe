/*
 * toolchain.h - C compilers: what they are and how to tell two apart.
 *
 * A toolchain's identity is a hash of its resolved path and its `-v`
 * output, so an upgraded compiler never reuses builds of the old one.
 */
#ifndef FLAGSCOPE_TOOLCHAIN_H
#define FLAGSCOPE_TOOLCHAIN_H

#include "base/util.h"

enum toolchain_kind { TC_GCC, TC_CLANG, TC_OTHER };

struct toolchain {
	char *command;  /* as given: "gcc", "clang-14", "musl-gcc" */
	char *path;     /* resolved absolute path of the executable */
	enum toolchain_kind kind;
	char *version;  /* "gcc version 12.2.0 (Debian 12.2.0-14)" */
	char *target;   /* -dumpmachine: "x86_64-linux-gnu" */
	char id[17];
};

/* Resolve and identify one compiler command (a word, maybe followed by
 * options, e.g. "clang --target=aarch64-linux-gnu").  Returns 0, or -1
 * with a reason in err ("gcc-13: not found on PATH (install it or fix the
 * [axis cc] level)"). */
int toolchain_probe(const char *command, struct toolchain *t, struct strbuf *err);
void toolchain_release(struct toolchain *t);

/* The flags that make this compiler record its switches in the object,
 * unit by unit: -g -frecord-gcc-switches (gcc), -g -frecord-command-line
 * (clang).  -g names the units; section sizes count allocated sections
 * only, so debug information does not enter size metrics. */
const char *toolchain_record_flag(const struct toolchain *t);

/* The version line of the linker the compiler command cc links with
 * under fuse ("-fuse-ld=lld", or "" for its default): "Debian LLD 14.0.6
 * (compatible with GNU linkers)", from `cc [fuse] -Wl,--version`; "unknown
 * linker" when it cannot say (no such linker).  Asked once per cc and
 * fuse in a process.  Heap string. */
char *toolchain_linker_version(const char *cc, const char *fuse);

/* Every C compiler on PATH: gcc, gcc-N, clang, clang-N, cc, and cross
 * compilers named TRIPLE-gcc[-N].  Sorted by command name. */
int toolchains_discover(struct toolchain **list, size_t *n);
void toolchains_free(struct toolchain *list, size_t n);

#endif
