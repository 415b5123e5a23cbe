/* rank.c - see rank.h */
#include "analysis/rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

#define BOOT_ITERS 2000
#define CONF 0.95

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return xstrdup(t ? (const char *)t : "");
}

static sqlite3_stmt *prepare(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	return s;
}

/* Every (workload, run) of the study: runs that exist, plus workloads
 * whose builds all failed (they have no runs). */
static void load_items(struct store *st, const char *study, struct strlist *workloads,
		       struct strlist *runs)
{
	sqlite3_stmt *s = prepare(st,
		"SELECT DISTINCT workload, run FROM runs WHERE study=?1 AND run<>'@build' "
		"UNION SELECT DISTINCT workload, '' FROM builds WHERE study=?1 AND workload NOT IN "
		"(SELECT workload FROM runs WHERE study=?1 AND run<>'@build') ORDER BY 1, 2");
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		sl_push_owned(workloads, col_text(s, 0));
		sl_push_owned(runs, col_text(s, 1));
	}
	sqlite3_finalize(s);
}

static double *load_samples(struct store *st, const char *study, const char *config,
			    const char *workload, const char *run, const char *metric, size_t *n)
{
	sqlite3_stmt *s = prepare(st,
		"SELECT s.value FROM samples s JOIN runs r USING(study, config_id, workload, run, rep) "
		"WHERE s.study=? AND s.config_id=? AND s.workload=? AND s.run=? AND s.metric=? "
		"AND s.rep>=1 AND r.status='ok' ORDER BY s.rep");
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, config, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, metric, -1, SQLITE_STATIC);
	double *v = NULL;
	*n = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		v = xrealloc(v, (*n + 1) * sizeof(double));
		v[(*n)++] = sqlite3_column_double(s, 0);
	}
	sqlite3_finalize(s);
	/* size metrics live on the build (rep 0), one exact value */
	if (!*n) {
		s = prepare(st, "SELECT value FROM samples WHERE study=? AND config_id=? AND "
				"workload=? AND run='@build' AND rep=0 AND metric=?");
		sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, config, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, metric, -1, SQLITE_STATIC);
		if (str_starts_with(metric, "size.") && sqlite3_step(s) == SQLITE_ROW) {
			v = xrealloc(v, sizeof(double));
			v[(*n)++] = sqlite3_column_double(s, 0);
		}
		sqlite3_finalize(s);
	}
	return v;
}

/* The item's status: the build's if it failed, else the first failed
 * repetition's (warm-up included: it is the first output checked). */
static void item_status(struct store *st, const char *study, const char *config,
			struct rank_item *it)
{
	sqlite3_stmt *s = prepare(st, "SELECT status, detail FROM builds WHERE study=? AND "
				      "config_id=? AND workload=?");
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, config, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, it->workload, -1, SQLITE_STATIC);
	it->status = OUTCOME_NO_REFERENCE;
	int have_build = sqlite3_step(s) == SQLITE_ROW;
	if (have_build) {
		it->status = outcome_parse((const char *)sqlite3_column_text(s, 0));
		it->detail = col_text(s, 1);
	}
	sqlite3_finalize(s);
	if (!have_build) {
		it->status = OUTCOME_UNSUPPORTED;
		it->detail = xstrdup("not built");
		return;
	}
	if (it->status != OUTCOME_OK)
		return;
	s = prepare(st, "SELECT status, detail FROM runs WHERE study=? AND config_id=? AND "
			"workload=? AND run=? AND status<>'ok' ORDER BY rep LIMIT 1");
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, config, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, it->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, it->run, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		it->status = outcome_parse((const char *)sqlite3_column_text(s, 0));
		free(it->detail);
		it->detail = col_text(s, 1);
	}
	sqlite3_finalize(s);
}

static void load_configs(struct store *st, struct ranking *r)
{
	sqlite3_stmt *s = prepare(st,
		"SELECT id, label, cc, toolchain_version, cflags, ldflags, link, is_baseline "
		"FROM configs WHERE study=? ORDER BY ord");
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		r->configs = xrealloc(r->configs, (r->n + 1) * sizeof(*r->configs));
		struct rank_config *c = &r->configs[r->n++];
		memset(c, 0, sizeof(*c));
		c->id = col_text(s, 0);
		c->label = col_text(s, 1);
		c->cc = col_text(s, 2);
		c->toolchain = col_text(s, 3);
		c->cflags = col_text(s, 4);
		c->ldflags = col_text(s, 5);
		c->link = col_text(s, 6);
		c->is_baseline = sqlite3_column_int(s, 7);
		c->ratio = c->lo = c->hi = NAN;
	}
	sqlite3_finalize(s);
}

static void load_meta(struct store *st, struct ranking *r, const char *metric)
{
	sqlite3_stmt *s = prepare(st, "SELECT metric FROM studies WHERE name=?");
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	r->metric = metric ? xstrdup(metric)
			   : sqlite3_step(s) == SQLITE_ROW ? col_text(s, 0) : xstrdup("time");
	sqlite3_finalize(s);
	s = prepare(st, "SELECT unit FROM samples WHERE study=? AND metric=? LIMIT 1");
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, r->metric, -1, SQLITE_STATIC);
	r->unit = sqlite3_step(s) == SQLITE_ROW ? col_text(s, 0) : xstrdup("");
	sqlite3_finalize(s);
	s = prepare(st, "SELECT value FROM facts WHERE study=? AND key=?");
	char *key = xasprintf("higher_better.%s", r->metric);
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_STATIC);
	r->higher_better = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	free(key);
	s = prepare(st, "SELECT built, cached, failed FROM last_run WHERE study=?");
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	r->built = r->cached = r->failed = -1;
	if (sqlite3_step(s) == SQLITE_ROW) {
		r->built = sqlite3_column_int(s, 0);
		r->cached = sqlite3_column_int(s, 1);
		r->failed = sqlite3_column_int(s, 2);
	}
	sqlite3_finalize(s);
	s = prepare(st, "SELECT key || ': ' || value FROM facts WHERE study=? AND key LIKE 'meter.%' ORDER BY key");
	sqlite3_bind_text(s, 1, r->study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW)
		sl_push_owned(&r->facts, col_text(s, 0));
	sqlite3_finalize(s);
}

static void load_facts(struct store *st, const char *study, struct rank_config *c)
{
	sqlite3_stmt *s = prepare(st, "SELECT '[' || group_concat(facts, ',') || ']' FROM builds "
				      "WHERE study=? AND config_id=? AND facts<>'[]' AND facts<>'{}'");
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, c->id, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		c->facts = col_text(s, 0);
	sqlite3_finalize(s);
}

int ranking_compute(struct store *st, const char *study, const char *metric,
		    struct ranking *r, struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	r->study = xstrdup(study);
	load_meta(st, r, metric);
	load_configs(st, r);
	if (!r->n) {
		sb_addf(err, "%s: no study '%s' in this database (see flagscope report --help)",
			st->path, study);
		return -1;
	}
	struct strlist workloads = {0}, runs = {0};
	load_items(st, study, &workloads, &runs);
	int base = -1;
	for (size_t i = 0; i < r->n; i++)
		if (r->configs[i].is_baseline)
			base = (int)i;
	double **samples = xcalloc(r->n * (workloads.n ? workloads.n : 1), sizeof(double *));
	size_t *counts = xcalloc(r->n * (workloads.n ? workloads.n : 1), sizeof(size_t));
	struct rng rng;
	rng_seed(&rng, 20261202);
	for (size_t c = 0; c < r->n; c++) {
		struct rank_config *rc = &r->configs[c];
		rc->items = xcalloc(workloads.n ? workloads.n : 1, sizeof(*rc->items));
		rc->nitems = workloads.n;
		load_facts(st, study, rc);
		for (size_t w = 0; w < workloads.n; w++) {
			struct rank_item *it = &rc->items[w];
			it->workload = xstrdup(workloads.v[w]);
			it->run = xstrdup(runs.v[w]);
			it->name = *runs.v[w] ? xasprintf("%s/%s", workloads.v[w], runs.v[w])
					      : xstrdup(workloads.v[w]);
			it->ratio = it->lo = it->hi = it->median = NAN;
			item_status(st, study, rc->id, it);
			double *v = load_samples(st, study, rc->id, it->workload, it->run, r->metric,
						 &it->n);
			samples[c * workloads.n + w] = v;
			counts[c * workloads.n + w] = it->n;
			if (it->n)
				it->median = stats_median(v, it->n);
			if (it->status == OUTCOME_OK && !it->n) {
				it->status = OUTCOME_NO_REFERENCE;
				free(it->detail);
				it->detail = xasprintf("no samples of metric '%s'", r->metric);
			}
			if (it->status != OUTCOME_OK && rc->status == OUTCOME_OK) {
				rc->status = it->status;
				rc->detail = xasprintf("%s: %s", it->name, it->detail ? it->detail : "");
			}
		}
	}
	/* ratios against the baseline, per item and across items */
	for (size_t c = 0; c < r->n && base >= 0; c++) {
		struct rank_config *rc = &r->configs[c];
		struct sample_pair *pairs = xcalloc(workloads.n ? workloads.n : 1, sizeof(*pairs));
		size_t np = 0;
		int all_ok = rc->status == OUTCOME_OK;
		for (size_t w = 0; w < workloads.n; w++) {
			struct rank_item *it = &rc->items[w];
			struct rank_item *bi = &r->configs[base].items[w];
			double *a = samples[c * workloads.n + w], *b = samples[(size_t)base * workloads.n + w];
			size_t na = counts[c * workloads.n + w], nb = counts[(size_t)base * workloads.n + w];
			if (it->status != OUTCOME_OK || bi->status != OUTCOME_OK || !na || !nb) {
				all_ok = 0;
				continue;
			}
			if (stats_ratio_ci(a, na, b, nb, CONF, BOOT_ITERS, &rng, &it->ratio, &it->lo,
					   &it->hi)) {
				all_ok = 0;
				continue;
			}
			it->exact = it->lo == it->hi;
			pairs[np++] = (struct sample_pair){a, na, b, nb};
		}
		if (all_ok && np)
			stats_geomean_ratio(pairs, np, CONF, BOOT_ITERS, &rng, &rc->ratio, &rc->lo,
					    &rc->hi);
		free(pairs);
	}
	double *val = xcalloc(r->n, sizeof(double)), *lo = xcalloc(r->n, sizeof(double)),
	       *hi = xcalloc(r->n, sizeof(double));
	int *rank = xcalloc(r->n, sizeof(int));
	for (size_t c = 0; c < r->n; c++) {
		struct rank_config *rc = &r->configs[c];
		int ok = rc->status == OUTCOME_OK && !isnan(rc->ratio);
		/* bigger is better: rank on the inverse so lower stays better */
		val[c] = !ok ? NAN : r->higher_better ? 1 / rc->ratio : rc->ratio;
		lo[c] = r->higher_better ? 1 / rc->hi : rc->lo;
		hi[c] = r->higher_better ? 1 / rc->lo : rc->hi;
	}
	stats_shared_ranks(val, lo, hi, r->n, rank);
	for (size_t c = 0; c < r->n; c++)
		r->configs[c].rank = rank[c];
	free(val);
	free(lo);
	free(hi);
	free(rank);
	for (size_t i = 0; i < r->n * workloads.n; i++)
		free(samples[i]);
	free(samples);
	free(counts);
	sl_release(&workloads);
	sl_release(&runs);
	return 0;
}

void ranking_release(struct ranking *r)
{
	for (size_t c = 0; c < r->n; c++) {
		struct rank_config *rc = &r->configs[c];
		for (size_t w = 0; w < rc->nitems; w++) {
			free(rc->items[w].name);
			free(rc->items[w].workload);
			free(rc->items[w].run);
			free(rc->items[w].detail);
		}
		free(rc->items);
		free(rc->id);
		free(rc->label);
		free(rc->cc);
		free(rc->toolchain);
		free(rc->cflags);
		free(rc->ldflags);
		free(rc->link);
		free(rc->detail);
		free(rc->facts);
	}
	free(r->configs);
	free(r->study);
	free(r->metric);
	free(r->unit);
	sl_release(&r->facts);
	memset(r, 0, sizeof(*r));
}
