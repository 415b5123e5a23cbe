/*
 * fn_counts.h - a count per function of one run: the instructions each
 * function executed (cachegrind's Ir).  The cachegrind meter fills one
 * (harness/meter_cachegrind.h), `why` compares two (analysis/why.h); it
 * lives here because neither of those layers may include the other.
 */
#ifndef FLAGSCOPE_FN_COUNTS_H
#define FLAGSCOPE_FN_COUNTS_H

#include <stddef.h>

struct fn_counts {
	char **name;  /* as cachegrind prints them (demangled); heap */
	double *ir;   /* per function, summed over the files it spans */
	size_t n;
	double total; /* the run's total (cachegrind's summary line) */
};

/* Free what c holds and zero it. */
void fn_counts_release(struct fn_counts *c);

/* The index of function `name` in c, or SIZE_MAX when it has none. */
size_t fn_counts_find(const struct fn_counts *c, const char *name);

#endif
