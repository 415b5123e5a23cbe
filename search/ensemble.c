/*
 * ensemble.c - several strategies share one budget, as OpenTuner's
 * AUCBanditMetaTechnique does: each round the member with the best score
 * proposes the next batch, where
 *
 *   score = AUC of its recent successes + C * sqrt(2 ln(uses of all) / its uses)
 *
 * A success is a batch that found a new best point.  The AUC weighs the
 * last WINDOW uses by recency (newest counts most), so a member that was
 * good early and has gone quiet loses its turn to one that is finding
 * things now; the second term makes sure every member keeps being tried.
 * Every member sees every result (observe), so GA breeds from what CE
 * found and CE never measures a point twice.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/strategy.h"

#define WINDOW 8
#define EXPLORE 0.2

struct member {
	const struct strategy_ops *ops;
	void *st;
	int done;
	unsigned uses;
	unsigned char hist[WINDOW]; /* oldest first */
	unsigned nh;
};

struct ens {
	size_t nd;
	struct member m[3];
	size_t nm;
	int last;
	unsigned total;
	double best;
};

static void *ensemble_init(const struct space *sp, uint64_t seed)
{
	const struct strategy_ops *members[] = {&strategy_ce, &strategy_ga, &strategy_random};
	struct ens *e = xcalloc(1, sizeof(*e));
	e->nd = sp->ndims;
	e->nm = ARRAY_SIZE(members);
	for (size_t i = 0; i < e->nm; i++) {
		e->m[i].ops = members[i];
		e->m[i].st = members[i]->init(sp, seed + i);
	}
	e->last = -1;
	e->best = INFINITY;
	return e;
}

static void ensemble_release(void *st)
{
	struct ens *e = st;
	for (size_t i = 0; i < e->nm; i++)
		e->m[i].ops->release(e->m[i].st);
	free(e);
}

static double score(const struct ens *e, const struct member *m)
{
	if (!m->uses)
		return INFINITY;
	double auc = 0;
	for (unsigned k = 0; k < m->nh; k++)
		auc += (k + 1) * m->hist[k];
	if (m->nh)
		auc /= m->nh * (m->nh + 1) / 2.0;
	return auc + EXPLORE * sqrt(2 * log((double)e->total) / m->uses);
}

static size_t ensemble_propose(void *st, unsigned char *pts, size_t max)
{
	struct ens *e = st;
	for (;;) {
		int pick = -1;
		double best = -1;
		for (size_t i = 0; i < e->nm; i++) {
			if (e->m[i].done)
				continue;
			double s = score(e, &e->m[i]);
			if (pick < 0 || s > best) {
				pick = (int)i;
				best = s;
			}
		}
		if (pick < 0)
			return 0;
		size_t n = e->m[pick].ops->propose(e->m[pick].st, pts, max);
		if (n) {
			e->last = pick;
			e->m[pick].uses++;
			e->total++;
			return n;
		}
		e->m[pick].done = 1;
	}
}

static void ensemble_observe(void *st, const unsigned char *pts, const double *obj, size_t n)
{
	struct ens *e = st;
	int success = 0;
	for (size_t i = 0; i < n; i++)
		if (obj[i] < e->best) {
			/* the very first result only sets the bar */
			success |= isfinite(e->best);
			e->best = obj[i];
		}
	for (size_t i = 0; i < e->nm; i++)
		e->m[i].ops->observe(e->m[i].st, pts, obj, n);
	if (e->last < 0)
		return;
	struct member *m = &e->m[e->last];
	if (m->nh == WINDOW) {
		memmove(m->hist, m->hist + 1, WINDOW - 1);
		m->nh--;
	}
	m->hist[m->nh++] = (unsigned char)success;
}

const struct strategy_ops strategy_ensemble = {
	.name = "ensemble",
	.summary = "ce, ga and random share the budget by recent success (a bandit, as OpenTuner)",
	.init = ensemble_init,
	.propose = ensemble_propose,
	.observe = ensemble_observe,
	.release = ensemble_release,
};
