/* minimise.c - see minimise.h */
#include "search/minimise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/verdict.h"
#include "base/outcome.h"

#define ITERS 2000

void eval_samples_release(struct eval_samples *s)
{
	for (size_t i = 0; s->v && i < s->nitems; i++)
		free(s->v[i]);
	for (size_t i = 0; s->layout && i < s->nitems; i++)
		free(s->layout[i]);
	free(s->v);
	free(s->n);
	free(s->layout);
	free(s->detail);
	memset(s, 0, sizeof(*s));
}

struct removal {
	size_t d;
	double obj;
};

static int by_removal(const void *a, const void *b)
{
	const struct removal *x = a, *y = b;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return x->d < y->d ? -1 : x->d > y->d;
}

/* The one-dimension removals of pt that change it: rm[].d and the points
 * (nm * ndims bytes, heap).  Returns nm. */
static size_t removals(const struct space *sp, const unsigned char *pt, struct removal **rm,
		       unsigned char **pts)
{
	size_t nd = sp->ndims, nm = 0;
	*rm = xcalloc(nd ? nd : 1, sizeof(**rm));
	*pts = xcalloc(nd ? nd : 1, nd ? nd : 1);
	for (size_t d = 0; d < nd; d++) {
		if (space_is_default(sp, pt, d))
			continue;
		unsigned char *c = *pts + nm * nd;
		memcpy(c, pt, nd);
		point_reset_dim(sp, c, d);
		if (memcmp(c, pt, nd))
			(*rm)[nm++].d = d;
	}
	return nm;
}

/* A removal whose exact objective the verdict rule (analysis/verdict.h:
 * a deterministic metric, min_effect alone decides) calls worse than the
 * best set's: the report then says "regressed" of that pair, so the flag
 * stays.  Its own "obj <= best * (1 + tolerance)" dropped a flag at
 * exactly the tolerance, where the report called the pair regressed. */
static int exact_worse(const struct minimise_params *p, double obj, double best_obj)
{
	const struct verdict_rule rule = {.alpha = p->alpha > 0 ? p->alpha : 0.05,
					  .min_effect = p->min_effect, .iters = ITERS,
					  .seed = p->seed, .deterministic = 1};
	struct comparison c;
	verdict_part(&rule, &obj, 1, &best_obj, 1, &c);
	return c.error || isnan(c.ratio) || c.verdict == VERDICT_REGRESSED;
}

int search_minimise_exact(struct evalcache *ec, const struct space *sp, const struct evaluator *ev,
			  const unsigned char *best, double best_obj, const struct minimise_params *p,
			  unsigned char *out, struct minimise_result *r, struct strbuf *err)
{
	size_t nd = sp->ndims;
	memcpy(out, best, nd);
	r->obj = best_obj;
	r->measurements = 0;
	for (int changed = 1; changed;) {
		changed = 0;
		struct removal *rm;
		unsigned char *pts;
		size_t nm = removals(sp, out, &rm, &pts);
		double *obj = xcalloc(nm ? nm : 1, sizeof(double));
		int rc = nm ? search_evaluate(ec, sp, ev, pts, nm, obj, NULL, NULL, err) : 0;
		for (size_t i = 0; i < nm && !rc; i++)
			rm[i].obj = obj[i];
		if (!rc)
			qsort(rm, nm, sizeof(*rm), by_removal);
		for (size_t i = 0; i < nm && !rc && !exact_worse(p, rm[i].obj, best_obj); i++) {
			unsigned char *cand = pts; /* reuse as scratch */
			memcpy(cand, out, nd);
			point_reset_dim(sp, cand, rm[i].d);
			if (!memcmp(cand, out, nd))
				continue;
			double o;
			rc = search_evaluate(ec, sp, ev, cand, 1, &o, NULL, NULL, err);
			if (!rc && !exact_worse(p, o, best_obj)) {
				memcpy(out, cand, nd);
				r->obj = o;
				changed = 1;
			}
		}
		free(rm);
		free(pts);
		free(obj);
		if (rc)
			return -1;
	}
	r->vs_best = r->lo = r->hi = best_obj > 0 ? r->obj / best_obj : NAN;
	return 0;
}

/* Item i of cand against item i of ref, with their layouts. */
static struct sample_pair item_pair(const struct eval_samples *cand,
				    const struct eval_samples *ref, size_t i)
{
	return (struct sample_pair){cand->v[i], cand->n[i], ref->v[i], ref->n[i],
				    cand->layout ? cand->layout[i] : NULL,
				    ref->layout ? ref->layout[i] : NULL};
}

int minimise_worse(const struct eval_samples *cand, const struct eval_samples *ref,
		   const struct minimise_params *p, double *gm, double *lo, double *hi)
{
	const struct verdict_rule rule = {.alpha = p->alpha, .min_effect = p->min_effect,
					  .iters = ITERS, .seed = p->seed};
	size_t n = cand->nitems;
	/* what cannot be judged keeps its flag */
	int worse = n == 0 || n != ref->nitems;
	struct verdict_parts parts;
	verdict_parts_init(&parts, n);
	for (size_t i = 0; i < n && !worse; i++) {
		struct comparison c;
		struct sample_pair pair = item_pair(cand, ref, i);
		verdict_pair(&rule, &pair, &c);
		/* too few runs for the test to find anything: not judged */
		worse |= c.error || c.untested ||
			 !verdict_can_be_significant(cand->n[i], ref->n[i], p->alpha);
		verdict_parts_add(&parts, pair, "", &c);
	}
	struct verdict_summary sum = {.ratio = NAN, .lo = NAN, .hi = NAN};
	if (!worse)
		worse = verdict_summarise(&rule, &parts, &sum) || sum.regressed;
	free(sum.mixed);
	verdict_parts_release(&parts);
	if (gm)
		*gm = sum.ratio;
	if (lo)
		*lo = sum.lo;
	if (hi)
		*hi = sum.hi;
	return worse;
}

/* Flag sets measured together: distinct strings, "" (the baseline) first. */
struct measurement {
	char **flags;
	size_t n;
	struct eval_samples *s;
};

static size_t measurement_add(struct measurement *m, const char *flags)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->flags[i], flags))
			return i;
	m->flags = xrealloc(m->flags, (m->n + 1) * sizeof(char *));
	m->flags[m->n] = xstrdup(flags);
	return m->n++;
}

static size_t measurement_add_point(struct measurement *m, const struct space *sp,
				    const unsigned char *pt)
{
	char *f = space_render(sp, pt);
	size_t i = measurement_add(m, f);
	free(f);
	return i;
}

static int measurement_run(struct measurement *m, const struct sampler *sm, int repeat,
			   struct minimise_result *r, struct strbuf *err)
{
	m->s = xcalloc(m->n, sizeof(*m->s));
	r->measurements++;
	return sm->sample(sm->ctx, m->flags, m->n, repeat, m->s, err);
}

static void measurement_release(struct measurement *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->flags[i]);
		if (m->s)
			eval_samples_release(&m->s[i]);
	}
	free(m->flags);
	free(m->s);
	memset(m, 0, sizeof(*m));
}

static int samples_ok(const struct eval_samples *s, const struct eval_samples *ref)
{
	return s->status == OUTCOME_OK && s->nitems && s->nitems == ref->nitems;
}

/* Geometric mean over the items of median(s) / median(base); with
 * layouts, of the mean of each layout's median (stats.h: the statistic
 * the verdicts read; no bootstrap). */
static double objective(const struct eval_samples *s, const struct eval_samples *base)
{
	if (!samples_ok(s, base))
		return INFINITY;
	struct sample_pair *pairs = xcalloc(s->nitems, sizeof(*pairs));
	for (size_t i = 0; i < s->nitems; i++)
		pairs[i] = item_pair(s, base, i);
	double gm, lo, hi;
	int err = stats_geomean_ratio(pairs, s->nitems, 0.95, 0, NULL, &gm, &lo, &hi);
	free(pairs);
	return err ? INFINITY : gm;
}

/* Measure cand against the best set; 1 when it may replace out (and then
 * r says how it compares), 0 when not, -1 from the sampler. */
static int try_point(const struct space *sp, const struct sampler *sm, const char *ref,
		     const unsigned char *cand, const struct minimise_params *p,
		     struct minimise_result *r, struct strbuf *err)
{
	struct measurement m = {0};
	size_t bi = measurement_add(&m, ""), ri = measurement_add(&m, ref);
	size_t ci = measurement_add_point(&m, sp, cand);
	int rc = measurement_run(&m, sm, p->repeat, r, err) ? -1 : 0;
	double gm, lo, hi;
	if (!rc && samples_ok(&m.s[ci], &m.s[ri]) &&
	    !minimise_worse(&m.s[ci], &m.s[ri], p, &gm, &lo, &hi)) {
		r->obj = objective(&m.s[ci], &m.s[bi]);
		r->vs_best = gm, r->lo = lo, r->hi = hi;
		rc = 1;
	}
	measurement_release(&m);
	return rc;
}

int search_minimise_noisy(const struct space *sp, const struct sampler *sm,
			  const unsigned char *best, const struct minimise_params *p,
			  unsigned char *out, struct minimise_result *r, struct strbuf *err)
{
	size_t nd = sp->ndims;
	char *ref = space_render(sp, best);
	memcpy(out, best, nd);
	r->obj = NAN;
	r->vs_best = r->lo = r->hi = 1;
	r->measurements = 0;
	int rc = 0;
	for (int changed = 1; changed && !rc;) {
		changed = 0;
		struct removal *rm;
		unsigned char *pts;
		size_t nm = removals(sp, out, &rm, &pts);
		struct measurement m = {0};
		size_t bi = measurement_add(&m, ""), ri = measurement_add(&m, ref);
		size_t *ci = xcalloc(nm ? nm : 1, sizeof(size_t));
		for (size_t k = 0; k < nm; k++)
			ci[k] = measurement_add_point(&m, sp, pts + k * nd);
		if (nm && measurement_run(&m, sm, p->repeat, r, err))
			rc = -1;
		if (!rc && nm && isnan(r->obj))
			r->obj = objective(&m.s[ri], &m.s[bi]);
		/* the harmless removals, least harmful first */
		struct removal *ok = xcalloc(nm ? nm : 1, sizeof(*ok));
		double *lo = xcalloc(nm ? nm : 1, sizeof(double)), *hi = xcalloc(nm ? nm : 1, sizeof(double));
		size_t nok = 0;
		for (size_t k = 0; k < nm && !rc; k++) {
			const struct eval_samples *c = &m.s[ci[k]];
			double gm;
			if (samples_ok(c, &m.s[ri]) &&
			    !minimise_worse(c, &m.s[ri], p, &gm, &lo[k], &hi[k]))
				ok[nok++] = (struct removal){.d = k, .obj = gm};
		}
		qsort(ok, nok, sizeof(*ok), by_removal);
		unsigned char *cand = xcalloc(nd ? nd : 1, 1);
		if (nok > 1) {
			/* most flags usually do nothing: try dropping them all at once */
			memcpy(cand, out, nd);
			for (size_t i = 0; i < nok; i++)
				point_reset_dim(sp, cand, rm[ok[i].d].d);
			int t = try_point(sp, sm, ref, cand, p, r, err);
			if (t < 0)
				rc = -1;
			else if (t > 0)
				memcpy(out, cand, nd), changed = 1;
		}
		if (!rc && !changed && nok) {
			/* the least harmful was just measured against the best set */
			size_t k = ok[0].d;
			memcpy(out, pts + k * nd, nd);
			r->obj = objective(&m.s[ci[k]], &m.s[bi]);
			r->vs_best = ok[0].obj, r->lo = lo[k], r->hi = hi[k];
			changed = 1;
			for (size_t i = 1; i < nok && !rc; i++) {
				memcpy(cand, out, nd);
				point_reset_dim(sp, cand, rm[ok[i].d].d);
				int t = try_point(sp, sm, ref, cand, p, r, err);
				if (t < 0)
					rc = -1;
				else if (t > 0)
					memcpy(out, cand, nd);
			}
		}
		free(cand);
		free(ok);
		free(lo);
		free(hi);
		free(ci);
		measurement_release(&m);
		free(rm);
		free(pts);
	}
	free(ref);
	return rc;
}
