/*
 * ga.c - a steady (mu + lambda) genetic algorithm over flag sets, in the
 * spirit of acovea and CompilerGym's GA: a generation of children is
 * evaluated as one batch (in parallel); the population is the best
 * `popsize` distinct points seen so far, so a good point is never lost.
 *
 * Children: two parents by binary tournament, uniform crossover, and each
 * dimension mutated with probability 1/ndims.  A child already seen is
 * mutated again (the cache would answer it, but it would teach nothing).
 *
 * The first generation is the start point and points near it: each
 * dimension moved with probability min(0.5, 4/ndims).  With GCC's ~200
 * flags a uniformly random point changes ~100 of them at once and mostly
 * measures noise; four changes on average starts the search where the
 * level already is good.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/strategy.h"

struct ga {
	const struct space *sp;
	size_t nd, popsize;
	struct rng rng;
	unsigned char *pop;
	double *fit;
	size_t npop;
	unsigned char *queue;
	size_t nq, qpos;
	struct pointset seen;
	int started;
};

static void *ga_init(const struct space *sp, uint64_t seed)
{
	struct ga *g = xcalloc(1, sizeof(*g));
	g->sp = sp;
	g->nd = sp->ndims;
	g->popsize = g->nd < 8 ? 8 : g->nd > 24 ? 24 : g->nd;
	rng_seed(&g->rng, seed ^ 0x6761ULL);
	g->pop = xcalloc(g->popsize + 1, g->nd);
	g->fit = xcalloc(g->popsize + 1, sizeof(double));
	g->queue = xcalloc(g->popsize, g->nd);
	pointset_init(&g->seen, g->nd);
	return g;
}

static void ga_release(void *st)
{
	struct ga *g = st;
	free(g->pop);
	free(g->fit);
	free(g->queue);
	pointset_release(&g->seen);
	free(g);
}

static void near_start(struct ga *g, unsigned char *pt)
{
	double p = g->nd ? 4.0 / (double)g->nd : 1;
	if (p > 0.5)
		p = 0.5;
	space_start(g->sp, pt);
	for (size_t d = 0; d < g->nd; d++)
		if (rng_uniform(&g->rng) < p)
			point_mutate_dim(g->sp, pt, d, &g->rng);
}

static const unsigned char *tournament(struct ga *g)
{
	size_t a = (size_t)rng_below(&g->rng, g->npop), b = (size_t)rng_below(&g->rng, g->npop);
	return g->pop + (g->fit[a] <= g->fit[b] ? a : b) * g->nd;
}

static int queued(const struct ga *g, const unsigned char *pt)
{
	for (size_t i = 0; i < g->nq; i++)
		if (!memcmp(g->queue + i * g->nd, pt, g->nd))
			return 1;
	return 0;
}

static void make_child(struct ga *g, unsigned char *child)
{
	if (!g->npop) {
		near_start(g, child);
		return;
	}
	const unsigned char *a = tournament(g), *b = tournament(g);
	for (size_t d = 0; d < g->nd; d++)
		child[d] = rng_below(&g->rng, 2) ? a[d] : b[d];
	for (size_t d = 0; d < g->nd; d++)
		if (rng_uniform(&g->rng) * (double)g->nd < 1.0)
			point_mutate_dim(g->sp, child, d, &g->rng);
}

static void next_generation(struct ga *g)
{
	size_t total = space_count(g->sp);
	g->nq = g->qpos = 0;
	for (size_t k = 0; k < g->popsize; k++) {
		unsigned char *child = g->queue + g->nq * g->nd;
		if (!g->started && k == 0) {
			space_start(g->sp, child);
		} else {
			make_child(g, child);
			for (int tries = 0; tries < 30 && (pointset_get(&g->seen, child) ||
							    queued(g, child)); tries++)
				point_mutate_dim(g->sp, child, (size_t)rng_below(&g->rng, g->nd), &g->rng);
			if (pointset_get(&g->seen, child) || queued(g, child))
				continue;
		}
		g->nq++;
		if (total != SIZE_MAX && g->seen.n + g->nq >= total)
			break;
	}
	g->started = 1;
}

static size_t ga_propose(void *st, unsigned char *pts, size_t max)
{
	struct ga *g = st;
	if (g->qpos == g->nq) {
		next_generation(g);
		/* a converged population breeds only known points: try fresh ones */
		for (int tries = 0; !g->nq && tries < 1000; tries++) {
			point_random(g->sp, g->queue, &g->rng);
			if (!pointset_get(&g->seen, g->queue))
				g->nq = 1;
		}
	}
	size_t n = g->nq - g->qpos < max ? g->nq - g->qpos : max;
	memcpy(pts, g->queue + g->qpos * g->nd, n * g->nd);
	g->qpos += n;
	return n;
}

static void ga_observe(void *st, const unsigned char *pts, const double *obj, size_t n)
{
	struct ga *g = st;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *pt = pts + i * g->nd;
		pointset_put(&g->seen, pt, obj[i]);
		if (!isfinite(obj[i]))
			continue;
		int dup = 0;
		for (size_t k = 0; k < g->npop && !dup; k++)
			dup = !memcmp(g->pop + k * g->nd, pt, g->nd);
		if (dup)
			continue;
		/* insertion into the sorted population; the worst falls off */
		size_t at = g->npop;
		while (at > 0 && g->fit[at - 1] > obj[i])
			at--;
		if (at >= g->popsize)
			continue;
		size_t keep = g->npop < g->popsize ? g->npop : g->popsize - 1;
		memmove(g->pop + (at + 1) * g->nd, g->pop + at * g->nd, (keep - at) * g->nd);
		memmove(g->fit + at + 1, g->fit + at, (keep - at) * sizeof(double));
		memcpy(g->pop + at * g->nd, pt, g->nd);
		g->fit[at] = obj[i];
		if (g->npop < g->popsize)
			g->npop++;
	}
}

const struct strategy_ops strategy_ga = {
	.name = "ga",
	.summary = "genetic algorithm: tournament, uniform crossover, mutation, best kept",
	.init = ga_init,
	.propose = ga_propose,
	.observe = ga_observe,
	.release = ga_release,
};
