/* sample_origins.c - see sample_origins.h */
#include "analysis/sample_origins.h"

#include <stdlib.h>
#include <string.h>

#include "base/outcome.h"

/* The run rows of the study's configurations (in_study) with their build
 * and the current one; the view current_runs (store.c) decides what
 * counts, so this listing and the ranking cannot disagree. */
static const char origins_sql[] =
	"SELECT c.label, r.workload, r.run, r.rep, r.status, "
	" (SELECT value FROM samples s WHERE s.study=r.study AND s.config_id=r.config_id AND "
	"  s.workload=r.workload AND s.run=r.run AND s.rep=r.rep AND s.metric=?2), "
	" r.build_key, r.binary_hash, coalesce(b.key, ''), "
	" EXISTS(SELECT 1 FROM current_runs u WHERE u.study=r.study AND u.config_id=r.config_id "
	"  AND u.workload=r.workload AND u.run=r.run AND u.rep=r.rep) "
	"FROM runs r JOIN configs c ON c.study=r.study AND c.id=r.config_id AND c.in_study=1 "
	"LEFT JOIN builds b ON b.study=r.study AND b.config_id=r.config_id AND b.workload=r.workload "
	"WHERE r.study=?1 ORDER BY c.ord, r.workload, r.run, r.rep";

static const char *text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? (const char *)t : "";
}

/* One run row, as the writers print it. */
struct origin_row {
	const char *label, *item, *status, *value; /* value "-": no sample of the metric */
	const char *build_key, *binary_hash;
	const char *now_key; /* the build stored now */
	int rep, current;    /* current: its build is the one stored now */
};

/* why a row's samples do not count, or "counted"; full: the whole key */
static char *verdict(const struct origin_row *r, int full)
{
	if (!r->current)
		return full ? xasprintf("not counted: another build (now %s)", r->now_key)
			    : xasprintf("not counted: another build (now %.12s)", r->now_key);
	if (!outcome_ranked(outcome_parse(r->status)))
		return xasprintf("not counted: %s", r->status);
	return xstrdup(r->rep ? "counted" : "warm-up");
}

static void table_head(FILE *out, const char *metric)
{
	fprintf(out, "%-20s %-20s %4s %-12s %12s %-12s %-12s %s\n", "config", "workload", "rep",
		"status", metric, "build", "binary", "counted");
}

static void table_row(FILE *out, const struct origin_row *r)
{
	char *why = verdict(r, 0);
	fprintf(out, "%-20s %-20s %4d %-12s %12s %-12.12s %-12.12s %s\n", r->label, r->item,
		r->rep, r->status, r->value, *r->build_key ? r->build_key : "?",
		*r->binary_hash ? r->binary_hash : "?", why);
	free(why);
}

/* csv: the same walk, separators and full hashes */
static void csv_head(FILE *out, const char *metric)
{
	fprintf(out, "config,workload,rep,status,%s,build_key,binary_hash,counted\n", metric);
}

static void csv_row(FILE *out, const struct origin_row *r)
{
	char *why = verdict(r, 1);
	fprintf(out, "\"%s\",\"%s\",%d,%s,%s,%s,%s,\"%s\"\n", r->label, r->item, r->rep, r->status,
		r->value, r->build_key, r->binary_hash, why);
	free(why);
}

static const struct origins_writer {
	enum format format;
	void (*head)(FILE *out, const char *metric);
	void (*row)(FILE *out, const struct origin_row *r);
} writers[] = {
	{FORMAT_TABLE, table_head, table_row},
	{FORMAT_CSV, csv_head, csv_row},
};

format_set sample_origins_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("sample list formats", writers, err);
}

int sample_origins_print(FILE *out, struct store *st, const char *study, const char *metric,
			 const char *format)
{
	const struct origins_writer *w = FORMAT_WRITER(writers, format);
	if (!w)
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, origins_sql, -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, metric, -1, SQLITE_STATIC);
	int n = 0;
	w->head(out, metric);
	while (sqlite3_step(s) == SQLITE_ROW) {
		char *item = *text(s, 2) ? xasprintf("%s/%s", text(s, 1), text(s, 2))
					 : xstrdup(text(s, 1));
		char value[32] = "-";
		if (sqlite3_column_type(s, 5) != SQLITE_NULL)
			snprintf(value, sizeof(value), "%.6g", sqlite3_column_double(s, 5));
		struct origin_row r = {
			.label = text(s, 0), .item = item, .status = text(s, 4), .value = value,
			.build_key = text(s, 6), .binary_hash = text(s, 7), .now_key = text(s, 8),
			.rep = sqlite3_column_int(s, 3), .current = sqlite3_column_int(s, 9),
		};
		w->row(out, &r);
		free(item);
		n++;
	}
	sqlite3_finalize(s);
	return n;
}
