/* confirm.c - see confirm.h */
#include "search/confirm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.05
#define MIN_EFFECT 0.01
#define ITERS 2000

void confirmation_release(struct confirmation *c)
{
	for (int s = 0; s < 2; s++) {
		struct confirm_side *d = &c->side[s];
		for (size_t i = 0; i < d->nitems; i++)
			free(d->item[i]);
		free(d->item);
		free(d->cmp);
		free(d->against);
	}
	free(c->study);
	free(c->detail);
	memset(c, 0, sizeof(*c));
}

struct measured {
	struct strlist items;
	double **v;
	size_t *n;
};

static void measured_release(struct measured *m)
{
	for (size_t i = 0; m->v && i < m->items.n; i++)
		free(m->v[i]);
	free(m->v);
	free(m->n);
	sl_release(&m->items);
	memset(m, 0, sizeof(*m));
}

static int fetch(struct search_pipeline *pl, struct confirmation *c, const char *name, const char *metric,
		 struct measured *m)
{
	enum outcome status;
	struct strbuf why = {0};
	int rc = search_pipeline_values(pl, c->study, name, metric, &m->items, &m->v, &m->n, &status, &why);
	if (rc && c->status == OUTCOME_OK) {
		c->status = status;
		c->detail = xasprintf("%s: %s", name, sb_str(&why));
	}
	sb_release(&why);
	return rc;
}

static void judge(struct confirm_side *d, const struct measured *best, const struct measured *ref)
{
	struct rng rng;
	rng_seed(&rng, STATS_DEFAULT_SEED);
	size_t n = best->items.n;
	struct sample_pair *pairs = xcalloc(n ? n : 1, sizeof(*pairs));
	d->nitems = n;
	d->item = xcalloc(n ? n : 1, sizeof(char *));
	d->cmp = xcalloc(n ? n : 1, sizeof(*d->cmp));
	for (size_t i = 0; i < n; i++) {
		d->item[i] = xstrdup(best->items.v[i]);
		stats_compare(best->v[i], best->n[i], ref->v[i], ref->n[i], ALPHA, MIN_EFFECT, ITERS,
			      &rng, &d->cmp[i]);
		pairs[i] = (struct sample_pair){best->v[i], best->n[i], ref->v[i], ref->n[i]};
	}
	d->gm = d->lo = d->hi = NAN;
	d->verdict = VERDICT_UNCHANGED;
	if (n && !stats_geomean_ratio(pairs, n, 1 - ALPHA, ITERS, &rng, &d->gm, &d->lo, &d->hi)) {
		if (d->hi < 1 && d->gm <= 1 - MIN_EFFECT)
			d->verdict = VERDICT_IMPROVED;
		else if (d->lo > 1 && d->gm >= 1 + MIN_EFFECT)
			d->verdict = VERDICT_REGRESSED;
	}
	free(pairs);
}

static double insns_ratio(const struct measured *best, const struct measured *ref)
{
	double logsum = 0;
	for (size_t i = 0; i < best->items.n; i++)
		logsum += log(stats_median(best->v[i], best->n[i]) / stats_median(ref->v[i], ref->n[i]));
	return best->items.n ? exp(logsum / (double)best->items.n) : NAN;
}

int search_confirm(struct search_pipeline *pl, const char *flags, int repeat, struct confirmation *c,
		   struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	c->repeat = repeat;
	const char *levels[2] = {"-O2", "-O3"};
	/* level names in the study; a flag set equal to the baseline is "base" */
	const char *label[3];
	char *names[3], *values[3];
	size_t n = 0;
	for (int s = 0; s < 2; s++) {
		c->side[s].against = xstrdup(levels[s]);
		c->side[s].insns = NAN;
		if (!strcmp(pl->level, levels[s])) {
			label[s] = "base";
			continue;
		}
		label[s] = s ? "O3" : "O2";
		names[n] = (char *)label[s];
		values[n++] = (char *)levels[s];
	}
	label[2] = "best";
	if (!*flags) {
		label[2] = "base";
	} else {
		for (size_t k = 0; k < n; k++)
			if (!strcmp(values[k], flags))
				label[2] = names[k];
		if (!strcmp(label[2], "best")) {
			names[n] = "best";
			values[n++] = (char *)flags;
		}
	}
	if (search_pipeline_run_levels(pl, names, values, n, repeat, &c->study, err))
		return -1;
	struct measured best, ref[2];
	memset(&best, 0, sizeof(best));
	memset(ref, 0, sizeof(ref));
	if (!fetch(pl, c, label[2], "time", &best) && !fetch(pl, c, label[0], "time", &ref[0]) &&
	    !fetch(pl, c, label[1], "time", &ref[1]))
		for (int s = 0; s < 2; s++)
			judge(&c->side[s], &best, &ref[s]);
	if (c->status == OUTCOME_OK && !strcmp(pl->metric, "insns")) {
		struct measured bi = {0}, ri = {0};
		for (int s = 0; s < 2; s++) {
			if ((!bi.items.n && fetch(pl, c, label[2], "insns", &bi)) ||
			    fetch(pl, c, label[s], "insns", &ri))
				break;
			c->side[s].insns = insns_ratio(&bi, &ri);
			measured_release(&ri);
		}
		measured_release(&bi);
		measured_release(&ri);
	}
	measured_release(&best);
	measured_release(&ref[0]);
	measured_release(&ref[1]);
	return 0;
}
