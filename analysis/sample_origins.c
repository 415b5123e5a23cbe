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

/* why a row's samples do not count, or "counted" */
static char *verdict(sqlite3_stmt *s, int csv)
{
	int rep = sqlite3_column_int(s, 3);
	if (!sqlite3_column_int(s, 9))
		return csv ? xasprintf("not counted: another build (now %s)", text(s, 8))
			   : xasprintf("not counted: another build (now %.12s)", text(s, 8));
	if (!outcome_ranked(outcome_parse(text(s, 4))))
		return xasprintf("not counted: %s", text(s, 4));
	return xstrdup(rep ? "counted" : "warm-up");
}

/* one walk over the runs; csv differs only in its separators and full hashes */
static const enum format writes[] = {FORMAT_TABLE, FORMAT_CSV};

format_set sample_origins_formats(struct strbuf *err)
{
	return format_family("sample list formats", writes, ARRAY_SIZE(writes), sizeof(writes[0]), err);
}

int sample_origins_print(FILE *out, struct store *st, const char *study, const char *metric,
			 const char *format)
{
	int csv = format_is(format, FORMAT_CSV);
	if (!csv && !format_is(format, FORMAT_TABLE))
		return -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, origins_sql, -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, metric, -1, SQLITE_STATIC);
	int n = 0;
	if (csv)
		fprintf(out, "config,workload,rep,status,%s,build_key,binary_hash,counted\n", metric);
	else
		fprintf(out, "%-20s %-20s %4s %-12s %12s %-12s %-12s %s\n", "config", "workload",
			"rep", "status", metric, "build", "binary", "counted");
	while (sqlite3_step(s) == SQLITE_ROW) {
		char *item = *text(s, 2) ? xasprintf("%s/%s", text(s, 1), text(s, 2))
					 : xstrdup(text(s, 1));
		char value[32] = "-";
		if (sqlite3_column_type(s, 5) != SQLITE_NULL)
			snprintf(value, sizeof(value), "%.6g", sqlite3_column_double(s, 5));
		char *why = verdict(s, csv);
		if (csv)
			fprintf(out, "\"%s\",\"%s\",%d,%s,%s,%s,%s,\"%s\"\n", text(s, 0), item,
				sqlite3_column_int(s, 3), text(s, 4), value, text(s, 6), text(s, 7),
				why);
		else
			fprintf(out, "%-20s %-20s %4d %-12s %12s %-12.12s %-12.12s %s\n", text(s, 0),
				item, sqlite3_column_int(s, 3), text(s, 4), value,
				*text(s, 6) ? text(s, 6) : "?", *text(s, 7) ? text(s, 7) : "?", why);
		free(why);
		free(item);
		n++;
	}
	sqlite3_finalize(s);
	return n;
}
