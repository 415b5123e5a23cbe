/*
 * why.h - where a difference between two builds comes from: the
 * instructions each function executes (cachegrind's Ir) in one run of
 * the workload, for both builds, side by side.
 *
 * The counts come from why_profile (pipeline/profile.h: analysis runs no
 * programs).  Instruction counts are deterministic, so one run of each
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

/* Parse a cachegrind output file (format: events, fl=/fi=/fe=/fn= lines,
 * "LINE COUNT..." lines, summary).  The first event must be Ir.  0, or -1
 * with a reason in err. */
int why_parse_cachegrind(const char *path, struct why_counts *out, struct strbuf *err);

/* The absolute path of valgrind on PATH (heap), or NULL. */
char *why_valgrind_path(void);

struct why_row {
	const char *name; /* points into one of the counts */
	double a, b;      /* 0 when the function did not run in that build */
};

/* Every function of either side, sorted by |b - a|, largest first (ties
 * by name); heap array, *n set. */
struct why_row *why_diff(const struct why_counts *a, const struct why_counts *b, size_t *n);

#endif
