/* stats_ratio.c - see stats.h: ratios of medians with bootstrap intervals,
 * for one pair, across workloads (the geometric mean) and with layout as a
 * random effect (the nested bootstrap, Welch's test on the layouts) */
#include "analysis/stats.h"
#include "analysis/stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- layouts (stats.h: layout as a random effect) ------------------------ */

/* A side as layouts, each prepared for resampling. */
struct nested {
	struct stats_boot *g;
	size_t k, nmax;
	double stat;  /* mean of the layouts' medians */
	int constant; /* every value equal: the statistic is exact */
};

size_t stats_layout_count(const int *layout, size_t n)
{
	if (!n)
		return 0;
	if (!layout)
		return 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && layout[j] != layout[i])
			j++;
		k += j == i;
	}
	return k;
}

/* n > 0.  Layouts in the order their first value comes. */
static void nested_init(struct nested *s, const double *x, const int *layout, size_t n)
{
	*s = (struct nested){.k = stats_layout_count(layout, n)};
	s->g = xcalloc(s->k, sizeof(*s->g));
	double *v = xmalloc(n * sizeof(*v));
	int *ids = xmalloc(s->k * sizeof(*ids));
	size_t made = 0;
	double sum = 0, lo = x[0], hi = x[0];
	for (size_t i = 0; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
		int id = layout ? layout[i] : 0;
		size_t j = 0;
		while (j < made && ids[j] != id)
			j++;
		if (j < made)
			continue;
		ids[made] = id;
		size_t m = 0;
		for (size_t t = i; t < n; t++)
			if (!layout || layout[t] == id)
				v[m++] = x[t];
		stats_boot_init(&s->g[made], v, m);
		sum += s->g[made].median;
		s->nmax = m > s->nmax ? m : s->nmax;
		made++;
	}
	s->stat = s->k == 1 ? s->g[0].median : sum / (double)s->k;
	s->constant = lo == hi;
	free(v);
	free(ids);
}

static void nested_release(struct nested *s)
{
	for (size_t i = 0; i < s->k; i++)
		stats_boot_release(&s->g[i]);
	free(s->g);
	s->g = NULL;
}

/* One nested resample of the side's statistic; count has room for nmax.
 * One layout draws no layout (the plain bootstrap's stream, bit for bit). */
static double nested_resample(const struct nested *s, uint32_t *count, struct rng *r)
{
	if (s->constant)
		return s->stat;
	if (s->k == 1)
		return stats_boot_median(&s->g[0], count, r);
	double sum = 0;
	for (size_t d = 0; d + 1 < s->k; d++)
		sum += stats_boot_median(&s->g[rng_below(r, s->k)], count, r);
	return sum / (double)(s->k - 1);
}

/* ---- against a baseline ------------------------------------------------ */

int stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double conf, int iters,
		   struct rng *r, double *ratio, double *lo, double *hi)
{
	struct rng fallback;
	struct stats_boot ba, bb;

	*ratio = *lo = *hi = NAN;
	if (na == 0 || nb == 0)
		return -EINVAL;
	if (stats_has_nan(a, na) || stats_has_nan(b, nb))
		return -EDOM;
	stats_boot_init(&ba, a, na);
	stats_boot_init(&bb, b, nb);

	int err = 0;
	double q = stats_ratio_of(ba.median, bb.median);
	if (!isfinite(q)) {
		err = -EDOM;
	} else if (ba.constant && bb.constant) {
		*ratio = *lo = *hi = q;
	} else {
		*ratio = q;
		if (iters > 0 && stats_conf_valid(conf)) {
			r = stats_rng_or_default(r, &fallback);
			double *t = xmalloc((size_t)iters * sizeof(*t));
			uint32_t *count = xmalloc((na > nb ? na : nb) * sizeof(*count));
			for (int it = 0; it < iters; it++) {
				double ma = stats_boot_median(&ba, count, r);
				double mb = stats_boot_median(&bb, count, r);
				t[it] = stats_ratio_of(ma, mb);
			}
			stats_percentile_interval(t, (size_t)iters, conf, lo, hi);
			free(count);
			free(t);
		}
	}
	stats_boot_release(&ba);
	stats_boot_release(&bb);
	return err;
}

/* ---- across workloads -------------------------------------------------- */

int stats_geomean_ratio(const struct sample_pair *p, size_t np, double conf, int iters,
			struct rng *r, double *gm, double *lo, double *hi)
{
	return stats_geomean_ratio_boot(p, np, conf, iters, r, gm, lo, hi, NULL);
}

/* 0 when every pair has values on both sides and no NaN, else the
 * error stats_geomean_ratio returns. */
static int pairs_check(const struct sample_pair *p, size_t np)
{
	if (np == 0)
		return -EINVAL;
	for (size_t w = 0; w < np; w++) {
		if (p[w].ncand == 0 || p[w].nbase == 0)
			return -EINVAL;
		if (stats_has_nan(p[w].cand, p[w].ncand) || stats_has_nan(p[w].base, p[w].nbase))
			return -EDOM;
	}
	return 0;
}

int stats_geomean_ratio_boot(const struct sample_pair *p, size_t np, double conf, int iters,
			     struct rng *r, double *gm, double *lo, double *hi, double *boot)
{
	struct rng fallback;

	*gm = *lo = *hi = NAN;
	int err = pairs_check(p, np);
	if (err)
		return err;

	struct nested *bc = xmalloc(np * sizeof(*bc)), *bb = xmalloc(np * sizeof(*bb));
	size_t nmax = 0;
	int all_constant = 1;
	double logsum = 0;
	for (size_t w = 0; w < np; w++) {
		nested_init(&bc[w], p[w].cand, p[w].cand_layout, p[w].ncand);
		nested_init(&bb[w], p[w].base, p[w].base_layout, p[w].nbase);
		nmax = bc[w].nmax > nmax ? bc[w].nmax : nmax;
		nmax = bb[w].nmax > nmax ? bb[w].nmax : nmax;
		all_constant &= bc[w].constant && bb[w].constant;
		double q = stats_ratio_of(bc[w].stat, bb[w].stat);
		if (!(q > 0 && isfinite(q)))
			err = -EDOM;
		logsum += log(q);
	}

	if (!err) {
		*gm = exp(logsum / (double)np);
		if (all_constant) {
			*lo = *hi = *gm;
			for (int it = 0; boot && it < iters; it++)
				boot[it] = *gm;
		} else if (iters > 0 && stats_conf_valid(conf)) {
			r = stats_rng_or_default(r, &fallback);
			double *t = xmalloc((size_t)iters * sizeof(*t));
			uint32_t *count = xmalloc(nmax * sizeof(*count));
			for (int it = 0; it < iters; it++) {
				double sum = 0;
				for (size_t w = 0; w < np; w++) {
					double mc = nested_resample(&bc[w], count, r);
					double mb = nested_resample(&bb[w], count, r);
					sum += log(stats_ratio_of(mc, mb));
				}
				t[it] = exp(sum / (double)np);
			}
			if (boot)
				memcpy(boot, t, (size_t)iters * sizeof(*t));
			stats_percentile_interval(t, (size_t)iters, conf, lo, hi);
			free(count);
			free(t);
		}
	}
	for (size_t w = 0; w < np; w++) {
		nested_release(&bc[w]);
		nested_release(&bb[w]);
	}
	free(bc);
	free(bb);
	return err;
}

/* Two-sided bootstrap p of "ratio 1": twice the smaller share of
 * resamples on one side of 1, ties half to each. */
static double boot_p(const double *t, size_t n)
{
	double below = 0, above = 0, defined = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(t[i]))
			continue;
		defined++;
		below += t[i] < 1 ? 1 : t[i] == 1 ? 0.5 : 0;
		above += t[i] > 1 ? 1 : t[i] == 1 ? 0.5 : 0;
	}
	if (!defined)
		return NAN;
	double p = 2 * fmin(below, above) / defined;
	return p > 1 ? 1 : p;
}

int stats_nested_ratio_ci(const struct sample_pair *p, double conf, int iters, struct rng *r,
			  double *ratio, double *lo, double *hi, double *pvalue)
{
	struct rng fallback;
	double pv = NAN;
	*ratio = *lo = *hi = NAN;
	int err = pairs_check(p, 1);
	if (pvalue)
		*pvalue = NAN;
	if (err)
		return err;
	struct nested c, b;
	nested_init(&c, p->cand, p->cand_layout, p->ncand);
	nested_init(&b, p->base, p->base_layout, p->nbase);
	double q = stats_ratio_of(c.stat, b.stat);
	if (!isfinite(q)) {
		err = -EDOM;
	} else if (c.constant && b.constant) {
		*ratio = *lo = *hi = q;
		pv = q == 1 ? 1 : 0;
	} else {
		*ratio = q;
		if (iters > 0 && stats_conf_valid(conf)) {
			r = stats_rng_or_default(r, &fallback);
			double *t = xmalloc((size_t)iters * sizeof(*t));
			size_t nmax = c.nmax > b.nmax ? c.nmax : b.nmax;
			uint32_t *count = xmalloc(nmax * sizeof(*count));
			for (int it = 0; it < iters; it++)
				t[it] = stats_ratio_of(nested_resample(&c, count, r),
						 nested_resample(&b, count, r));
			pv = boot_p(t, (size_t)iters);
			stats_percentile_interval(t, (size_t)iters, conf, lo, hi);
			free(count);
			free(t);
		}
	}
	if (pvalue)
		*pvalue = pv;
	nested_release(&c);
	nested_release(&b);
	return err;
}

/* The log of each layout's median of a prepared side, into out (k). */
static void layout_log_medians(const struct nested *s, double *out)
{
	for (size_t i = 0; i < s->k; i++)
		out[i] = log(s->g[i].median);
}

/* Welch's test on the layouts' log medians, both sides with two or more
 * layouts and positive medians; NAN otherwise. */
static double layout_welch_p(const struct sample_pair *p)
{
	struct nested c, b;
	nested_init(&c, p->cand, p->cand_layout, p->ncand);
	nested_init(&b, p->base, p->base_layout, p->nbase);
	double pv = NAN;
	int positive = 1;
	for (size_t i = 0; i < c.k; i++)
		positive &= c.g[i].median > 0;
	for (size_t i = 0; i < b.k; i++)
		positive &= b.g[i].median > 0;
	if (c.k >= 2 && b.k >= 2 && positive) {
		double *lc = xmalloc(c.k * sizeof(*lc)), *lb = xmalloc(b.k * sizeof(*lb));
		layout_log_medians(&c, lc);
		layout_log_medians(&b, lb);
		pv = stats_welch_p(lc, c.k, lb, b.k);
		free(lc);
		free(lb);
	}
	nested_release(&c);
	nested_release(&b);
	return pv;
}

void stats_compare_nested(const struct sample_pair *p, double alpha, double min_effect,
			  int iters, struct rng *r, struct comparison *c)
{
	*c = (struct comparison){
		.na = p->ncand, .nb = p->nbase, .verdict = VERDICT_UNCHANGED,
		.layouts_cand = stats_layout_count(p->cand_layout, p->ncand),
		.layouts_base = stats_layout_count(p->base_layout, p->nbase),
	};
	double conf = stats_conf_valid(1 - alpha) ? 1 - alpha : 0.95;
	c->error = stats_nested_ratio_ci(p, conf, iters, r, &c->ratio, &c->lo, &c->hi, &c->p);
	stats_mann_whitney(p->cand, p->ncand, p->base, p->nbase, &c->u);
	if (c->error)
		return;
	if (p->ncand < 2 || p->nbase < 2) {
		c->untested = 1;
		c->lo = c->hi = c->p = c->u = NAN;
		return;
	}
	/* the layouts are the units: with two or more a side their medians
	 * are tested, the bootstrap's p only where a side has one */
	double welch = layout_welch_p(p);
	if (!isnan(welch))
		c->p = welch;
	double effect = fabs(c->ratio - 1);
	if (c->p < alpha && effect >= min_effect * (1 - 1e-9))
		c->verdict = c->ratio < 1 ? VERDICT_IMPROVED : VERDICT_REGRESSED;
}
