/*
 * why.h - where a difference between two builds comes from: the
 * instructions each function executes (cachegrind's Ir) in one run of
 * the workload, for both builds, side by side.
 *
 * The counts come from the cachegrind meter (cachegrind_run,
 * harness/meter_cachegrind.h: analysis runs no programs).  Instruction
 * counts are deterministic, so one run of each build is enough.
 */
#ifndef FLAGSCOPE_WHY_H
#define FLAGSCOPE_WHY_H

#include "base/fn_counts.h"

struct why_row {
	const char *name; /* points into one of the counts */
	double a, b;      /* 0 when the function did not run in that build */
};

/* Every function of either side, sorted by |b - a|, largest first (ties
 * by name); heap array, *n set. */
struct why_row *why_diff(const struct fn_counts *a, const struct fn_counts *b, size_t *n);

#endif
