/*
 * results.h - reading one study's results back from the store: its
 * configurations, its items (workload and run section), the samples of a
 * metric and the outcome of an item.  Ranking, compare, recommend and why
 * all read through here, so "which samples count" is decided once:
 *
 *  - a sample counts when it belongs to a measured repetition (rep >= 1)
 *    whose run ended ok;
 *  - size metrics (size.*) are properties of the build: one exact value,
 *    stored as run "@build", rep 0.
 *
 * Every function returns heap memory the caller frees; none prints.
 */
#ifndef FLAGSCOPE_RESULTS_H
#define FLAGSCOPE_RESULTS_H

#include "analysis/store.h"
#include "harness/outcome.h"

struct result_config {
	char *id, *label, *cc, *toolchain, *cflags, *ldflags, *link;
	int is_baseline;
};

/* The configurations of a study in study order; *n set (0 when the study
 * is not in the database).  Free with result_configs_free(). */
struct result_config *results_configs(struct store *st, const char *study, size_t *n);
void result_configs_free(struct result_config *c, size_t n);
/* Index of the configuration labelled `label`, or -1. */
int results_find_label(const struct result_config *c, size_t n, const char *label);

/* Every (workload, run section) of the study, sorted: the runs stored,
 * plus workloads whose builds never got to run ("" run).  Appended to the
 * two parallel lists. */
void results_items(struct store *st, const char *study, struct strlist *workloads,
		   struct strlist *runs);

/* The values of metric for one item, in repetition order (see the top of
 * this file); *n set, NULL when none.  *from_build (may be NULL) is set to
 * 1 when the value is the build's own (a size). */
double *results_samples(struct store *st, const char *study, const char *config_id,
			const char *workload, const char *run, const char *metric, size_t *n,
			int *from_build);

/* The outcome of an item: the build's when it failed, else the first
 * failed repetition's (the warm-up included: its output is checked first);
 * OUTCOME_UNSUPPORTED "not built" when there is no build.  *detail is a
 * heap string ("" when none). */
enum outcome results_status(struct store *st, const char *study, const char *config_id,
			    const char *workload, const char *run, char **detail);

/* The build key of (config, workload), or NULL. */
char *results_build_key(struct store *st, const char *study, const char *config_id,
			const char *workload);

/* The path of the study file the study was run from, as `run` recorded
 * it (relative to the folder it ran in), or NULL; heap string. */
char *results_study_path(struct store *st, const char *study);
/* The study's stored primary metric ("time" if none); heap string. */
char *results_study_metric(struct store *st, const char *study);
/* The unit a metric was stored with ("" if unknown); heap string. */
char *results_metric_unit(struct store *st, const char *study, const char *metric);
/* 1 when the recipe declared the metric higher-is-better. */
int results_higher_better(struct store *st, const char *study, const char *metric);
/* A value of the facts table, or NULL; heap string. */
char *results_fact(struct store *st, const char *study, const char *key);

#endif
