/*
 * confirm.h - the last word on a search's result: the chosen flag set
 * against -O2 and -O3, built and run through the pipeline with `repeat`
 * interleaved repetitions (one generated study), judged by the one rule
 * every command reads (analysis/verdict.h, with report's alpha 0.05,
 * min_effect 1% and seed, or the floors of this machine's calibration in
 * the database, as report's --min-effect auto takes them): per item by Mann-Whitney and the effect, over
 * the items by the geometric mean of the ratios, its bootstrap interval
 * and the items' own verdicts, so `report` on the study says the same.
 * Wall time is always confirmed; with the insns metric the instruction
 * counts are compared too (exact, one run each).
 *
 * With a study's layouts = N (search/pipeline.h: pl->layouts) every
 * configuration of the study is built as N layout variants, each run
 * `repeat` times, and each item is judged with layout as a random effect
 * (verdict_pair), as report judges that study.
 */
#ifndef FLAGSCOPE_SEARCH_CONFIRM_H
#define FLAGSCOPE_SEARCH_CONFIRM_H

#include "analysis/stats.h"
#include "search/pipeline.h"

struct confirm_side {
	char *against;         /* "-O2" */
	double gm, lo, hi;     /* time: geometric mean of best / against, 95% interval */
	enum verdict verdict;  /* improved: the best set is significantly faster
				  (verdict_summarise: mixed when some item is
				  significantly faster and another slower) */
	double insns;          /* insns: geometric mean of best / against; NAN if not measured */
	size_t nitems;
	char **item;
	struct comparison *cmp; /* per item, time */
	double *layout_noise;   /* per item: the calibrated floor that is why
				   it is unchanged (verdict_layout_noise), or NAN */
};

struct confirmation {
	char *study; /* the generated study that measured it */
	int repeat;  /* runs of each layout variant */
	int layouts; /* layout variants of each configuration (1: the plain build) */
	struct confirm_side side[2]; /* vs -O2, vs -O3 */
	enum outcome status; /* OUTCOME_OK, or the outcome that broke a configuration */
	char *detail;
};

/* Measure flags (added to the baseline's CFLAGS) against -O2 and -O3.
 * 0 (c->status says whether everything ran), or -1 with a reason when the
 * pipeline could not run. */
int search_confirm(struct search_pipeline *pl, const char *flags, int repeat, struct confirmation *c,
		   struct strbuf *err);
void confirmation_release(struct confirmation *c);

/* One side's figures and verdicts: best[i] (nbest[i] runs) against
 * ref[i] on items[i], as search_confirm judges them.  Exposed for tests;
 * d is released with its confirmation. */
void confirm_judge(struct confirm_side *d, char *const *items, double *const *best,
		   const size_t *nbest, double *const *ref, const size_t *nref, size_t n);
/* The same for items given as pairs, with their layouts (stats.h:
 * struct sample_pair; cand is the best set), by rule (its floors per
 * item, verdict_rule_for); NULL: report's defaults without floors. */
struct verdict_rule;
void confirm_judge_pairs(struct confirm_side *d, const struct verdict_rule *rule,
			 char *const *items, const struct sample_pair *pairs, size_t n);

#endif
