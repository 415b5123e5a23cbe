/* evalcache.c - see evalcache.h */
#include "search/evalcache.h"

#include "analysis/store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

void eval_result_release(struct eval_result *r)
{
	free(r->detail);
	free(r->batch);
	memset(r, 0, sizeof(*r));
}

void eval_result_baseline(struct eval_result *r)
{
	r->obj = 1.0;
	r->status = OUTCOME_OK;
	r->detail = xstrdup("the baseline");
	r->batch = xstrdup("");
}

/* Keep the first failed write's cause (the search stops on it). */
static int write_failed(struct evalcache *ec)
{
	if (!ec->why.len) {
		ec->code = sqlite3_extended_errcode(ec->db);
		ec->sys_errno = sqlite3_system_errno(ec->db);
		sb_add(&ec->why, sqlite3_errmsg(ec->db));
		if ((ec->code & 0xff) == SQLITE_IOERR && ec->sys_errno)
			sb_addf(&ec->why, ": %s", strerror(ec->sys_errno));
	}
	return -1;
}

/* Step a prepared write (NULL: its prepare failed) and finalize it. */
static int write_done(struct evalcache *ec, sqlite3_stmt *st)
{
	int ok = st && sqlite3_step(st) == SQLITE_DONE;
	if (!ok)
		write_failed(ec);
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

int evalcache_check(const struct evalcache *ec, struct strbuf *err)
{
	if (!ec->why.len)
		return 0;
	sb_addf(err, "%s: cannot store search results: %s (%s, then run the search again: it resumes)",
		ec->path, sb_str(&ec->why), store_hint(ec->code, ec->sys_errno));
	return -1;
}

int evalcache_open(struct evalcache *ec, const char *path, const char *context,
		   const char *description, struct strbuf *err)
{
	memset(ec, 0, sizeof(*ec));
	/* as the store's own lock: a link planted there is never followed */
	ec->lock_fd = store_open_lock_file(path, ".search.lock", err);
	if (ec->lock_fd < 0)
		return -1;
	if (flock(ec->lock_fd, LOCK_EX | LOCK_NB)) {
		sb_addf(err, "%s: another flagscope search uses it (wait for it, or use another --db)",
			path);
		close(ec->lock_fd);
		ec->lock_fd = -1;
		return -1;
	}
	/* the tables are the store's (analysis/store.c makes them) */
	if (store_open(&ec->store, path, 1, err)) {
		evalcache_close(ec);
		return -1;
	}
	ec->db = ec->store.db;
	ec->path = xstrdup(path);
	ec->context = xstrdup(context);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db, "INSERT OR REPLACE INTO search_contexts VALUES(?, ?)", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, context, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, description ? description : "", -1, SQLITE_TRANSIENT);
	}
	write_done(ec, st);
	if (evalcache_check(ec, err)) {
		evalcache_close(ec);
		return -1;
	}
	return 0;
}

void evalcache_close(struct evalcache *ec)
{
	store_close(&ec->store);
	if (ec->lock_fd > 0)
		close(ec->lock_fd);
	free(ec->path);
	free(ec->context);
	sb_release(&ec->why);
	memset(ec, 0, sizeof(*ec));
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return xstrdup(t ? (const char *)t : "");
}

/* The status column is the outcome's stored name; a name this flagscope
 * does not know (a newer one's) reads as a failure, never as ok. */
static enum outcome col_outcome(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	enum outcome o = outcome_parse(t ? (const char *)t : "");
	return o == OUTCOME_COUNT ? OUTCOME_RUN_FAILED : o;
}

/* A NULL objective column stands for INFINITY (SQLite stores no inf). */
static double col_obj(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? INFINITY : sqlite3_column_double(st, i);
}

static void bind_obj(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int evalcache_get(struct evalcache *ec, const char *flags, struct eval_result *res)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db,
			       "SELECT objective, status, detail, batch FROM search_evals "
			       "WHERE context = ? AND flags = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, ec->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, flags, -1, SQLITE_TRANSIENT);
	int found = sqlite3_step(st) == SQLITE_ROW;
	if (found) {
		res->obj = col_obj(st, 0);
		res->status = col_outcome(st, 1);
		res->detail = col_text(st, 2);
		res->batch = col_text(st, 3);
	}
	sqlite3_finalize(st);
	return found;
}

int evalcache_put(struct evalcache *ec, const char *flags, const struct eval_result *res)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db,
			       "INSERT OR REPLACE INTO search_evals VALUES(?, ?, ?, ?, ?, ?, "
			       "datetime('now'))",
			       -1, &st, NULL) != SQLITE_OK)
		return write_done(ec, NULL);
	sqlite3_bind_text(st, 1, ec->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, flags, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, outcome_name(res->status), -1, SQLITE_TRANSIENT);
	bind_obj(st, 4, res->obj);
	sqlite3_bind_text(st, 5, res->detail ? res->detail : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, res->batch ? res->batch : "", -1, SQLITE_TRANSIENT);
	return write_done(ec, st);
}

void evalcache_each(struct evalcache *ec, evalcache_fn fn, void *user)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db,
			       "SELECT flags, objective, status, detail, batch FROM search_evals "
			       "WHERE context = ? ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, ec->context, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct eval_result r = {
			.obj = col_obj(st, 1), .status = col_outcome(st, 2), .detail = col_text(st, 3),
			.batch = col_text(st, 4),
		};
		char *flags = col_text(st, 0);
		fn(user, flags, &r);
		free(flags);
		eval_result_release(&r);
	}
	sqlite3_finalize(st);
}

void search_row_release(struct search_row *r)
{
	free(r->strategy);
	free(r->best_flags);
	free(r->state);
	memset(r, 0, sizeof(*r));
}

int evalcache_search_load(struct evalcache *ec, const char *id, struct search_row *row)
{
	sqlite3_stmt *st;
	memset(row, 0, sizeof(*row));
	if (sqlite3_prepare_v2(ec->db,
			       "SELECT strategy, seed, evals, elapsed, best_flags, best_objective, "
			       "state FROM search_searches WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	int found = sqlite3_step(st) == SQLITE_ROW;
	if (found) {
		row->strategy = col_text(st, 0);
		row->seed = (uint64_t)sqlite3_column_int64(st, 1);
		row->evals = (size_t)sqlite3_column_int64(st, 2);
		row->elapsed = sqlite3_column_double(st, 3);
		row->best_flags = col_text(st, 4);
		row->best_obj = col_obj(st, 5);
		row->state = col_text(st, 6);
	}
	sqlite3_finalize(st);
	return found;
}

int evalcache_search_save(struct evalcache *ec, const char *id, const struct search_row *row)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db,
			       "INSERT OR REPLACE INTO search_searches VALUES(?, ?, ?, ?, ?, ?, ?, ?, "
			       "?, datetime('now'))",
			       -1, &st, NULL) != SQLITE_OK)
		return write_done(ec, NULL);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, ec->context, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, row->strategy ? row->strategy : "", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)row->seed);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)row->evals);
	sqlite3_bind_double(st, 6, row->elapsed);
	sqlite3_bind_text(st, 7, row->best_flags ? row->best_flags : "", -1, SQLITE_TRANSIENT);
	bind_obj(st, 8, row->best_obj);
	sqlite3_bind_text(st, 9, row->state ? row->state : "running", -1, SQLITE_TRANSIENT);
	return write_done(ec, st);
}

int evalcache_trace_put(struct evalcache *ec, const char *id, size_t seq, const char *flags,
			double obj)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db, "INSERT OR REPLACE INTO search_trace VALUES(?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return write_done(ec, NULL);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)seq);
	sqlite3_bind_text(st, 3, flags, -1, SQLITE_TRANSIENT);
	bind_obj(st, 4, obj);
	return write_done(ec, st);
}

void evalcache_trace_get(struct evalcache *ec, const char *id, char ***flags, double **obj,
			 size_t *n)
{
	sqlite3_stmt *st;
	*flags = NULL;
	*obj = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(ec->db,
			       "SELECT flags, objective FROM search_trace WHERE search = ? ORDER BY seq",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(st) == SQLITE_ROW) {
		*flags = xrealloc(*flags, (*n + 1) * sizeof(char *));
		*obj = xrealloc(*obj, (*n + 1) * sizeof(double));
		(*flags)[*n] = col_text(st, 0);
		(*obj)[*n] = col_obj(st, 1);
		(*n)++;
	}
	sqlite3_finalize(st);
}

void evalcache_probes_get(struct evalcache *ec, const char *toolchain, struct strlist *probed,
			  struct strlist *rejected)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db,
			       "SELECT flag, message FROM search_probes WHERE toolchain = ? ORDER BY flag",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, toolchain, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *flag = (const char *)sqlite3_column_text(st, 0);
		const char *msg = (const char *)sqlite3_column_text(st, 1);
		if (!flag)
			continue;
		sl_push(probed, flag);
		if (msg && *msg)
			sl_push_owned(rejected, xasprintf("%s: %s", flag, msg));
	}
	sqlite3_finalize(st);
}

int evalcache_probe_put(struct evalcache *ec, const char *toolchain, const char *flag,
			const char *message)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db, "INSERT OR REPLACE INTO search_probes VALUES(?, ?, ?)", -1,
			       &st, NULL) != SQLITE_OK)
		return write_done(ec, NULL);
	sqlite3_bind_text(st, 1, toolchain, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, flag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, message ? message : "", -1, SQLITE_TRANSIENT);
	return write_done(ec, st);
}

int evalcache_drops_get(struct evalcache *ec, const char *id, struct strlist *flags)
{
	sqlite3_stmt *st;
	int recorded = 0;
	if (sqlite3_prepare_v2(ec->db, "SELECT flag FROM search_drops WHERE search = ? ORDER BY flag",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *f = (const char *)sqlite3_column_text(st, 0);
		recorded = 1;
		if (f && *f)
			sl_push(flags, f);
	}
	sqlite3_finalize(st);
	return recorded;
}

int evalcache_drops_put(struct evalcache *ec, const char *id, const struct strlist *flags)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ec->db, "INSERT OR IGNORE INTO search_drops VALUES(?, ?)", -1, &st,
			       NULL) != SQLITE_OK)
		return write_done(ec, NULL);
	int rc = sqlite3_exec(ec->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
	/* "" marks the record as made, also when nothing was dropped */
	for (size_t i = 0; i <= flags->n && !rc; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, i < flags->n ? flags->v[i] : "", -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	if (!rc && sqlite3_exec(ec->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = -1;
	if (rc) {
		write_failed(ec);
		sqlite3_exec(ec->db, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_finalize(st);
	return rc;
}
