/* rank.c - see rank.h */
#include "analysis/rank.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise_floor.h"
#include "analysis/rank_internal.h"
#include "analysis/results.h"
#include "analysis/sequential.h"
#include "analysis/verdict.h"
#include "flagsets/study.h"

void rank_options_default(struct rank_options *o)
{
	*o = (struct rank_options){
		.alpha = 0.05, .min_effect = 0.01, .iters = 2000, .seed = 20261202,
		.settle_level = RANK_SETTLE_LEVEL, .tie_margin = 0.01, .looks = 1,
		.rule = STABLE_OBRIEN_FLEMING, .min_effect_auto = 1,
	};
}


static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return xstrdup(t ? (const char *)t : "");
}

/* A fact the study stored (heap), or NULL. */
static char *fact_text(struct store *st, const char *study, const char *key)
{
	sqlite3_stmt *s = NULL;
	char *v = NULL;
	sqlite3_prepare_v2(st->db, "SELECT value FROM facts WHERE study=? AND key=?", -1, &s, NULL);
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = col_text(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* A fact the study stored as a number; 0 when it has none. */
static double fact_number(struct store *st, const char *study, const char *key)
{
	char *t = fact_text(st, study, key);
	double v = t ? strtod(t, NULL) : 0;
	free(t);
	return v;
}

/* How repeat = stable looked (rank.h, "Settled"); a database from before
 * the rule was stored was judged by bonferroni. */
static void load_looks(struct store *st, struct ranking *r)
{
	double v = fact_number(st, r->study, "stable_looks");
	if (v > 1)
		r->opt.looks = (int)v;
	r->opt.max_repeat = (int)fact_number(st, r->study, "stable_max_repeat");
	char *rule = fact_text(st, r->study, "stable_rule");
	r->opt.rule = rule ? stable_rule_parse(rule) : STABLE_BONFERRONI;
	if (r->opt.rule < 0)
		r->opt.rule = STABLE_BONFERRONI;
	free(rule);
}

static void load_meta(struct store *st, struct ranking *r)
{
	r->unit = results_metric_unit(st, r->study, r->metric);
	r->higher_better = results_higher_better(st, r->study, r->metric);
	r->deterministic = results_metric_deterministic(r->metric);
	r->resolution = results_metric_resolution(st, r->study, r->metric, &r->resolution_text);
	r->built = r->cached = r->failed = -1;
	sqlite3_stmt *s = NULL;
	sqlite3_prepare_v2(st->db, "SELECT built, cached, failed FROM last_run WHERE study=?", -1,
			   &s, NULL);
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		r->built = sqlite3_column_int(s, 0);
		r->cached = sqlite3_column_int(s, 1);
		r->failed = sqlite3_column_int(s, 2);
	}
	sqlite3_finalize(s);
	sqlite3_prepare_v2(st->db, "SELECT key || ': ' || value FROM facts WHERE study=? AND "
				   "(key LIKE 'meter.%' OR key LIKE 'source.%' OR key LIKE 'pgo.%' OR "
				   "key LIKE 'unvalidated.%') ORDER BY key", -1, &s, NULL);
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW)
		sl_push_owned(&r->facts, col_text(s, 0));
	sqlite3_finalize(s);
	r->noisy_target = results_repeat_target(st, r->study);
	double v = fact_number(st, r->study, "tie_margin");
	if (v > 0)
		r->opt.tie_margin = v;
	load_looks(st, r);
	store_get_machine(st, r->study, &r->machine_keys, &r->machine_values);
}

static void load_facts(struct store *st, const char *study, struct rank_config *c)
{
	sqlite3_stmt *s = NULL;
	sqlite3_prepare_v2(st->db, "SELECT '[' || group_concat(facts, ',') || ']' FROM builds "
				   "WHERE study=? AND config_id=? AND facts<>'[]' AND facts<>'{}'",
			   -1, &s, NULL);
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, c->id, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		c->facts = col_text(s, 0);
	sqlite3_finalize(s);
}

/* The "identical.ID.WORKLOAD" facts (pipeline/identical.c): the label of
 * the configuration whose runs c reuses, and on which workloads. */
static void load_identical(struct store *st, struct ranking *r, struct rank_config *c)
{
	sqlite3_stmt *s = NULL;
	char *prefix = xasprintf("identical.%s.", c->id);
	sqlite3_prepare_v2(st->db, "SELECT substr(key, length(?2) + 1), value FROM facts "
				   "WHERE study=?1 AND substr(key, 1, length(?2))=?2 ORDER BY key",
			   -1, &s, NULL);
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, prefix, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *src = (const char *)sqlite3_column_text(s, 1);
		for (size_t k = 0; src && k < r->n && !c->identical_to; k++)
			if (!strcmp(r->configs[k].id, src))
				c->identical_to = xstrdup(r->configs[k].label);
		sl_push_owned(&c->identical_on, col_text(s, 0));
	}
	sqlite3_finalize(s);
	free(prefix);
}

static void load_configs(struct store *st, struct ranking *r)
{
	size_t n;
	struct result_config *rc = results_configs(st, r->study, &n);
	r->configs = xcalloc(n ? n : 1, sizeof(*r->configs));
	r->n = n;
	r->baseline = -1;
	for (size_t i = 0; i < n; i++) {
		struct rank_config *c = &r->configs[i];
		/* the strings move over; the husk is freed below */
		*c = (struct rank_config){
			.id = rc[i].id, .label = rc[i].label, .cc = rc[i].cc,
			.toolchain = rc[i].toolchain, .cflags = rc[i].cflags,
			.ldflags = rc[i].ldflags, .link = rc[i].link, .target = rc[i].target,
			.cpu = rc[i].cpu, .libc = rc[i].libc, .sysroot = rc[i].sysroot,
			.notes = rc[i].notes, .is_baseline = rc[i].is_baseline, .pgo = rc[i].pgo,
			.ratio = NAN,
			.lo = NAN, .hi = NAN,
		};
		if (c->is_baseline && r->baseline < 0)
			r->baseline = (int)i;
		load_facts(st, r->study, c);
	}
	for (size_t i = 0; i < n; i++)
		load_identical(st, r, &r->configs[i]);
	free(rc);
}

/* What every configuration did on one item of the study, before ranking. */
struct item_state {
	char *workload, *run, *name;
	enum outcome *status; /* per configuration */
	char **detail;
	double **v; /* the metric's samples, per configuration (selected items) */
	size_t *n;
	int **layout; /* each sample's layout variant, per configuration */
	int from_build;
	enum { ITEM_RANKED, ITEM_CHECKED, ITEM_LEFT_OUT } kind;
	enum outcome left_status; /* ITEM_LEFT_OUT: the outcome, OK when unmeasured */
	char *why;		  /* ITEM_LEFT_OUT, or an unmeasured ITEM_CHECKED */
};

/* Outcomes and samples of every item in every configuration; decide which
 * items are ranked, only checked, or left out (see rank.h). */
static void load_states(struct store *st, struct ranking *r, struct item_state *is, size_t nw)
{
	for (size_t w = 0; w < nw; w++) {
		struct item_state *x = &is[w];
		x->status = xcalloc(r->n, sizeof(*x->status));
		x->detail = xcalloc(r->n, sizeof(*x->detail));
		x->v = xcalloc(r->n, sizeof(*x->v));
		x->n = xcalloc(r->n, sizeof(*x->n));
		x->layout = xcalloc(r->n, sizeof(*x->layout));
		int same = r->n > 0;
		for (size_t c = 0; c < r->n; c++) {
			x->status[c] = results_status(st, r->study, r->configs[c].id, x->workload,
						      x->run, &x->detail[c]);
			same = same && x->status[c] == x->status[0];
		}
		if (same && x->status[0] != OUTCOME_OK) {
			size_t b = r->baseline >= 0 ? (size_t)r->baseline : 0;
			x->kind = ITEM_LEFT_OUT;
			x->left_status = x->status[0];
			x->why = xasprintf("%s in every configuration%s%s", outcome_name(x->status[0]),
					   *x->detail[b] ? ": " : "", x->detail[b]);
			continue;
		}
		if (r->opt.base_failures_out && r->baseline >= 0 &&
		    x->status[r->baseline] != OUTCOME_OK) {
			size_t b = (size_t)r->baseline;
			x->kind = ITEM_LEFT_OUT;
			x->left_status = x->status[b];
			x->why = xasprintf("fails at the baseline too (%s%s%.*s)",
					   outcome_name(x->status[b]), *x->detail[b] ? ": " : "",
					   (int)strcspn(x->detail[b], "\n"), x->detail[b]);
			continue;
		}
		if (!results_select_match(&r->sel, x->workload, x->run)) {
			x->kind = ITEM_CHECKED;
			continue;
		}
		size_t have = 0;
		for (size_t c = 0; c < r->n; c++) {
			int fb = 0;
			x->v[c] = results_samples_layouts(st, r->study, r->configs[c].id, x->workload,
							  x->run, r->metric, &x->n[c], &fb,
							  &x->layout[c]);
			x->from_build |= fb;
			have += x->n[c] > 0;
		}
		x->kind = have ? ITEM_RANKED : ITEM_CHECKED;
		size_t b = r->baseline >= 0 ? (size_t)r->baseline : 0;
		if (!have && r->n && x->status[b] != OUTCOME_OK) {
			/* the others' no_reference follows from it: name the cause */
			x->left_status = OUTCOME_OK;
			x->why = xasprintf("no configuration measured: the baseline is %s%s%.*s%s",
					   outcome_name(x->status[b]), *x->detail[b] ? " (" : "",
					   (int)strcspn(x->detail[b], "\n"), x->detail[b],
					   *x->detail[b] ? ")" : "");
		} else if (!have) {
			x->left_status = OUTCOME_OK;
			x->why = xasprintf("no samples of metric '%s' in any configuration", r->metric);
		}
	}
}

static void states_release(struct item_state *is, size_t nw, size_t nc)
{
	for (size_t w = 0; w < nw; w++) {
		for (size_t c = 0; c < nc; c++) {
			free(is[w].detail[c]);
			free(is[w].v[c]);
			free(is[w].layout[c]);
		}
		free(is[w].layout);
		free(is[w].status);
		free(is[w].detail);
		free(is[w].v);
		free(is[w].n);
		free(is[w].workload);
		free(is[w].run);
		free(is[w].name);
		free(is[w].why);
	}
	free(is);
}

/* The left-out list: one entry for a workload whose every item is left
 * out for the same reason, else one per item. */
static void collect_left_out(struct ranking *r, const struct item_state *is, size_t nw)
{
	for (size_t w = 0, end; w < nw; w = end) {
		int whole = 1;
		for (end = w; end < nw && !strcmp(is[end].workload, is[w].workload); end++)
			whole = whole && is[end].why && !strcmp(is[end].why, is[w].why) &&
				is[end].left_status == is[w].left_status;
		for (size_t k = w; k < end; k++) {
			if (!is[k].why || (whole && k > w))
				continue;
			r->left_out = xrealloc(r->left_out, (r->nleft_out + 1) * sizeof(*r->left_out));
			r->left_out[r->nleft_out++] = (struct rank_left_out){
				.name = xstrdup(whole ? is[k].workload : is[k].name),
				.status = is[k].left_status, .why = xstrdup(is[k].why),
			};
		}
	}
}

/* One ranked item of one configuration: status, samples (moved into the
 * table), summary; NOISY by the auto target. */
static void load_item(struct store *st, struct ranking *r, struct rank_config *rc, size_t c,
		      struct item_state *x, struct rank_item *it, struct sample_table *t,
		      size_t slot, struct rng *rng)
{
	it->ratio = it->lo = it->hi = it->p = it->layout_noise = NAN;
	it->workload = xstrdup(x->workload);
	it->run = xstrdup(x->run);
	it->name = xstrdup(x->name);
	it->status = x->status[c];
	it->detail = x->detail[c];
	x->detail[c] = NULL;
	t->v[slot] = x->v[c];
	t->n[slot] = x->n[c];
	t->layout[slot] = x->layout[c];
	x->v[c] = NULL;
	x->layout[c] = NULL;
	it->from_build = x->from_build;
	stats_summarize(t->v[slot], t->n[slot], 1 - r->opt.alpha, r->opt.iters, rng, &it->s);
	it->halfwidth = stats_relative_halfwidth(&it->s);
	if (it->status != OUTCOME_OK)
		return;
	free(it->detail);
	it->detail = NULL;
	it->note = results_note(st, r->study, rc->id, it->workload, it->run);
	if (!it->s.n) {
		it->status = OUTCOME_NO_REFERENCE;
		it->detail = xasprintf("no samples of metric '%s'", r->metric);
	} else if (r->noisy_target > 0 && !it->from_build && !r->deterministic &&
		   it->halfwidth > r->noisy_target) {
		it->status = OUTCOME_NOISY;
		it->detail = isinf(it->halfwidth)
			? xasprintf("%zu run(s) cannot give an interval (target +-%.3g%%)",
				    it->s.n, 100 * r->noisy_target)
			: xasprintf("interval +-%.2f%% after %zu runs, target +-%.3g%%",
				    100 * it->halfwidth, it->s.n, 100 * r->noisy_target);
	}
}

static void note_problem(struct rank_config *rc, const char *name, enum outcome status,
			 const char *detail)
{
	/* a failure outranks noise as the configuration's reason */
	if (status == OUTCOME_OK ||
	    (rc->status != OUTCOME_OK && (rc->status != OUTCOME_NOISY || status == OUTCOME_NOISY)))
		return;
	rc->status = status;
	free(rc->detail);
	rc->detail = xasprintf("%s: %s", name, detail ? detail : "");
}

/* a mistyped --study: the names the database holds are the help */
static void no_such_study(struct store *st, const char *study, struct strbuf *err)
{
	struct strlist names = {0};
	store_study_names(st, &names);
	const char *near = str_nearest(study, (const char *const *)names.v, names.n);
	char *list = names.n ? sl_join(&names, ", ") : NULL;
	if (near)
		sb_addf(err, "%s: no study '%s' in this database (did you mean '%s'? see flagscope "
			     "report --help)", st->path, study, near);
	else if (names.n)
		sb_addf(err, "%s: no study '%s' in this database (it holds %s%.200s; name one with "
			     "--study)", st->path, study, names.n > 1 ? "these: " : "", list);
	else
		sb_addf(err, "%s: no study '%s' in this database (it holds none: run a study first)",
			st->path, study);
	free(list);
	sl_release(&names);
}

int ranking_compute_opts(struct store *st, const char *study, const char *metric,
			 const struct rank_options *o, struct ranking *r, struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	if (o)
		r->opt = *o;
	else
		rank_options_default(&r->opt);
	r->study = xstrdup(study);
	results_progress(st, study, &r->progress);
	r->selector = xstrdup(metric ? metric : "");
	load_configs(st, r);
	if (!r->n) {
		no_such_study(st, study, err);
		return -1;
	}
	if (results_select(st, study, metric, NULL, &r->sel, err)) {
		sb_add(err, " (see flagscope report --help: --metric)");
		return -1;
	}
	r->metric = xstrdup(r->sel.metric);
	r->scope = results_select_scope(&r->sel);
	load_meta(st, r);
	if (r->opt.min_effect_auto && !r->deterministic)
		calibration_floors_load(st, study, r->metric, &r->floors);

	struct strlist workloads = {0}, runs = {0};
	results_items(st, study, &workloads, &runs);
	size_t nall = workloads.n;
	struct item_state *is = xcalloc(nall ? nall : 1, sizeof(*is));
	for (size_t w = 0; w < nall; w++) {
		is[w].workload = xstrdup(workloads.v[w]);
		is[w].run = xstrdup(runs.v[w]);
		is[w].name = *runs.v[w] ? xasprintf("%s/%s", workloads.v[w], runs.v[w])
					: xstrdup(workloads.v[w]);
	}
	sl_release(&workloads);
	sl_release(&runs);
	load_states(st, r, is, nall);
	collect_left_out(r, is, nall);

	size_t nw = 0;
	for (size_t w = 0; w < nall; w++)
		nw += is[w].kind == ITEM_RANKED;
	struct sample_table t = {
		.v = xcalloc(r->n * nw + 1, sizeof(double *)),
		.n = xcalloc(r->n * nw + 1, sizeof(size_t)),
		.layout = xcalloc(r->n * nw + 1, sizeof(int *)),
		.nitems = nw,
	};
	struct rng rng;
	rng_seed(&rng, r->opt.seed);
	for (size_t c = 0; c < r->n; c++) {
		struct rank_config *rc = &r->configs[c];
		rc->items = xcalloc(nw ? nw : 1, sizeof(*rc->items));
		rc->nitems = nw;
		for (size_t w = 0, k = 0; w < nall; w++) {
			struct item_state *x = &is[w];
			if (x->kind == ITEM_RANKED) {
				struct rank_item *it = &rc->items[k];
				load_item(st, r, rc, c, x, it, &t, c * nw + k, &rng);
				note_problem(rc, it->name, it->status, it->detail);
				k++;
			} else if (x->kind == ITEM_CHECKED) {
				note_problem(rc, x->name, x->status[c], x->detail[c]);
			}
		}
	}
	for (size_t c = 0; c < r->n && r->baseline >= 0; c++)
		rank_compare_config(r, c, &t);
	rank_assign_ranks(r, &t, &rng);
	for (size_t i = 0; i < r->n * nw; i++) {
		free(t.v[i]);
		free(t.layout[i]);
	}
	free(t.v);
	free(t.layout);
	free(t.n);
	states_release(is, nall, r->n);
	return 0;
}

int ranking_compute(struct store *st, const char *study, const char *metric,
		    struct ranking *r, struct strbuf *err)
{
	return ranking_compute_opts(st, study, metric, NULL, r, err);
}

/* A metric's per-configuration value for the Pareto front: the geometric
 * mean ratio, inverted when higher is better so lower stays better. */
static double *pareto_values(struct store *st, const struct ranking *r, const char *metric)
{
	struct ranking other, *m = (struct ranking *)r;
	struct strbuf err = {0};
	int same = !strcmp(metric, r->selector) || (!r->scope && !strcmp(metric, r->metric));
	if (!same) {
		if (ranking_compute_opts(st, r->study, metric, &r->opt, &other, &err)) {
			sb_release(&err);
			ranking_release(&other);
			return NULL;
		}
		m = &other;
	}
	double *v = xcalloc(r->n ? r->n : 1, sizeof(double));
	/* the noise floor is the baseline again: no point of its own */
	for (size_t c = 0; c < r->n; c++)
		v[c] = c < m->n && r->configs[c].status == OUTCOME_OK &&
				       !noise_floor_label(r->configs[c].label)
			       ? rank_value(m, &m->configs[c])
			       : NAN;
	if (m == &other)
		ranking_release(&other);
	sb_release(&err);
	return v;
}

int ranking_add_pareto(struct store *st, struct ranking *r, const char *x, const char *y)
{
	double *xv = pareto_values(st, r, x), *yv = pareto_values(st, r, y);
	size_t points = 0;
	for (size_t c = 0; xv && yv && c < r->n; c++)
		points += !isnan(xv[c]) && !isnan(yv[c]);
	if (points < 2) {
		free(xv);
		free(yv);
		return 1;
	}
	r->pareto = xrealloc(r->pareto, (r->npareto + 1) * sizeof(*r->pareto));
	struct rank_pareto *p = &r->pareto[r->npareto++];
	p->x = xstrdup(x);
	p->y = xstrdup(y);
	p->xv = xv;
	p->yv = yv;
	p->front = xcalloc(r->n, sizeof(int));
	stats_pareto(xv, yv, r->n, p->front);
	return 0;
}

char *ranking_selector_for(const struct ranking *r, const char *metric)
{
	return results_select_with(&r->sel, metric);
}

void ranking_release(struct ranking *r)
{
	calib_floors_release(&r->floors);
	free(r->resolution_text);
	for (size_t c = 0; c < r->n; c++) {
		struct rank_config *rc = &r->configs[c];
		for (size_t w = 0; w < rc->nitems; w++) {
			free(rc->items[w].name);
			free(rc->items[w].workload);
			free(rc->items[w].run);
			free(rc->items[w].detail);
			free(rc->items[w].note);
		}
		free(rc->items);
		free(rc->id);
		free(rc->label);
		free(rc->cc);
		free(rc->toolchain);
		free(rc->cflags);
		free(rc->ldflags);
		free(rc->link);
		free(rc->target);
		free(rc->cpu);
		free(rc->libc);
		free(rc->sysroot);
		free(rc->notes);
		free(rc->detail);
		free(rc->mixed);
		free(rc->facts);
		free(rc->identical_to);
		sl_release(&rc->identical_on);
	}
	for (size_t i = 0; i < r->npareto; i++) {
		free(r->pareto[i].x);
		free(r->pareto[i].y);
		free(r->pareto[i].xv);
		free(r->pareto[i].yv);
		free(r->pareto[i].front);
	}
	free(r->pareto);
	for (size_t i = 0; i < r->nleft_out; i++) {
		free(r->left_out[i].name);
		free(r->left_out[i].why);
	}
	free(r->left_out);
	free(r->selector);
	free(r->scope);
	results_select_release(&r->sel);
	free(r->configs);
	free(r->study);
	free(r->metric);
	free(r->unit);
	sl_release(&r->facts);
	sl_release(&r->machine_keys);
	sl_release(&r->machine_values);
	memset(r, 0, sizeof(*r));
}

/* the first line of a detail, at most 100 characters (build logs are
 * joined with " | ") */
static char *short_detail(const char *d)
{
	size_t n = strcspn(d, "\n");
	const char *bar = strstr(d, " | ");
	if (bar && (size_t)(bar - d) < n)
		n = (size_t)(bar - d);
	if (n <= 100)
		return xstrndup(d, n);
	/* at a word's end: "... 'took 65963 clocks' he..." reads as a fragment */
	int cut = 97;
	while (cut > 60 && d[cut] != ' ')
		cut--;
	return xasprintf("%.*s ...", cut, d);
}

char *ranking_why_unranked(const struct ranking *r)
{
	size_t failed = 0, noisy = 0, first = r->n, no_ref = 0;
	for (size_t c = 0; c < r->n; c++) {
		if (r->configs[c].rank > 0)
			return NULL;
		no_ref += r->configs[c].status == OUTCOME_NO_REFERENCE;
		failed += r->configs[c].status != OUTCOME_OK && r->configs[c].status != OUTCOME_NOISY;
		noisy += r->configs[c].status == OUTCOME_NOISY;
		if (first == r->n && r->configs[c].status != OUTCOME_OK)
			first = c;
	}
	if (!r->n)
		return xstrdup("nothing ranked: the study stored no configuration");
	const struct rank_config *base = r->baseline >= 0 ? &r->configs[r->baseline] : NULL;
	if (failed + noisy == r->n || (base && base->status != OUTCOME_OK)) {
		const struct rank_config *c = base && base->status != OUTCOME_OK ? base
									    : &r->configs[first];
		char *d = short_detail(c->detail ? c->detail : outcome_name(c->status));
		/* the others failed only for want of the baseline's reference:
		 * the baseline is the cause */
		int base_only = c == base && no_ref + 1 == r->n;
		char *why = failed + noisy == r->n && !base_only
			? xasprintf("nothing ranked: every configuration %s (%s: %s%s)",
				    noisy ? (failed ? "failed or is noisy" : "is noisy") : "failed",
				    c->label, d, r->n > 1 ? ", and more above" : "")
			: xasprintf("nothing ranked: the baseline %s is %s, so no configuration has a "
				    "ratio to it (%s)", c->label, outcome_name(c->status), d);
		free(d);
		return why;
	}
	if (!r->configs[0].nitems && r->nleft_out) {
		const struct rank_left_out *l = &r->left_out[0];
		char *d = short_detail(l->why);
		char *why = xasprintf("nothing ranked: every workload is left out of the ranking "
				      "(%s: %s%s)", l->name, d,
				      r->nleft_out > 1 ? ", and more above" : "");
		free(d);
		return why;
	}
	if (!r->configs[0].nitems)
		return xasprintf("nothing ranked: no workload has samples of %s", r->metric);
	return xasprintf("nothing ranked: no configuration could be compared with the baseline%s%s",
			 base ? " " : "", base ? base->label : "");
}

size_t ranking_fragile(const struct ranking *r)
{
	size_t n = 0;
	for (size_t c = 0; c < r->n; c++)
		n += rank_config_fragile(r, &r->configs[c]);
	return n;
}

double rank_tie_band(const struct ranking *r)
{
	return r->opt.tie_margin > r->opt.min_effect ? r->opt.tie_margin : r->opt.min_effect;
}

const char *ranking_insns_counter(const struct ranking *r)
{
	int cg = 0, qemu = 0;
	for (size_t i = 0; i < r->facts.n; i++) {
		cg |= str_starts_with(r->facts.v[i], "meter.cachegrind:");
		qemu |= str_starts_with(r->facts.v[i], "meter.qemu-insn:");
	}
	if (cg && qemu)
		return "QEMU (TCG plugin) and valgrind's cachegrind";
	return cg ? "valgrind's cachegrind (natively)" : "QEMU (TCG plugin)";
}

double rank_settle_level(const struct ranking *r, const struct rank_config *c)
{
	int apart = c->versus >= 0 && c->rank != r->configs[c->versus].rank;
	const struct rank_options *o = &r->opt;
	return apart ? seq_level(o->rule, o->settle_level, o->looks, o->max_repeat, c->versus_runs)
		     : o->settle_level;
}

int rank_config_fragile(const struct ranking *r, const struct rank_config *c)
{
	return c->rank && c->versus >= 0 && !(c->p_change <= rank_settle_level(r, c));
}

char *rank_config_fragility(const struct ranking *r, const struct rank_config *c)
{
	if (!rank_config_fragile(r, c))
		return NULL;
	int tie = c->rank == r->configs[c->versus].rank;
	char *held = tie && isfinite(c->tie_within)
			     ? xasprintf("; %.0f%% fall within +-%.*f%%", 100 * (1 - r->opt.settle_level),
					 100 * c->tie_within < 10 ? 1 : 0, 100 * c->tie_within)
			     : xstrdup("");
	char *line = xasprintf("%s vs %s: not settled after %zu runs (%s, but %.0f%% of the resamples "
			       "fall %s%.3g%%%s)", c->label, r->configs[c->versus].label,
			       c->versus_runs, tie ? "tied" : "ranked apart", 100 * c->p_change,
			       tie ? "outside the tie's band +-" : "the other way or within +-",
			       100 * (tie ? rank_tie_band(r) : r->opt.min_effect), held);
	free(held);
	return line;
}
