/* store_search.c - see store_search.h: the search_* tables' queries, so
 * that search/ keeps no SQL of its own (tests/check_sql_owner.sh). */
#include "analysis/store_search.h"
#include "analysis/store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A read: sql with its text parameters (b NULL: one only) bound; NULL
 * when it cannot be prepared (the read then finds nothing). */
static sqlite3_stmt *query(struct store *st, const char *sql, const char *a, const char *b)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(q, 1, a, -1, SQLITE_TRANSIENT);
	if (b)
		sqlite3_bind_text(q, 2, b, -1, SQLITE_TRANSIENT);
	return q;
}

/* A read of one row: the statement on it, or NULL (finalized) when there
 * is none. */
static sqlite3_stmt *one_row(struct store *st, const char *sql, const char *a, const char *b)
{
	sqlite3_stmt *q = query(st, sql, a, b);
	if (q && sqlite3_step(q) == SQLITE_ROW)
		return q;
	sqlite3_finalize(q);
	return NULL;
}

static char *col_text(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	return xstrdup(t ? (const char *)t : "");
}

/* The status column is the outcome's stored name; a name this flagscope
 * does not know (a newer one's) reads as a failure, never as ok. */
static enum outcome col_outcome(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	enum outcome o = outcome_parse(t ? (const char *)t : "");
	return o == OUTCOME_COUNT ? OUTCOME_RUN_FAILED : o;
}

/* A NULL objective column stands for INFINITY (SQLite stores no inf;
 * store_exec's 'o' writes it so). */
static double col_obj(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? INFINITY : sqlite3_column_double(q, i);
}

/* An evaluation from the columns objective, status, detail, batch at i.. */
static struct store_search_eval col_eval(sqlite3_stmt *q, int i)
{
	return (struct store_search_eval){.obj = col_obj(q, i), .status = col_outcome(q, i + 1),
					  .detail = col_text(q, i + 2), .batch = col_text(q, i + 3)};
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

int store_search_context_put(struct store *st, const char *context, const char *description)
{
	return store_exec(st, "INSERT OR REPLACE INTO search_contexts VALUES(?, ?)", "tt", context,
			  or_empty(description));
}

int store_search_eval_get(struct store *st, const char *context, const char *flags,
			  struct store_search_eval *e)
{
	sqlite3_stmt *q = one_row(st,
				  "SELECT objective, status, detail, batch FROM search_evals "
				  "WHERE context = ? AND flags = ?",
				  context, flags);
	if (!q)
		return 0;
	*e = col_eval(q, 0);
	sqlite3_finalize(q);
	return 1;
}

int store_search_eval_put(struct store *st, const char *context, const char *flags,
			  const struct store_search_eval *e)
{
	return store_exec(st,
			  "INSERT OR REPLACE INTO search_evals VALUES(?, ?, ?, ?, ?, ?, "
			  "datetime('now'))",
			  "tttott", context, flags, outcome_name(e->status), e->obj,
			  or_empty(e->detail), or_empty(e->batch));
}

void store_search_evals_each(struct store *st, const char *context, store_search_eval_fn fn,
			     void *user)
{
	sqlite3_stmt *q = query(st,
				"SELECT flags, objective, status, detail, batch FROM search_evals "
				"WHERE context = ? ORDER BY rowid",
				context, NULL);
	while (q && sqlite3_step(q) == SQLITE_ROW) {
		struct store_search_eval e = col_eval(q, 1);
		char *flags = col_text(q, 0);
		fn(user, flags, &e);
		free(flags);
		free(e.detail);
		free(e.batch);
	}
	sqlite3_finalize(q);
}

int store_search_row_get(struct store *st, const char *id, struct store_search_row *row)
{
	memset(row, 0, sizeof(*row));
	sqlite3_stmt *q = one_row(st,
				  "SELECT strategy, seed, evals, elapsed, best_flags, best_objective, "
				  "state FROM search_searches WHERE id = ?",
				  id, NULL);
	if (!q)
		return 0;
	row->strategy = col_text(q, 0);
	row->seed = (uint64_t)sqlite3_column_int64(q, 1);
	row->evals = (size_t)sqlite3_column_int64(q, 2);
	row->elapsed = sqlite3_column_double(q, 3);
	row->best_flags = col_text(q, 4);
	row->best_obj = col_obj(q, 5);
	row->state = col_text(q, 6);
	sqlite3_finalize(q);
	return 1;
}

int store_search_row_put(struct store *st, const char *id, const char *context,
			 const struct store_search_row *row)
{
	return store_exec(st,
			  "INSERT OR REPLACE INTO search_searches VALUES(?, ?, ?, ?, ?, ?, ?, ?, "
			  "?, datetime('now'))",
			  "tttIIdtot", id, context, or_empty(row->strategy), (sqlite3_int64)row->seed,
			  (sqlite3_int64)row->evals, row->elapsed, or_empty(row->best_flags),
			  row->best_obj, row->state ? row->state : "running");
}

int store_search_trace_add(struct store *st, const char *id, size_t seq, const char *flags,
			   double obj)
{
	return store_exec(st, "INSERT OR REPLACE INTO search_trace VALUES(?, ?, ?, ?)", "tIto", id,
			  (sqlite3_int64)seq, flags, obj);
}

void store_search_trace_get(struct store *st, const char *id, char ***flags, double **obj,
			    size_t *n)
{
	*flags = NULL;
	*obj = NULL;
	*n = 0;
	sqlite3_stmt *q = query(
		st, "SELECT flags, objective FROM search_trace WHERE search = ? ORDER BY seq", id,
		NULL);
	while (q && sqlite3_step(q) == SQLITE_ROW) {
		*flags = xrealloc(*flags, (*n + 1) * sizeof(char *));
		*obj = xrealloc(*obj, (*n + 1) * sizeof(double));
		(*flags)[*n] = col_text(q, 0);
		(*obj)[*n] = col_obj(q, 1);
		(*n)++;
	}
	sqlite3_finalize(q);
}

void store_search_probes_get(struct store *st, const char *toolchain, struct strlist *probed,
			     struct strlist *rejected)
{
	sqlite3_stmt *q = query(
		st, "SELECT flag, message FROM search_probes WHERE toolchain = ? ORDER BY flag",
		toolchain, NULL);
	while (q && sqlite3_step(q) == SQLITE_ROW) {
		const char *flag = (const char *)sqlite3_column_text(q, 0);
		const char *msg = (const char *)sqlite3_column_text(q, 1);
		if (!flag)
			continue;
		sl_push(probed, flag);
		if (msg && *msg)
			sl_push_owned(rejected, xasprintf("%s: %s", flag, msg));
	}
	sqlite3_finalize(q);
}

int store_search_probe_put(struct store *st, const char *toolchain, const char *flag,
			   const char *message)
{
	return store_exec(st, "INSERT OR REPLACE INTO search_probes VALUES(?, ?, ?)", "ttt",
			  toolchain, flag, or_empty(message));
}

int store_search_drops_get(struct store *st, const char *id, struct strlist *flags)
{
	int recorded = 0;
	sqlite3_stmt *q =
		query(st, "SELECT flag FROM search_drops WHERE search = ? ORDER BY flag", id, NULL);
	while (q && sqlite3_step(q) == SQLITE_ROW) {
		const char *f = (const char *)sqlite3_column_text(q, 0);
		recorded = 1;
		if (f && *f)
			sl_push(flags, f);
	}
	sqlite3_finalize(q);
	return recorded;
}

int store_search_drops_put(struct store *st, const char *id, const struct strlist *flags)
{
	int rc = store_begin(st);
	/* "" marks the record as made, also when nothing was dropped */
	for (size_t i = 0; i <= flags->n && !rc; i++)
		rc = store_exec(st, "INSERT OR IGNORE INTO search_drops VALUES(?, ?)", "tt", id,
				i < flags->n ? flags->v[i] : "");
	return store_end(st, rc);
}
