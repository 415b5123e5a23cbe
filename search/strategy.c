/* strategy.c - the table of strategies and the helpers they share */
#include "search/strategy.h"

#include <stdlib.h>
#include <string.h>

#include "base/registry.h"

static const struct strategy_ops *const strategies[] = {
	&strategy_ce, &strategy_ga, &strategy_random, &strategy_exhaustive, &strategy_ensemble,
};

int strategies_check(struct strbuf *err)
{
	const char *names[ARRAY_SIZE(strategies)];
	int bad = 0;
	for (size_t i = 0; i < ARRAY_SIZE(strategies); i++) {
		const struct strategy_ops *s = strategies[i];
		names[i] = s->name;
		bad |= registry_require(s->summary && s->init && s->propose && s->observe &&
						s->release,
					"strategies", s->name, "lacks an operation or its summary", err);
	}
	return registry_check("strategies", names, ARRAY_SIZE(strategies), err) || bad ? -1 : 0;
}

const struct strategy_ops *strategy_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(strategies); i++)
		if (!strcmp(strategies[i]->name, name))
			return strategies[i];
	return NULL;
}

const char *strategy_names(void)
{
	static char names[128];
	if (!names[0])
		for (size_t i = 0; i < ARRAY_SIZE(strategies); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? " " : "", strategies[i]->name);
	return names;
}

const struct strategy_ops *const *strategy_table(size_t *n)
{
	*n = ARRAY_SIZE(strategies);
	return strategies;
}

static uint64_t point_hash(const unsigned char *pt, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ pt[i]) * 1099511628211ULL;
	return h;
}

void pointset_init(struct pointset *s, size_t ndims)
{
	memset(s, 0, sizeof(*s));
	s->ndims = ndims ? ndims : 1;
}

void pointset_release(struct pointset *s)
{
	free(s->keys);
	free(s->vals);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

static size_t slot_of(const struct pointset *s, const unsigned char *pt)
{
	size_t i = (size_t)(point_hash(pt, s->ndims) & (s->cap - 1));
	while (s->used[i] && memcmp(s->keys + i * s->ndims, pt, s->ndims))
		i = (i + 1) & (s->cap - 1);
	return i;
}

double *pointset_get(const struct pointset *s, const unsigned char *pt)
{
	if (!s->cap)
		return NULL;
	size_t i = slot_of(s, pt);
	return s->used[i] ? &s->vals[i] : NULL;
}

static void grow(struct pointset *s)
{
	struct pointset big = {.ndims = s->ndims, .cap = s->cap ? s->cap * 2 : 64};
	big.keys = xcalloc(big.cap, big.ndims);
	big.vals = xcalloc(big.cap, sizeof(double));
	big.used = xcalloc(big.cap, 1);
	for (size_t i = 0; i < s->cap; i++)
		if (s->used[i])
			pointset_put(&big, s->keys + i * s->ndims, s->vals[i]);
	pointset_release(s);
	*s = big;
}

int pointset_put(struct pointset *s, const unsigned char *pt, double val)
{
	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	size_t i = slot_of(s, pt);
	s->vals[i] = val;
	if (s->used[i])
		return 0;
	s->used[i] = 1;
	memcpy(s->keys + i * s->ndims, pt, s->ndims);
	s->n++;
	return 1;
}

void point_mutate_dim(const struct space *sp, unsigned char *pt, size_t d, struct rng *r)
{
	unsigned nv = sp->dims[d].nvals;
	if (nv < 2)
		return;
	unsigned v = (unsigned)rng_below(r, nv - 1);
	pt[d] = (unsigned char)(v >= pt[d] ? v + 1 : v);
}

void point_random(const struct space *sp, unsigned char *pt, struct rng *r)
{
	for (size_t d = 0; d < sp->ndims; d++)
		pt[d] = (unsigned char)rng_below(r, sp->dims[d].nvals);
}

void point_reset_dim(const struct space *sp, unsigned char *pt, size_t d)
{
	const struct dim *dm = &sp->dims[d];
	unsigned level = sp->level_dim >= 0 ? pt[sp->level_dim] : sp->base_level;
	pt[d] = dm->kind == DIM_FLAG	? dm->def[level]
		: dm->kind == DIM_LEVEL ? (unsigned char)sp->base_level
					: 0;
}

size_t space_count(const struct space *sp)
{
	size_t n = 1;
	for (size_t d = 0; d < sp->ndims; d++) {
		if (n > SIZE_MAX / sp->dims[d].nvals)
			return SIZE_MAX;
		n *= sp->dims[d].nvals;
	}
	return n;
}
