/*
 * pivot_distro.h - a stored study as the published distribution rebuild
 * tables print it (x86-64 / v2 / v3 x -O2 / -O3 per package): one row per
 * workload, one column per configuration other than the baseline, each
 * with
 *   pct      = 100 * (ratio - 1), ratio the geometric mean over the
 *              workload's runs of median(configuration) / median(baseline)
 *              of the study's metric: negative when the configuration takes
 *              less time (for a higher-is-better metric: positive when it
 *              scores more);
 *   lo, hi   its interval (bootstrap, stats_geomean_ratio, level 1 - alpha)
 *              in the same percent form;
 *   verdict  the one rule of analysis/verdict.h, the workload a summary of
 *              its runs: one run has that run's verdict (the rank table's
 *              row); several are improved only when the interval is on the
 *              better side, |pct| >= min_effect, some run is significantly
 *              better and none worse, and MIXED (the runs listed in
 *              `mixed`) when runs are significantly better and worse; an
 *              untested cell (a noisy metric with fewer than two runs on a
 *              side) is never significant;
 *   size_pct = 100 * (size.text / baseline size.text - 1) of the build (the
 *              recipe's binaries and libraries, build_sizes): exact.
 * A cell whose build or runs failed in the configuration or the baseline
 * has its outcome instead of numbers.  A study with profile-guided
 * configurations (pgo = gen-use) also lists which training run each
 * workload's profile came from (the facts pgo.train.WORKLOAD).
 *
 * distro_workload_ratio() is the per-workload comparison the table and
 * recommend --format package.env share.
 */
#ifndef FLAGSCOPE_PIVOT_DISTRO_H
#define FLAGSCOPE_PIVOT_DISTRO_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/rank.h"
#include "analysis/store.h"
#include "base/outcome.h"

struct distro_ratio {
	enum outcome status; /* the first non-ok outcome of either side, else ok */
	char *detail;        /* heap; "" when ok */
	double ratio, lo, hi; /* candidate / reference, geometric mean over runs; NAN if none */
	enum verdict verdict; /* oriented: improved = better for the metric */
	int untested;         /* fewer than two runs of a noisy metric on a side */
	size_t nruns;         /* the workload's runs compared */
	char *mixed;          /* VERDICT_MIXED: "mixed: -25.0% default, +25.0%
				 best", else NULL (heap) */
};

/* Compare configuration cand_id with ref_id on every run of workload in
 * metric.  higher_better orients the verdict.  Always fills out (release
 * with distro_ratio_release). */
void distro_workload_ratio(struct store *st, const char *study, const char *cand_id,
			   const char *ref_id, const char *workload, const char *metric,
			   int higher_better, const struct rank_options *o,
			   struct distro_ratio *out);
void distro_ratio_release(struct distro_ratio *r);

struct distro_cell {
	struct distro_ratio time; /* of the metric */
	double pct, lo_pct, hi_pct; /* NAN when no ratio */
	double size, size_pct;      /* size.text in bytes and its change; NAN if none */
};

struct distro_row {
	char *workload;
	double base_value; /* the baseline's median over the first run; NAN if none */
	double base_size;  /* the baseline's size.text; NAN if none */
	struct distro_cell *cells; /* one per column */
};

/* Over the rows of a column whose cell is ok: the geometric mean of their
 * ratios (n: how many rows had one) and of their size ratios, in percent
 * (no interval: a summary line, as the published tables' average). */
struct distro_summary {
	double pct, size_pct; /* NAN when no row is ok */
	size_t n;
	char *mixed; /* rows significantly better and worse (or a mixed row):
			"mixed: -10.0% w1, lz4 (mixed)", the row printed '!';
			else NULL (heap) */
};

struct distro_table {
	char *study, *metric, *unit;
	int higher_better;
	struct rank_options opt;
	char *baseline; /* its label */
	char *base_cflags; /* the baseline's CFLAGS as stored */
	int base_pgo;      /* 1: the baseline is profile-guided (pgo = gen-use) */
	char **labels;  /* the columns: every configuration but the baseline, study order */
	char **cflags;  /* per column: its CFLAGS as stored (a profile's flags are not in them) */
	int *pgo;       /* per column: 1 when profile-guided (pgo = gen-use) */
	size_t ncols;
	struct distro_row *rows;
	size_t nrows;
	struct distro_summary *summary; /* one per column */
	struct strlist train; /* "crc32: [train] crc32 1; measured: [run] crc32 24" */
};

/* metric: a selector (results.h) whose metric and workload are used (every
 * run of the workload is compared); NULL: the study's own metric.  0, or -1 with "what is wrong (what to do)"
 * in err: no such study, no baseline stored, nothing but the baseline. */
int distro_table_compute(struct store *st, const char *study, const char *metric,
			 const struct rank_options *o, struct distro_table *t,
			 struct strbuf *err);
void distro_table_release(struct distro_table *t);

/* format "table", "csv" or "json"; -1 for another. */
int distro_table_print(FILE *out, const struct distro_table *t, const char *format);
/* The formats distro_table_print writes (formats.h: format_family; err
 * NULL but in the start-up check). */
format_set distro_table_formats(struct strbuf *err);

#endif
