/*
 * why.h - where a difference between two builds comes from: the
 * instructions each function executes (cachegrind's Ir) in one run of
 * the workload, for both builds, side by side.
 *
 * The counts come from why_profile (pipeline/profile.h, over the cachegrind
 * meter's harness/meter_cachegrind.h: analysis runs no programs).  Instruction counts are deterministic, so one run of each
 * build is enough.
 */
#ifndef FLAGSCOPE_WHY_H
#define FLAGSCOPE_WHY_H

#include "workloads/recipe.h"

/* Instructions per function of one run; names are as cachegrind prints
 * them (demangled), counts summed over the files a function spans. */
struct why_counts {
	char **name;
	double *ir;
	size_t n;
	double total; /* the file's summary line */
};
void why_counts_release(struct why_counts *c);

struct why_row {
	const char *name; /* points into one of the counts */
	double a, b;      /* 0 when the function did not run in that build */
};

/* Every function of either side, sorted by |b - a|, largest first (ties
 * by name); heap array, *n set. */
struct why_row *why_diff(const struct why_counts *a, const struct why_counts *b, size_t *n);

#endif
