/* results.c - see results.h */
#include "analysis/results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

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

/* in: 1 the study's configurations, 0 those edited out of it */
static struct result_config *configs_in(struct store *st, const char *study, int in, size_t *n)
{
	/* a database from before the added columns (store.c adds them when it
	 * can write) still lists its configurations: the newest layout it has;
	 * before in_study every configuration was the study's */
	static const struct {
		const char *cols, *where;
	} layouts[] = {
		/* a layout variant (layouts = N) is read with its plain configuration */
		{", target, cpu, libc, sysroot, notes, pgo", " AND in_study=? AND layout_of=''"},
		{", target, cpu, libc, sysroot, notes, pgo", " AND in_study=?"},
		{", target, cpu, libc, sysroot, notes, pgo", ""},
		{", target, cpu, libc, sysroot, notes", ""},
		{"", ""},
	};
	sqlite3_stmt *s = NULL;
	size_t layout = 0;
	char flag[2] = {in ? '1' : '0', '\0'};
	*n = 0;
	for (; layout < ARRAY_SIZE(layouts) && !s; layout++) {
		if (layout > 1 && !in)
			return NULL;
		char *sql = xasprintf("SELECT id, label, cc, toolchain_version, cflags, ldflags, "
				      "link, is_baseline%s FROM configs WHERE study=?%s ORDER BY ord",
				      layouts[layout].cols, layouts[layout].where);
		s = query(st, sql, study, flag, NULL);
		free(sql);
	}
	int cross = layout <= 4, pgo = layout <= 3;
	struct result_config *v = NULL;
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
		char **x[] = {&c->target, &c->cpu, &c->libc, &c->sysroot, &c->notes};
		for (size_t k = 0; k < ARRAY_SIZE(x); k++)
			*x[k] = cross ? col_text(s, 8 + (int)k) : xstrdup("");
		c->pgo = pgo ? sqlite3_column_int(s, 13) : 0;
	}
	sqlite3_finalize(s);
	return v;
}

struct result_config *results_configs(struct store *st, const char *study, size_t *n)
{
	return configs_in(st, study, 1, n);
}

struct result_config *results_configs_left(struct store *st, const char *study, size_t *n)
{
	return configs_in(st, study, 0, n);
}

/* shard "I/N" -> N (0 for the whole study's row "") */
static int shard_count(const char *shard)
{
	const char *slash = strchr(shard, '/');
	return slash ? atoi(slash + 1) : 0;
}

void results_progress(struct store *st, const char *study, struct result_progress *p)
{
	memset(p, 0, sizeof(*p));
	p->complete = 1;
	sqlite3_stmt *s = query(st, "SELECT shard, expected, complete FROM progress WHERE study=?",
				study, NULL);
	int n_of = 0;
	while (row(s)) {
		p->known = 1;
		p->shards++;
		p->expected += sqlite3_column_int64(s, 1);
		p->complete &= sqlite3_column_int(s, 2) == 1;
		int n = shard_count((const char *)sqlite3_column_text(s, 0));
		n_of = n > n_of ? n : n_of;
	}
	sqlite3_finalize(s);
	if (!p->known) {
		p->complete = 0;
		return;
	}
	if (n_of > p->shards)
		p->shards_missing = n_of - p->shards;
	p->complete &= !p->shards_missing;
	/* a run kept to be made again (its inputs or its board failed) is
	 * not done, though the run that stored it went through */
	s = query(st, "SELECT count(*), coalesce(sum(outcome_retried(r.status)), 0) FROM "
		      "current_runs r JOIN configs c ON c.study=r.study AND c.id=r.config_id AND "
		      "c.in_study=1 WHERE r.study=? AND r.rep>=1", study, NULL);
	if (row(s)) {
		long retried = sqlite3_column_int64(s, 1);
		p->done = sqlite3_column_int64(s, 0) - retried;
		p->complete &= retried == 0;
	}
	sqlite3_finalize(s);
}

/* 1 (with why) when a flagscope run holds path's lock now */
static int run_lock_held(const char *path, struct strbuf *why)
{
	char *real = realpath(path, NULL);
	char *lock = xasprintf("%s.lock", real ? real : path);
	free(real);
	int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	free(lock);
	if (fd < 0)
		return 0;
	int held = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	if (held) {
		char pid[32] = "";
		ssize_t got = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[got > 0 ? got : 0] = '\0';
		sb_addf(why, "%s: still being written by a flagscope run (pid %s) (let it finish, "
			"then merge)", path, *str_trim(pid) ? str_trim(pid) : "?");
	}
	close(fd);
	return held;
}

int results_shard_unfinished(const char *path, struct strbuf *why)
{
	struct store st;
	struct strbuf err = {0};
	if (run_lock_held(path, why))
		return -1;
	if (store_open(&st, path, 0, &err)) { /* merge_signature says what is wrong */
		sb_release(&err);
		return 0;
	}
	sqlite3_stmt *s = query(&st, "SELECT p.study, p.shard, p.expected, p.complete, "
				     "(SELECT count(*) FROM current_runs r JOIN configs c ON "
				     "c.study=r.study AND c.id=r.config_id AND c.in_study=1 WHERE "
				     "r.study=p.study AND r.rep>=1 AND NOT outcome_retried(r.status)), "
				     "(SELECT count(*) FROM current_runs r WHERE r.study=p.study AND "
				     "r.rep>=1 AND outcome_retried(r.status)) FROM progress p ORDER BY 1, 2",
				NULL);
	int rc = 0;
	while (!rc && row(s)) {
		if (sqlite3_column_int(s, 3) == 1 && sqlite3_column_int(s, 5) == 0)
			continue;
		const char *shard = (const char *)sqlite3_column_text(s, 1);
		sb_addf(why, "%s: %s%s%sstudy %s did not finish: %d of %d runs stored%s (run it "
			     "again to finish it, then merge)", path, *shard ? "shard " : "", shard,
			*shard ? " of " : "", (const char *)sqlite3_column_text(s, 0),
			sqlite3_column_int(s, 4), sqlite3_column_int(s, 2),
			sqlite3_column_int(s, 5) ? ", some waiting to be made again" : "");
		rc = -1;
	}
	sqlite3_finalize(s);
	store_close(&st);
	return rc;
}

void results_progress_json(FILE *out, const struct result_progress *p)
{
	if (!p->known) {
		fputs(",\"complete\":null", out);
		return;
	}
	fprintf(out, ",\"complete\":%s,\"runs_done\":%ld,\"runs_expected\":%ld",
		p->complete ? "true" : "false", p->done, p->expected);
}

char *results_progress_text(const struct result_progress *p)
{
	if (!p->known || p->complete)
		return NULL;
	struct strbuf sb = {0};
	sb_addf(&sb, "incomplete: %ld of %ld runs", p->done, p->expected);
	if (p->shards_missing)
		sb_addf(&sb, ", %d shard(s) not merged", p->shards_missing);
	sb_add(&sb, " (its run stopped before the end, or runs wait to be made again: "
		    "run it again to resume; its results are partial)");
	return sb_detach(&sb);
}

char *results_study_notes(struct store *st, const char *study)
{
	struct strbuf sb = {0};
	struct result_progress pr;
	results_progress(st, study, &pr);
	char *partial = results_progress_text(&pr);
	if (partial)
		sb_addf(&sb, "study %s is %s", study, partial);
	free(partial);
	size_t n;
	struct result_config *left = results_configs_left(st, study, &n);
	if (n) {
		sb_addf(&sb, "%sstudy %s: %zu configuration(s) no longer in its file left out "
			     "(kept in the database, never ranked, compared or recommended):",
			sb.len ? "\n" : "", study, n);
		for (size_t i = 0; i < n; i++)
			sb_addf(&sb, "%s %s (%s)", i ? "," : "", left[i].label, left[i].cflags);
	}
	result_configs_free(left, n);
	return sb.len ? sb_detach(&sb) : NULL;
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
		free(c[i].target);
		free(c[i].cpu);
		free(c[i].libc);
		free(c[i].sysroot);
		free(c[i].notes);
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
		"SELECT DISTINCT workload, run FROM runs WHERE study=?1 "
		"UNION SELECT DISTINCT workload, '' FROM builds WHERE study=?1 AND workload NOT IN "
		"(SELECT workload FROM runs WHERE study=?1) ORDER BY 1, 2",
		study, NULL);
	while (row(s)) {
		sl_push_owned(workloads, col_text(s, 0));
		sl_push_owned(runs, col_text(s, 1));
	}
	sqlite3_finalize(s);
}

/* One configuration id's samples (results.h: which count). */
static double *samples_of(struct store *st, const char *study, const char *config_id,
			  const char *workload, const char *run, const char *metric, size_t *n,
			  int *from_build)
{
	double *v = store_get_samples(st, study, config_id, workload, run, metric, n);
	if (from_build)
		*from_build = 0;
	/* sizes and a package's test-suite time (tests.time) are the build's */
	if (*n)
		return v;
	sqlite3_stmt *s = query(st, "SELECT value FROM build_sizes WHERE study=? AND config_id=? "
				    "AND workload=? AND metric=?",
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

/* The ids a configuration's samples come from: its own, then its layout
 * variants' in variant order (store.h: configs.layout_of). */
static struct strlist layout_ids(struct store *st, const char *study, const char *config_id)
{
	struct strlist ids = {0};
	sl_push(&ids, config_id);
	sqlite3_stmt *s = query(st, "SELECT id FROM configs WHERE study=? AND layout_of=? AND "
				    "in_study=1 ORDER BY layout", study, config_id, NULL);
	while (s && row(s)) {
		char *id = col_text(s, 0);
		sl_push(&ids, id);
		free(id);
	}
	sqlite3_finalize(s);
	return ids;
}

double *results_samples_layouts(struct store *st, const char *study, const char *config_id,
				const char *workload, const char *run, const char *metric,
				size_t *n, int *from_build, int **layout)
{
	struct strlist ids = layout_ids(st, study, config_id);
	double *v = NULL;
	int *l = NULL;
	*n = 0;
	for (size_t i = 0; i < ids.n; i++) {
		size_t k = 0;
		double *vi = samples_of(st, study, ids.v[i], workload, run, metric, &k,
					i ? NULL : from_build);
		v = xrealloc(v, (*n + k + 1) * sizeof(*v));
		l = xrealloc(l, (*n + k + 1) * sizeof(*l));
		for (size_t j = 0; j < k; j++) {
			v[*n + j] = vi[j];
			l[*n + j] = (int)i;
		}
		*n += k;
		free(vi);
	}
	sl_release(&ids);
	if (!*n) {
		free(v);
		v = NULL;
	}
	if (layout)
		*layout = l;
	else
		free(l);
	return v;
}

double *results_samples(struct store *st, const char *study, const char *config_id,
			const char *workload, const char *run, const char *metric, size_t *n,
			int *from_build)
{
	return results_samples_layouts(st, study, config_id, workload, run, metric, n, from_build,
				       NULL);
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
	s = query(st, "SELECT status, detail FROM current_runs WHERE study=? AND config_id=? AND "
		      "workload=? AND run=? AND NOT outcome_ranked(status) ORDER BY rep LIMIT 1",
		  study, config_id, workload, run, NULL);
	if (row(s)) {
		o = outcome_parse((const char *)sqlite3_column_text(s, 0));
		free(*detail);
		*detail = col_text(s, 1);
	}
	sqlite3_finalize(s);
	return o;
}

char *results_note(struct store *st, const char *study, const char *config_id,
		   const char *workload, const char *run)
{
	/* the wordings are execute.c's for an output a recipe's `tolerate`
	 * accepted and for a run on a stand-in CPU model; other ok details
	 * (the board a run was on) are no note */
	sqlite3_stmt *s = query(st, "SELECT detail FROM current_runs WHERE study=? AND config_id=? AND "
				    "workload=? AND run=? AND outcome_ranked(status) AND "
				    "(instr(detail, 'within tolerance') > 0 OR "
				    "instr(detail, 'stand-in CPU model') > 0) ORDER BY rep LIMIT 1",
				study, config_id, workload, run, NULL);
	char *note = row(s) ? col_text(s, 0) : NULL;
	sqlite3_finalize(s);
	return note;
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
	sqlite3_stmt *s = query(st, "SELECT unit FROM samples WHERE study=?1 AND metric=?2 UNION ALL "
				    "SELECT unit FROM build_sizes WHERE study=?1 AND metric=?2 LIMIT 1",
				study, metric, NULL);
	char *u = row(s) ? col_text(s, 0) : xstrdup("");
	sqlite3_finalize(s);
	return u;
}

double results_repeat_target(struct store *st, const char *study)
{
	sqlite3_stmt *s = query(st, "SELECT repeat_target FROM studies WHERE name=? AND "
				    "repeat_target > 0", study, NULL);
	double t = row(s) ? sqlite3_column_double(s, 0) : 0;
	sqlite3_finalize(s);
	return t;
}

char *results_fact(struct store *st, const char *study, const char *key)
{
	sqlite3_stmt *s = query(st, "SELECT value FROM facts WHERE study=? AND key=?", study, key,
				NULL);
	char *v = row(s) ? col_text(s, 0) : NULL;
	sqlite3_finalize(s);
	return v;
}

/* "4 ms", "1 ns", "4 KiB": a resolution for a reader */
static char *resolution_text(double v, const char *unit)
{
	if (!strcmp(unit, "s")) {
		static const struct { double scale; const char *name; } steps[] = {
			{1, "s"}, {1e-3, "ms"}, {1e-6, "\u00b5s"}, {1e-9, "ns"},
		};
		size_t i = 0;
		while (i + 1 < ARRAY_SIZE(steps) && v < steps[i].scale * (1 - 1e-9))
			i++;
		return xasprintf("%.3g %s", v / steps[i].scale, steps[i].name);
	}
	return xasprintf("%.3g%s%s", v, *unit ? " " : "", unit);
}

double results_metric_resolution(struct store *st, const char *study, const char *metric,
				 char **text)
{
	if (text)
		*text = NULL;
	/* "faults/run/user": the stored name is a suffix after a '/' */
	for (const char *m = metric; m; m = strchr(m, '/') ? strchr(m, '/') + 1 : NULL) {
		char *key = xasprintf("resolution.%s", m);
		char *v = results_fact(st, study, key);
		free(key);
		if (!v)
			continue;
		char *end;
		double q = strtod(v, &end);
		char unit[16] = "";
		sscanf(end, " %15[^:]", unit);
		if (text && q > 0)
			*text = resolution_text(q, unit);
		free(v);
		return q > 0 ? q : 0;
	}
	return 0;
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

int results_has_metric(struct store *st, const char *study, const char *metric)
{
	sqlite3_stmt *s = query(st, "SELECT 1 FROM samples WHERE study=?1 AND metric=?2 UNION ALL "
				    "SELECT 1 FROM build_sizes WHERE study=?1 AND metric=?2 LIMIT 1",
				study, metric, NULL);
	int has = row(s);
	sqlite3_finalize(s);
	return has;
}

int results_metric_deterministic(const char *metric)
{
	return str_starts_with(metric, "insns") || str_starts_with(metric, "size.");
}

const char *results_metric_caveat(const char *metric)
{
	if (strcmp(metric, RESULTS_TESTS_TIME))
		return NULL;
	return RESULTS_TESTS_TIME ": each package's own test suite (its debian/rules test step), "
	       "wall time, one value per build: a test-suite time, not a benchmark; one value a "
	       "side is never significant (repeat reruns [run] benchmarks, not test suites)";
}

/* ---- selectors ---- */

/* Up to a dozen stored names for a message: "time, user, ...". */
/* The names sql gives, ", "-joined; past max (0: none) "...". */
static char *name_list(struct store *st, const char *sql, const char *study, int max)
{
	sqlite3_stmt *s = query(st, sql, study, NULL);
	struct strbuf sb = {0};
	int n = 0;
	while (row(s)) {
		if (n++ == max && max) {
			sb_add(&sb, ", ...");
			break;
		}
		sb_addf(&sb, "%s%s", n > 1 ? ", " : "", (const char *)sqlite3_column_text(s, 0));
	}
	sqlite3_finalize(s);
	return n ? sb_detach(&sb) : xstrdup("none");
}

/* every one: a mistyped name's meaning may sort anywhere ("tiem") */
static char *stored_metrics(struct store *st, const char *study)
{
	return name_list(st, "SELECT metric FROM samples WHERE study=?1 UNION "
			 "SELECT metric FROM build_sizes WHERE study=?1 ORDER BY 1", study, 0);
}

static int any_sample(struct store *st, const char *study)
{
	sqlite3_stmt *s = query(st, "SELECT 1 FROM samples WHERE study=?1 UNION ALL "
				    "SELECT 1 FROM build_sizes WHERE study=?1 LIMIT 1", study, NULL);
	int has = row(s);
	sqlite3_finalize(s);
	return has;
}

static int has_run(const struct strlist *w, const struct strlist *r, const char *workload,
		   const char *run)
{
	for (size_t i = 0; i < w->n; i++)
		if (*run && !strcmp(w->v[i], workload) && !strcmp(r->v[i], run))
			return 1;
	return 0;
}

/* The workload that has a run of that name, or NULL. */
static const char *owner_of_run(const struct strlist *w, const struct strlist *r,
				const char *run)
{
	for (size_t i = 0; i < w->n; i++)
		if (*run && !strcmp(r->v[i], run))
			return w->v[i];
	return NULL;
}

static int select_in_workload(struct store *st, const char *study, const struct strlist *w,
			      const struct strlist *r, const char *workload, const char *rest,
			      const char *def, struct result_select *sel, struct strbuf *err)
{
	sel->workload = xstrdup(workload);
	if (!rest) {
		sel->metric = xstrdup(def);
		return 0;
	}
	const char *slash = strchr(rest, '/');
	char *first = xstrndup(rest, slash ? (size_t)(slash - rest) : strlen(rest));
	int rc = 0;
	if (has_run(w, r, workload, first)) {
		sel->run = first;
		first = NULL;
		sel->metric = xstrdup(slash ? slash + 1 : def);
		if (slash && !results_has_metric(st, study, sel->metric)) {
			char *m = stored_metrics(st, study);
			sb_addf(err, "%s: study '%s' stored no metric '%s' (stored: %s)", sel->text,
				study, sel->metric, m);
			free(m);
			rc = -1;
		}
	} else if (results_has_metric(st, study, rest)) {
		sel->metric = xstrdup(rest);
	} else {
		struct strbuf rl = {0};
		for (size_t i = 0; i < w->n; i++)
			if (!strcmp(w->v[i], workload) && *r->v[i])
				sb_addf(&rl, "%s%s", rl.len ? ", " : "", r->v[i]);
		char *m = stored_metrics(st, study);
		sb_addf(err, "%s: workload %s has no run or metric '%s' (its runs: %s; metrics: %s)",
			sel->text, workload, rest, rl.len ? sb_str(&rl) : "none", m);
		free(m);
		sb_release(&rl);
		rc = -1;
	}
	free(first);
	return rc;
}

int results_select(struct store *st, const char *study, const char *text,
		   const char *default_metric, struct result_select *sel, struct strbuf *err)
{
	memset(sel, 0, sizeof(*sel));
	sel->text = xstrdup(text ? text : "");
	char *def = default_metric ? xstrdup(default_metric) : results_study_metric(st, study);
	/* the study's own metric is accepted unstored: a study whose every
	 * run failed still reports its failures */
	if (!text || !*text || !strcmp(text, def) || results_has_metric(st, study, text)) {
		sel->metric = text && *text ? xstrdup(text) : def;
		if (sel->metric != def)
			free(def);
		return 0;
	}
	struct strlist w = {0}, r = {0};
	results_items(st, study, &w, &r);
	const char *slash = strchr(text, '/');
	char *head = xstrndup(text, slash ? (size_t)(slash - text) : strlen(text));
	int rc = 0;
	if (sl_find(&w, head) >= 0) {
		rc = select_in_workload(st, study, &w, &r, head, slash ? slash + 1 : NULL, def, sel,
					err);
	} else if (!slash && !any_sample(st, study)) {
		/* nothing stored at all yet: the metric cannot be checked */
		sel->metric = xstrdup(text);
	} else {
		char *m = stored_metrics(st, study);
		char *wl = name_list(st, "SELECT DISTINCT workload FROM builds WHERE study=? "
					 "ORDER BY 1", study, 12);
		const char *owner = owner_of_run(&w, &r, head);
		if (owner)
			sb_addf(err, "%s: '%s' is a run of %s, not a workload (write %s/%s)", text,
				head, owner, owner, text);
		else if (slash)
			sb_addf(err, "%s: study '%s' has no workload '%s' (workloads: %s)", text, study,
				head, wl);
		else
			sb_addf(err, "%s: study '%s' stored no such metric and has no such workload "
				     "(metrics: %s; workloads: %s; or WORKLOAD/RUN/METRIC)",
				text, study, m, wl);
		free(m);
		free(wl);
		rc = -1;
	}
	if (!sel->metric)
		sel->metric = xstrdup(def);
	free(def);
	free(head);
	sl_release(&w);
	sl_release(&r);
	return rc;
}

int results_select_match(const struct result_select *sel, const char *workload, const char *run)
{
	return (!sel->workload || !strcmp(sel->workload, workload)) &&
	       (!sel->run || !strcmp(sel->run, run));
}

char *results_select_with(const struct result_select *sel, const char *metric)
{
	if (!sel->workload)
		return xstrdup(metric);
	if (sel->run)
		return xasprintf("%s/%s/%s", sel->workload, sel->run, metric);
	return xasprintf("%s/%s", sel->workload, metric);
}

char *results_select_scope(const struct result_select *sel)
{
	if (!sel->workload)
		return NULL;
	return sel->run ? xasprintf("%s/%s", sel->workload, sel->run) : xstrdup(sel->workload);
}

void results_select_release(struct result_select *sel)
{
	free(sel->text);
	free(sel->metric);
	free(sel->workload);
	free(sel->run);
	memset(sel, 0, sizeof(*sel));
}
