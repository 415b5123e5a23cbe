/*
 * pgo.h - profile-guided builds: the study's pgo axis, level gen-use.
 *
 * A gen-use build is made in two phases, each a build of its own:
 *  1. the instrumented build (PGO_GENERATE: gcc -fprofile-generate, clang
 *     -fprofile-instr-generate), cached under its own key like any build,
 *     never measured;
 *  2. the recipe's training run on it (recipe_train_run(): a [train]
 *     section with another, smaller input than the measured runs), whose
 *     profile (gcc: .gcda files; clang: .profraw files merged by the
 *     llvm-profdata beside the compiler) the measured build uses
 *     (PGO_USE: -fprofile-use -fprofile-correction, -fprofile-instr-use).
 * The profile's hash is part of the measured build's key, so another
 * training run (or another instrumented build) rebuilds it.  Cross
 * configurations are refused (the training run would run under QEMU).
 *
 *   pgo_train_all(builds, n, jobs, stop);        // before build_all()
 *   build_all(builds, n, ...);                   // PGO_USE builds as any other
 */
#ifndef FLAGSCOPE_PGO_H
#define FLAGSCOPE_PGO_H

#include "harness/build.h"

/* The CFLAGS (compile and link) of b's phase: "" for PGO_NONE.  Heap. */
char *pgo_flags(const struct build *b);

/* Add b's phase and profile to a build key's text (nothing for PGO_NONE). */
void pgo_key_add(const struct build *b, struct strbuf *key);

/* A PGO_USE build's binary must not be instrumented: 0, or -1 with why
 * (the profiling runtime's symbol it defines) in err. */
int pgo_check_binary(const struct build *b, const char *path, struct strbuf *err);

/* For every PGO_USE build of builds[0..n) that is not settled: build it
 * instrumented (`jobs` at a time), run its training run, merge and hash
 * the profile, and give the build its final key (build_init again).  A
 * build that cannot be trained is settled with its outcome and why.  A
 * trained profile of a cached instrumented build is reused.  Once *stop
 * is set (a signal handler; may be NULL) the instrumented builds and the
 * training run in flight are killed, and the builds not trained are left
 * unsettled for build_all (with the same stop) to mark interrupted.
 * Returns how many builds were trained (or found trained). */
size_t pgo_train_all(struct build *builds, size_t n, int jobs, const volatile sig_atomic_t *stop);

#endif
