/* verdict.c - see verdict.h */
#include "analysis/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static enum verdict orient(enum verdict v, int higher_better)
{
	if (!higher_better || v == VERDICT_UNCHANGED || v == VERDICT_MIXED)
		return v;
	return v == VERDICT_IMPROVED ? VERDICT_REGRESSED : VERDICT_IMPROVED;
}

int verdict_below_resolution(const struct verdict_rule *rule, const double *cand, size_t nc,
			     const double *ref, size_t nr)
{
	double q = rule->resolution;
	if (!(q > 0) || !nc || !nr)
		return 0;
	double mc = stats_median(cand, nc), mr = stats_median(ref, nr);
	/* a hair under the bound on both sides: a value of exactly so many
	 * steps must not flip on the last bit */
	double tol = 1 + 1e-9;
	return fabs(mc - mr) < VERDICT_RES_DIFF * q * tol ||
	       (fabs(mc) < VERDICT_RES_LEVEL * q * tol && fabs(mr) < VERDICT_RES_LEVEL * q * tol);
}

/* The resolution's say on a judged part (verdict.h) */
static void resolution_check(const struct verdict_rule *rule, const double *cand, size_t nc,
			     const double *ref, size_t nr, struct comparison *c)
{
	c->below_resolution = !c->error && !c->untested &&
			      verdict_below_resolution(rule, cand, nc, ref, nr);
	if (c->below_resolution)
		c->verdict = VERDICT_UNCHANGED;
}

void verdict_part(const struct verdict_rule *rule, const double *cand, size_t nc,
		  const double *ref, size_t nr, struct comparison *c)
{
	/* a fresh stream per pair: the same pair gives the same interval
	 * in every command, whatever was computed before it */
	struct rng r;
	rng_seed(&r, rule->seed);
	if (rule->deterministic)
		stats_compare(cand, nc, ref, nr, rule->alpha, rule->min_effect, rule->iters, &r, c);
	else
		stats_compare_noisy(cand, nc, ref, nr, rule->alpha, rule->min_effect, rule->iters,
				    &r, c);
	c->verdict = orient(c->verdict, rule->higher_better);
	resolution_check(rule, cand, nc, ref, nr, c);
}

void verdict_pair(const struct verdict_rule *rule, const struct sample_pair *p,
		  struct comparison *c)
{
	size_t kc = stats_layout_count(p->cand_layout, p->ncand);
	size_t kb = stats_layout_count(p->base_layout, p->nbase);
	if (kc <= 1 && kb <= 1) {
		verdict_part(rule, p->cand, p->ncand, p->base, p->nbase, c);
		return;
	}
	struct rng r;
	rng_seed(&r, rule->seed);
	stats_compare_nested(p, rule->alpha, rule->min_effect, rule->iters, &r, c);
	c->verdict = orient(c->verdict, rule->higher_better);
	resolution_check(rule, p->cand, p->ncand, p->base, p->nbase, c);
}

void verdict_rule_for(const struct verdict_rule *rule, const char *item, struct verdict_rule *out)
{
	*out = *rule;
	double f = rule->deterministic ? NAN : calib_floors_get(rule->floors, item);
	if (isfinite(f) && f >= 0)
		out->min_effect = out->floor = f;
}

double verdict_layout_noise(const struct verdict_rule *item_rule, const struct comparison *c)
{
	if (!(item_rule->floor > 0) || c->error || c->untested || c->exact || c->below_resolution ||
	    c->verdict != VERDICT_UNCHANGED || !isfinite(c->ratio))
		return NAN;
	return fabs(c->ratio - 1) < item_rule->floor * (1 - 1e-9) ? item_rule->floor : NAN;
}

enum verdict verdict_of_summary(const struct verdict_rule *rule, double ratio, double lo,
				double hi, size_t nparts, enum verdict one_part, size_t improved,
				size_t regressed, int untested)
{
	if (untested || !nparts || isnan(ratio))
		return VERDICT_UNCHANGED;
	if (nparts == 1)
		return one_part;
	if (improved && regressed)
		return VERDICT_MIXED;
	/* an effect of exactly min_effect must not fail on the last bit */
	double me = rule->min_effect * (1 - 1e-9);
	int below = hi < 1 && 1 - ratio >= me, above = lo > 1 && ratio - 1 >= me;
	int better = rule->higher_better ? above : below;
	int worse = rule->higher_better ? below : above;
	if (better && improved)
		return VERDICT_IMPROVED;
	if (worse && regressed)
		return VERDICT_REGRESSED;
	return VERDICT_UNCHANGED;
}

void verdict_parts_init(struct verdict_parts *p, size_t cap)
{
	cap = cap ? cap : 1;
	*p = (struct verdict_parts){
		.pairs = xcalloc(cap, sizeof(*p->pairs)),
		.named = xcalloc(cap, sizeof(*p->named)),
		.untested = xcalloc(cap, sizeof(*p->untested)),
	};
}

void verdict_parts_add(struct verdict_parts *p, struct sample_pair pair, const char *name,
		       const struct comparison *c)
{
	p->pairs[p->n] = pair;
	p->named[p->n] = (struct verdict_named){name, c->ratio, c->verdict};
	p->untested[p->n++] = c->untested;
}

void verdict_parts_release(struct verdict_parts *p)
{
	free(p->pairs);
	free(p->named);
	free(p->untested);
	memset(p, 0, sizeof(*p));
}

int verdict_summarise(const struct verdict_rule *rule, const struct verdict_parts *p,
		      struct verdict_summary *s)
{
	size_t n = p->n;
	*s = (struct verdict_summary){.ratio = NAN, .lo = NAN, .hi = NAN, .nparts = n};
	for (size_t i = 0; i < n; i++) {
		s->improved += p->named[i].verdict == VERDICT_IMPROVED;
		s->regressed += p->named[i].verdict == VERDICT_REGRESSED;
		s->untested |= p->untested[i];
	}
	struct rng r;
	rng_seed(&r, rule->seed);
	double conf = rule->alpha > 0 && rule->alpha < 1 ? 1 - rule->alpha : 0.95;
	s->error = stats_geomean_ratio(p->pairs, n, conf, rule->iters, &r, &s->ratio, &s->lo,
				       &s->hi);
	if (s->error) {
		s->ratio = s->lo = s->hi = NAN;
		return s->error;
	}
	if (s->untested)
		s->lo = s->hi = NAN;
	s->verdict = verdict_of_summary(rule, s->ratio, s->lo, s->hi, n,
					n ? p->named[0].verdict : VERDICT_UNCHANGED, s->improved,
					s->regressed, s->untested);
	if (s->verdict == VERDICT_MIXED)
		s->mixed = verdict_mixed_text(p->named, n);
	return 0;
}

char *verdict_mixed_text(const struct verdict_named *parts, size_t n)
{
	struct strbuf sb = {0};
	sb_add(&sb, "mixed:");
	const char *sep = " ";
	for (size_t i = 0; i < n; i++) {
		if (parts[i].verdict != VERDICT_IMPROVED && parts[i].verdict != VERDICT_REGRESSED)
			continue;
		sb_addf(&sb, "%s%+.1f%% %s", sep, 100 * (parts[i].ratio - 1), parts[i].name);
		sep = ", ";
	}
	return sb_detach(&sb);
}

double verdict_smallest_p(size_t na, size_t nb)
{
	if (!na || !nb)
		return NAN;
	/* the most extreme arrangement: every candidate value below every
	 * reference value, no ties; the test's own p, not a formula beside it */
	double *a = xcalloc(na, sizeof(*a)), *b = xcalloc(nb, sizeof(*b));
	for (size_t i = 0; i < na; i++)
		a[i] = (double)i;
	for (size_t i = 0; i < nb; i++)
		b[i] = (double)(na + i);
	double p = stats_mann_whitney(a, na, b, nb, NULL);
	free(a);
	free(b);
	return p;
}

int verdict_can_be_significant(size_t na, size_t nb, double alpha)
{
	return na && nb && verdict_smallest_p(na, nb) < alpha;
}

char *verdict_power_warning(size_t runs, double alpha, const char *where, const char *key)
{
	if (verdict_can_be_significant(runs, runs, alpha))
		return NULL;
	size_t need = verdict_min_runs(alpha);
	struct strbuf sb = {0};
	sb_addf(&sb, "%s: with %zu run%s a side no workload can be significant: the smallest "
		     "Mann-Whitney p is %.2g, not below %g, so no configuration can be called "
		     "improved or regressed (",
		where, runs, runs == 1 ? "" : "s", verdict_smallest_p(runs, runs), alpha);
	/* repeat = stable or auto is already adaptive: only its cap is short */
	if (need && strcmp(key, "repeat"))
		sb_addf(&sb, "it needs %zu runs a side: set %s = %zu or more)", need, key, need);
	else if (need)
		sb_addf(&sb, "it needs %zu runs a side: leave repeat out, as repeat = stable, the "
			     "default, measures from 5 runs until every verdict is settled, or set "
			     "%s = %zu or more)", need, key, need);
	else
		sb_add(&sb, "no number of runs can: choose an alpha between 0 and 1)");
	return sb_detach(&sb);
}

size_t verdict_min_runs(double alpha)
{
	for (size_t n = 1; n <= STATS_MWU_EXACT_MAX; n++)
		if (verdict_can_be_significant(n, n, alpha))
			return n;
	return 0;
}
