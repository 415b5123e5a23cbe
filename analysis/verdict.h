/*
 * verdict.h - the one rule that calls a configuration better or worse
 * than another (its baseline, or the other side of a compare).  Every
 * command reads its verdicts from here: the rank table and its CSV, JSON
 * and HTML, the distro pivot, compare, recommend and its package.env, so
 * the same pair gets the same verdict wherever it is shown.
 *
 * A part is one item of one metric, the candidate's samples against the
 * reference's (a workload, or one run section of a workload).  Its verdict:
 *   significant only when the two-sided Mann-Whitney p < alpha AND
 *   |ratio - 1| >= min_effect, ratio = median(candidate) / median(reference)
 *   (stats_compare).  With calibrated floors (--min-effect auto, a noisy
 *   metric: verdict_rule_for) min_effect is the item's floor on this
 *   machine, and a part unchanged because it is within it says so
 *   (verdict_layout_noise: "within layout noise").  A deterministic metric (sizes, instruction counts)
 *   whose samples have no spread on either side is exact: min_effect alone
 *   decides.  A noisy metric with fewer than two runs on a side is
 *   untested: never significant.
 *   Whatever the test says, a difference the meter cannot resolve is not
 *   significant (verdict_below_resolution, rule->resolution: the meter's
 *   smallest step, e.g. the scheduler tick for user and sys time), and a
 *   part unchanged for that reason says so ("below the meter's resolution
 *   (4 ms)", c->below_resolution; it takes precedence over layout noise).
 *
 * Layouts (a study with layouts = N > 1: each configuration built N times,
 * the same code at other addresses, doc/layout.md): a part whose samples
 * name more than one layout on a side (struct sample_pair's layouts) is
 * judged with layout as a random effect (stats_compare_nested): its ratio
 * is of the mean of each layout's median, its interval the nested
 * bootstrap's (k - 1 of a side's k layouts drawn, then each one's runs),
 * and it is significant only when Welch's t test on the logs of the
 * layouts' medians gives p < alpha AND |ratio - 1| >= min_effect (a side
 * left with one layout, its others rejected by the layout check: the
 * nested bootstrap's two-sided p instead).  The layouts are the units:
 * Mann-Whitney on the pooled runs would count a layout's effect as the
 * configuration's (runs of one binary share its layout); Mann-Whitney on
 * the layouts' medians cannot be significant with 3 layouts a side (its
 * smallest p is 0.1), so no study of 3 layouts could call anything, -O0
 * against -O2 included; the nested bootstrap's own p called 29% of
 * simulated A/A pairs different at 2 layouts and 9% at 3 (too few units
 * for a percentile interval), this rule 0.5%, 3.5% and 4% at 2, 3 and 4
 * layouts (tests/test_stats_layout.c prints the rates).  Fewer than two runs on a
 * side is untested, as above.  A
 * summary over such parts resamples them the same nested way
 * (stats_geomean_ratio) and is judged by the rule below unchanged.
 *
 * A summary is several parts together: a workload over its run sections
 * (the distro pivot's cell, package.env), a configuration over every item
 * (the rank table's row, recommend).  Its figure is the geometric mean of
 * the parts' ratios with its bootstrap interval at level 1 - alpha
 * (stats_geomean_ratio).  Its verdict:
 *   IMPROVED   the interval lies wholly on the better side of 1, the mean
 *              is at least min_effect better than 1, at least one part is
 *              significantly better and no part significantly worse;
 *   REGRESSED  the mirror image;
 *   MIXED      some part is significantly better and another significantly
 *              worse, whatever the mean: -25% on one run and +25% on the
 *              other is two effects, never "unchanged" (the parts are
 *              listed, verdict_mixed_text);
 *   UNCHANGED  otherwise.  In particular a mean whose bootstrap interval
 *              excludes 1 while no part's own test is significant is
 *              unchanged: with few runs the bootstrap of a median is far
 *              too narrow (two runs give at most three distinct medians,
 *              so 0.900 [0.821, 0.991] came from two runs a side whose
 *              Mann-Whitney p was 0.667), and a summary never claims what
 *              none of its parts shows.  The price: many small effects, none
 *              significant alone, are not called an improvement together;
 *              measure more runs (repeat = stable) to show them.
 *   One part: the summary is that part's verdict, so a workload of one run
 *   says in the distro pivot what its row says in the rank table.
 *   A part untested: the summary is untested too (no interval, UNCHANGED).
 *
 * Orientation: with higher_better the better side of 1 is above it;
 * IMPROVED always means better for the metric.
 *
 * Reproducibility: every part and every summary draws its bootstrap from
 * a generator seeded with the rule's seed, so two commands computing the
 * same pair get bit-identical intervals, not only the same verdict.
 *
 * Power: with n runs a side, n below one wholly beneath n others gives the
 * smallest p Mann-Whitney can give (2 / C(2n, n) exactly: 0.33 at n = 2,
 * 0.10 at n = 3, 0.029 at n = 4).  verdict_min_runs() finds the least n
 * whose smallest p is below alpha by asking stats_mann_whitney itself;
 * with fewer runs no part of a noisy metric can be significant, so no
 * summary can be either.
 */
#ifndef FLAGSCOPE_VERDICT_H
#define FLAGSCOPE_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/calibration.h"
#include "analysis/stats.h"

/* A part as a summary lists it. */
struct verdict_named {
	const char *name;
	double ratio;
	enum verdict verdict;
};

struct verdict_rule {
	double alpha;      /* significance level (0.05) */
	double min_effect; /* smallest relative difference that counts (0.01) */
	int iters;         /* bootstrap resamples */
	uint64_t seed;     /* every part's and summary's bootstrap seed */
	int deterministic; /* results_metric_deterministic: zero spread is exact */
	int higher_better; /* orient verdicts: improved = better */
	/* --min-effect auto (analysis/calibration.h): a noisy metric's part
	 * takes its item's calibrated floor as min_effect (verdict_rule_for);
	 * NULL: min_effect everywhere */
	const struct calib_floors *floors;
	double floor; /* set by verdict_rule_for: the floor min_effect is; 0 none */
	/* the metric's resolution in its unit (results_metric_resolution: the
	 * meter's smallest step, stored with the study); 0: exact or not known */
	double resolution;
};

/* The rule for one item: with a floor stored for it in rule->floors and a
 * noisy metric, min_effect and floor are that floor; else rule as is. */
void verdict_rule_for(const struct verdict_rule *rule, const char *item, struct verdict_rule *out);
/* The reason a part is UNCHANGED when it is the calibrated floor: the
 * floor of item_rule (verdict_rule_for) when c is unchanged, tested, and
 * |ratio - 1| is below it ("within layout noise (+-x%)"); else NAN. */
double verdict_layout_noise(const struct verdict_rule *item_rule, const struct comparison *c);

/* Whether a part's difference is below the rule's resolution q (0: never):
 * the medians differ by less than VERDICT_RES_DIFF q, or both are below
 * VERDICT_RES_LEVEL q (most runs a handful of the meter's steps, where a
 * step is a large part of every value: user time of a part shorter than a
 * few scheduler ticks reads 0 in one run and a tick in the next). */
int verdict_below_resolution(const struct verdict_rule *rule, const double *cand, size_t nc,
			     const double *ref, size_t nr);
#define VERDICT_RES_DIFF 2
#define VERDICT_RES_LEVEL 10

/* A part: cand against ref.  Fills c as stats_compare(_noisy) does, with
 * c->verdict oriented by rule->higher_better; a difference below the
 * rule's resolution is never significant (c->below_resolution set, the
 * verdict UNCHANGED, whatever p says). */
void verdict_part(const struct verdict_rule *rule, const double *cand, size_t nc,
		  const double *ref, size_t nr, struct comparison *c);

/* A part given as a pair: with layouts (above) the nested rule, else
 * verdict_part.  Every command judges a part through one of these two. */
void verdict_pair(const struct verdict_rule *rule, const struct sample_pair *p,
		  struct comparison *c);

struct verdict_summary {
	double ratio, lo, hi;     /* geometric mean of the part ratios; NAN if none */
	enum verdict verdict;     /* oriented */
	size_t nparts;            /* parts summarised */
	size_t improved, regressed; /* parts significantly better / worse */
	int untested;             /* some part untested: lo, hi NAN, UNCHANGED */
	int error;                /* stats_geomean_ratio's negative code, or 0 */
	char *mixed;              /* MIXED: verdict_mixed_text of the parts (heap,
				     the caller's), else NULL */
};

/* The parts of one summary as they are judged: their samples (not
 * owned), names (not owned) and part verdicts. */
struct verdict_parts {
	struct sample_pair *pairs;
	struct verdict_named *named;
	int *untested;
	size_t n;
};
/* Room for cap parts. */
void verdict_parts_init(struct verdict_parts *p, size_t cap);
/* Add a part judged by verdict_part (c). */
void verdict_parts_add(struct verdict_parts *p, struct sample_pair pair, const char *name,
		       const struct comparison *c);
/* Summarise the parts (the rule above).  Always fills s; returns s->error. */
int verdict_summarise(const struct verdict_rule *rule, const struct verdict_parts *p,
		      struct verdict_summary *s);
void verdict_parts_release(struct verdict_parts *p);

/* The summary's verdict from its figures and its parts' counts (the rule
 * above; verdict_summarise calls it). */
enum verdict verdict_of_summary(const struct verdict_rule *rule, double ratio, double lo,
				double hi, size_t nparts, enum verdict one_part, size_t improved,
				size_t regressed, int untested);

/* "mixed: -25.0% default, +25.0% best": the significant parts of a MIXED
 * summary, each as 100 * (ratio - 1) and its name, in the order given.
 * Heap string. */
char *verdict_mixed_text(const struct verdict_named *parts, size_t n);

/* The fewest runs a side with which a part can be significant at alpha:
 * the least n for which n values below n others give stats_mann_whitney
 * p < alpha (4 at 0.05); 0 when none up to STATS_MWU_EXACT_MAX does (an
 * alpha of 0, or not a level). */
size_t verdict_min_runs(double alpha);
/* Whether na runs against nb can give p < alpha at all. */
int verdict_can_be_significant(size_t na, size_t nb, double alpha);
/* The smallest p Mann-Whitney gives na runs against nb (all of one side
 * below all of the other); NAN when a side is empty. */
double verdict_smallest_p(size_t na, size_t nb);

/* What a study says before it builds when the most runs a side it can
 * take (`runs`: its repeat, or the max_repeat of repeat = stable or auto)
 * cannot make any part of a noisy metric significant at alpha: one line,
 * no "flagscope:" prefix, beginning with `where` ("x.study:4: repeat = 3",
 * "--repeat 2") and naming the fix with `key` ("repeat", "max_repeat");
 * NULL when they can.  Heap. */
char *verdict_power_warning(size_t runs, double alpha, const char *where, const char *key);

#endif
