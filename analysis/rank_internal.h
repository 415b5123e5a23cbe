/*
 * rank_internal.h - what rank.c (loading a study's samples, assembling the
 * table) and rank_verdict.c (verdicts, intervals, groups) share.  Only
 * analysis/rank*.c include it.
 */
#ifndef FLAGSCOPE_RANK_INTERNAL_H
#define FLAGSCOPE_RANK_INTERNAL_H

#include <stddef.h>

#include "analysis/rank.h"
#include "analysis/verdict.h"

/* The samples of every (configuration, item), kept while ranking. */
struct sample_table {
	double **v;
	size_t *n;
	int **layout; /* each sample's layout variant (results_samples_layouts) */
	size_t nitems;
};

static inline double *cell(const struct sample_table *t, size_t c, size_t w, size_t *n)
{
	*n = t->n[c * t->nitems + w];
	return t->v[c * t->nitems + w];
}

/* Item w of c against item w of ref, with their layouts (verdict.h). */
static inline struct sample_pair pair_of(const struct sample_table *t, size_t c, size_t ref,
					 size_t w)
{
	size_t i = c * t->nitems + w, j = ref * t->nitems + w;
	return (struct sample_pair){t->v[i], t->n[i], t->v[j], t->n[j], t->layout[i], t->layout[j]};
}

/* Lower is better after orientation; NAN when not ranked. */
double rank_value(const struct ranking *r, const struct rank_config *c);
/* Items and configuration c against the baseline, by the one rule
 * (analysis/verdict.h): fills c's ratios, intervals and verdicts. */
void rank_compare_config(struct ranking *r, size_t c, const struct sample_table *t);
/* Ranks the ranked configurations: each joins the group of the leader it
 * is not significantly different from, else leads a new one (rank.h). */
void rank_assign_ranks(struct ranking *r, const struct sample_table *t, struct rng *rng);

#endif
