/* pivot_published.c - a pivot's published figures (pivot.h: Published
 * figures) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot.h"
#include "analysis/published.h"
#include "analysis/results.h"
#include "workloads/searchpath.h"

static const char *const pub_kinds[PIVOT_NPUBKIND] = {"time", "dirty"};

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

/* The pivot's slot of source pub (by its title and label: libcbench and
 * libc-bench share one file), a new slot the first time; -1 with err when
 * the pivot has PIVOT_NPUBSRC sources already. */
static int source_slot(struct pivot *p, const struct published *pub, struct strbuf *err)
{
	const char *label = pub->label ? pub->label : "published";
	char *heading = pub->url ? xasprintf("%s (%s)", pub->title ? pub->title : "", pub->url)
				 : xstrdup(pub->title ? pub->title : pub->path);
	for (size_t s = 0; s < p->npub_src; s++)
		if (!strcmp(p->pub_src[s].label, label) && !strcmp(p->pub_src[s].heading, heading)) {
			free(heading);
			return (int)s;
		}
	if (p->npub_src == PIVOT_NPUBSRC) {
		sb_addf(err, "%s: more than %d published sources in one pivot (keep at most %d "
			     "[source] sections over the pivot's workloads)",
			pub->path, PIVOT_NPUBSRC, PIVOT_NPUBSRC);
		free(heading);
		return -1;
	}
	struct pivot_pub_source *src = &p->pub_src[p->npub_src];
	src->label = xstrdup(label);
	src->heading = heading;
	src->hardware = pub->hardware ? xstrdup(pub->hardware) : NULL;
	src->versions = pub->versions ? xstrdup(pub->versions) : NULL;
	return (int)p->npub_src++;
}

/* Row r's published figures of kind k (column col) from row pr */
static void compare_row(struct pivot *p, const struct published *pub,
			const struct published_row *pr, int k, int col, struct pivot_row *r)
{
	r->pub_row[col] = xstrdup(pr->title);
	double ref = published_value(pub, pr, p->levels[p->ref]);
	for (size_t l = 0; l < p->nlevels; l++) {
		struct pivot_cell *c = &r->cells[l];
		double v = published_value(pub, pr, p->levels[l]);
		if (l == p->ref || isnan(ref) || isnan(v))
			continue;
		c->pub_pct[col] = 100 * (ref / v - 1);
		p->pub_any[col] = 1;
		double m = measured_pct(c, k);
		if (!c->present || c->status != OUTCOME_OK || isnan(m))
			continue;
		c->same_sign[col] = sign(m) == sign(c->pub_pct[col]);
		p->pub_rows[col]++;
		p->pub_agree[col] += (size_t)c->same_sign[col];
	}
}

/* Row r's figures from source q, in its slot's columns: 0, or -1 with err
 * (too many sources) */
static int compare_source(struct pivot *p, const struct published *q, const char *link,
			  struct pivot_row *r, struct strbuf *err)
{
	for (int k = 0; k < PIVOT_NPUBKIND; k++) {
		const struct published_row *pr =
			kind_applies(p, k) ? published_find(q, pub_kinds[k], r->run, link) : NULL;
		if (!pr)
			continue;
		int s = source_slot(p, q, err);
		if (s < 0)
			return -1;
		compare_row(p, q, pr, k, PUB_COL(s, k), r);
	}
	return 0;
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
			for (const struct published *q = pub; q && *r->run && !failed; q = q->next)
				failed = compare_source(p, q, link, r, err);
		}
		free(link);
	}
	/* named only when a level has figures (not on link's levels) */
	for (size_t s = 0; s < p->npub_src && !p->published; s++)
		if (p->pub_any[PUB_COL(s, PUB_TIME)] || p->pub_any[PUB_COL(s, PUB_DIRTY)])
			p->published = xstrdup(p->pub_src[s].heading);
	for (size_t i = 0; i < cache.names.n; i++)
		published_release(&cache.pubs[i]);
	free(cache.pubs);
	sl_release(&cache.names);
	free(study_file);
	return failed ? -1 : 0;
}
