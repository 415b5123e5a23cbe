/*
 * merge.h - a study spread over machines: joining the shards' databases
 * into one.  Which pairs a shard runs is shard_selects() (flagsets/matrix.h).
 *
 * Merging: merge_database() copies one shard's rows into the output
 * database, table by table, keyed by each table's primary key:
 *   - a row the output lacks is added;
 *   - a row it has with the same values is a duplicate, skipped;
 *   - a row it has with other values is a conflict: the output's row (the
 *     first merged) is kept and the conflict reported.  Columns that say
 *     how a row came about rather than what it is (a build's seconds and
 *     cached flag, details, the study file's path) are not compared, nor
 *     rows that are each shard's own (the folder its build logs are in);
 *   - last_run (the counts of the latest run) is recomputed from the
 *     merged builds, as `run` counts them.
 * Tables other modules add later merge the same way (their primary keys
 * are read from the output's schema).  Merge is data, never code: the
 * output's tables are the known schema's (store_open makes them), a
 * shard's schema text is never executed, and a shard with a table the
 * known schema lacks, a view or a trigger is refused whole.  Databases of
 * different studies are refused: every input must hold the same studies
 * with the same configuration ids (merge_signature).
 */
#ifndef FLAGSCOPE_MERGE_H
#define FLAGSCOPE_MERGE_H

#include "analysis/store.h"
#include "base/util.h"

/* "I/N" with 0 <= I < N: 0 with *i, *n set, or -1 with the reason. */
int shard_parse(const char *text, int *i, int *n, struct strbuf *err);

/* The studies a database holds with their configuration ids, as one
 * string that is equal for shards of the same study ("" when it holds
 * none).  0, or -1 with the reason (not a flagscope database). */
int merge_signature(const char *path, struct strbuf *sig, struct strbuf *err);

/* The machine state stored in a database (table machine), one
 * "STUDY\tKEY\tVALUE" line per row, by study in stored order; none
 * when the database has no such table.  0, or -1 with the reason. */
int merge_machine(const char *path, struct strlist *rows, struct strbuf *err);

/* The distinct values of the facts named key in the database at path
 * (e.g. build_logs: each shard's log folder), in order; none when it has
 * none.  0, or -1 with the reason. */
int merge_fact_values(const char *path, const char *key, struct strlist *values,
		      struct strbuf *err);

struct merge_report {
	long added;      /* rows the output did not have */
	long duplicates; /* rows it had, identical */
	long conflicts;  /* rows it had with other values (its own kept) */
	struct strlist lines; /* one per conflict, the first MERGE_MAX_LINES */
};
#define MERGE_MAX_LINES 50
void merge_report_release(struct merge_report *r);

/* Merge the database at in_path into out (opened by store_open and
 * locked by the caller), in one transaction.  The caller has checked
 * the signatures.  Adds to rep.  0, or -1 with the reason in err (out is
 * then unchanged). */
int merge_database(struct store *out, const char *in_path, struct merge_report *rep,
		   struct strbuf *err);

#endif
