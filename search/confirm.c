/* confirm.c - see confirm.h */
#include "search/confirm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
#include "analysis/verdict.h"
#include "analysis/verdict_item.h"

void confirmation_release(struct confirmation *c)
{
	for (int s = 0; s < 2; s++) {
		struct confirm_side *d = &c->side[s];
		for (size_t i = 0; i < d->nitems; i++)
			free(d->item[i]);
		free(d->item);
		free(d->cmp);
		free(d->layout_noise);
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
	int **layout; /* per item, NULL: one layout */
};

static void measured_release(struct measured *m)
{
	for (size_t i = 0; m->v && i < m->items.n; i++) {
		free(m->v[i]);
		free(m->layout ? m->layout[i] : NULL);
	}
	free(m->v);
	free(m->n);
	free(m->layout);
	sl_release(&m->items);
	memset(m, 0, sizeof(*m));
}

static int fetch(struct search_pipeline *pl, struct confirmation *c, const char *name, const char *metric,
		 struct measured *m)
{
	enum outcome status;
	struct strbuf why = {0};
	int rc = search_pipeline_values(pl, c->study, name, metric, &m->items, &m->v, &m->n,
					&m->layout, &status, &why);
	if (rc && c->status == OUTCOME_OK) {
		c->status = status;
		c->detail = xasprintf("%s: %s", name, sb_str(&why));
	}
	sb_release(&why);
	return rc;
}

/* By the rule report reads (analysis/verdict.h) with report's defaults,
 * so `report` on the confirmation's study gives the same verdicts and
 * intervals: with layouts, nested (verdict_pair); with calibrated floors,
 * each item's (verdict_rule_for) and the summary's min_effect their mean,
 * as the rank table takes them. */
void confirm_judge_pairs(struct confirm_side *d, const struct verdict_rule *given,
			 char *const *items, const struct sample_pair *pairs, size_t n)
{
	struct rank_options o;
	rank_options_default(&o);
	struct verdict_rule rule = {.alpha = o.alpha, .min_effect = o.min_effect, .iters = o.iters,
				    .seed = o.seed};
	if (given)
		rule = *given;
	struct verdict_parts parts;
	verdict_parts_init(&parts, n);
	d->nitems = n;
	d->item = xcalloc(n ? n : 1, sizeof(char *));
	d->cmp = xcalloc(n ? n : 1, sizeof(*d->cmp));
	d->layout_noise = xcalloc(n ? n : 1, sizeof(double));
	double effects = 0;
	for (size_t i = 0; i < n; i++) {
		struct verdict_rule ir;
		d->item[i] = xstrdup(items[i]);
		verdict_rule_for(&rule, d->item[i], &ir);
		verdict_pair(&ir, &pairs[i], &d->cmp[i]);
		d->layout_noise[i] = verdict_layout_noise(&ir, &d->cmp[i]);
		verdict_parts_add(&parts, pairs[i], d->item[i], &d->cmp[i]);
		effects += ir.min_effect;
	}
	if (n)
		rule.min_effect = effects / (double)n;
	struct verdict_summary sum;
	verdict_summarise(&rule, &parts, &sum);
	d->gm = sum.ratio, d->lo = sum.lo, d->hi = sum.hi;
	d->verdict = sum.error ? VERDICT_UNCHANGED : sum.verdict;
	free(sum.mixed);
	verdict_parts_release(&parts);
}

void confirm_judge(struct confirm_side *d, char *const *items, double *const *best,
		   const size_t *nbest, double *const *ref, const size_t *nref, size_t n)
{
	struct sample_pair *pairs = xcalloc(n ? n : 1, sizeof(*pairs));
	for (size_t i = 0; i < n; i++)
		pairs[i] = (struct sample_pair){best[i], nbest[i], ref[i], nref[i]};
	confirm_judge_pairs(d, NULL, items, pairs, n);
	free(pairs);
}

/* best against ref, item by item, with their layouts (heap array). */
static struct sample_pair *measured_pairs(const struct measured *best, const struct measured *ref)
{
	size_t n = best->items.n;
	struct sample_pair *p = xcalloc(n ? n : 1, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		p[i] = (struct sample_pair){best->v[i], best->n[i], ref->v[i], ref->n[i],
					    best->layout ? best->layout[i] : NULL,
					    ref->layout ? ref->layout[i] : NULL};
	return p;
}

/* The geometric mean of the items' ratios, of their medians (with
 * layouts, of the mean of each layout's median, as report's ratio). */
static double insns_ratio(const struct measured *best, const struct measured *ref)
{
	double gm, lo, hi;
	struct sample_pair *p = measured_pairs(best, ref);
	int err = stats_geomean_ratio(p, best->items.n, 0.95, 0, NULL, &gm, &lo, &hi);
	free(p);
	return err ? NAN : gm;
}

/* Both sides by the rule report takes for the confirmation's study: its
 * defaults, and the floors of --min-effect auto where this database holds
 * a calibration of the machine (verdict_rule_load). */
static int judge_sides(struct search_pipeline *pl, struct confirmation *c,
		       const struct measured *best, const struct measured *ref, struct strbuf *err)
{
	struct store st;
	struct verdict_rule rule;
	struct calib_floors floors = {0};
	/* a database that cannot be read fails the confirmation: judged by
	 * defaults without its floors, it could disagree with report */
	if (store_open(&st, pl->db, 0, err))
		return -1;
	verdict_rule_load(NULL, &st, c->study, "time", &rule, &floors);
	for (int s = 0; s < 2; s++) {
		struct sample_pair *p = measured_pairs(best, &ref[s]);
		confirm_judge_pairs(&c->side[s], &rule, best->items.v, p, best->items.n);
		free(p);
	}
	calib_floors_release(&floors);
	store_close(&st);
	return 0;
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
	c->layouts = pl->layouts;
	if (search_pipeline_run_levels(pl, names, values, n, repeat, pl->layouts, &c->study, err))
		return -1;
	struct measured best, ref[2];
	memset(&best, 0, sizeof(best));
	memset(ref, 0, sizeof(ref));
	int rc = 0;
	if (!fetch(pl, c, label[2], "time", &best) && !fetch(pl, c, label[0], "time", &ref[0]) &&
	    !fetch(pl, c, label[1], "time", &ref[1]))
		rc = judge_sides(pl, c, &best, ref, err);
	if (!rc && c->status == OUTCOME_OK && pl->obj->counted) {
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
	return rc;
}
