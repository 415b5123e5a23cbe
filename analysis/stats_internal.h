/*
 * stats_internal.h - what stats.c, stats_tests.c and stats_ratio.c share
 * and nothing else uses: the bootstrap of one sample and the helpers of
 * stats.h's conventions.  Not a public interface (analysis/stats.h is).
 */
#ifndef FLAGSCOPE_STATS_INTERNAL_H
#define FLAGSCOPE_STATS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"

/*
 * One sample prepared for resampling.  The copy is sorted once; a resample
 * is then n draws of an index, counted, and its median is read off the
 * sorted copy by walking the counts: O(n) per resample with no comparison
 * sort, because the k-th smallest of a resample is sorted[the k-th smallest
 * drawn index].
 */
struct stats_boot {
	double *sorted;
	size_t n;
	double median;
	int constant; /* all n values equal: every resample's median is median */
};

/* Prepare x (n > 0, copied: x is not kept). */
void stats_boot_init(struct stats_boot *b, const double *x, size_t n);
void stats_boot_release(struct stats_boot *b);
/* The median of one resample; count has room for b->n entries. */
double stats_boot_median(const struct stats_boot *b, uint32_t *count, struct rng *r);

/* r, or fallback seeded with STATS_DEFAULT_SEED when r is NULL. */
struct rng *stats_rng_or_default(struct rng *r, struct rng *fallback);
/* qsort's comparison of doubles, ascending. */
int stats_cmp_double(const void *pa, const void *pb);
/* 1 when some x[i] is NaN. */
int stats_has_nan(const double *x, size_t n);
/* 1 when conf is a level in (0, 1). */
int stats_conf_valid(double conf);
/* The conf percentile interval of the bootstrap statistics t (reordered);
 * NaN statistics (undefined resamples) are left out; NAN bounds when all
 * are. */
void stats_percentile_interval(double *t, size_t n, double conf, double *lo, double *hi);
/* a / b where two zero medians mean "no change" (1); b 0 alone: +-INFINITY. */
double stats_ratio_of(double a, double b);

#endif
