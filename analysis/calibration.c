/* calibration.c - see calibration.h */
#include "analysis/calibration.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

static double log_ratio(const double *a, size_t na, const double *b, size_t nb)
{
	double ma = stats_median(a, na), mb = stats_median(b, nb);
	return ma > 0 && mb > 0 ? fabs(log(ma / mb)) : NAN;
}

/* The noise of one binary at `half` runs a side: the splits of the pooled
 * runs are A/A pairs by construction, so their 95th percentile is what an
 * A/A comparison of that size shows without any layout change. */
static double split_noise(const double *pool, size_t n, size_t half, uint64_t seed)
{
	double *v = xcalloc(n, sizeof(*v)), *d = xcalloc(CALIB_SPLITS, sizeof(*d));
	struct rng r;
	rng_seed(&r, seed);
	size_t k = 0;
	memcpy(v, pool, n * sizeof(*v));
	for (size_t s = 0; s < CALIB_SPLITS; s++) {
		/* a partial Fisher-Yates shuffle picks the first 2 x half */
		for (size_t i = 0; i < 2 * half; i++) {
			size_t j = i + (size_t)rng_below(&r, n - i);
			double t = v[i];
			v[i] = v[j];
			v[j] = t;
		}
		double x = log_ratio(v, half, v + half, half);
		if (!isnan(x))
			d[k++] = x;
	}
	double q = k ? stats_quantile(d, k, CALIB_QUANTILE) : NAN;
	free(v);
	free(d);
	return q;
}

/* The relative interquartile range: how far one binary's runs scatter. */
static double rel_iqr(const double *x, size_t n)
{
	double m = stats_median(x, n);
	if (n < 2 || !(m > 0))
		return NAN;
	return (stats_quantile(x, n, 0.75) - stats_quantile(x, n, 0.25)) / m;
}

int calibration_compute(const struct calib_input *in, uint64_t seed, struct calib_row *row)
{
	size_t nb = in->base.n, nc = in->copy.n;
	if (nb < 2 || nc < 2)
		return -1;
	size_t half = nb < nc ? nb : nc;
	double *pool = xcalloc(nb + nc, sizeof(*pool));
	memcpy(pool, in->base.v, nb * sizeof(*pool));
	memcpy(pool + nb, in->copy.v, nc * sizeof(*pool));
	row->noise = split_noise(pool, nb + nc, half, seed);

	/* every two builds: with k builds the largest of k(k-1)/2 layout
	 * differences, the tail a study's few variants can land in */
	size_t nbuilds = 2 + in->nvariants;
	const struct calib_samples **all = xcalloc(nbuilds, sizeof(*all));
	all[0] = &in->base;
	all[1] = &in->copy;
	for (size_t i = 0; i < in->nvariants; i++)
		all[2 + i] = &in->variants[i];
	double layout = 0;
	for (size_t i = 0; i < nbuilds; i++)
		for (size_t j = i + 1; j < nbuilds; j++) {
			if (!all[i]->n || !all[j]->n)
				continue;
			double x = log_ratio(all[i]->v, all[i]->n, all[j]->v, all[j]->n);
			if (x > layout)
				layout = x;
		}
	row->layout = layout;
	double worst = isnan(row->noise) || layout > row->noise ? layout : row->noise;
	row->floor = exp(worst) - 1;
	row->spread = rel_iqr(pool, nb + nc);
	double off = stats_median(in->aslr_off.v, in->aslr_off.n), on = stats_median(pool, nb + nc);
	row->aslr = in->aslr_off.n && off > 0 && on > 0 ? log(off / on) : NAN;
	row->env = in->aslr_off.n ? rel_iqr(in->aslr_off.v, in->aslr_off.n) : NAN;
	row->runs = (int)half;
	row->builds = (int)nbuilds;
	free(all);
	free(pool);
	return 0;
}

void calib_row_release(struct calib_row *row)
{
	free(row->item);
	free(row->metric);
	memset(row, 0, sizeof(*row));
}

int calibration_machine_id(struct store *st, const char *study, char id[17], char **label)
{
	struct strlist keys = {0}, values = {0};
	store_get_machine(st, study, &keys, &values);
	int ci = sl_find(&keys, "cpu"), ni = sl_find(&keys, "cores"), vi = sl_find(&keys, "vm");
	int rc = -1;
	*label = NULL;
	id[0] = '\0';
	if (ci >= 0) {
		/* what makes the same program time the same: the CPU, how many
		 * share the work, and a hypervisor between; not the kernel, the
		 * load or the date */
		char *text = xasprintf("cpu=%s\ncores=%s\nvm=%s\n", values.v[ci],
				       ni >= 0 ? values.v[ni] : "", vi >= 0 ? values.v[vi] : "");
		char hex[65];
		sha256_hex(text, strlen(text), hex);
		memcpy(id, hex, 16);
		id[16] = '\0';
		*label = xstrdup(values.v[ci]);
		free(text);
		rc = 0;
	}
	sl_release(&keys);
	sl_release(&values);
	return rc;
}

static int exec_sql(struct store *st, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc == SQLITE_DONE)
		return 0;
	sb_release(&st->why);
	sb_addf(&st->why, "%s", sqlite3_errmsg(st->db));
	return -1;
}

static void bind_figure(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

int calibration_store(struct store *st, const char *id, const char *label, const char *study,
		      const struct calib_row *rows, size_t n)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	int rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
	if (!rc &&
	    (sqlite3_prepare_v2(st->db, "DELETE FROM calibrations WHERE machine=? AND metric=?", -1,
				&del, NULL) != SQLITE_OK ||
	     sqlite3_prepare_v2(st->db,
				"INSERT INTO calibrations(machine, cpu, item, metric, floor, noise,"
				" layout, aslr, env, spread, runs, builds, study, stored) VALUES"
				"(?,?,?,?,?,?,?,?,?,?,?,?,?,datetime('now'))",
				-1, &ins, NULL) != SQLITE_OK))
		rc = -1;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!i || strcmp(rows[i].metric, rows[i - 1].metric)) {
			sqlite3_bind_text(del, 1, id, -1, SQLITE_STATIC);
			sqlite3_bind_text(del, 2, rows[i].metric, -1, SQLITE_STATIC);
			if ((rc = exec_sql(st, del)))
				break;
		}
		const struct calib_row *r = &rows[i];
		sqlite3_bind_text(ins, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, label, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, r->item, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, r->metric, -1, SQLITE_STATIC);
		bind_figure(ins, 5, r->floor);
		bind_figure(ins, 6, r->noise);
		bind_figure(ins, 7, r->layout);
		bind_figure(ins, 8, r->aslr);
		bind_figure(ins, 9, r->env);
		bind_figure(ins, 10, r->spread);
		sqlite3_bind_int(ins, 11, r->runs);
		sqlite3_bind_int(ins, 12, r->builds);
		sqlite3_bind_text(ins, 13, study, -1, SQLITE_STATIC);
		rc = exec_sql(st, ins);
	}
	if (rc && !st->why.len)
		sb_addf(&st->why, "%s", sqlite3_errmsg(st->db));
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	if (!rc && sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	if (!st->why.len)
		sb_addf(&st->why, "%s", sqlite3_errmsg(st->db));
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

void calibration_floors_load(struct store *st, const char *study, const char *metric,
			     struct calib_floors *f)
{
	memset(f, 0, sizeof(*f));
	if (calibration_machine_id(st, study, f->id, &f->label))
		return;
	sqlite3_stmt *s = NULL;
	/* a database from before the table has none: no calibration */
	if (sqlite3_prepare_v2(st->db,
			       "SELECT item, floor FROM calibrations WHERE machine=? AND metric=?"
			       " AND floor IS NOT NULL ORDER BY item",
			       -1, &s, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return;
	}
	sqlite3_bind_text(s, 1, f->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, metric, -1, SQLITE_STATIC);
	size_t cap = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (f->n == cap) {
			cap = cap ? 2 * cap : 8;
			f->floor = xrealloc(f->floor, cap * sizeof(*f->floor));
		}
		sl_push(&f->items, (const char *)sqlite3_column_text(s, 0));
		f->floor[f->n++] = sqlite3_column_double(s, 1);
	}
	sqlite3_finalize(s);
}

double calib_floors_get(const struct calib_floors *f, const char *item)
{
	int i = f && item ? sl_find(&f->items, item) : -1;
	return i >= 0 ? f->floor[i] : NAN;
}

void calib_floors_release(struct calib_floors *f)
{
	free(f->label);
	sl_release(&f->items);
	free(f->floor);
	memset(f, 0, sizeof(*f));
}
