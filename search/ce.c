/*
 * ce.c - Combined Elimination (Pan and Eigenmann, "Fast and effective
 * orchestration of compiler optimizations for automatic performance
 * tuning", CGO 2006), generalised from "turn a flag off" to "move one
 * dimension to another value":
 *
 *   B = the start point
 *   repeat:
 *     measure every one-dimension change of B (one batch, in parallel)
 *     X = the changes that beat B, best first; stop when X is empty
 *     apply X[0]; then for each later change (of a dimension not yet
 *       moved in this iteration) measure it on the new B and keep it only
 *       if it still beats B
 *
 * The first step is what makes CE cheap (one round gives every flag's
 * effect); the second is what makes it right when flags interact.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/strategy.h"

enum ce_phase { CE_START, CE_START_WAIT, CE_ROUND, CE_SEQ, CE_DONE };

struct ce_change {
	size_t d;
	unsigned char v;
	double obj;
};

struct ce {
	const struct space *sp;
	size_t nd;
	enum ce_phase phase;
	unsigned char *base;
	double base_obj;
	unsigned char *queue; /* ROUND: the one-dimension changes of base */
	struct ce_change *changes;
	size_t nq, qpos;
	size_t seq; /* SEQ: next index in changes */
	unsigned char *moved; /* SEQ: dimensions moved in this iteration */
	unsigned char *trying;
	size_t try_d;
	int have_trying;
	struct pointset known;
};

static void *ce_init(const struct space *sp, uint64_t seed)
{
	(void)seed; /* CE is deterministic: no randomness at all */
	struct ce *c = xcalloc(1, sizeof(*c));
	c->sp = sp;
	c->nd = sp->ndims;
	c->base = xcalloc(c->nd, 1);
	c->trying = xcalloc(c->nd, 1);
	c->moved = xcalloc(c->nd, 1);
	space_start(sp, c->base);
	pointset_init(&c->known, c->nd);
	return c;
}

static void ce_release(void *st)
{
	struct ce *c = st;
	free(c->base);
	free(c->trying);
	free(c->moved);
	free(c->queue);
	free(c->changes);
	pointset_release(&c->known);
	free(c);
}

static double known_obj(const struct ce *c, const unsigned char *pt)
{
	const double *v = pointset_get(&c->known, pt);
	return v ? *v : INFINITY;
}

static void build_round(struct ce *c)
{
	size_t n = 0;
	for (size_t d = 0; d < c->nd; d++)
		n += c->sp->dims[d].nvals - 1;
	free(c->queue);
	free(c->changes);
	c->queue = xcalloc(n ? n : 1, c->nd);
	c->changes = xcalloc(n ? n : 1, sizeof(*c->changes));
	c->nq = 0;
	for (size_t d = 0; d < c->nd; d++)
		for (unsigned v = 0; v < c->sp->dims[d].nvals; v++) {
			if (v == c->base[d])
				continue;
			unsigned char *pt = c->queue + c->nq * c->nd;
			memcpy(pt, c->base, c->nd);
			pt[d] = (unsigned char)v;
			c->changes[c->nq++] = (struct ce_change){d, (unsigned char)v, INFINITY};
		}
	c->qpos = 0;
	c->phase = CE_ROUND;
}

static int by_obj(const void *a, const void *b)
{
	const struct ce_change *x = a, *y = b;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (int)x->v - (int)y->v;
}

/* The round is measured: keep the improving changes, best first, and
 * apply the best at once. */
static void finish_round(struct ce *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nq; i++) {
		double o = known_obj(c, c->queue + i * c->nd);
		if (o < c->base_obj) {
			c->changes[k] = c->changes[i];
			c->changes[k++].obj = o;
		}
	}
	if (!k) {
		c->phase = CE_DONE;
		return;
	}
	qsort(c->changes, k, sizeof(*c->changes), by_obj);
	c->nq = k;
	memset(c->moved, 0, c->nd);
	c->base[c->changes[0].d] = c->changes[0].v;
	c->base_obj = c->changes[0].obj;
	c->moved[c->changes[0].d] = 1;
	c->seq = 1;
	c->have_trying = 0;
	c->phase = CE_SEQ;
}

static size_t ce_propose(void *st, unsigned char *pts, size_t max)
{
	struct ce *c = st;
	if (!max)
		return 0;
	for (;;) {
		switch (c->phase) {
		case CE_START:
			memcpy(pts, c->base, c->nd);
			c->phase = CE_START_WAIT;
			return 1;
		case CE_START_WAIT:
			c->base_obj = known_obj(c, c->base);
			build_round(c);
			break;
		case CE_ROUND:
			if (c->qpos < c->nq) {
				size_t n = c->nq - c->qpos < max ? c->nq - c->qpos : max;
				memcpy(pts, c->queue + c->qpos * c->nd, n * c->nd);
				c->qpos += n;
				return n;
			}
			finish_round(c);
			break;
		case CE_SEQ:
			if (c->have_trying) {
				double o = known_obj(c, c->trying);
				c->have_trying = 0;
				if (o < c->base_obj) {
					memcpy(c->base, c->trying, c->nd);
					c->base_obj = o;
					c->moved[c->try_d] = 1;
				}
			}
			while (c->seq < c->nq && c->moved[c->changes[c->seq].d])
				c->seq++;
			if (c->seq == c->nq) {
				build_round(c);
				break;
			}
			memcpy(c->trying, c->base, c->nd);
			c->trying[c->changes[c->seq].d] = c->changes[c->seq].v;
			c->try_d = c->changes[c->seq].d;
			c->seq++;
			c->have_trying = 1;
			if (pointset_get(&c->known, c->trying))
				break; /* measured already: decide without a round trip */
			memcpy(pts, c->trying, c->nd);
			return 1;
		case CE_DONE:
			return 0;
		}
	}
}

static void ce_observe(void *st, const unsigned char *pts, const double *obj, size_t n)
{
	struct ce *c = st;
	for (size_t i = 0; i < n; i++)
		pointset_put(&c->known, pts + i * c->nd, obj[i]);
}

const struct strategy_ops strategy_ce = {
	.name = "ce",
	.summary = "combined elimination: every one-flag change, then keep the good ones in turn",
	.init = ce_init,
	.propose = ce_propose,
	.observe = ce_observe,
	.release = ce_release,
};
