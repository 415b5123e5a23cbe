/*
 * strategy.h - search strategies: each decides which points of a space to
 * evaluate next from the objectives it has seen.  One const struct
 * strategy_ops per strategy, listed in strategies[] (strategy.c).
 *
 * Contract every strategy keeps:
 *  - Deterministic: the points it proposes depend only on the seed and the
 *    objectives it observed.  A killed search resumes by replaying the
 *    strategy against the evaluation cache (search/search.h).
 *  - Lower objectives are better; INFINITY marks a broken candidate (it
 *    failed to build, run or give the right output) and is never chosen.
 *  - After propose() the caller observes the objectives of every proposed
 *    point before calling propose() again.  observe() may also bring
 *    points the strategy did not propose (an ensemble shares what each
 *    member found); a strategy uses what it can and ignores the rest.
 *  - Proposing a point again is allowed (the cache answers it for free),
 *    but a strategy should not loop on known points: the search stops one
 *    that proposes nothing new for many rounds.
 *
 * How to add a strategy: write search/<name>.c with its four
 * operations, declare its ops below, add it to strategies[] in strategy.c.
 */
#ifndef FLAGSCOPE_SEARCH_STRATEGY_H
#define FLAGSCOPE_SEARCH_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"
#include "search/space.h"

struct strategy_ops {
	const char *name;
	const char *summary; /* one line for --help */
	/* State for walking sp (which outlives it) from its start point. */
	void *(*init)(const struct space *sp, uint64_t seed);
	/* Write up to max points (max * sp->ndims bytes) to pts; return how
	 * many.  0 means the strategy has nothing more to try. */
	size_t (*propose)(void *st, unsigned char *pts, size_t max);
	/* The objectives of n points (see the contract above). */
	void (*observe)(void *st, const unsigned char *pts, const double *obj, size_t n);
	void (*release)(void *st);
};

/* 0, or -1 with what is wrong with the table (at start-up: a bug). */
int strategies_check(struct strbuf *err);

extern const struct strategy_ops strategy_ce;         /* combined elimination */
extern const struct strategy_ops strategy_ga;         /* genetic algorithm */
extern const struct strategy_ops strategy_random;     /* uniform random points */
extern const struct strategy_ops strategy_exhaustive; /* every point, in order */
extern const struct strategy_ops strategy_ensemble;   /* bandit over ce, ga, random */

/* By name, or NULL. */
const struct strategy_ops *strategy_lookup(const char *name);
/* "ce ga random exhaustive ensemble" */
const char *strategy_names(void);
/* The table, for listing; *n set. */
const struct strategy_ops *const *strategy_table(size_t *n);

/* ---- helpers the strategies share ------------------------------------ */

/* A set of points of one space with a value each (open addressing). */
struct pointset {
	size_t ndims;
	unsigned char *keys; /* cap * ndims */
	double *vals;
	unsigned char *used;
	size_t n, cap;
};
void pointset_init(struct pointset *s, size_t ndims);
void pointset_release(struct pointset *s);
/* Pointer to the point's value, or NULL when absent. */
double *pointset_get(const struct pointset *s, const unsigned char *pt);
/* Insert or overwrite; returns 1 when the point was new. */
int pointset_put(struct pointset *s, const unsigned char *pt, double val);

/* Set dimension d of pt to a uniformly chosen value other than its
 * current one. */
void point_mutate_dim(const struct space *sp, unsigned char *pt, size_t d, struct rng *r);
/* A uniformly random point. */
void point_random(const struct space *sp, unsigned char *pt, struct rng *r);
/* Reset dimension d to the start point's state for pt's level. */
void point_reset_dim(const struct space *sp, unsigned char *pt, size_t d);
/* The number of points in the space, or SIZE_MAX when it does not fit. */
size_t space_count(const struct space *sp);

#endif
