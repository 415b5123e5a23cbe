/* store_baseline.c - see store.h: named baselines, a study's rows kept
 * under another name (flagscope baseline). */
#include "analysis/store.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/store_internal.h"

/* The tables a study's rows live in, and the column naming the study */
static const struct {
	const char *table, *key;
} study_tables[] = {
	{"studies", "name"}, {"configs", "study"}, {"builds", "study"},
	{"build_sizes", "study"}, {"runs", "study"}, {"samples", "study"},
	{"last_run", "study"}, {"facts", "study"}, {"machine", "study"},
};

/* Copy the rows of study `from` in one table as study `to`: the column
 * list is read from the table, so a column added later is copied too. */
static int copy_study_rows(struct store *st, const char *table, const char *key,
			   const char *from, const char *to)
{
	char *q = xasprintf("SELECT name FROM pragma_table_info('%s') ORDER BY cid", table);
	sqlite3_stmt *s;
	struct strbuf cols = {0}, sel = {0};
	if (sqlite3_prepare_v2(st->db, q, -1, &s, NULL) == SQLITE_OK) {
		while (sqlite3_step(s) == SQLITE_ROW) {
			const char *c = (const char *)sqlite3_column_text(s, 0);
			sb_addf(&cols, "%s%s", cols.len ? "," : "", c);
			sb_addf(&sel, "%s%s", sel.len ? "," : "", strcmp(c, key) ? c : "?1");
		}
		sqlite3_finalize(s);
	}
	free(q);
	char *del = xasprintf("DELETE FROM %s WHERE %s=?", table, key);
	char *ins = xasprintf("INSERT INTO %s(%s) SELECT %s FROM %s WHERE %s=?2", table,
			      sb_str(&cols), sb_str(&sel), table, key);
	int rc = store_exec(st, del, "t", to);
	if (!rc)
		rc = store_exec(st, ins, "tt", to, from);
	free(del);
	free(ins);
	sb_release(&cols);
	sb_release(&sel);
	return rc;
}

static int count_runs(struct store *st, const char *study)
{
	sqlite3_stmt *s;
	int n = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM runs WHERE study=? AND rep>=1", -1,
			       &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

int store_baseline_save(struct store *st, const char *name, const char *study, int clear,
			int *replaced)
{
	*replaced = 0;
	if (!count_runs(st, study))
		return 1;
	char *to = xasprintf(STORE_BASELINE_PREFIX "%s", name);
	*replaced = store_baseline_exists(st, name);
	int rc = store_begin(st);
	for (size_t i = 0; i < ARRAY_SIZE(study_tables) && !rc; i++)
		rc = copy_study_rows(st, study_tables[i].table, study_tables[i].key, study, to);
	if (!rc)
		rc = store_exec(st, "INSERT OR REPLACE INTO baselines VALUES(?,?,datetime('now'))",
				"tt", name, study);
	if (!rc && clear)
		rc = store_exec(st, "DELETE FROM samples WHERE study=?", "t", study);
	if (!rc && clear)
		rc = store_exec(st, "DELETE FROM runs WHERE study=?", "t", study);
	free(to);
	return store_end(st, rc);
}

int store_baseline_exists(struct store *st, const char *name)
{
	size_t n;
	int found = 0;
	struct store_baseline *b = store_baselines(st, &n);
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(b[i].name, name);
	store_baselines_free(b, n);
	return found;
}

int store_baseline_delete(struct store *st, const char *name)
{
	char *study = xasprintf(STORE_BASELINE_PREFIX "%s", name);
	int found = store_baseline_exists(st, name);
	int rc = found ? store_begin(st) : 0;
	for (size_t i = 0; found && i < ARRAY_SIZE(study_tables) && !rc; i++) {
		char *sql = xasprintf("DELETE FROM %s WHERE %s=?", study_tables[i].table,
				      study_tables[i].key);
		rc = store_exec(st, sql, "t", study);
		free(sql);
	}
	if (found && !rc)
		rc = store_exec(st, "DELETE FROM baselines WHERE name=?", "t", name);
	free(study);
	if (!found)
		return 1;
	return store_end(st, rc);
}

struct store_baseline *store_baselines(struct store *st, size_t *n)
{
	sqlite3_stmt *s;
	struct store_baseline *v = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT name, study, saved, (SELECT count(*) FROM runs WHERE "
			       "runs.study='" STORE_BASELINE_PREFIX "' || name AND rep>=1) "
			       "FROM baselines ORDER BY saved, rowid",
			       -1, &s, NULL) != SQLITE_OK)
		return NULL;
	while (sqlite3_step(s) == SQLITE_ROW) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[*n] = (struct store_baseline){
			.name = xstrdup((const char *)sqlite3_column_text(s, 0)),
			.study = xstrdup((const char *)sqlite3_column_text(s, 1)),
			.saved = xstrdup((const char *)sqlite3_column_text(s, 2)),
			.runs = sqlite3_column_int(s, 3),
		};
		(*n)++;
	}
	sqlite3_finalize(s);
	return v;
}

void store_baselines_free(struct store_baseline *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(b[i].name);
		free(b[i].study);
		free(b[i].saved);
	}
	free(b);
}
