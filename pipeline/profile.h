/*
 * profile.h - the instructions each function of a build executes in one
 * run of its workload (the counts `why` compares, analysis/why.h).
 *
 * The run is the recipe's own (execute_run: the same argv, input folder,
 * clean environment and working directory as a measured run), once plain
 * and once under `valgrind --tool=cachegrind --cache-sim=no`, natively.
 * Reentrant: the counts go straight to out.
 */
#ifndef FLAGSCOPE_PROFILE_H
#define FLAGSCOPE_PROFILE_H

#include "analysis/why.h"
#include "workloads/recipe.h"

/* Run `run` of the build in build_dir (<cache>/builds/<key>, binaries in
 * out/) under cachegrind with the workload's inputs in in_dir.  0, or -1
 * with a reason in err (the plain run failed, valgrind failed). */
int why_profile(const char *build_dir, const struct recipe_run *run, const char *in_dir,
		struct why_counts *out, struct strbuf *err);

#endif
