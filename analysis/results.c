/* results.c - see results.h */
#include "analysis/results.h"

#include <stdlib.h>
#include <string.h>

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return xstrdup(t ? (const char *)t : "");
}

/* Prepare sql and bind every following const char * as text parameter
 * 1, 2, ...; the list ends with NULL.  A statement that does not prepare
 * (a database from an older flagscope) yields no rows rather than a
 * crash: callers treat it as "nothing stored". */
static sqlite3_stmt *query(struct store *st, const char *sql, ...)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return NULL;
	va_list ap;
	va_start(ap, sql);
	const char *v;
	for (int i = 1; (v = va_arg(ap, const char *)); i++)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	va_end(ap);
	return s;
}

static int row(sqlite3_stmt *s)
{
	return s && sqlite3_step(s) == SQLITE_ROW;
}

struct result_config *results_configs(struct store *st, const char *study, size_t *n)
{
	sqlite3_stmt *s = query(st,
		"SELECT id, label, cc, toolchain_version, cflags, ldflags, link, is_baseline "
		"FROM configs WHERE study=? ORDER BY ord", study, NULL);
	struct result_config *v = NULL;
	*n = 0;
	while (row(s)) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		struct result_config *c = &v[(*n)++];
		c->id = col_text(s, 0);
		c->label = col_text(s, 1);
		c->cc = col_text(s, 2);
		c->toolchain = str_trim(col_text(s, 3));
		c->cflags = col_text(s, 4);
		c->ldflags = col_text(s, 5);
		c->link = col_text(s, 6);
		c->is_baseline = sqlite3_column_int(s, 7);
	}
	sqlite3_finalize(s);
	return v;
}

void result_configs_free(struct result_config *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].id);
		free(c[i].label);
		free(c[i].cc);
		free(c[i].toolchain);
		free(c[i].cflags);
		free(c[i].ldflags);
		free(c[i].link);
	}
	free(c);
}

int results_find_label(const struct result_config *c, size_t n, const char *label)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(c[i].label, label))
			return (int)i;
	return -1;
}

void results_items(struct store *st, const char *study, struct strlist *workloads,
		   struct strlist *runs)
{
	sqlite3_stmt *s = query(st,
		"SELECT DISTINCT workload, run FROM runs WHERE study=?1 AND run<>'@build' "
		"UNION SELECT DISTINCT workload, '' FROM builds WHERE study=?1 AND workload NOT IN "
		"(SELECT workload FROM runs WHERE study=?1 AND run<>'@build') ORDER BY 1, 2",
		study, NULL);
	while (row(s)) {
		sl_push_owned(workloads, col_text(s, 0));
		sl_push_owned(runs, col_text(s, 1));
	}
	sqlite3_finalize(s);
}

double *results_samples(struct store *st, const char *study, const char *config_id,
			const char *workload, const char *run, const char *metric, size_t *n,
			int *from_build)
{
	double *v = store_get_samples(st, study, config_id, workload, run, metric, n);
	if (from_build)
		*from_build = 0;
	if (*n || !str_starts_with(metric, "size."))
		return v;
	sqlite3_stmt *s = query(st, "SELECT value FROM samples WHERE study=? AND config_id=? AND "
				    "workload=? AND run='@build' AND rep=0 AND metric=?",
				study, config_id, workload, metric, NULL);
	if (row(s)) {
		v = xrealloc(v, sizeof(double));
		v[0] = sqlite3_column_double(s, 0);
		*n = 1;
		if (from_build)
			*from_build = 1;
	}
	sqlite3_finalize(s);
	return v;
}

enum outcome results_status(struct store *st, const char *study, const char *config_id,
			    const char *workload, const char *run, char **detail)
{
	sqlite3_stmt *s = query(st, "SELECT status, detail FROM builds WHERE study=? AND "
				    "config_id=? AND workload=?", study, config_id, workload, NULL);
	if (!row(s)) {
		sqlite3_finalize(s);
		*detail = xstrdup("not built");
		return OUTCOME_UNSUPPORTED;
	}
	enum outcome o = outcome_parse((const char *)sqlite3_column_text(s, 0));
	*detail = col_text(s, 1);
	sqlite3_finalize(s);
	if (o != OUTCOME_OK)
		return o;
	s = query(st, "SELECT status, detail FROM runs WHERE study=? AND config_id=? AND "
		      "workload=? AND run=? AND status<>'ok' ORDER BY rep LIMIT 1",
		  study, config_id, workload, run, NULL);
	if (row(s)) {
		o = outcome_parse((const char *)sqlite3_column_text(s, 0));
		free(*detail);
		*detail = col_text(s, 1);
	}
	sqlite3_finalize(s);
	return o;
}

char *results_build_key(struct store *st, const char *study, const char *config_id,
			const char *workload)
{
	sqlite3_stmt *s = query(st, "SELECT key FROM builds WHERE study=? AND config_id=? AND "
				    "workload=?", study, config_id, workload, NULL);
	char *key = row(s) ? col_text(s, 0) : NULL;
	sqlite3_finalize(s);
	return key;
}

char *results_study_path(struct store *st, const char *study)
{
	sqlite3_stmt *s = query(st, "SELECT path FROM studies WHERE name=?", study, NULL);
	char *path = row(s) ? col_text(s, 0) : NULL;
	sqlite3_finalize(s);
	return path;
}

char *results_study_metric(struct store *st, const char *study)
{
	sqlite3_stmt *s = query(st, "SELECT metric FROM studies WHERE name=?", study, NULL);
	char *m = row(s) ? col_text(s, 0) : NULL;
	sqlite3_finalize(s);
	if (!m || !*m) {
		free(m);
		m = xstrdup("time");
	}
	return m;
}

char *results_metric_unit(struct store *st, const char *study, const char *metric)
{
	sqlite3_stmt *s = query(st, "SELECT unit FROM samples WHERE study=? AND metric=? LIMIT 1",
				study, metric, NULL);
	char *u = row(s) ? col_text(s, 0) : xstrdup("");
	sqlite3_finalize(s);
	return u;
}

char *results_fact(struct store *st, const char *study, const char *key)
{
	sqlite3_stmt *s = query(st, "SELECT value FROM facts WHERE study=? AND key=?", study, key,
				NULL);
	char *v = row(s) ? col_text(s, 0) : NULL;
	sqlite3_finalize(s);
	return v;
}

int results_higher_better(struct store *st, const char *study, const char *metric)
{
	/* the recipe names a metric "score"; it may be stored as "run/score" */
	const char *slash = strrchr(metric, '/');
	const char *names[] = {metric, slash ? slash + 1 : NULL};
	for (size_t i = 0; i < ARRAY_SIZE(names) && names[i]; i++) {
		char *key = xasprintf("higher_better.%s", names[i]);
		char *v = results_fact(st, study, key);
		int hb = v && atoi(v);
		free(v);
		free(key);
		if (hb)
			return 1;
	}
	return 0;
}
