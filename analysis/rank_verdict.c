/* rank_verdict.c - the verdict/interval part of ranking (see
 * rank_internal.h): each configuration against the baseline, and the
 * groups of configurations not significantly apart. */
#include "analysis/rank_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "base/util.h"

static int usable(const struct rank_item *it)
{
	return (it->status == OUTCOME_OK || it->status == OUTCOME_NOISY) && it->s.n;
}

/* A noisy metric with fewer than two runs on a side is not tested. */
static int pair_untested(const struct ranking *r, size_t na, size_t nb)
{
	return !r->deterministic && (na < 2 || nb < 2);
}

/* 1 when an item before w is of w's workload and from its build too. */
static int build_counted(const struct rank_config *rc, size_t w)
{
	for (size_t k = 0; k < w; k++)
		if (rc->items[k].from_build && !strcmp(rc->items[k].workload, rc->items[w].workload))
			return 1;
	return 0;
}

static void rank_rule(const struct ranking *r, struct verdict_rule *rule)
{
	*rule = (struct verdict_rule){
		.alpha = r->opt.alpha, .min_effect = r->opt.min_effect, .iters = r->opt.iters,
		.seed = r->opt.seed, .deterministic = r->deterministic,
		.higher_better = r->higher_better, .floors = r->floors.n ? &r->floors : NULL,
		.resolution = r->resolution,
	};
}

/* Items and configuration against the baseline, by the one rule
 * (analysis/verdict.h). */
void rank_compare_config(struct ranking *r, size_t c, const struct sample_table *t)
{
	struct rank_config *rc = &r->configs[c];
	size_t base = (size_t)r->baseline;
	struct verdict_parts parts;
	verdict_parts_init(&parts, t->nitems);
	struct verdict_rule rule;
	rank_rule(r, &rule);
	int all = 1;
	double effects = 0; /* the parts' min_effects: a summary's is their mean */
	for (size_t w = 0; w < t->nitems; w++) {
		struct rank_item *it = &rc->items[w];
		struct rank_item *bi = &r->configs[base].items[w];
		struct sample_pair pair = pair_of(t, c, base, w);
		struct verdict_rule ir;
		verdict_rule_for(&rule, it->name, &ir);
		if (!usable(it) || !usable(bi)) {
			all = 0;
			continue;
		}
		struct comparison cmp;
		verdict_pair(&ir, &pair, &cmp);
		if (cmp.error) {
			all = 0;
			continue;
		}
		it->layout_noise = c == base ? NAN : verdict_layout_noise(&ir, &cmp);
		it->below_resolution = c != base && cmp.below_resolution;
		it->ratio = cmp.ratio;
		it->lo = cmp.lo;
		it->hi = cmp.hi;
		it->p = cmp.p;
		it->nbase = pair.nbase;
		it->layouts = cmp.layouts_cand ? cmp.layouts_cand : 1;
		it->exact = cmp.exact;
		it->untested = cmp.untested;
		rc->untested |= cmp.untested;
		it->verdict = cmp.verdict;
		/* a size is the build's, the same in each of its workload's run
		 * sections: it counts once per workload */
		if (it->from_build && build_counted(rc, w))
			continue;
		rc->improved += it->verdict == VERDICT_IMPROVED;
		rc->regressed += it->verdict == VERDICT_REGRESSED;
		verdict_parts_add(&parts, pair, it->name, &cmp);
		effects += ir.min_effect;
	}
	if (parts.n)
		rule.min_effect = effects / (double)parts.n;
	struct verdict_summary sum;
	if (all && parts.n && !verdict_summarise(&rule, &parts, &sum)) {
		rc->ratio = sum.ratio;
		rc->lo = sum.lo;
		rc->hi = sum.hi;
		rc->verdict = sum.verdict;
		rc->mixed = sum.mixed;
	}
	verdict_parts_release(&parts);
}

/* Lower is better after orientation; NAN when not ranked. */
double rank_value(const struct ranking *r, const struct rank_config *c)
{
	if (c->status != OUTCOME_OK || !isfinite(c->ratio) || c->ratio <= 0)
		return NAN;
	return r->higher_better ? 1 / c->ratio : c->ratio;
}

static const struct ranking *sort_r;

static int by_value(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	double va = rank_value(sort_r, &sort_r->configs[ia]);
	double vb = rank_value(sort_r, &sort_r->configs[ib]);
	if (va != vb)
		return va < vb ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/* Every item's samples equal in both (identical binaries reusing one
 * set of runs): the same program, whatever the bootstrap says. */
static int same_samples(const struct sample_table *t, size_t a, size_t b)
{
	for (size_t w = 0; w < t->nitems; w++) {
		size_t na, nb;
		double *x = cell(t, a, w, &na), *y = cell(t, b, w, &nb);
		if (na != nb || (na && memcmp(x, y, na * sizeof(*x))))
			return 0;
	}
	return 1;
}

/* How sure the verdict is (see rank.h, "Settled"): the share of the
 * bootstrap's geometric means outside the verdict's own region. */
static double change_probability(const struct ranking *r, int same, double gm, const double *boot)
{
	double me = r->opt.min_effect, tie = rank_tie_band(r);
	double lo = same ? 1 - tie : gm < 1 ? -INFINITY : 1 + me;
	double hi = same ? 1 + tie : gm < 1 ? 1 - me : INFINITY;
	double in = stats_fraction_within(boot, r->opt.iters > 0 ? (size_t)r->opt.iters : 0, lo, hi);
	return isnan(in) ? 1 : 1 - in;
}

/* The half-width of the band around 1 that holds 1 - settle_level of the
 * resamples: how close a tie is known to be, whatever its margin asks. */
static double tie_within(const struct ranking *r, const double *boot)
{
	size_t n = r->opt.iters > 0 ? (size_t)r->opt.iters : 0, k = 0;
	double *off = xcalloc(n ? n : 1, sizeof(*off));
	for (size_t i = 0; i < n; i++)
		if (!isnan(boot[i]))
			off[k++] = fabs(boot[i] - 1);
	double m = k ? stats_quantile(off, k, 1 - r->opt.settle_level) : NAN;
	free(off);
	return m;
}

/* Some item of c differs significantly from the leader's by the part
 * rule (analysis/verdict.h): without one, two configurations are never
 * ranked apart, as the verdict against the baseline is never a change
 * without one. */
static int items_differ(const struct ranking *r, const struct sample_table *t, size_t lead,
			size_t c)
{
	struct verdict_rule rule;
	rank_rule(r, &rule);
	for (size_t w = 0; w < t->nitems; w++) {
		struct sample_pair pair = pair_of(t, c, lead, w);
		struct comparison cmp;
		if (!pair.ncand || !pair.nbase)
			continue;
		struct verdict_rule ir;
		verdict_rule_for(&rule, r->configs[c].items[w].name, &ir);
		verdict_pair(&ir, &pair, &cmp);
		if (!cmp.error && cmp.verdict != VERDICT_UNCHANGED)
			return 1;
	}
	return 0;
}

/* Not significantly different from the group's leader (see rank.h); the
 * verdict's change probability in *p_change and, for a tie, its band in
 * *within (NAN: none). */
static int same_group(const struct ranking *r, const struct sample_table *t, size_t lead,
		      size_t c, struct rng *rng, double *p_change, double *within)
{
	struct sample_pair *pairs = xcalloc(t->nitems ? t->nitems : 1, sizeof(*pairs));
	double *boot = xcalloc(r->opt.iters > 0 ? (size_t)r->opt.iters : 1, sizeof(*boot));
	size_t np = 0;
	int untested = 0;
	for (size_t w = 0; w < t->nitems; w++) {
		struct sample_pair pair = pair_of(t, c, lead, w);
		const struct rank_config *rc = &r->configs[c];
		if (pair.ncand && pair.nbase && !(rc->items[w].from_build && build_counted(rc, w))) {
			pairs[np++] = pair;
			untested |= pair_untested(r, pair.ncand, pair.nbase);
		}
	}
	double gm, lo, hi;
	int same = 1;
	*p_change = 1;
	*within = NAN;
	if (np && !untested &&
	    !stats_geomean_ratio_boot(pairs, np, 1 - r->opt.alpha, r->opt.iters, rng, &gm, &lo,
				      &hi, boot)) {
		same = (lo <= 1 && hi >= 1) || fabs(gm - 1) < r->opt.min_effect * (1 - 1e-9) ||
		       !items_differ(r, t, lead, c);
		*p_change = change_probability(r, same, gm, boot);
		if (same)
			*within = tie_within(r, boot);
	}
	if (np && same_samples(t, lead, c))
		*p_change = 0, *within = 0;
	free(boot);
	free(pairs);
	return same;
}

/* The fewest runs of an item in configuration c. */
static size_t fewest_runs(const struct sample_table *t, size_t c)
{
	size_t least = 0;
	for (size_t w = 0; w < t->nitems; w++) {
		size_t n;
		cell(t, c, w, &n);
		if (w == 0 || n < least)
			least = n;
	}
	return least;
}

void rank_assign_ranks(struct ranking *r, const struct sample_table *t, struct rng *rng)
{
	size_t *order = xcalloc(r->n ? r->n : 1, sizeof(size_t)), m = 0;
	for (size_t c = 0; c < r->n; c++) {
		r->configs[c].versus = -1;
		r->configs[c].p_change = NAN;
		r->configs[c].tie_within = NAN;
		if (!isnan(rank_value(r, &r->configs[c])))
			order[m++] = c;
	}
	sort_r = r;
	qsort(order, m, sizeof(size_t), by_value);
	size_t lead = 0;
	for (size_t k = 0; k < m; k++) {
		struct rank_config *rc = &r->configs[order[k]];
		if (k > 0) {
			rc->versus = (int)order[lead];
			size_t a = fewest_runs(t, order[k]), b = fewest_runs(t, order[lead]);
			rc->versus_runs = a < b ? a : b;
			if (!same_group(r, t, order[lead], order[k], rng, &rc->p_change,
					&rc->tie_within))
				lead = k;
		}
		rc->rank = (int)lead + 1;
	}
	free(order);
}
