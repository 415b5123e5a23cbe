/*
 * rank.h - the ranking of a stored study by one metric.
 *
 * Per item (workload, or workload/run section) and configuration: the
 * summary of the samples (n, median, MAD, mean, sd, min, max, outliers,
 * the 95% bootstrap interval of the median), and against the baseline the
 * ratio of medians with its interval at level 1 - alpha, the two-sided
 * Mann-Whitney p and a verdict: a part's verdict of analysis/verdict.h
 * (significant only when p < alpha AND |ratio - 1| >= min_effect).
 * Verdicts are oriented for the metric: "improved" always means better,
 * also for higher-is-better metrics.
 *
 * Per configuration: the geometric mean of its ratios over every item with
 * a bootstrap interval, and a verdict against the baseline from it: a
 * summary's verdict of analysis/verdict.h (improved only when the interval
 * is on the better side of 1, the mean at least min_effect away, some item
 * significantly better and none significantly worse; MIXED, with the items
 * listed in `mixed`, when items are significantly better and worse).
 * compare, the distro pivot and recommend read the same rule, so every
 * command shows the same verdict for the same pair.
 *
 * Which items.  The metric argument is a selector (results.h): a metric
 * over every item, or a workload, run or both with an optional metric.
 * Ranked are the selected items that some configuration measured; the
 * rest of the study's items are still checked (below) but not compared.
 * Left out entirely, and listed once in `left_out`, are: an item that
 * fails with the same outcome in every configuration (coremark
 * build_failed everywhere because its source cannot be fetched: it tells
 * nothing about any configuration), and a selected item that no
 * configuration has samples of the metric for (lame has no
 * iterations_per_sec: skipped, not a failure).  With the option
 * base_failures_out (an archive sweep's recommendation) also an item the
 * baseline itself failed: "fails at the baseline too (OUTCOME: DETAIL)",
 * so a package whose suite fails at Debian's own flags (sed's tests run
 * as root) neither refuses the baseline nor is put on any configuration.
 *
 * Statuses.  A configuration with a failed build or run, or wrong output,
 * on any item of the study (selected or not, unless left out as failing
 * everywhere) is shown with that status and never ranked: only
 * configurations that are ok on every workload are ranked.  An ok item
 * whose output a recipe's tolerant check accepted carries that detail as
 * its `note`.  In a study run
 * with `repeat = auto` (the study's stored repeat_target T), an item whose
 * median interval is still wider than T (relative half-width,
 * stats_relative_halfwidth) is NOISY: its figures are shown, and its
 * configuration is NOISY and not ranked (never for a deterministic
 * metric).  Deterministic metrics (results_metric_deterministic: insns*,
 * size.*) with zero spread in both samples carry `exact` and no fake
 * interval; one run of them is a measurement.  A noisy metric with fewer
 * than two runs on either side is `untested`: its ratio is shown, with no
 * interval and no p, and it is never significant; a configuration with
 * an untested item is untested too (no interval, verdict unchanged) and
 * shares the rank of the group it falls in.
 *
 * The rank rule ("not significantly different share a rank").  Ranked
 * configurations are walked from the best geometric mean to the worst.
 * The first opens group 1 and leads it.  Each next configuration is
 * compared with the leader of the current group directly: the geometric
 * mean over the items of median(next) / median(leader), with a bootstrap
 * interval at level 1 - alpha.  When that interval contains 1, or the mean
 * is less than min_effect from 1, or no item of the two differs
 * significantly by the part rule of analysis/verdict.h (so that two
 * configurations whose verdict against each other would be "unchanged"
 * are never ranked apart), the two are not significantly different
 * and the configuration shares the leader's rank; otherwise it leads a new
 * group whose rank is 1 + the number of configurations before it
 * (competition ranking: 1, 1, 3).  Comparing with the leader, not with the
 * previous configuration, stops a chain of small steps from putting very
 * different configurations in one group.
 *
 * Settled.  Each of those comparisons (the configuration against the
 * leader it was compared with: its `versus`) is a configuration-level
 * verdict: same group, or a group of its own.  Its bootstrap resamples of
 * the geometric mean say how sure it is: `p_change` is the share of them
 * outside the verdict's own region (a tie: within the tie margin of 1;
 * better: at or below 1 - min_effect; worse: at or above 1 + min_effect),
 * the probability that the same measurement again would give another
 * verdict, or for a tie that the two differ by more than the margin.
 * The tie margin (tie_margin, default 1% = min_effect) is an equivalence
 * margin: with 3%, a tie is settled once 95% of the resamples say the two
 * are within 3% of each other ("equal to within 3%"), where the default
 * waits until they say within 1%, which on a noisy machine takes more
 * rounds than max_repeat.  A wider margin never settles a pair as "apart"
 * and never moves a configuration between groups; it only lets a tie
 * stop the measuring sooner, and the report says the margin.
 * Looking after every round and stopping at the first settled look is
 * optional stopping: with one 5% level per look, a true tie at 4% noise
 * was settled "apart" in 5 of 30 studies.  So a verdict that ranks two
 * configurations apart is settled at its look's level of settle_level:
 * seq_level (analysis/sequential.h) of the study's stable_rule (the fact
 * "stable_rule"; O'Brien-Fleming-type alpha spending by default), the
 * looks it could take ("stable_looks", max_repeat - repeat + 1) and its
 * cap ("stable_max_repeat"), at n = the pair's versus_runs.  A database
 * from before the rule was stored keeps Bonferroni, the rule it was
 * measured with.  A tie keeps
 * settle_level (a tie settled too early costs runs, not a wrong order: its
 * region is the tie band, which a real difference leaves).
 * A verdict is settled when p_change <= settle_level (RANK_SETTLE_LEVEL,
 * 5%); two configurations whose samples are equal on every item
 * (identical binaries sharing one set of runs) are settled as a tie; a
 * comparison with fewer than two runs on a side is never settled.
 * `repeat = stable` (the default) measures until every verdict is settled
 * (pipeline/schedule.c); every report lists the verdicts that are not.
 */
#ifndef FLAGSCOPE_RANK_H
#define FLAGSCOPE_RANK_H

#include <stdint.h>

#include "analysis/calibration.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "analysis/store.h"
#include "base/outcome.h"

struct rank_options {
	double alpha;      /* significance level (default 0.05) */
	double min_effect; /* smallest relative difference that counts (0.01) */
	int iters;         /* bootstrap resamples (2000) */
	uint64_t seed;     /* the bootstrap's seed: same data, same intervals */
	double settle_level; /* a verdict is settled when p_change <= this */
	double tie_margin;   /* the band 1 +- this of a settled tie (0.01);
				never narrower than min_effect */
	int looks;           /* how often the study looked at its verdicts to
				decide whether to stop (1; repeat = stable: one
				look per round, max_repeat - repeat + 1) */
	int max_repeat;      /* repeat = stable's cap: the look at max_repeat
				rounds has t = 1 (0: not stored) */
	int rule;            /* enum stable_rule (flagsets/study.h) */
	int base_failures_out; /* 1: an item the baseline failed is left out
				  (Which items), not the baseline refused */
	int min_effect_auto; /* --min-effect auto (the default): a noisy metric's
				items take the floor `flagscope calibrate` stored
				for the study's machine, where there is one
				(analysis/calibration.h), else min_effect */
};
#define RANK_SETTLE_LEVEL 0.05
/* alpha 0.05, min_effect 0.01, 2000 resamples, a fixed seed, tie margin
 * 0.01, min_effect_auto on; ranking_compute takes the tie margin a study stored (its
 * tie_margin =, the fact "tie_margin") */
void rank_options_default(struct rank_options *o);

struct rank_item {
	char *name; /* "crc32", or "lame/cbr128" for a run section */
	char *note; /* ok, accepted by a tolerant check: its detail; or NULL */
	int untested; /* a noisy metric with fewer than two runs on a side */
	char *workload, *run;
	struct summary s;     /* of this configuration's samples */
	double ratio, lo, hi; /* median / baseline median; NAN if none */
	double p;             /* Mann-Whitney against the baseline; NAN if none */
	size_t nbase;         /* the baseline's sample count */
	size_t layouts;       /* layout variants its samples come from (1: the
				 plain build; more: judged nested, verdict.h) */
	enum verdict verdict; /* oriented: improved = better */
	int exact;            /* no spread in either sample */
	int from_build;       /* a build property (size): one exact value */
	double halfwidth;     /* relative half-width of the median's interval */
	enum outcome status;
	char *detail;
	double layout_noise; /* unchanged because within this calibrated
				floor (verdict_layout_noise); NAN: not so */
	int below_resolution; /* unchanged because below the meter's
				 resolution (ranking.resolution, verdict.h) */
};

struct rank_config {
	char *id, *label, *cc, *toolchain, *cflags, *ldflags, *link;
	char *target, *cpu, *libc, *sysroot, *notes; /* "" when not stored */
	int is_baseline;
	int pgo;      /* 1: a profile-guided build (results.h) */
	int untested; /* some item is untested: no interval, no verdict */
	int rank; /* 0: not ranked */
	int versus;      /* the leader its group verdict is against; -1: none */
	double p_change; /* that verdict's change probability; NAN: none */
	size_t versus_runs; /* the fewest runs of an item in either */
	double tie_within; /* a tie: 1 - settle_level of its resamples are
			      within 1 +- this (0.024: within 2.4%), what a
			      tie not settled at its margin is known to;
			      NAN: not a tie, or not tested */
	double ratio, lo, hi; /* geometric mean of the item ratios */
	enum verdict verdict; /* the summary's (verdict.h), oriented */
	int improved, regressed; /* items with a significant verdict */
	char *mixed; /* VERDICT_MIXED: "mixed: -25.0% lz4/default, +25.0%
			lz4/best" (verdict_mixed_text); else NULL */
	enum outcome status;
	char *detail; /* the first problem, "crc32: killed by signal 11" */
	struct rank_item *items;
	size_t nitems;
	char *identical_to; /* the label of the configuration whose runs it
			       reuses (identical builds, pipeline/identical.c),
			       or NULL */
	struct strlist identical_on; /* the workloads it reuses them on */
	char *facts; /* JSON array with each build's ELF facts (an array, one
			object per binary, see harness/elf.h), or NULL */
};

/* A Pareto front over two metrics: per configuration (index as in
 * ranking.configs) the geometric mean of its ratios to the baseline in
 * each metric; NAN for configurations not ranked in both. */
struct rank_pareto {
	char *x, *y; /* metric names */
	double *xv, *yv;
	int *front; /* 1 on the front */
};

/* An item, or every item of a workload, left out of the ranking. */
struct rank_left_out {
	char *name;          /* "coremark" (all its runs) or "lame/cbr128" */
	enum outcome status; /* what it fails with everywhere; OUTCOME_OK when it
				is only not measured */
	char *why;           /* "build_failed in every configuration: <detail>",
				"no samples of metric 'x' in any configuration" */
};

struct ranking {
	char *study;
	char *metric, *unit;
	char *selector;      /* the metric argument as given ("" for none) */
	char *scope;         /* "libcbench/malloc_big1", or NULL: every item */
	struct result_select sel;
	int deterministic;   /* results_metric_deterministic(metric) */
	struct rank_left_out *left_out;
	size_t nleft_out;
	int higher_better;
	struct rank_options opt;
	double noisy_target; /* repeat = auto target; 0 when the study is not auto */
	struct rank_config *configs;
	size_t n;
	int baseline; /* index in configs, -1 when the study has none */
	int built, cached, failed; /* counts of the last run; -1 unknown */
	struct strlist facts;      /* "meter.perf: ..." lines */
	struct strlist machine_keys, machine_values; /* the machine state (store.h) */
	struct rank_pareto *pareto;
	size_t npareto;
	struct result_progress progress; /* complete, or N of M runs (results.h) */
	struct calib_floors floors; /* min_effect_auto: the machine's floors */
	double resolution;      /* the meter's (results_metric_resolution); 0 none */
	char *resolution_text;  /* it for a reader ("4 ms"), or NULL */
};

/* Compute from the store with the default options.  metric: a selector
 * (results.h), NULL for the study's own metric over every item.  0, or -1
 * with a reason in err (no such study, a selector that names nothing). */
int ranking_compute(struct store *st, const char *study, const char *metric,
		    struct ranking *r, struct strbuf *err);
/* The same with options (NULL: defaults). */
int ranking_compute_opts(struct store *st, const char *study, const char *metric,
			 const struct rank_options *o, struct ranking *r, struct strbuf *err);
void ranking_release(struct ranking *r);

/* The verdicts not settled (see "Settled" above): how many; whether c's
 * is one; and its line for a report ("clang O2 vs gcc O2: not settled
 * after 30 runs (...)", heap), NULL when it is settled or has none. */
size_t ranking_fragile(const struct ranking *r);
/* Who counted the insns* metrics, from the study's meter facts:
 * "valgrind's cachegrind (natively)", "QEMU (TCG plugin)", or both;
 * QEMU when no fact says (databases from before the facts). */
const char *ranking_insns_counter(const struct ranking *r);
/* The band 1 +- this of a settled tie: the larger of tie_margin and
 * min_effect. */
double rank_tie_band(const struct ranking *r);
/* The level c's verdict is settled at: settle_level, or for a verdict of
 * "apart" its look's level (see "Settled" above). */
double rank_settle_level(const struct ranking *r, const struct rank_config *c);
int rank_config_fragile(const struct ranking *r, const struct rank_config *c);
char *rank_config_fragility(const struct ranking *r, const struct rank_config *c);

/* Why nothing is ranked: NULL when some configuration has a rank; else
 * one line (heap, no "flagscope:" prefix) with the reason and the first
 * case of it: every item is left out (failing alike everywhere, or not
 * measured), every configuration failed (or is noisy), or the baseline
 * failed so nothing has a ratio.  run and report end with it and exit 1:
 * a study that ranks nothing has not answered its question. */
char *ranking_why_unranked(const struct ranking *r);

/* Add the Pareto front of selectors x and y (both ranked as above, lower
 * or higher is better as each metric says) to r.  Returns 0; 1 when fewer
 * than two configurations have both metrics, or a selector names nothing
 * (nothing added). */
int ranking_add_pareto(struct store *st, struct ranking *r, const char *x, const char *y);
/* The selector of another metric over r's items (results_select_with);
 * heap string. */
char *ranking_selector_for(const struct ranking *r, const char *metric);

#endif
