/*
 * minimise.h - the shortest flag set that keeps the best set's gain:
 * every flag whose removal does not significantly change the objective is
 * dropped (returned to the baseline's state).
 *
 * Two ways, by the kind of metric:
 *
 *  - Deterministic (insns, size): the same build gives the same number,
 *    so one evaluation per flag set is the whole truth and the comparison
 *    is exact; a removal is harmless unless the one verdict rule
 *    (analysis/verdict.h: exact values, min_effect alone decides, an
 *    effect of exactly min_effect counts) calls it regressed against the
 *    best set (search_minimise_exact).
 *
 *  - Noisy (time): a single value per flag set would let noise decide
 *    which flags go.  Every comparison is a fresh interleaved measurement
 *    of the candidates together with the best set itself (and the
 *    baseline), `repeat` runs each; a removal is harmful when the one
 *    verdict rule (analysis/verdict.h: Mann-Whitney p < alpha and an
 *    effect of at least min_effect) finds it slower on some item; a
 *    geometric mean whose bootstrap interval lies above 1 while no item is
 *    significantly slower is not harm, as it is not in `report`.  A
 *    removal that cannot be judged (too few runs a side for any p below
 *    alpha: verdict_can_be_significant) is harmful: its flag stays
 *    (search_minimise_noisy).  Samples of several layout variants
 *    (a study's layouts = N, search/pipeline.h) are judged by the same
 *    rule's nested form (verdict_pair): a flag whose removal is "slower"
 *    in one binary's layout only is not kept for it.
 *
 * Both first try each removal alone (one batch), then apply the harmless
 * ones, least harmful first, each checked against the best set itself so
 * that small losses cannot add up; and go round again until nothing more
 * can go.  The noisy way first tries every harmless removal at once (one
 * measurement) before going one by one.
 */
#ifndef FLAGSCOPE_SEARCH_MINIMISE_H
#define FLAGSCOPE_SEARCH_MINIMISE_H

#include "search/search.h"

/* Repeated samples of one flag set, per item of the objective. */
struct eval_samples {
	enum outcome status; /* OUTCOME_OK, or the outcome that broke the flag set */
	char *detail;  /* broken: the evidence */
	size_t nitems; /* items in the same order for every flag set of a call */
	double **v;    /* v[item]: the samples */
	size_t *n;
	int **layout;  /* layout[item]: the layout variant of each sample
			  (layouts = N: analysis/verdict.h judges them nested),
			  or NULL (the array or an item's): one layout */
};
void eval_samples_release(struct eval_samples *s);

struct sampler {
	/* Measure n distinct flag sets ("" is the baseline) together, runs
	 * interleaved, `repeat` each; out[i] gets flags[i]'s samples (heap,
	 * the caller releases them).  0, or -1 with a reason in err (the
	 * measuring could not run, or was interrupted). */
	int (*sample)(void *ctx, char *const *flags, size_t n, int repeat, struct eval_samples *out,
		      struct strbuf *err);
	void *ctx;
};

struct minimise_params {
	double min_effect; /* relative, e.g. 0.005 */
	/* noisy only */
	double alpha; /* e.g. 0.05 */
	int repeat;   /* interleaved runs per flag set and measurement (>= 2) */
	uint64_t seed; /* of the bootstrap */
};

struct minimise_result {
	double obj;          /* the minimal set's objective (relative to the baseline) */
	double vs_best;      /* minimal / best: exact, or the geometric mean of the ratios */
	double lo, hi;       /* noisy: its 1 - alpha interval; exact: vs_best itself */
	size_t measurements; /* noisy: interleaved measurements (generated studies) made */
};

/* Deterministic metrics.  best is a point of sp with objective best_obj;
 * out (ndims bytes) gets the minimal point.  0, or -1 from the evaluator. */
int search_minimise_exact(struct evalcache *ec, const struct space *sp, const struct evaluator *ev,
			  const unsigned char *best, double best_obj, const struct minimise_params *p,
			  unsigned char *out, struct minimise_result *r, struct strbuf *err);

/* Noisy metrics, through the sampler.  0, or -1 from the sampler. */
int search_minimise_noisy(const struct space *sp, const struct sampler *sm,
			  const unsigned char *best, const struct minimise_params *p,
			  unsigned char *out, struct minimise_result *r, struct strbuf *err);

/* Is cand significantly worse than ref, or not to be judged (the rule
 * above, bootstrap seeded with p->seed; samples of several layouts judged
 * with layout as a random effect, verdict_pair)?  *gm (may be NULL) gets the
 * geometric mean of the median ratios, lo/hi its interval (NAN when not
 * judged).  Exposed for tests. */
int minimise_worse(const struct eval_samples *cand, const struct eval_samples *ref,
		   const struct minimise_params *p, double *gm, double *lo, double *hi);

#endif
