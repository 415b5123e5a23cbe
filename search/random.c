/*
 * random.c - the two strategies that learn nothing: uniform random points
 * never seen before (CompilerGym's baseline, and what any other strategy
 * must beat), and every point of a small space in order (the exhaustive
 * optimum the benchmark measures the others against).
 */
#include <stdlib.h>
#include <string.h>

#include "search/strategy.h"

struct rnd {
	const struct space *sp;
	struct rng rng;
	struct pointset seen;
	size_t total;
	int started;
};

static void *random_init(const struct space *sp, uint64_t seed)
{
	struct rnd *r = xcalloc(1, sizeof(*r));
	r->sp = sp;
	rng_seed(&r->rng, seed ^ 0x726eULL);
	pointset_init(&r->seen, sp->ndims);
	r->total = space_count(sp);
	return r;
}

static void random_release(void *st)
{
	struct rnd *r = st;
	pointset_release(&r->seen);
	free(r);
}

static size_t random_propose(void *st, unsigned char *pts, size_t max)
{
	struct rnd *r = st;
	size_t nd = r->sp->ndims, n = 0;
	if (!r->started && max) {
		/* the baseline is the reference every random point is judged by */
		space_start(r->sp, pts);
		pointset_put(&r->seen, pts, 0);
		r->started = 1;
		n = 1;
	}
	for (int misses = 0; n < max && r->seen.n < r->total && misses < 10000;) {
		unsigned char *pt = pts + n * nd;
		point_random(r->sp, pt, &r->rng);
		if (pointset_get(&r->seen, pt)) {
			misses++;
			continue;
		}
		pointset_put(&r->seen, pt, 0);
		n++;
	}
	return n;
}

static void random_observe(void *st, const unsigned char *pts, const double *obj, size_t n)
{
	struct rnd *r = st;
	for (size_t i = 0; i < n; i++)
		pointset_put(&r->seen, pts + i * r->sp->ndims, obj[i]);
}

const struct strategy_ops strategy_random = {
	.name = "random",
	.summary = "uniformly random flag sets, none twice",
	.init = random_init,
	.propose = random_propose,
	.observe = random_observe,
	.release = random_release,
};

struct exh {
	const struct space *sp;
	unsigned char *next;
	int done;
};

static void *exhaustive_init(const struct space *sp, uint64_t seed)
{
	(void)seed;
	struct exh *e = xcalloc(1, sizeof(*e));
	e->sp = sp;
	e->next = xcalloc(sp->ndims ? sp->ndims : 1, 1);
	return e;
}

static void exhaustive_release(void *st)
{
	struct exh *e = st;
	free(e->next);
	free(e);
}

static size_t exhaustive_propose(void *st, unsigned char *pts, size_t max)
{
	struct exh *e = st;
	size_t nd = e->sp->ndims, n = 0;
	while (n < max && !e->done) {
		memcpy(pts + n * nd, e->next, nd);
		n++;
		/* odometer, last dimension fastest */
		size_t d = nd;
		while (d > 0 && ++e->next[d - 1] == e->sp->dims[d - 1].nvals)
			e->next[--d] = 0;
		e->done = d == 0;
	}
	return n;
}

static void exhaustive_observe(void *st, const unsigned char *pts, const double *obj, size_t n)
{
	(void)st, (void)pts, (void)obj, (void)n;
}

const struct strategy_ops strategy_exhaustive = {
	.name = "exhaustive",
	.summary = "every flag set of the space in turn (small spaces only)",
	.init = exhaustive_init,
	.propose = exhaustive_propose,
	.observe = exhaustive_observe,
	.release = exhaustive_release,
};
