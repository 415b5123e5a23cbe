/* store_rows.c - see store.h: a study's rows written and read (studies,
 * configurations, builds and their sizes, runs and samples, where a run
 * came from, progress, facts, the machine state). */
#include "analysis/store.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/store_internal.h"
#include "base/outcome.h"

int store_put_study(struct store *st, const struct store_study *s)
{
	int aut = s->repeat_target > 0;
	/* NULLs when the study repeats a fixed number of times */
	return store_exec(st,
			  "INSERT OR REPLACE INTO studies(name, path, metric, updated, repeat_target, "
			  "repeat_min, repeat_max) VALUES(?,?,?,datetime('now'),?,?,?)",
			  "tttnnn", s->name, s->path, s->metric, aut ? s->repeat_target : 0.0,
			  aut ? (double)s->repeat_min : 0.0, aut ? (double)s->repeat_max : 0.0);
}
int store_put_config(struct store *st, const struct store_config *c)
{
	return store_exec(st,
			  "INSERT OR REPLACE INTO configs(study, id, label, cc, toolchain_id, "
			  "toolchain_version, cflags, ldflags, link, is_baseline, ord, target, cpu, "
			  "libc, sysroot, notes, pgo, in_study, layout, layout_of) "
			  "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1,?,?)",
			  "tttttttttiitttttiit", c->study, c->id, c->label, c->cc, c->toolchain_id,
			  c->toolchain_version, c->cflags, c->ldflags, c->link, c->is_baseline,
			  c->order, c->target ? c->target : "", c->cpu ? c->cpu : "",
			  c->libc ? c->libc : "", c->sysroot ? c->sysroot : "",
			  c->notes ? c->notes : "", c->pgo, c->layout,
			  c->layout_of ? c->layout_of : "");
}

int store_put_build(struct store *st, const struct store_build *b)
{
	/* Runs stored before runs kept their build (an older flagscope's) were
	 * made by the build stored beside them: they are given its key before
	 * it is replaced, so a new build never counts them as its own.  Done
	 * here, by the writer, not when a database is opened: a reader or a
	 * merge changes no row. */
	int rc = store_begin(st);
	if (!rc)
		rc = store_exec(st, "UPDATE runs SET build_key=(SELECT key FROM builds b WHERE "
				"b.study=?1 AND b.config_id=?2 AND b.workload=?3) WHERE study=?1 AND "
				"config_id=?2 AND workload=?3 AND build_key='' AND EXISTS(SELECT 1 "
				"FROM builds b WHERE b.study=?1 AND b.config_id=?2 AND b.workload=?3)",
				"ttt", b->study, b->config_id, b->workload);
	if (!rc)
		rc = store_exec(st, "INSERT OR REPLACE INTO builds(study, config_id, workload, key, "
				"status, detail, seconds, cached, facts, binary_hash) "
				"VALUES(?,?,?,?,?,?,?,?,?,?)",
				"ttttttditt", b->study, b->config_id, b->workload, b->key, b->status,
				b->detail ? b->detail : "", b->seconds, b->cached,
				b->facts ? b->facts : "{}", b->binary_hash ? b->binary_hash : "");
	return store_end(st, rc);
}

int store_put_build_sizes(struct store *st, const char *study, const char *config_id,
			  const char *workload, const struct store_metric *sizes, size_t n)
{
	int rc = store_begin(st);
	if (!rc)
		rc = store_exec(st, "DELETE FROM build_sizes WHERE study=? AND config_id=? AND workload=?",
				"ttt", study, config_id, workload);
	for (size_t i = 0; i < n && !rc; i++)
		rc = store_exec(st, "INSERT INTO build_sizes VALUES(?,?,?,?,?,?)", "ttttdt", study,
				config_id, workload, sizes[i].name, sizes[i].value, sizes[i].unit);
	return store_end(st, rc);
}

int store_put_run_of(struct store *st, const struct store_run *r,
		     const struct store_metric *metrics, size_t nmetrics)
{
	int rc = store_begin(st);
	/* another build's samples of this repetition go with its row (a
	 * metric the new run lacks is not left behind as the new build's) */
	if (!rc && r->build_key && *r->build_key)
		rc = store_exec(st, "DELETE FROM samples WHERE study=?1 AND config_id=?2 AND "
				"workload=?3 AND run=?4 AND rep=?5 AND EXISTS(SELECT 1 FROM runs u "
				"WHERE u.study=?1 AND u.config_id=?2 AND u.workload=?3 AND u.run=?4 "
				"AND u.rep=?5 AND u.build_key<>?6)",
				"ttttit", r->study, r->config_id, r->workload, r->run, r->rep,
				r->build_key);
	if (!rc)
		rc = store_exec(st, "INSERT OR REPLACE INTO runs(study, config_id, workload, run, "
				"rep, status, detail, build_key, binary_hash, layout) VALUES(?,?,?,?,?,?,?,?,?,?)",
				"ttttittttt", r->study, r->config_id, r->workload, r->run, r->rep,
				r->status, r->detail ? r->detail : "", r->build_key ? r->build_key : "",
				r->binary_hash ? r->binary_hash : "", r->layout ? r->layout : "");
	for (size_t i = 0; i < nmetrics && !rc; i++)
		rc = store_exec(st, "INSERT OR REPLACE INTO samples VALUES(?,?,?,?,?,?,?,?)",
				"ttttitdt", r->study, r->config_id, r->workload, r->run, r->rep,
				metrics[i].name, metrics[i].value, metrics[i].unit);
	return store_end(st, rc);
}

int store_put_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep, const char *status,
		  const char *detail, const struct store_metric *metrics, size_t nmetrics)
{
	struct store_run r = {study, config_id, workload, run, rep, status, detail, NULL, NULL};
	return store_put_run_of(st, &r, metrics, nmetrics);
}

int store_run_origin(struct store *st, const char *study, const char *config_id,
		     const char *workload, const char *run, int rep, struct store_run_origin *o)
{
	sqlite3_stmt *stmt;
	memset(o, 0, sizeof(*o));
	o->outcome = OUTCOME_COUNT;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT status, build_key, binary_hash FROM runs WHERE study=? AND "
			       "config_id=? AND workload=? AND run=? AND rep=?",
			       -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(stmt, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, config_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, run, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 5, rep);
	int found = sqlite3_step(stmt) == SQLITE_ROW;
	if (found) {
		const char *k = (const char *)sqlite3_column_text(stmt, 1);
		const char *h = (const char *)sqlite3_column_text(stmt, 2);
		o->outcome = outcome_parse((const char *)sqlite3_column_text(stmt, 0));
		snprintf(o->build_key, sizeof(o->build_key), "%s", k ? k : "");
		snprintf(o->binary_hash, sizeof(o->binary_hash), "%s", h ? h : "");
	}
	sqlite3_finalize(stmt);
	return found ? 0 : -1;
}

int store_run_origin_is(const struct store_run_origin *o, const char *build_key,
			const char *binary_hash)
{
	return *o->build_key && !strcmp(o->build_key, build_key) &&
	       (!*o->binary_hash || !binary_hash || !*binary_hash ||
		!strcmp(o->binary_hash, binary_hash));
}

int store_runs_of_other_build(struct store *st, const char *study, const char *config_id,
			      const char *workload, const char *build_key,
			      const char *binary_hash, int *same_key)
{
	sqlite3_stmt *s;
	int n = 0;
	*same_key = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT count(*), coalesce(sum(build_key=?4), 0) FROM runs WHERE "
			       "study=?1 AND config_id=?2 AND workload=?3 AND NOT (build_key=?4 AND "
			       "(binary_hash='' OR ?5='' OR binary_hash=?5))",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, config_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, build_key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, binary_hash ? binary_hash : "", -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		n = sqlite3_column_int(s, 0);
		*same_key = sqlite3_column_int(s, 1);
	}
	sqlite3_finalize(s);
	return n;
}

int store_put_progress(struct store *st, const char *study, const char *shard,
		       const struct store_progress_part *parts, size_t n, int only_these,
		       int complete)
{
	shard = shard ? shard : "";
	int rc = store_begin(st);
	/* an older flagscope's row says nothing per workload: it stands for
	 * the workloads this run leaves alone */
	if (!rc && only_these)
		rc = store_exec(st, "INSERT INTO progress_parts SELECT study, shard, '*', expected, "
				    "complete FROM progress p WHERE study=?1 AND shard=?2 AND NOT "
				    "EXISTS (SELECT 1 FROM progress_parts q WHERE q.study=?1 AND "
				    "q.shard=?2)", "tt", study, shard);
	if (!rc && !only_these)
		rc = store_exec(st, "DELETE FROM progress_parts WHERE study=? AND shard=?", "tt",
				study, shard);
	for (size_t i = 0; i < n && !rc; i++)
		rc = store_exec(st, "INSERT OR REPLACE INTO progress_parts VALUES(?,?,?,?,?)", "tttii",
				study, shard, parts[i].workload, parts[i].expected, complete);
	if (!rc)
		rc = store_exec(st, "INSERT OR REPLACE INTO progress SELECT ?1, ?2, "
				    "coalesce(sum(expected), 0), coalesce(min(complete), ?3) FROM "
				    "progress_parts WHERE study=?1 AND shard=?2", "tti", study, shard,
				complete);
	return store_end(st, rc);
}

int store_configs_leave_study(struct store *st, const char *study)
{
	return store_exec(st, "UPDATE configs SET in_study=0 WHERE study=?", "t", study);
}

int store_has_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep)
{
	struct store_run_origin o;
	return !store_run_origin(st, study, config_id, workload, run, rep, &o) &&
	       !outcome_retried(o.outcome);
}

enum outcome store_run_outcome(struct store *st, const char *study, const char *config_id,
			       const char *workload, const char *run, int rep)
{
	struct store_run_origin o;
	store_run_origin(st, study, config_id, workload, run, rep, &o);
	return o.outcome;
}

int store_unreproducible_runs(struct store *st, const char *study, const char *baseline_id,
			      const char *baseline_label)
{
	/* rows another configuration stored against the reference before the
	 * baseline's repetitions showed it unreproducible change too: the
	 * schedule runs every configuration's first repetition before them */
	int rc = store_exec(
		st,
		"UPDATE runs SET status='no_reference', detail='the baseline''s own output is not "
		"reproducible (see '||?3||' '||workload||CASE WHEN run='' THEN '' ELSE '/'||run END||"
		"': " OUTCOME_NOT_REPRODUCIBLE "); not judged: '||coalesce(detail,'') "
		"WHERE study=?1 AND config_id<>?2 AND status='wrong_output' AND EXISTS(SELECT 1 FROM "
		"runs b WHERE b.study=?1 AND b.config_id=?2 AND b.workload=runs.workload AND "
		"b.run=runs.run AND b.status='wrong_output' AND substr(b.detail,1,?4)=?5)",
		"tttit", study, baseline_id, baseline_label, (int)strlen(OUTCOME_NOT_REPRODUCIBLE),
		OUTCOME_NOT_REPRODUCIBLE);
	return rc ? -1 : sqlite3_changes(st->db);
}

int store_put_last_run(struct store *st, const char *study, int built, int cached, int failed)
{
	return store_exec(st, "INSERT OR REPLACE INTO last_run VALUES(?,?,?,?,datetime('now'))",
			  "tiii", study, built, cached, failed);
}

int store_put_fact(struct store *st, const char *study, const char *key, const char *value)
{
	return store_exec(st, "INSERT OR REPLACE INTO facts VALUES(?,?,?)", "ttt", study, key,
			  value);
}

char *store_latest_study(struct store *st)
{
	sqlite3_stmt *stmt;
	char *name = NULL;
	/* a saved baseline is the latest only when nothing else is stored */
	if (sqlite3_prepare_v2(st->db, "SELECT name FROM studies ORDER BY name LIKE '"
			       STORE_BASELINE_PREFIX "%', updated DESC, rowid DESC LIMIT 1",
			       -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		name = xstrdup((const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return name;
}

int store_study_names(struct store *st, struct strlist *out)
{
	sqlite3_stmt *stmt;
	if (sqlite3_prepare_v2(st->db, "SELECT name FROM studies ORDER BY updated DESC, rowid DESC",
			       -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	while (sqlite3_step(stmt) == SQLITE_ROW)
		sl_push(out, (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return 0;
}

double *store_get_samples(struct store *st, const char *study, const char *config_id,
			  const char *workload, const char *run, const char *metric, size_t *n)
{
	sqlite3_stmt *s;
	double *v = NULL;
	*n = 0;
	/* the warm-up's value only for a metric no repetition has: a wrapping
	 * meter's (perf, cachegrind) one run after the warm-up */
	if (sqlite3_prepare_v2(st->db,
			       "SELECT s.value FROM samples s JOIN current_runs r USING(study, "
			       "config_id, workload, run, rep) WHERE s.study=?1 AND s.config_id=?2 AND "
			       "s.workload=?3 AND s.run=?4 AND s.metric=?5 AND outcome_ranked(r.status) "
			       "AND (s.rep>=1 OR NOT EXISTS(SELECT 1 FROM samples t JOIN current_runs u "
			       "USING(study, config_id, workload, run, rep) WHERE t.study=?1 "
			       "AND t.config_id=?2 AND t.workload=?3 AND t.run=?4 AND t.metric=?5 "
			       "AND t.rep>=1)) ORDER BY s.rep",
			       -1, &s, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, config_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, metric, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		v = xrealloc(v, (*n + 1) * sizeof(double));
		v[(*n)++] = sqlite3_column_double(s, 0);
	}
	sqlite3_finalize(s);
	return v;
}

int store_put_machine(struct store *st, const char *study, const char *const *keys,
		      char *const *values, size_t n)
{
	int rc = store_begin(st);
	if (!rc)
		rc = store_exec(st, "DELETE FROM machine WHERE study=?", "t", study);
	for (size_t i = 0; i < n && !rc; i++)
		rc = store_exec(st, "INSERT INTO machine VALUES(?,?,?,?)", "titt", study, (int)i,
				keys[i], values[i] ? values[i] : "unknown");
	return store_end(st, rc);
}

void store_get_machine(struct store *st, const char *study, struct strlist *keys,
		       struct strlist *values)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT key, value FROM machine WHERE study=? ORDER BY ord",
			       -1, &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		sl_push(keys, (const char *)sqlite3_column_text(s, 0));
		sl_push(values, (const char *)sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
}


struct store_build_ref *store_builds_keyed(struct store *st, size_t *n)
{
	sqlite3_stmt *s;
	struct store_build_ref *v = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT b.study, b.workload, c.label, b.key FROM builds b "
				       "JOIN configs c ON c.study = b.study AND c.id = b.config_id "
				       "WHERE b.key != '' ORDER BY 1, 2, c.ord",
			       -1, &s, NULL) != SQLITE_OK)
		return NULL;
	while (sqlite3_step(s) == SQLITE_ROW) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[*n] = (struct store_build_ref){
			.study = xstrdup((const char *)sqlite3_column_text(s, 0)),
			.workload = xstrdup((const char *)sqlite3_column_text(s, 1)),
			.label = xstrdup((const char *)sqlite3_column_text(s, 2)),
			.key = xstrdup((const char *)sqlite3_column_text(s, 3)),
		};
		(*n)++;
	}
	sqlite3_finalize(s);
	return v;
}

void store_build_refs_free(struct store_build_ref *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(b[i].study);
		free(b[i].workload);
		free(b[i].label);
		free(b[i].key);
	}
	free(b);
}
