/* pivot_published.c - a pivot's published figures (pivot.h: Published
 * figures) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot.h"
#include "analysis/published.h"
#include "analysis/results.h"
#include "workloads/searchpath.h"

static const char *const pub_kinds[PIVOT_NPUB] = {"time", "dirty"};

/* The published figures of each workload, loaded once. */
struct pub_cache {
	struct strlist names;
	struct published *pubs; /* per name; n == 0 when it has none */
};

static const struct published *cache_get(struct pub_cache *c, const char *study_file,
					 const char *workload, struct strbuf *err, int *failed)
{
	int i = sl_find(&c->names, workload);
	if (i >= 0)
		return &c->pubs[i];
	sl_push(&c->names, workload);
	c->pubs = xrealloc(c->pubs, c->names.n * sizeof(*c->pubs));
	struct published *pub = &c->pubs[c->names.n - 1];
	memset(pub, 0, sizeof(*pub));
	char *dir = workload_find(study_file, workload);
	if (dir && published_load(dir, pub, err) < 0)
		*failed = 1;
	free(dir);
	return pub;
}

/* The block's link level ("link=static" among its other levels), or NULL */
static char *block_link(const struct pivot_block *b)
{
	struct strlist w = {0};
	char *link = NULL;
	sl_split_ws(&w, b->others_named);
	for (size_t i = 0; i < w.n && !link; i++)
		if (str_starts_with(w.v[i], "link="))
			link = xstrdup(w.v[i] + 5);
	sl_release(&w);
	return link;
}

/* What each kind compares with: the metric's pct (a time, lower is
 * better), the dirty memory table's. */
static int kind_applies(const struct pivot *p, int k)
{
	if (k == PUB_TIME)
		return !strcmp(p->metric, "time") && !p->higher_better;
	return !p->per_build && strstr(p->memory[2], "dirty");
}

static double measured_pct(const struct pivot_cell *c, int k)
{
	return k == PUB_TIME ? c->pct : c->mem_pct[2];
}

static int sign(double v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static void compare_row(struct pivot *p, const struct published *pub,
			const struct published_row *pr, int k, struct pivot_row *r)
{
	r->pub_row[k] = xstrdup(pr->title);
	double ref = published_value(pub, pr, p->levels[p->ref]);
	for (size_t l = 0; l < p->nlevels; l++) {
		struct pivot_cell *c = &r->cells[l];
		double v = published_value(pub, pr, p->levels[l]);
		if (l == p->ref || isnan(ref) || isnan(v))
			continue;
		c->pub_pct[k] = 100 * (ref / v - 1);
		p->pub_any[k] = 1;
		double m = measured_pct(c, k);
		if (!c->present || c->status != OUTCOME_OK || isnan(m))
			continue;
		c->same_sign[k] = sign(m) == sign(c->pub_pct[k]);
		p->pub_rows[k]++;
		p->pub_agree[k] += (size_t)c->same_sign[k];
	}
}

int pivot_published(struct store *st, struct pivot *p, struct strbuf *err)
{
	if (!kind_applies(p, PUB_TIME) && !kind_applies(p, PUB_DIRTY))
		return 0;
	char *study_file = results_study_path(st, p->study);
	struct pub_cache cache = {0};
	int failed = 0;
	for (size_t b = 0; b < p->nblocks && !failed; b++) {
		struct pivot_block *blk = &p->blocks[b];
		char *link = block_link(blk);
		for (size_t i = 0; i < blk->nrows && !failed; i++) {
			struct pivot_row *r = &blk->rows[i];
			const struct published *pub =
				cache_get(&cache, study_file && *study_file ? study_file : NULL,
					  r->workload, err, &failed);
			for (int k = 0; k < PIVOT_NPUB && pub->n && *r->run; k++) {
				const struct published_row *pr =
					kind_applies(p, k) ? published_find(pub, pub_kinds[k], r->run, link)
							   : NULL;
				if (!pr)
					continue;
				compare_row(p, pub, pr, k, r);
				/* only when a level has figures (not on link's levels) */
				if (!p->published && p->pub_any[k])
					p->published = pub->url ? xasprintf("%s (%s)", pub->title ? pub->title : "",
									   pub->url)
								: xstrdup(pub->title ? pub->title : pub->path);
			}
		}
		free(link);
	}
	for (size_t i = 0; i < cache.names.n; i++)
		published_release(&cache.pubs[i]);
	free(cache.pubs);
	sl_release(&cache.names);
	free(study_file);
	return failed ? -1 : 0;
}
