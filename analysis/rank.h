/*
 * rank.h - the ranking of a stored study by one metric: per workload the
 * median and its ratio to the baseline with a bootstrap interval; per
 * configuration the geometric mean of those ratios; configurations whose
 * intervals overlap share a rank.  A configuration with any failed build
 * or run, or wrong output, is shown with that status and never ranked.
 */
#ifndef FLAGSCOPE_RANK_H
#define FLAGSCOPE_RANK_H

#include "analysis/store.h"
#include "harness/outcome.h"

struct rank_item {
	char *name; /* "crc32", or "lame/cbr128" for a run section */
	char *workload, *run;
	size_t n;
	double median;
	double ratio, lo, hi; /* against the baseline; NAN if none */
	int exact;            /* no spread in either sample */
	enum outcome status;
	char *detail;
};

struct rank_config {
	char *id, *label, *cc, *toolchain, *cflags, *ldflags, *link;
	int is_baseline;
	int rank; /* 0: not ranked */
	double ratio, lo, hi;
	enum outcome status;
	char *detail; /* the first problem, "crc32: killed by signal 11" */
	struct rank_item *items;
	size_t nitems;
	char *facts; /* JSON array of the builds' ELF facts, or NULL */
};

struct ranking {
	char *study;
	char *metric, *unit;
	int higher_better;
	struct rank_config *configs;
	size_t n;
	int built, cached, failed; /* counts of the last run; -1 unknown */
	struct strlist facts;      /* "perf: ..." lines */
};

/* Compute from the store.  metric NULL: the study's own.  0, or -1 with a
 * reason in err. */
int ranking_compute(struct store *st, const char *study, const char *metric,
		    struct ranking *r, struct strbuf *err);
void ranking_release(struct ranking *r);

#endif
