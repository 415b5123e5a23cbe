/*
 * verdict_item.h - "the ratio and verdict of configuration C against R on
 * one item of a metric", read from the store and judged by the one rule
 * (analysis/verdict.h).  The axis pivot, the distro pivot (and so
 * recommend's package.env) and compare take every per-item figure they
 * show from here: the ratio is the rule's (with layouts = N the ratio of
 * the means of each layout's medians, not of the pooled medians), the
 * verdict the rule's under the options report was given (--alpha,
 * --min-effect, the calibrated floors of --min-effect auto).  The rank
 * table judges the same samples (results_samples_layouts) by the same
 * verdict_rule_for and verdict_pair from its sample table.
 */
#ifndef FLAGSCOPE_VERDICT_ITEM_H
#define FLAGSCOPE_VERDICT_ITEM_H

#include "analysis/calibration.h"
#include "analysis/rank.h"
#include "analysis/store.h"
#include "analysis/verdict.h"

/* One side of a judged item: a configuration of a study in a store. */
struct verdict_side {
	struct store *st;
	const char *study;
	const char *config_id;
};

/* The rule of the options o (NULL: rank_options_default) for metric as
 * `where`'s study stored it: its orientation, whether it is
 * deterministic, its meter's resolution, and with o->min_effect_auto the floors calibrated for a
 * noisy metric on that machine, loaded into *floors (the rule points at
 * it: release it after the rule's last use with calib_floors_release). */
void verdict_rule_load(const struct rank_options *o, struct store *st, const char *study,
		       const char *metric, struct verdict_rule *rule, struct calib_floors *floors);

struct verdict_item {
	struct sample_pair pair; /* the samples (heap, owned): cand's, then ref's */
	int from_build;          /* cand's values are its build's (a size) */
	struct verdict_rule rule; /* the rule for this item (verdict_rule_for) */
	struct comparison c;     /* verdict_pair's; ratio NAN when not judged */
	double floor;            /* verdict_layout_noise, or NAN */
	int judged;              /* both sides have samples and the ratio is defined */
};

/* Judge cand against ref on workload (run "" for none) in metric: both
 * sides' samples of their current builds, every layout
 * (results_samples_layouts), by rule for the item "WORKLOAD" or
 * "WORKLOAD/RUN".  Always fills it (release it with verdict_item_release);
 * returns 0 when judged, -1 when a side has no samples or the ratio is
 * undefined (c.error: a zero median). */
int verdict_item_judge(const struct verdict_rule *rule, const struct verdict_side *cand,
		       const struct verdict_side *ref, const char *workload, const char *run,
		       const char *metric, struct verdict_item *it);
void verdict_item_release(struct verdict_item *it);

#endif
