/* merge.c - see merge.h */
#include "analysis/merge.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int shard_parse(const char *text, int *i, int *n, struct strbuf *err)
{
	char *end;
	long a = strtol(text, &end, 10);
	long b = -1;
	if (end != text && *end == '/') {
		const char *p = end + 1;
		b = strtol(p, &end, 10);
		if (end == p)
			b = -1;
	}
	if (b < 1 || *end || a < 0 || a >= b || b > 1000000) {
		sb_addf(err, "shard '%s' is not I/N with 0 <= I < N, e.g. 0/4 ... 3/4", text);
		return -1;
	}
	*i = (int)a;
	*n = (int)b;
	return 0;
}

static void add_ident(struct strbuf *sb, const char *name)
{
	sb_addc(sb, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"')
			sb_addc(sb, '"');
		sb_addc(sb, *p);
	}
	sb_addc(sb, '"');
}

static int has_table(sqlite3 *db, const char *schema, const char *table)
{
	struct strbuf sql = {0};
	sb_addf(&sql, "SELECT 1 FROM %s.sqlite_master WHERE type = 'table' AND name = ?", schema);
	sqlite3_stmt *st;
	int found = 0;
	if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	sb_release(&sql);
	return found;
}

int merge_signature(const char *path, struct strbuf *sig, struct strbuf *err)
{
	sqlite3 *db = NULL;
	if (!file_exists(path) ||
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sb_addf(err, "%s: cannot open it (%s)", path, db ? sqlite3_errmsg(db) : "no such file");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 10000);
	if (!has_table(db, "main", "studies") || !has_table(db, "main", "configs")) {
		sb_addf(err, "%s: not a flagscope results database (no studies or configs table)",
			path);
		sqlite3_close(db);
		return -1;
	}
	sqlite3_stmt *st;
	const char *sql = "SELECT s.name, c.id FROM studies s LEFT JOIN configs c ON c.study = s.name "
			  "ORDER BY s.name, c.id";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		sb_addf(err, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	struct strbuf last = {0};
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *id = (const char *)sqlite3_column_text(st, 1);
		if (!last.len || strcmp(last.buf, name)) {
			sb_addf(sig, "%sstudy %s:", sig->len ? "\n" : "", name);
			last.len = 0;
			sb_add(&last, name);
		}
		if (id)
			sb_addf(sig, " %s", id);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	sb_release(&last);
	return 0;
}

/* The rows of sql, a query over table, each its ncols columns joined by
 * tabs; none when the database at path has no such table */
static int query_rows(const char *path, const char *table, const char *sql, int ncols,
		      struct strlist *rows, struct strbuf *err)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sb_addf(err, "%s: cannot open it (%s)", path, db ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 10000);
	sqlite3_stmt *st;
	int rc = 0;
	if (has_table(db, "main", table)) {
		rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK ? 0 : -1;
		while (!rc && sqlite3_step(st) == SQLITE_ROW) {
			struct strbuf row = {0};
			for (int i = 0; i < ncols; i++) {
				const unsigned char *v = sqlite3_column_text(st, i);
				sb_addf(&row, "%s%s", i ? "\t" : "", v ? (const char *)v : "");
			}
			sl_push_owned(rows, sb_detach(&row));
		}
		if (rc)
			sb_addf(err, "%s: %s", path, sqlite3_errmsg(db));
		else
			sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return rc;
}

int merge_machine(const char *path, struct strlist *rows, struct strbuf *err)
{
	return query_rows(path, "machine", "SELECT study, key, value FROM machine ORDER BY study, ord",
			  3, rows, err);
}

int merge_fact_values(const char *path, const char *key, struct strlist *values,
		      struct strbuf *err)
{
	char *sql = sqlite3_mprintf("SELECT DISTINCT value FROM facts WHERE key = %Q ORDER BY 1", key);
	int rc = query_rows(path, "facts", sql, 1, values, err);
	sqlite3_free(sql);
	return rc;
}

/* ---- one table ---- */

/* Columns that say how a row came about, not what it is. */
static const struct {
	const char *table, *columns;
} not_compared[] = {
	{"studies", " path updated "},
	{"builds", " seconds cached detail facts "},
	{"runs", " detail "},
	/* each shard's machine state: the first database's is kept */
	{"machine", " ord value "},
};

/* Rows whose values are each shard's own, never a conflict (the first
 * merged is kept) */
static const struct {
	const char *table, *where;
} own_rows[] = {
	/* where a shard kept its build logs (run --logs): merge --logs reads
	 * every shard's folder, then records its own */
	{"facts", "s.key = 'build_logs'"},
};

static int compared(const char *table, const char *column)
{
	for (size_t i = 0; i < ARRAY_SIZE(not_compared); i++)
		if (!strcmp(table, not_compared[i].table)) {
			char *word = xasprintf(" %s ", column);
			int skip = strstr(not_compared[i].columns, word) != NULL;
			free(word);
			return !skip;
		}
	return 1;
}

/* Column names of schema.table; pk[i] set when the column is in the key. */
static void table_columns(sqlite3 *db, const char *schema, const char *table,
			  struct strlist *cols, struct strlist *pk)
{
	struct strbuf sql = {0};
	sb_addf(&sql, "PRAGMA %s.table_info(", schema);
	add_ident(&sql, table);
	sb_addc(&sql, ')');
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 1);
			sl_push(cols, name);
			if (pk && sqlite3_column_int(st, 5) > 0)
				sl_push(pk, name);
		}
		sqlite3_finalize(st);
	}
	sb_release(&sql);
}

static void add_list(struct strbuf *sql, const char *prefix, const struct strlist *cols)
{
	for (size_t i = 0; i < cols->n; i++) {
		if (i)
			sb_add(sql, ", ");
		sb_add(sql, prefix);
		add_ident(sql, cols->v[i]);
	}
}

static long count_rows(sqlite3 *db, const char *schema, const char *table)
{
	struct strbuf sql = {0};
	sb_addf(&sql, "SELECT count(*) FROM %s.", schema);
	add_ident(&sql, table);
	sqlite3_stmt *st;
	long n = 0;
	if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sb_release(&sql);
	return n;
}

static void short_value(struct strbuf *sb, const unsigned char *v)
{
	if (!v) {
		sb_add(sb, "NULL");
		return;
	}
	size_t n = strlen((const char *)v);
	sb_addf(sb, "'%.*s%s'", n > 40 ? 40 : (int)n, (const char *)v, n > 40 ? "..." : "");
}

/* Rows of src.table whose key main has with other values. */
static int find_conflicts(sqlite3 *db, const char *table, const struct strlist *pk,
			  const struct strlist *cmp, struct merge_report *rep)
{
	if (!cmp->n)
		return 0;
	struct strbuf sql = {0};
	sb_add(&sql, "SELECT ");
	add_list(&sql, "s.", pk);
	sb_add(&sql, ", ");
	add_list(&sql, "s.", cmp);
	sb_add(&sql, ", ");
	add_list(&sql, "m.", cmp);
	sb_add(&sql, " FROM src.");
	add_ident(&sql, table);
	sb_add(&sql, " s JOIN main.");
	add_ident(&sql, table);
	sb_add(&sql, " m ON ");
	for (size_t i = 0; i < pk->n; i++) {
		sb_add(&sql, i ? " AND s." : "s.");
		add_ident(&sql, pk->v[i]);
		sb_add(&sql, " IS m.");
		add_ident(&sql, pk->v[i]);
	}
	sb_add(&sql, " WHERE ");
	sb_addc(&sql, '(');
	for (size_t i = 0; i < cmp->n; i++) {
		sb_add(&sql, i ? " OR s." : "s.");
		add_ident(&sql, cmp->v[i]);
		sb_add(&sql, " IS NOT m.");
		add_ident(&sql, cmp->v[i]);
	}
	sb_addc(&sql, ')');
	for (size_t i = 0; i < ARRAY_SIZE(own_rows); i++)
		if (!strcmp(table, own_rows[i].table))
			sb_addf(&sql, " AND NOT (%s)", own_rows[i].where);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) == SQLITE_OK ? 0 : -1;
	sb_release(&sql);
	if (rc)
		return -1;
	int k = (int)pk->n, c = (int)cmp->n;
	while (sqlite3_step(st) == SQLITE_ROW) {
		rep->conflicts++;
		if (rep->lines.n >= MERGE_MAX_LINES)
			continue;
		struct strbuf line = {0};
		sb_addf(&line, "%s (", table);
		for (int i = 0; i < k; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			sb_addf(&line, "%s%s", i ? ", " : "", v ? (const char *)v : "NULL");
		}
		sb_add(&line, ")");
		for (int i = 0; i < c; i++) {
			const unsigned char *in = sqlite3_column_text(st, k + i);
			const unsigned char *kept = sqlite3_column_text(st, k + c + i);
			if ((!in) != (!kept) || (in && strcmp((const char *)in, (const char *)kept))) {
				sb_addf(&line, ": %s ", cmp->v[i]);
				short_value(&line, kept);
				sb_add(&line, " kept, ");
				short_value(&line, in);
				sb_add(&line, " dropped");
				break;
			}
		}
		sl_push_owned(&rep->lines, sb_detach(&line));
	}
	sqlite3_finalize(st);
	return 0;
}

static int exec_sql(sqlite3 *db, const char *sql, struct strbuf *err)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	sb_addf(err, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* The output has every table of the known schema (store_open made them):
 * a shard's rows go into those, never into a table its own schema text
 * describes. */
static int merge_table(sqlite3 *db, const char *table, struct merge_report *rep,
		       struct strbuf *err)
{
	struct strlist src_cols = {0}, main_cols = {0}, pk = {0}, cols = {0}, cmp = {0};
	table_columns(db, "src", table, &src_cols, NULL);
	table_columns(db, "main", table, &main_cols, &pk);
	for (size_t i = 0; i < src_cols.n; i++)
		if (sl_find(&main_cols, src_cols.v[i]) >= 0)
			sl_push(&cols, src_cols.v[i]);
	int keyed = pk.n > 0;
	for (size_t i = 0; i < pk.n; i++)
		keyed = keyed && sl_find(&cols, pk.v[i]) >= 0;
	for (size_t i = 0; i < cols.n; i++)
		if (sl_find(&pk, cols.v[i]) < 0 && compared(table, cols.v[i]))
			sl_push(&cmp, cols.v[i]);
	long before = rep->conflicts, n_src = count_rows(db, "src", table);
	int rc = keyed ? find_conflicts(db, table, &pk, &cmp, rep) : 0;
	struct strbuf sql = {0};
	sb_add(&sql, keyed ? "INSERT OR IGNORE INTO main." : "INSERT INTO main.");
	add_ident(&sql, table);
	sb_addc(&sql, '(');
	add_list(&sql, "", &cols);
	sb_add(&sql, ") SELECT ");
	add_list(&sql, "", &cols);
	sb_add(&sql, " FROM src.");
	add_ident(&sql, table);
	if (!keyed) {
		/* no key: a row is a duplicate only when every value is equal */
		sb_add(&sql, " EXCEPT SELECT ");
		add_list(&sql, "", &cols);
		sb_add(&sql, " FROM main.");
		add_ident(&sql, table);
	}
	if (!rc && cols.n && !exec_sql(db, sql.buf, err)) {
		long added = sqlite3_changes(db);
		rep->added += added;
		rep->duplicates += n_src - added - (rep->conflicts - before);
	} else if (!rc && cols.n) {
		rc = -1;
	}
	if (rc && !err->len)
		sb_addf(err, "table %s: %s", table, sqlite3_errmsg(db));
	sb_release(&sql);
	sl_release(&src_cols);
	sl_release(&main_cols);
	sl_release(&pk);
	sl_release(&cols);
	sl_release(&cmp);
	return rc;
}

/* last_run as `run` counts it, from the merged builds */
static int recount_last_run(sqlite3 *db, struct strbuf *err)
{
	int src_has = has_table(db, "src", "last_run");
	struct strbuf sql = {0};
	sb_add(&sql,
	       "INSERT OR REPLACE INTO main.last_run(study, built, cached, failed, finished) "
	       "SELECT s.name,"
	       " (SELECT count(*) FROM main.builds b WHERE b.study = s.name AND outcome_ranked(b.status)"
	       "   AND b.cached = 0 AND b.seconds > 0),"
	       " (SELECT count(*) FROM main.builds b WHERE b.study = s.name AND outcome_ranked(b.status)"
	       "   AND b.cached = 1),"
	       " (SELECT count(*) FROM main.builds b WHERE b.study = s.name AND NOT outcome_ranked(b.status)),"
	       " max(coalesce((SELECT finished FROM main.last_run l WHERE l.study = s.name), '')");
	if (src_has)
		sb_add(&sql, ", coalesce((SELECT finished FROM src.last_run l WHERE l.study = s.name), '')");
	sb_add(&sql, ", '') FROM main.studies s");
	int rc = exec_sql(db, sql.buf, err);
	sb_release(&sql);
	return rc;
}

/* The tables of a fresh results database: the only ones merge takes. */
static int known_tables(struct strlist *names, struct strbuf *err)
{
	struct store fresh;
	if (store_open(&fresh, ":memory:", 1, err))
		return -1;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(fresh.db,
				    "SELECT name FROM sqlite_master WHERE type = 'table'"
				    " AND name NOT LIKE 'sqlite_%'",
				    -1, &st, NULL) == SQLITE_OK
			 ? 0
			 : -1;
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		sl_push(names, (const char *)sqlite3_column_text(st, 0));
	if (!rc)
		sqlite3_finalize(st);
	else
		sb_add(err, sqlite3_errmsg(fresh.db));
	store_close(&fresh);
	return rc;
}

/* The shard's tables, in name order, when each is one of the known
 * schema's, as a plain table, and the shard has no views or triggers
 * (flagscope makes none): a database's schema is text its writer chose,
 * and a crafted one is refused here rather than trusted. */
static int src_tables(sqlite3 *db, struct strlist *names, struct strbuf *err)
{
	struct strlist known = {0};
	if (known_tables(&known, err))
		return -1;
	sqlite3_stmt *st = NULL;
	const char *list = "SELECT type, name, coalesce(sql, '') FROM src.sqlite_master"
			   " WHERE name NOT LIKE 'sqlite_%' AND type <> 'index' ORDER BY name";
	int rc = sqlite3_prepare_v2(db, list, -1, &st, NULL) == SQLITE_OK ? 0 : -1;
	if (rc)
		sb_add(err, sqlite3_errmsg(db));
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *sql = (const char *)sqlite3_column_text(st, 2);
		if (strcmp(type, "table") || sl_find(&known, name) < 0 ||
		    strncasecmp(sql, "CREATE TABLE", 12)) {
			sb_addf(err, "its %s '%s' is not one flagscope makes (merge takes only the "
				     "tables of flagscope's own schema; this database was not "
				     "written by flagscope)",
				type, name);
			rc = -1;
		} else {
			sl_push(names, name);
		}
	}
	if (st)
		sqlite3_finalize(st);
	sl_release(&known);
	return rc;
}

int merge_database(struct store *out, const char *in_path, struct merge_report *rep,
		   struct strbuf *err)
{
	sqlite3 *db = out->db;
	sqlite3_stmt *st;
	/* no function or virtual table named in a shard's schema runs */
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	if (sqlite3_prepare_v2(db, "ATTACH DATABASE ? AS src", -1, &st, NULL) != SQLITE_OK) {
		sb_addf(err, "%s: %s", in_path, sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_text(st, 1, in_path, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	if (rc) {
		sb_addf(err, "%s: cannot read it: %s", in_path, sqlite3_errmsg(db));
		return -1;
	}
	struct strbuf why = {0};
	struct merge_report mine = {0};
	rc = exec_sql(db, "BEGIN IMMEDIATE", &why);
	struct strlist names = {0};
	if (!rc)
		rc = src_tables(db, &names, &why);
	if (!rc) {
		for (size_t i = 0; i < names.n && !rc; i++)
			if (strcmp(names.v[i], "last_run"))
				rc = merge_table(db, names.v[i], &mine, &why);
		if (!rc)
			rc = recount_last_run(db, &why);
		/* a database of an older flagscope brought its old rows along */
		if (!rc && store_migrate(out)) {
			sb_add(&why, store_errmsg(out));
			rc = -1;
		}
	}
	sl_release(&names);
	if (!rc)
		rc = exec_sql(db, "COMMIT", &why);
	if (rc) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sb_addf(err, "%s: cannot merge it: %s", in_path, sb_str(&why));
	} else {
		rep->added += mine.added;
		rep->duplicates += mine.duplicates;
		rep->conflicts += mine.conflicts;
		for (size_t i = 0; i < mine.lines.n && rep->lines.n < MERGE_MAX_LINES; i++)
			sl_push(&rep->lines, mine.lines.v[i]);
	}
	merge_report_release(&mine);
	sb_release(&why);
	sqlite3_exec(db, "DETACH DATABASE src", NULL, NULL, NULL);
	return rc;
}

void merge_report_release(struct merge_report *r)
{
	sl_release(&r->lines);
	memset(r, 0, sizeof(*r));
}
