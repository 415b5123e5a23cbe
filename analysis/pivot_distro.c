/* pivot_distro.c - see pivot_distro.h */
#include "analysis/pivot_distro.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "analysis/verdict_item.h"

void distro_ratio_release(struct distro_ratio *r)
{
	free(r->detail);
	free(r->mixed);
	memset(r, 0, sizeof(*r));
}

/* The first outcome that is not ok, of the candidate then the reference. */
static int pair_status(struct store *st, const char *study, const char *cand_id,
		       const char *ref_id, const char *workload, const char *run,
		       struct distro_ratio *out)
{
	const char *ids[] = {cand_id, ref_id};
	for (size_t k = 0; k < ARRAY_SIZE(ids); k++) {
		char *detail;
		enum outcome o = results_status(st, study, ids[k], workload, run, &detail);
		if (o != OUTCOME_OK) {
			out->status = o;
			free(out->detail);
			out->detail = k ? xasprintf("baseline: %s", detail) : xstrdup(detail);
			free(detail);
			return -1;
		}
		free(detail);
	}
	return 0;
}

/* The workload's runs as parts of one summary (analysis/verdict.h): each
 * run judged as every command judges it (verdict_item.h), the workload
 * by the summary rule. */
static void judge_runs(struct verdict_rule rule, const struct verdict_item *its, char **names,
		       struct distro_ratio *out)
{
	struct verdict_parts parts;
	verdict_parts_init(&parts, out->nruns);
	double effects = 0; /* the summary's min_effect: the mean of the parts' */
	for (size_t i = 0; i < out->nruns; i++) {
		verdict_parts_add(&parts, its[i].pair, *names[i] ? names[i] : "(run)", &its[i].c);
		effects += its[i].rule.min_effect;
	}
	if (out->nruns)
		rule.min_effect = effects / (double)out->nruns;
	struct verdict_summary sum;
	if (!verdict_summarise(&rule, &parts, &sum)) {
		out->ratio = sum.ratio, out->lo = sum.lo, out->hi = sum.hi;
		out->verdict = sum.verdict;
		out->untested = sum.untested;
		out->mixed = sum.mixed;
	}
	verdict_parts_release(&parts);
}

void distro_workload_ratio(struct store *st, const char *study, const char *cand_id,
			   const char *ref_id, const char *workload, const char *metric,
			   int higher_better, const struct rank_options *o,
			   struct distro_ratio *out)
{
	memset(out, 0, sizeof(*out));
	out->ratio = out->lo = out->hi = NAN;
	out->detail = xstrdup("");
	struct strlist ws = {0}, runs = {0};
	results_items(st, study, &ws, &runs);
	struct verdict_item *its = xcalloc(ws.n ? ws.n : 1, sizeof(*its));
	char **names = xcalloc(ws.n ? ws.n : 1, sizeof(*names));
	struct verdict_rule rule;
	struct calib_floors floors;
	verdict_rule_load(o, st, study, metric, &rule, &floors);
	rule.higher_better = higher_better;
	const struct verdict_side cand = {st, study, cand_id}, ref = {st, study, ref_id};
	int failed = 0;
	for (size_t i = 0; i < ws.n && !failed; i++) {
		if (strcmp(ws.v[i], workload))
			continue;
		if (pair_status(st, study, cand_id, ref_id, workload, runs.v[i], out)) {
			failed = 1;
			break;
		}
		struct verdict_item *it = &its[out->nruns];
		verdict_item_judge(&rule, &cand, &ref, workload, runs.v[i], metric, it);
		if (!it->pair.ncand || !it->pair.nbase) {
			/* not measured in this run (a size of a run section) */
			verdict_item_release(it);
			continue;
		}
		names[out->nruns++] = runs.v[i];
	}
	if (!failed && out->nruns)
		judge_runs(rule, its, names, out);
	calib_floors_release(&floors);
	for (size_t i = 0; i < out->nruns; i++)
		verdict_item_release(&its[i]);
	free(names);
	free(its);
	sl_release(&ws);
	sl_release(&runs);
}

static double pct(double ratio)
{
	return 100 * (ratio - 1);
}

static void fill_row(struct store *st, struct distro_table *t, const struct result_config *c,
		     size_t nc, int base, const char *first_run, struct distro_row *row)
{
	const char *bid = c[base].id;
	row->base_value = pivot_median(st, t->study, bid, row->workload, first_run, t->metric);
	row->base_size = pivot_median(st, t->study, bid, row->workload, "", "size.text");
	row->cells = xcalloc(t->ncols ? t->ncols : 1, sizeof(*row->cells));
	size_t col = 0;
	for (size_t i = 0; i < nc; i++) {
		if ((int)i == base)
			continue;
		struct distro_cell *cell = &row->cells[col++];
		distro_workload_ratio(st, t->study, c[i].id, bid, row->workload, t->metric,
				      t->higher_better, &t->opt, &cell->time);
		cell->pct = pct(cell->time.ratio);
		cell->lo_pct = pct(cell->time.lo);
		cell->hi_pct = pct(cell->time.hi);
		cell->size = cell->size_pct = NAN;
		if (cell->time.status != OUTCOME_OK)
			continue; /* a failed build's stored size is a placeholder */
		cell->size = pivot_median(st, t->study, c[i].id, row->workload, "", "size.text");
		if (row->base_size > 0 && cell->size > 0)
			cell->size_pct = pct(cell->size / row->base_size);
	}
}

/* A column whose rows go both ways, significantly: its summary row must
 * not read as one effect (analysis/verdict.h, MIXED). */
static char *column_mixed(const struct distro_table *t, size_t k)
{
	size_t better = 0, worse = 0;
	struct strbuf sb = {0};
	sb_add(&sb, "mixed:");
	for (size_t r = 0; r < t->nrows; r++) {
		const struct distro_ratio *d = &t->rows[r].cells[k].time;
		if (d->status != OUTCOME_OK || d->verdict == VERDICT_UNCHANGED)
			continue;
		better += d->verdict == VERDICT_IMPROVED || d->verdict == VERDICT_MIXED;
		worse += d->verdict == VERDICT_REGRESSED || d->verdict == VERDICT_MIXED;
		if (d->verdict == VERDICT_MIXED)
			sb_addf(&sb, "%s %s (mixed)", better + worse > 2 ? "," : "",
				t->rows[r].workload);
		else
			sb_addf(&sb, "%s %+.1f%% %s", better + worse > 1 ? "," : "",
				pct(d->ratio), t->rows[r].workload);
	}
	if (better && worse)
		return sb_detach(&sb);
	sb_release(&sb);
	return NULL;
}

static void summarise(struct distro_table *t)
{
	t->summary = xcalloc(t->ncols ? t->ncols : 1, sizeof(*t->summary));
	for (size_t k = 0; k < t->ncols; k++) {
		double lt = 0, ls = 0;
		size_t ns = 0;
		struct distro_summary *sum = &t->summary[k];
		for (size_t r = 0; r < t->nrows; r++) {
			const struct distro_cell *c = &t->rows[r].cells[k];
			if (c->time.status != OUTCOME_OK)
				continue;
			if (c->time.ratio > 0) {
				lt += log(c->time.ratio);
				sum->n++;
			}
			if (!isnan(c->size_pct)) {
				ls += log(1 + c->size_pct / 100);
				ns++;
			}
		}
		sum->pct = sum->n ? pct(exp(lt / (double)sum->n)) : NAN;
		sum->size_pct = ns ? pct(exp(ls / (double)ns)) : NAN;
		sum->mixed = column_mixed(t, k);
	}
}

/* The training runs of the study's profile-guided builds, per workload */
static void load_training(struct store *st, struct distro_table *t)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT substr(key, 11) || ': ' || value FROM facts "
				       "WHERE study=? AND key LIKE 'pgo.train.%' ORDER BY key",
			       -1, &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(s, 1, t->study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW)
		sl_push(&t->train, (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
}

int distro_table_compute(struct store *st, const char *study, const char *metric,
			 const struct rank_options *o, struct distro_table *t,
			 struct strbuf *err)
{
	memset(t, 0, sizeof(*t));
	t->study = xstrdup(study);
	if (o)
		t->opt = *o;
	else
		rank_options_default(&t->opt);
	struct result_select sel;
	if (results_select(st, study, metric, NULL, &sel, err)) {
		sb_add(err, " (see flagscope report --help: --metric)");
		results_select_release(&sel);
		return -1;
	}
	t->metric = xstrdup(sel.metric);
	t->unit = results_metric_unit(st, study, t->metric);
	t->higher_better = results_higher_better(st, study, t->metric);
	size_t nc;
	struct result_config *c = results_configs(st, study, &nc);
	int base = -1;
	for (size_t i = 0; i < nc; i++)
		if (c[i].is_baseline)
			base = (int)i;
	if (base < 0) {
		sb_addf(err, nc ? "study '%s' in %s has no baseline stored (name one with baseline "
				  "= in the study and run it)"
				: "study '%s' is not in %s (run it first, or pass --study)",
			study, st->path);
		result_configs_free(c, nc);
		results_select_release(&sel);
		return -1;
	}
	if (nc == 1) {
		sb_addf(err, "study '%s' has one configuration, its baseline %s: the table compares "
			     "the others with it (add a level to an axis and run it again)",
			study, c[base].label);
		result_configs_free(c, nc);
		results_select_release(&sel);
		return -1;
	}
	t->baseline = xstrdup(c[base].label);
	t->base_cflags = xstrdup(c[base].cflags ? c[base].cflags : "");
	t->base_pgo = c[base].pgo;
	t->labels = xcalloc(nc, sizeof(*t->labels));
	t->cflags = xcalloc(nc, sizeof(*t->cflags));
	t->pgo = xcalloc(nc, sizeof(*t->pgo));
	for (size_t i = 0; i < nc; i++)
		if ((int)i != base) {
			t->cflags[t->ncols] = xstrdup(c[i].cflags ? c[i].cflags : "");
			t->pgo[t->ncols] = c[i].pgo;
			t->labels[t->ncols++] = xstrdup(c[i].label);
		}
	struct strlist ws = {0}, runs = {0};
	results_items(st, study, &ws, &runs);
	t->rows = xcalloc(ws.n ? ws.n : 1, sizeof(*t->rows));
	for (size_t i = 0; i < ws.n; i++) {
		if ((t->nrows && !strcmp(t->rows[t->nrows - 1].workload, ws.v[i])) ||
		    (sel.workload && strcmp(sel.workload, ws.v[i])))
			continue;
		struct distro_row *row = &t->rows[t->nrows++];
		row->workload = xstrdup(ws.v[i]);
		fill_row(st, t, c, nc, base, runs.v[i], row);
	}
	summarise(t);
	load_training(st, t);
	sl_release(&ws);
	sl_release(&runs);
	result_configs_free(c, nc);
	results_select_release(&sel);
	return 0;
}

void distro_table_release(struct distro_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t k = 0; k < t->ncols; k++)
			distro_ratio_release(&t->rows[r].cells[k].time);
		free(t->rows[r].cells);
		free(t->rows[r].workload);
	}
	free(t->rows);
	for (size_t k = 0; t->summary && k < t->ncols; k++)
		free(t->summary[k].mixed);
	free(t->summary);
	for (size_t k = 0; k < t->ncols; k++) {
		free(t->labels[k]);
		free(t->cflags[k]);
	}
	free(t->labels);
	free(t->cflags);
	free(t->pgo);
	free(t->baseline);
	free(t->base_cflags);
	free(t->study);
	free(t->metric);
	free(t->unit);
	sl_release(&t->train);
	memset(t, 0, sizeof(*t));
}
