/*
 * test_store.c - the results store (analysis/store.h):
 *  - a database in the layout of older flagscopes (sizes as run "@build"
 *    rep 0, the auto-repeat target as fact "repeat.auto"), made here by
 *    hand, reports the same sizes and target once opened, from its own
 *    tables, and a second open changes nothing; merged into a current
 *    database (flagscope merge of an old shard) it ends up the same;
 *  - a write that fails (the database full: PRAGMA max_page_count as the
 *    test hook; locked by another writer past the busy timeout; a COMMIT
 *    refused, by a commit hook) returns -1,
 *    stores nothing of that write, leaves no transaction open, and says why
 *    in store_errmsg(); the next write, with room again, succeeds;
 *  - outcome_ranked() and outcome_retried() in SQL read the outcome table;
 *  - a metric only the warm-up has (a wrapping meter's: cachegrind's insns)
 *    is read from it, one the repetitions have from them only.
 * Expected: all checks pass.
 */
#include "analysis/merge.h"
#include "analysis/results.h"
#include "analysis/store.h"
#include "tests/synthdb.h"

#include <unistd.h>

static char *dir;

static long count(struct store *st, const char *sql)
{
	return synth_count(st, sql);
}

/* The tables and rows flagscope wrote before build_sizes and the studies'
 * repeat_* columns existed. */
static const char old_layout[] =
	"CREATE TABLE studies(name TEXT PRIMARY KEY, path TEXT, metric TEXT, updated TEXT);"
	"CREATE TABLE configs(study TEXT, id TEXT, label TEXT, cc TEXT, toolchain_id TEXT,"
	"  toolchain_version TEXT, cflags TEXT, ldflags TEXT, link TEXT, is_baseline INT, ord INT,"
	"  PRIMARY KEY(study, id));"
	"CREATE TABLE builds(study TEXT, config_id TEXT, workload TEXT, key TEXT, status TEXT,"
	"  detail TEXT, seconds REAL, cached INT, facts TEXT, PRIMARY KEY(study, config_id, workload));"
	"CREATE TABLE runs(study TEXT, config_id TEXT, workload TEXT, run TEXT, rep INT, status TEXT,"
	"  detail TEXT, PRIMARY KEY(study, config_id, workload, run, rep));"
	"CREATE TABLE samples(study TEXT, config_id TEXT, workload TEXT, run TEXT, rep INT,"
	"  metric TEXT, value REAL, unit TEXT, PRIMARY KEY(study, config_id, workload, run, rep, metric));"
	"CREATE TABLE last_run(study TEXT PRIMARY KEY, built INT, cached INT, failed INT, finished TEXT);"
	"CREATE TABLE facts(study TEXT, key TEXT, value TEXT, PRIMARY KEY(study, key));"
	"INSERT INTO studies VALUES('old', 'old.study', 'time', '2025-01-01 00:00:00');"
	"INSERT INTO studies VALUES('fixed', 'fixed.study', 'time', '2025-01-01 00:00:00');"
	"INSERT INTO configs VALUES('old', 'c1', 'gcc O2', 'gcc', 't', 'v', '-O2', '', 'default', 1, 0);"
	"INSERT INTO builds VALUES('old', 'c1', 'crc32', 'k', 'ok', '', 1.5, 0, '[]');"
	"INSERT INTO runs VALUES('old', 'c1', 'crc32', '@build', 0, 'ok', '');"
	"INSERT INTO samples VALUES('old', 'c1', 'crc32', '@build', 0, 'size.text', 1234, 'B');"
	"INSERT INTO samples VALUES('old', 'c1', 'crc32', '@build', 0, 'size.file', 8000, 'B');"
	"INSERT INTO runs VALUES('old', 'c1', 'crc32', '', 0, 'ok', '');"
	"INSERT INTO runs VALUES('old', 'c1', 'crc32', '', 1, 'ok', '');"
	"INSERT INTO samples VALUES('old', 'c1', 'crc32', '', 1, 'time', 0.5, 's');"
	"INSERT INTO facts VALUES('old', 'repeat.auto', 'target=0.02 min=5 max=30');"
	"INSERT INTO facts VALUES('old', 'meter.perf', 'perf: cycles');";

/* dir/name in the old layout; heap path */
static char *make_old(const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	unlink(path);
	sqlite3 *db;
	T_CHECK(sqlite3_open(path, &db) == SQLITE_OK, "make the old database");
	T_CHECK(sqlite3_exec(db, old_layout, NULL, NULL, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
	sqlite3_close(db);
	return path;
}

static void check_migration(void)
{
	char *path = make_old("old.db"), *merged = xasprintf("%s/merged.db", dir);
	unlink(merged);
	for (int pass = 0; pass < 3; pass++) {
		struct store st;
		struct strbuf err = {0};
		if (pass < 2) {
			T_CHECK(!store_open(&st, path, 0, &err), "open %d: %s", pass, sb_str(&err));
		} else {
			/* an old database merged into a new one (the old file
			 * made again: the opens above migrated it) */
			free(make_old("old.db"));
			struct merge_report rep = {0};
			T_CHECK(!store_open(&st, merged, 1, &err) &&
					!merge_database(&st, path, &rep, &err),
				"merge: %s", sb_str(&err));
			merge_report_release(&rep);
		}
		size_t n;
		int from_build;
		double *v = results_samples(&st, "old", "c1", "crc32", "", "size.text", &n, &from_build);
		T_CHECK(n == 1 && v[0] == 1234 && from_build, "open %d: size.text reads back (n %zu)",
			pass, n);
		free(v);
		v = results_samples(&st, "old", "c1", "crc32", "", "time", &n, &from_build);
		T_CHECK(n == 1 && v[0] == 0.5 && !from_build, "open %d: the run's time stays", pass);
		free(v);
		T_CHECK(results_repeat_target(&st, "old") == 0.02, "open %d: target %g", pass,
			results_repeat_target(&st, "old"));
		T_CHECK(results_repeat_target(&st, "fixed") == 0, "open %d: a fixed study has none",
			pass);
		T_CHECK(count(&st, "SELECT count(*) FROM studies WHERE name='old' AND repeat_min=5 "
				   "AND repeat_max=30") == 1, "open %d: min and max", pass);
		T_CHECK(count(&st, "SELECT count(*) FROM runs WHERE run='@build'") == 0 &&
				count(&st, "SELECT count(*) FROM samples WHERE run='@build'") == 0,
			"open %d: no fake run left", pass);
		T_CHECK(count(&st, "SELECT count(*) FROM build_sizes") == 2, "open %d: two sizes",
			pass);
		T_CHECK(count(&st, "SELECT count(*) FROM facts WHERE key='repeat.auto'") == 0 &&
				count(&st, "SELECT count(*) FROM facts WHERE key='meter.perf'") == 1,
			"open %d: only the repeat fact moved", pass);
		struct strlist w = {0}, r = {0};
		results_items(&st, "old", &w, &r);
		T_CHECK(w.n == 1 && !strcmp(r.v[0], ""), "open %d: one item (%zu)", pass, w.n);
		T_CHECK(results_has_metric(&st, "old", "size.text"), "open %d: size.text is stored",
			pass);
		char *unit = results_metric_unit(&st, "old", "size.file");
		T_CHECK(!strcmp(unit, "B"), "open %d: unit '%s'", pass, unit);
		free(unit);
		sl_release(&w);
		sl_release(&r);
		store_close(&st);
		sb_release(&err);
	}
	free(path);
	free(merged);
}

/* A new empty database dir/name. */
static void open_fresh(struct store *st, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	unlink(path);
	struct strbuf err = {0};
	T_CHECK(!store_open(st, path, 1, &err), "%s", sb_str(&err));
	sb_release(&err);
	free(path);
}

static void check_put_study(void)
{
	struct store st;
	open_fresh(&st, "study.db");
	T_CHECK(!store_put_study(&st, &(struct store_study){.name = "a", .path = "a.study",
							    .metric = "time", .repeat_target = 0.01,
							    .repeat_min = 3, .repeat_max = 20}),
		"put an auto study: %s", store_errmsg(&st));
	T_CHECK(results_repeat_target(&st, "a") == 0.01, "auto target reads back");
	/* resumed with a fixed --repeat: no target any more */
	T_CHECK(!store_put_study(&st, &(struct store_study){.name = "a", .path = "a.study",
							    .metric = "time"}),
		"put it fixed: %s", store_errmsg(&st));
	T_CHECK(results_repeat_target(&st, "a") == 0 &&
			count(&st, "SELECT count(*) FROM studies WHERE repeat_min IS NULL") == 1,
		"a fixed study stores NULLs");
	store_close(&st);
}

static int put_run(struct store *st, int rep)
{
	struct store_metric m[] = {{"time", 1.0 + rep, "s"}, {"user", 0.5, "s"}, {"sys", 0.1, "s"}};
	return store_put_run(st, "s", "c1", "crc32", "", rep, "ok", "", m, ARRAY_SIZE(m));
}

static void check_full(void)
{
	struct store st;
	open_fresh(&st, "full.db");
	T_CHECK(!strcmp(store_errmsg(&st), ""), "no cause before a failure");
	T_CHECK(!put_run(&st, 1), "first run: %s", store_errmsg(&st));
	/* the test hook: no page more than it has now */
	long pages = count(&st, "PRAGMA page_count");
	char *cap = xasprintf("PRAGMA max_page_count=%ld", pages);
	sqlite3_exec(st.db, cap, NULL, NULL, NULL);
	free(cap);
	int rep = 2, rc = 0;
	for (; rep < 10000 && !(rc = put_run(&st, rep)); rep++)
		;
	T_CHECK(rc == -1, "a full database fails a write");
	T_CHECK(strstr(store_errmsg(&st), "full"), "cause: '%s'", store_errmsg(&st));
	T_CHECK(sqlite3_get_autocommit(st.db), "no transaction left open");
	char *q = xasprintf("SELECT count(*) FROM runs WHERE rep=%d", rep);
	long runs = count(&st, q);
	free(q);
	q = xasprintf("SELECT count(*) FROM samples WHERE rep=%d", rep);
	long samples = count(&st, q);
	free(q);
	T_CHECK(runs == 0 && samples == 0, "nothing of the failed run stored (%ld runs, %ld samples)",
		runs, samples);
	struct store_metric size = {"size.text", 1, "B"};
	T_CHECK(store_put_build_sizes(&st, "s", "c1", "big-workload-name-to-need-a-page", &size,
				      1) == -1 ||
			count(&st, "SELECT count(*) FROM build_sizes") == 1,
		"sizes: stored whole or not at all");
	T_CHECK(sqlite3_get_autocommit(st.db), "no transaction left open after sizes");
	sqlite3_exec(st.db, "PRAGMA max_page_count=1073741823", NULL, NULL, NULL);
	T_CHECK(!put_run(&st, rep), "with room again the run is stored: %s", store_errmsg(&st));
	q = xasprintf("SELECT count(*) FROM samples WHERE rep=%d", rep);
	T_CHECK(count(&st, q) == 3, "all three samples of the retried run");
	free(q);
	store_close(&st);
}

static void check_locked(void)
{
	char *path = xasprintf("%s/locked.db", dir);
	struct store st;
	open_fresh(&st, "locked.db");
	sqlite3 *other;
	T_CHECK(sqlite3_open(path, &other) == SQLITE_OK, "a second connection");
	T_CHECK(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK,
		"the other writer holds the lock");
	sqlite3_busy_timeout(st.db, 50); /* STORE_BUSY_MS, shortened for the test */
	T_CHECK(put_run(&st, 1) == -1, "a locked database fails a write after the timeout");
	T_CHECK(strstr(store_errmsg(&st), "locked"), "cause: '%s'", store_errmsg(&st));
	T_CHECK(sqlite3_get_autocommit(st.db), "no transaction left open");
	T_CHECK(store_put_fact(&st, "s", "k", "v") == -1 && strstr(store_errmsg(&st), "locked"),
		"a single-row write too: '%s'", store_errmsg(&st));
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	T_CHECK(!put_run(&st, 1), "unlocked, it is stored: %s", store_errmsg(&st));
	store_close(&st);
	free(path);
}

static int refuse_commit(void *unused)
{
	(void)unused;
	return 1;
}

static void check_failed_commit(void)
{
	struct store st;
	open_fresh(&st, "commit.db");
	sqlite3_commit_hook(st.db, refuse_commit, NULL);
	T_CHECK(put_run(&st, 1) == -1, "a refused COMMIT fails the write");
	T_CHECK(*store_errmsg(&st), "and says why");
	T_CHECK(sqlite3_get_autocommit(st.db), "no transaction left open");
	struct store_metric size = {"size.text", 1, "B"};
	T_CHECK(store_put_build_sizes(&st, "s", "c1", "w", &size, 1) == -1, "sizes too");
	sqlite3_commit_hook(st.db, NULL, NULL);
	T_CHECK(count(&st, "SELECT count(*) FROM runs") == 0 &&
			count(&st, "SELECT count(*) FROM samples") == 0 &&
			count(&st, "SELECT count(*) FROM build_sizes") == 0,
		"nothing of them stored");
	T_CHECK(!put_run(&st, 1) && count(&st, "SELECT count(*) FROM samples") == 3,
		"committed once allowed: %s", store_errmsg(&st));
	store_close(&st);
}

static void check_sql_outcomes(void)
{
	struct store st;
	open_fresh(&st, "sql.db");
	T_CHECK(count(&st, "SELECT outcome_ranked('ok') + 2 * outcome_retried('ok')") == 1, "ok");
	T_CHECK(count(&st, "SELECT outcome_ranked('board_fault') + 2 * outcome_retried('board_fault')") == 2,
		"board_fault");
	T_CHECK(count(&st, "SELECT outcome_ranked('noisy') + outcome_retried('wrong_output') + "
			   "outcome_ranked(NULL) + outcome_retried('nonsense')") == 0,
		"the rest");
	T_CHECK(!store_put_run(&st, "s", "c", "w", "", 1, "board_fault", "", NULL, 0),
		"store a board fault");
	T_CHECK(!store_has_run(&st, "s", "c", "w", "", 1), "a board fault is run again");
	T_CHECK(!store_put_run(&st, "s", "c", "w", "", 1, "wrong_output", "", NULL, 0),
		"store its result");
	T_CHECK(store_has_run(&st, "s", "c", "w", "", 1), "a result is kept");
	store_close(&st);
}

/* The values of metric for (c, w) as "v,v,..." (a static buffer). */
static const char *samples_of(struct store *st, const char *c, const char *w, const char *metric)
{
	static char buf[128];
	size_t n;
	double *v = store_get_samples(st, "s", c, w, "", metric, &n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%g", i ? "," : "", v[i]);
	free(v);
	return buf;
}

/* A wrapping meter's figure (cachegrind's insns) is stored on the warm-up:
 * it counts when no repetition has the metric, and only then. */
static void check_warmup_only(void)
{
	struct store st;
	open_fresh(&st, "warmup.db");
	struct store_metric warm[] = {{"insns", 7e6, "insn"}, {"sum", 42, ""}};
	struct store_metric rep[] = {{"time", 0.5, "s"}, {"sum", 43, ""}};
	for (int r = 0; r <= 2; r++)
		T_CHECK(!store_put_run(&st, "s", "c", "w", "", r, "ok", "", r ? rep : warm, 2),
			"store rep %d", r);
	T_CHECK(!strcmp(samples_of(&st, "c", "w", "insns"), "7e+06"), "insns from the warm-up: '%s'",
		samples_of(&st, "c", "w", "insns"));
	T_CHECK(!strcmp(samples_of(&st, "c", "w", "sum"), "43,43"),
		"a metric the repetitions have: theirs only, not the warm-up's: '%s'",
		samples_of(&st, "c", "w", "sum"));
	T_CHECK(!strcmp(samples_of(&st, "c", "w", "time"), "0.5,0.5"), "time: '%s'",
		samples_of(&st, "c", "w", "time"));
	/* a warm-up that failed counts for nothing */
	T_CHECK(!store_put_run(&st, "s", "bad", "w", "", 0, "wrong_output", "", warm, 2) &&
			!store_put_run(&st, "s", "bad", "w", "", 1, "ok", "", rep, 2),
		"store the failed warm-up");
	T_CHECK(!strcmp(samples_of(&st, "bad", "w", "insns"), ""), "a failed warm-up's insns: '%s'",
		samples_of(&st, "bad", "w", "insns"));
	store_close(&st);
}

/* Provenance (store.h): a run counts only while it is its build's; runs
 * stored without a build take the key of the build stored beside them
 * when that build is stored again; another build's samples never count */
static void check_provenance(void)
{
	struct store st;
	open_fresh(&st, "prov.db");
	struct store_build b = {.study = "s", .config_id = "c1", .workload = "w", .key = "k1",
				.status = "ok", .binary_hash = "h1"};
	struct store_metric m = {"time", 1.0, "s"};
	T_CHECK(!store_put_build(&st, &b), "build: %s", store_errmsg(&st));
	T_CHECK(!store_put_run(&st, "s", "c1", "w", "", 1, "ok", "", &m, 1), "an older run");
	struct store_run r = {"s", "c1", "w", "", 2, "ok", "", "k1", "h1"};
	m.value = 2.0;
	T_CHECK(!store_put_run_of(&st, &r, &m, 1), "run of k1: %s", store_errmsg(&st));
	size_t n;
	double *v = store_get_samples(&st, "s", "c1", "w", "", "time", &n);
	T_CHECK(n == 2, "both count under k1: %zu", n);
	free(v);
	b.key = "k2";
	b.binary_hash = "h2";
	T_CHECK(!store_put_build(&st, &b), "build k2: %s", store_errmsg(&st));
	T_CHECK(count(&st, "SELECT count(*) FROM runs WHERE build_key='k1'") == 2,
		"the older run took k1, the build stored beside it");
	int same_key = -1;
	T_CHECK(store_runs_of_other_build(&st, "s", "c1", "w", "k2", "h2", &same_key) == 2 &&
			same_key == 0,
		"2 runs of another key");
	v = store_get_samples(&st, "s", "c1", "w", "", "time", &n);
	T_CHECK(n == 0, "k1's samples do not count under k2: %zu", n);
	free(v);
	r.build_key = "k2";
	r.binary_hash = "h2";
	m.value = 3.0;
	T_CHECK(!store_put_run_of(&st, &r, &m, 1), "rep 2 again under k2");
	v = store_get_samples(&st, "s", "c1", "w", "", "time", &n);
	T_CHECK(n == 1 && v[0] == 3.0, "only k2's rep 2 counts: %zu", n);
	free(v);
	struct store_run_origin o;
	T_CHECK(!store_run_origin(&st, "s", "c1", "w", "", 2, &o) &&
			store_run_origin_is(&o, "k2", "h2") && !store_run_origin_is(&o, "k2", "h3") &&
			!store_run_origin_is(&o, "k1", "h2"),
		"origin: key and binary");
	T_CHECK(store_run_origin(&st, "s", "c1", "w", "", 9, &o) == -1 &&
			o.outcome == OUTCOME_COUNT, "no such run");
	store_close(&st);
}

/* store_builds_keyed: the builds a log can be named for (a key), each
 * with its configuration's label, by study, workload, configuration order */
static void check_builds_keyed(void)
{
	struct store st;
	open_fresh(&st, "keyed.db");
	const char *ids[] = {"c2", "c1"}, *labels[] = {"second", "first"};
	for (int i = 0; i < 2; i++)
		T_CHECK(!store_put_config(&st, &(struct store_config){.study = "s", .id = ids[i],
								      .label = labels[i],
								      .order = 1 - i}),
			"config %s: %s", ids[i], store_errmsg(&st));
	struct store_build b[] = {
		{.study = "s", .config_id = "c2", .workload = "w", .key = "k2", .status = "ok"},
		{.study = "s", .config_id = "c1", .workload = "w", .key = "k1", .status = "ok"},
		{.study = "s", .config_id = "c1", .workload = "v", .key = "", .status = "build_failed"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(b); i++)
		T_CHECK(!store_put_build(&st, &b[i]), "build %zu: %s", i, store_errmsg(&st));
	size_t n;
	struct store_build_ref *r = store_builds_keyed(&st, &n);
	T_CHECK(n == 2, "the two keyed builds (%zu)", n);
	T_CHECK(n == 2 && !strcmp(r[0].label, "first") && !strcmp(r[0].key, "k1") &&
			!strcmp(r[1].label, "second") && !strcmp(r[1].study, "s") &&
			!strcmp(r[1].workload, "w"),
		"in configuration order, with labels");
	store_build_refs_free(r, n);
	store_close(&st);
}

int main(void)
{
	dir = test_tmpdir("store");
	check_migration();
	check_put_study();
	check_full();
	check_locked();
	check_failed_commit();
	check_sql_outcomes();
	check_warmup_only();
	check_provenance();
	check_builds_keyed();
	free(dir);
	return test_summary("test_store");
}
