/*
 * stats.h - the statistics flagscope decides with: robust summaries of
 * repeated measurements, bootstrap confidence intervals, the Mann-Whitney U
 * test, significance verdicts against a baseline, shared ranks and the
 * Pareto front.  Implemented in stats.c (random numbers, order
 * statistics, summaries, ranks, Pareto), stats_tests.c (Mann-Whitney,
 * Welch, the part verdicts) and stats_ratio.c (ratio intervals, the
 * geometric mean, layouts nested); stats_internal.h is what they share.
 *
 * Conventions every function here keeps:
 *  - Input arrays are never modified and never kept; samples are expected
 *    finite (times, sizes, counts).  A NaN in a sample makes the statistics
 *    that depend on it NAN rather than a wrong number.
 *  - Every metric is lower-is-better; a ratio is candidate / baseline, so a
 *    ratio below 1 is an improvement.
 *  - Randomness comes only from the struct rng passed in, so a fixed seed
 *    gives bit-identical intervals on every machine.  Where a function takes
 *    `struct rng *r`, r may be NULL: a generator seeded with
 *    STATS_DEFAULT_SEED is used for that call.
 *  - Bootstrap intervals are percentile intervals (conf, e.g. 0.95) from
 *    `iters` resamples; quantiles interpolate linearly between order
 *    statistics (Hyndman-Fan type 7, R's default).
 *  - Zero spread is exact, not an error.  A sample whose values are all
 *    equal (a deterministic metric such as an instruction count, or a single
 *    run) has MAD 0 and an interval that is the point itself; no bootstrap
 *    is run for it and nothing divides by the zero spread.
 *  - Errors are returned as negative errno codes; nothing exits or prints.
 */
#ifndef FLAGSCOPE_STATS_H
#define FLAGSCOPE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* ---- random numbers ---------------------------------------------------- */

/* xoshiro256** (Blackman and Vigna), state filled from the seed by
 * splitmix64: small, fast, and the same stream on every machine. */
struct rng {
	uint64_t s[4];
};
#define STATS_DEFAULT_SEED 0x666c616773636f70ULL /* "flagscop" */

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, 1) with 53 random bits. */
double rng_uniform(struct rng *r);
/* Uniform integer in [0, n) without modulo bias (Lemire's method); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);

/* ---- descriptive statistics -------------------------------------------- */

/* Median (mean of the two middle values when n is even); NAN if n == 0. */
double stats_median(const double *x, size_t n);
/* The RAW median absolute deviation median(|x - median(x)|), NOT scaled by
 * 1.4826 (multiply by STATS_MAD_TO_SD for a consistent estimate of the
 * standard deviation of normal data); NAN if n == 0. */
double stats_mad(const double *x, size_t n);
#define STATS_MAD_TO_SD 1.482602218505602
/* Quantile p in [0, 1], type 7 (linear between order statistics); NAN if
 * n == 0. */
double stats_quantile(const double *x, size_t n, double p);

struct summary {
	size_t n;
	double median, mad; /* mad is raw, see stats_mad() */
	double mean, sd;    /* sd with n-1; NAN when n < 2 */
	double min, max;
	double ci_lo, ci_hi; /* bootstrap interval of the median */
	size_t outliers;     /* count by the rule of stats_is_outlier() */
	int constant;        /* all n values equal (incl. n == 1): the
				interval is the point [median, median] because
				there is no spread, not because it was
				measured; a report should say "exact" (for a
				deterministic metric) or "one run" */
};

/* Fill s for the sample x.  The interval is a `conf` percentile bootstrap
 * of the median with `iters` resamples; iters <= 0 leaves ci_lo/ci_hi NAN
 * (unless constant).  Outliers use the modified z-score with the MAD; when
 * the MAD is 0 but the values are not all equal (more than half of them
 * identical, e.g. a count that moved in one run) the scale falls back to
 * the mean absolute deviation from the median, as IBM SPSS's modified
 * z-score does: |x - median| / (1.253314 * MeanAD) > 3.5.  All-equal values
 * have no outliers.  n == 0 gives n 0, outliers 0 and NAN elsewhere. */
void stats_summarize(const double *x, size_t n, double conf, int iters, struct rng *r,
		     struct summary *s);

/* Iglewicz-Hoaglin (as hyperfine): |0.6745 * (x - median) / mad| > 3.5.
 * mad == 0 (or NAN) never flags anything: a zero scale cannot judge. */
int stats_is_outlier(double x, double median, double mad);
#define STATS_OUTLIER_Z 3.5
/* Flag each value by the rule stats_summarize() counts with (including its
 * MeanAD fallback); flag may be NULL.  Returns the number of outliers. */
size_t stats_flag_outliers(const double *x, size_t n, int *flag);

/* Half-width of the interval relative to the median,
 * (ci_hi - ci_lo) / (2 |median|): adaptive repetition stops when this is
 * at most its target.  0 for a constant sample with n >= 2; INFINITY when
 * it cannot be judged (n < 2, no interval, median 0 with a spread), so a
 * single run of a noisy metric never looks precise. */
double stats_relative_halfwidth(const struct summary *s);

/* ---- against a baseline ------------------------------------------------ */

/* Ratio of medians a / b with a bootstrap interval, resampling a and b
 * independently.  Two zero medians have ratio 1 (no change).  Returns 0;
 * -EINVAL if either sample is empty; -EDOM if median(b) is 0 while median(a)
 * is not, or a sample holds NaN (*ratio, *lo, *hi are then NAN). */
int stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double conf, int iters,
		   struct rng *r, double *ratio, double *lo, double *hi);

/* Two-sided Mann-Whitney U test.  Stores in *u (may be NULL) the U of
 * sample a: the number of pairs (a_i, b_j) with a_i > b_j, ties counting
 * one half.  Without ties and with na, nb <= STATS_MWU_EXACT_MAX the p value
 * comes from the exact null distribution, p = min(1, 2 min(P(U' <= U),
 * P(U' >= U))) (as R's wilcox.test); otherwise from the normal
 * approximation with tie correction and continuity correction,
 * z = max(0, |U - na nb / 2| - 0.5) / sigma (as SciPy's mannwhitneyu
 * method="asymptotic").  All values tied gives p = 1.  NAN (and *u NAN)
 * if a sample is empty or holds NaN. */
double stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);
#define STATS_MWU_EXACT_MAX 49

/* MIXED is only ever a summary's (analysis/verdict.h): some parts
 * significantly better, others significantly worse. */
enum verdict { VERDICT_UNCHANGED, VERDICT_IMPROVED, VERDICT_REGRESSED, VERDICT_MIXED };

struct comparison {
	double ratio, lo, hi; /* median(cand) / median(base) and interval */
	double p, u;	      /* Mann-Whitney, u of the candidate sample */
	size_t na, nb;	      /* sample counts: candidate, baseline */
	enum verdict verdict;
	int exact; /* both samples have zero spread (deterministic metric,
		      or one run each): ratio is exact, lo == hi == ratio,
		      p is 0 if the values differ and 1 if not, and the
		      verdict depends on min_effect alone */
	int error; /* 0, or the negative code of stats_ratio_ci(); the
		      verdict is then UNCHANGED */
	int untested; /* stats_compare_noisy() with fewer than two values on
			 a side: ratio only (lo, hi, p NAN), verdict UNCHANGED */
	size_t layouts_cand, layouts_base; /* stats_compare_nested(): the layout
			 variants of each side (0: not nested, one layout) */
	int below_resolution; /* set by analysis/verdict.h's rule only: the
			 difference is below the meter's resolution, so the
			 verdict is UNCHANGED */
};

/* Verdict of a candidate against the baseline for a lower-is-better
 * metric: significant only if p < alpha AND |ratio - 1| >= min_effect
 * (e.g. 0.05 and 0.01); then IMPROVED when ratio < 1, REGRESSED when > 1.
 * The ratio's interval is at level 1 - alpha (0.95 if alpha is not in
 * (0, 1)) with `iters` resamples.
 * Zero spread is taken as exact: right for a deterministic metric
 * (instruction counts, sizes); for any other use stats_compare_noisy(). */
void stats_compare(const double *cand, size_t nc, const double *base, size_t nb, double alpha,
		   double min_effect, int iters, struct rng *r, struct comparison *c);
/* The same for a metric known to be noisy (times, memory, counters of a
 * real machine).  Zero spread proves nothing there: with fewer than two
 * values on either side the test is not made (`untested`: the ratio of
 * the medians, no interval, p NAN, verdict UNCHANGED), and equal values
 * are never `exact` (the Mann-Whitney p with its tie correction decides).
 * stats_compare() is this for a deterministic metric. */
void stats_compare_noisy(const double *cand, size_t nc, const double *base, size_t nb,
			 double alpha, double min_effect, int iters, struct rng *r,
			 struct comparison *c);
const char *verdict_name(enum verdict v); /* "unchanged", "improved", "regressed", "mixed" */

/* ---- across workloads -------------------------------------------------- */

struct sample_pair {
	const double *cand;
	size_t ncand;
	const double *base;
	size_t nbase;
	/* the layout variant of each value (any int naming it; results.h:
	 * results_samples_layouts), or NULL: every value one layout.  With
	 * more than one layout on a side, everything here treats layout as a
	 * random effect (stats_compare_nested). */
	const int *cand_layout, *base_layout;
};

/* ---- layout as a random effect ------------------------------------------ */

/*
 * A configuration built in several layouts (layouts = N: the same code at
 * other addresses, doc/layout.md) has runs nested in layouts: runs of one
 * binary share its layout, so they cannot average it out.  The statistic
 * of a side is the mean over its layouts of each layout's median (one
 * layout: its median, so everything below is the plain statistics then).
 *
 * The nested bootstrap resamples a side in two stages: k - 1 of its k
 * layouts drawn with replacement (all k when k is 1), then each drawn
 * layout's runs with replacement, and the mean of the drawn layouts'
 * medians.  Why k - 1: the bootstrap of a mean of k units has variance
 * (k - 1) / k times the unbiased s^2 / k; drawing k - 1 of them removes
 * that bias, which matters most where it is largest, at the 2 to 4
 * layouts a study can afford (with 2 layouts the side is one layout or
 * the other, as it should be: two layouts tell nothing finer).
 */

/* How many layouts the values name (1 when layout is NULL, 0 when n is 0). */
size_t stats_layout_count(const int *layout, size_t n);

/* The ratio of the sides' statistics, cand over base, with the nested
 * bootstrap's `conf` percentile interval and its two-sided p, 2 min(share
 * of resampled ratios below 1, share above 1) (ties at 1 count half to
 * each), at most 1; p may be NULL.  Errors as stats_ratio_ci (-EINVAL an
 * empty side, -EDOM a NaN or a zero base with a non-zero candidate). */
int stats_nested_ratio_ci(const struct sample_pair *p, double conf, int iters, struct rng *r,
			  double *ratio, double *lo, double *hi, double *pvalue);

/* Two-sided p of Welch's t test (unequal variances, Welch-Satterthwaite
 * degrees of freedom, the t distribution through the regularised
 * incomplete beta function); NAN with fewer than two values on a side or
 * a NaN; both variances 0: 1 when the means are equal, else NAN (no
 * spread is no evidence: values that repeat are a coarse meter's). */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb);

/* A part judged with layout as a random effect: the nested bootstrap's
 * ratio and interval at level 1 - alpha (stats_nested_ratio_ci); p is
 * Welch's test on the logs of the layouts' medians (the layouts are the
 * units: runs of one binary share its layout) when both sides have two or
 * more layouts with positive medians, else the nested bootstrap's p;
 * significant when p < alpha AND |ratio - 1| >= min_effect.  u is the
 * Mann-Whitney U of the pooled runs, for the record.  Fewer than two values on a side: untested, as
 * stats_compare_noisy.  layouts_cand and layouts_base are set. */
void stats_compare_nested(const struct sample_pair *p, double alpha, double min_effect,
			  int iters, struct rng *r, struct comparison *c);

/* Geometric mean over the np workloads of median(cand) / median(base),
 * with a bootstrap interval: every iteration resamples each workload's two
 * samples and takes the geometric mean of the resampled ratios.  A side
 * with layouts (sample_pair) takes its statistic and its nested bootstrap
 * instead (above); without, the numbers are the plain ones bit for bit.  Returns
 * 0; -EINVAL if np == 0 or a sample is empty; -EDOM if a workload's ratio
 * is not a finite positive number (a zero median, NaN). */
int stats_geomean_ratio(const struct sample_pair *p, size_t np, double conf, int iters,
			struct rng *r, double *gm, double *lo, double *hi);

/* stats_geomean_ratio() that also hands back its bootstrap: boot (iters
 * entries, may be NULL) receives every resample's geometric mean, NAN
 * where a resample's ratio is undefined, gm itself when every sample is
 * constant.  The same stream of r is used, so the interval is the one
 * stats_geomean_ratio() gives. */
int stats_geomean_ratio_boot(const struct sample_pair *p, size_t np, double conf, int iters,
			     struct rng *r, double *gm, double *lo, double *hi, double *boot);

/* The fraction of the defined (not NaN) values of t within [lo, hi]
 * (INFINITY bounds allowed); NAN when none is defined.  With t a
 * bootstrap distribution, 1 - this is the probability that a verdict
 * drawn from the region [lo, hi] would change on data like this. */
double stats_fraction_within(const double *t, size_t n, double lo, double hi);

/* Shared competition ranks (1, 1, 3), lower value is better.  Items are
 * walked in order of value (ties by original index); the first item of a
 * group opens it with rank = 1 + the number of items ranked before it; each
 * following item whose [lo, hi] overlaps the interval of that group's first
 * item joins the group, otherwise it opens the next group.  rank[i] is for
 * the item at original index i; a NaN value gets rank 0 (unranked); lo or
 * hi NaN (or lo/hi NULL) means the interval is the point value. */
void stats_shared_ranks(const double *value, const double *lo, const double *hi, size_t n,
			int *rank);

/* Pareto front of points (x[i], y[i]), both lower-is-better: front[i] = 1
 * when no other point is <= in both and < in at least one, else 0.  Equal
 * points are both on the front; a point with a NaN coordinate is never on
 * it and dominates nothing. */
void stats_pareto(const double *x, const double *y, size_t n, int *front);

#endif
