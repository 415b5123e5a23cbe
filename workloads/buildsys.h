/*
 * buildsys.h - recipes without a build script: `[build] system = NAME`
 * builds $SRC with a common build system, passing the configuration's CC,
 * CFLAGS, LDFLAGS and HOST the way that system expects (doc/recipe-format.md
 * describes the keys).  A system writes a /bin/sh script from the recipe
 * alone; harness/build.c runs it where it would run a recipe's own script,
 * in the same environment (CC CFLAGS LDFLAGS SRC RECIPE HOST SYSROOT JOBS
 * FLAGSCOPE_CONFIG_CACHE).  The script decides static and cross builds at
 * run time from that environment (-static among LDFLAGS, HOST set), so one
 * recipe has one script, and the script is part of every build key: a
 * change to a system's commands rebuilds.
 *
 * What every system does alike:
 *   - out of tree (make: in a copy of the tree, as most Makefiles cannot
 *     build elsewhere), the cached source is never written;
 *   - the project's own libraries are built static, so every unit of the
 *     project is inside the binaries that verify reads; link = static also
 *     links the system's libraries statically;
 *   - the build type adds no flags of its own (CMake None, meson plain, as
 *     Debian's debhelper builds them), so CFLAGS are the only -O flags.
 *
 * How to add a build system: write its script function in buildsys.c, fill
 * a `const struct buildsys_ops`, list it in build_systems[] (the order is
 * the guess order), describe it in doc/recipe-format.md and add a fixture to
 * tests/fixtures/workloads/ run by tests/it_buildsys.sh.
 */
#ifndef FLAGSCOPE_BUILDSYS_H
#define FLAGSCOPE_BUILDSYS_H

#include "base/util.h"

struct recipe;

/* A recipe's [build] keys for a system; strings are owned, NULL when the
 * recipe does not set them.  options, args and targets are shell words
 * (quotes and $CFLAGS work). */
struct recipe_system {
	char *name;    /* "autotools", "cmake", "meson", "make", "debian" */
	char *options; /* the configure step's extra arguments (make: make's) */
	char *args;    /* build_args: the build step's (make, ninja) extra arguments */
	char *targets; /* what to build (default: everything) */
	char *subdir;  /* where the build files are, relative to $SRC */
};

struct buildsys_ops {
	const char *name;
	/* files whose presence at a tree's top says the tree uses this system */
	const char *const *marks;
	/* Append the build script for r (r->system.name is this system). */
	void (*script)(const struct recipe *r, struct strbuf *sb);
	/* Optional: NULL when the mark file at path (one of marks) is this
	 * system's, else why not (a static string, for the guess's note). */
	const char *(*doubt)(const char *mark, const char *path);
	/* 1: builds a distribution's source package (debian): its shipped
	 * files are found after the build (harness/debpkg.h), so a recipe
	 * needs no binaries = and no [run] section, and a package named
	 * without a recipe is a workload (recipe_package) */
	int package;
};

/* Every build system, NULL-terminated, in the order buildsys_guess tries
 * them (debhelper's: configure before CMake before meson before make). */
extern const struct buildsys_ops *const build_systems[];
/* 0, or -1 with what is wrong with build_systems[] (at start-up: a bug). */
int build_systems_check(struct strbuf *err);

const struct buildsys_ops *buildsys_lookup(const char *name);
/* "autotools, cmake, meson, make", for messages; static string. */
const char *buildsys_names(void);

/* The system a source tree uses, from the files at its top, or NULL when
 * none is recognised.  *mark (mark may be NULL) is the file it was told
 * by.  A mark file its system doubts (a configure Autoconf did not make
 * that prints "use cmake" or runs cmake) is passed over: the guess goes
 * on to the next system, and "the tree's configure is not for autotools
 * (...)" is appended to notes (may be NULL; "; " between notes). */
const struct buildsys_ops *buildsys_guess(const char *tree, const char **mark,
					  struct strbuf *notes);

/* 1 when r is built by a package system (ops->package): debian */
int recipe_is_package(const struct recipe *r);

/* Fill r as the workload of Debian source package name without a recipe:
 * source debian:NAME patched, system = debian, no [run] section; its hash
 * names the package (the build key adds the system's script).  name is
 * not checked here (the debian fetcher refuses a bad one). */
void recipe_package(struct recipe *r, const char *name);

/* system = debian run by root builds as the user nobody in a copy of the
 * tree, the folder mktemp makes from this prefix; the script names it in
 * BUILD_DIR/DEBIAN_USER_TREE while it lives and removes both when it ends
 * (a build killed with SIGKILL cannot: harness/debpkg.h removes it). */
#define DEBIAN_USER_TREE_PREFIX "/var/tmp/flagscope-deb."
#define DEBIAN_USER_TREE "user-tree"

/* The script a build runs for r: its own [build] script, or the one its
 * system writes.  Heap string; never NULL for a loaded recipe. */
char *recipe_build_script(const struct recipe *r);

void recipe_system_release(struct recipe_system *s);

#endif
