/*
 * compare.h - regression verdicts between two sets of results of the same
 * study: the same configurations in two databases (e.g. made with gcc-11
 * and gcc-12, paired by label), or two configurations of one database.
 *
 * Every (configuration, item, metric) gives one line: the ratio of medians
 * new / old with its bootstrap interval at level 1 - alpha, the two-sided
 * Mann-Whitney p, the sample counts and a verdict (stats_compare: a change
 * counts only if p < alpha AND |ratio - 1| >= min_effect), oriented so
 * that IMPROVED always means better for that metric.
 *
 * Outcomes count too: an item that was ok and now fails (wrong output,
 * crash, build failure...) is REGRESSED, but one that is now unsupported
 * (UNSUPPORTED_FLAG: the new compiler has no such flag; UNSUPPORTED: the
 * combination cannot exist there) has `unsupported` set and the verdict
 * UNSUPPORTED, counted apart: it cannot be built there, which is no slower
 * code, yet it is lost (compare's exit status fails on it as on a
 * regression); one that failed and now works is
 * IMPROVED; an item failing in both, or stored on one side only, is
 * UNCHANGED with `incomplete` set and the reason in detail (counted as not
 * comparable, not unchanged; the table shows it as N/A, JSON as "n/a").  An item ok on
 * both sides with no sample of the metric on either (the metric is not
 * measured there) gives no line and is listed once in `skipped`.
 *
 * Summary: per configuration and metric, the lines' geometric mean with
 * its interval and the summary verdict of analysis/verdict.h (improved
 * only with some item better and none worse, MIXED with both), the same
 * as the rank table's for that pair (table: "summary", JSON "summaries").
 *
 * Noise: a metric that is not deterministic (results_metric_deterministic)
 * with one run on a side is not tested (c.untested): the ratio is shown,
 * the verdict is UNCHANGED.
 */
#ifndef FLAGSCOPE_COMPARE_H
#define FLAGSCOPE_COMPARE_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/rank.h"
#include "analysis/store.h"
#include "analysis/verdict.h"
#include "analysis/verdict_item.h"

/* A side of a comparison is a struct verdict_side (analysis/verdict_item.h):
 * a configuration of a study in a store. */

struct compare_line {
	char *config; /* label, or "OLD -> NEW" for two configurations */
	char *item;   /* "crc32", "lame/cbr128" */
	char *metric, *unit;
	struct comparison c; /* new against old (verdict_part: c.verdict oriented) */
	enum verdict verdict; /* oriented for the metric */
	int incomplete;       /* no measured comparison (see above) */
	int unsupported;      /* ok before, unsupported now (see above) */
	enum outcome old_status, new_status;
	double old_median, new_median;
	char *detail; /* "" or why the verdict is not a measured one */
};

/* One configuration's lines of one metric summarised by the summary rule
 * of analysis/verdict.h, as the rank table summarises a configuration
 * against its baseline (a build property counted once per workload):
 * only when every line is a measured comparison (`complete`). */
struct compare_summary {
	char *config, *metric;
	struct verdict_summary s; /* s.mixed owned; NAN figures when not complete */
	size_t items;             /* lines summarised or not */
	int complete;
};

struct compare_result {
	char *old_name, *new_name; /* database paths or configuration labels */
	char *study;
	struct rank_options opt;
	struct compare_line *v;
	size_t n;
	struct compare_summary *sum;
	size_t nsum;
	size_t improved, regressed, unchanged, incomplete, unsupported;
	struct strlist skipped; /* "lame/cbr128: no samples of X on either side" */
	struct strlist machine; /* "governor: performance -> powersave" (compare_machine) */
	struct result_progress progress; /* the new side's study (results.h); not
					    complete when the old side is not */
};

/* Append the lines of one pair of configurations: every item either side
 * has that a selector takes, with its metric.  label names the lines. */
void compare_configs(const struct verdict_side *old, const struct verdict_side *new,
		     const char *label, const struct result_select *sel, size_t nsel,
		     const struct rank_options *o, struct compare_result *res);

/* The same study in two databases, configurations paired by label.
 * metrics: selectors (results.h: time, libcbench/malloc_big1,
 * coremark/iterations_per_sec), resolved against the new database, else
 * the old; empty: the study's own metric.  0, or -1 with a reason in err
 * (the study is missing from one, a selector names nothing, or no label is
 * in both). */
int compare_databases(struct store *old, struct store *new, const char *study,
		      const struct strlist *metrics, const struct rank_options *o,
		      struct compare_result *res, struct strbuf *err);

/* compare_databases for any two studies: old_study in old, new_study in
 * new (the same store for a saved baseline, store.h).  When the store is
 * the same, the names in the result are the studies'. */
int compare_studies(struct store *old, const char *old_study, struct store *new,
		    const char *new_study, const struct strlist *metrics,
		    const struct rank_options *o, struct compare_result *res, struct strbuf *err);

/* Append the differences between two studies' machine states (store.h),
 * "KEY: OLD -> NEW", for every key but the load averages and times, which
 * differ between any two runs; a key the old side lacks reads "not
 * recorded". */
void compare_machine(struct store *old, const char *old_study, struct store *new,
		     const char *new_study, struct strlist *out);

/* The configuration of c[0..n) named by its levels in any order, as a
 * study's baseline = names one ("gcc12", "O2 gcc12" for "gcc12 O2";
 * matrix.h, config_label_find), or -1 with why in err (none has them, or
 * several do: named). */
int compare_find_config(const struct result_config *c, size_t n, const char *levels,
			struct strbuf *err);

/* Two configurations of one study, by their levels (compare_find_config).
 * 0, or -1 with err. */
int compare_labels(struct store *st, const char *study, const char *old_label,
		   const char *new_label, const struct strlist *metrics,
		   const struct rank_options *o, struct compare_result *res, struct strbuf *err);

void compare_result_release(struct compare_result *res);

/* Print as "table" (coloured where significant on a terminal) or "json";
 * -1 for an unknown format. */
int compare_print(FILE *out, const struct compare_result *res, const char *format);
/* The formats compare_print writes (formats.h: format_family; err NULL
 * but in the start-up check). */
format_set compare_formats(struct strbuf *err);

#endif
