/*
 * test_merge.c - shards and merging: every (configuration, workload) pair
 * belongs to exactly one shard and the shares are even; "I/N" parsing;
 * merging shard databases made with the store's own functions: rows
 * added, identical rows skipped, conflicting rows reported with the first
 * kept, last_run recounted, a table other modules add later merged by its
 * key, a keyless table by whole rows, signatures equal for shards of one
 * study and different for another study or other configurations.
 */
#include "analysis/merge.h"
#include "flagsets/matrix.h"
#include "tests/testlib.h"

static char *dir;

static void check_shards(void)
{
	enum { NCFG = 40, NWL = 10 };
	for (int n = 1; n <= 7; n++) {
		int per[7] = {0};
		for (int c = 0; c < NCFG; c++)
			for (int w = 0; w < NWL; w++) {
				char id[32], wl[32];
				snprintf(id, sizeof(id), "%016x", (unsigned)(c * 2654435761u));
				snprintf(wl, sizeof(wl), "workload%d", w);
				int owners = 0;
				for (int i = 0; i < n; i++)
					if (shard_selects(id, wl, i, n)) {
						owners++;
						per[i]++;
					}
				T_CHECK(owners == 1, "n=%d %s/%s: %d shards select it", n, id, wl, owners);
			}
		/* a hash, so the shares are near NCFG*NWL/n (400/7 = 57) */
		for (int i = 0; i < n; i++)
			T_CHECK(per[i] > NCFG * NWL / n / 2 && per[i] < NCFG * NWL / n * 3 / 2,
				"n=%d: shard %d has %d of %d pairs", n, i, per[i], NCFG * NWL);
	}
	T_CHECK(!shard_selects("a", "b", 4, 4) && !shard_selects("a", "b", -1, 4) &&
			!shard_selects("a", "b", 0, 0),
		"shards outside 0..N-1 select nothing");
	/* the same answer every time, everywhere: fixed by the hash */
	T_CHECK(shard_selects("5d41402abc4b2a76", "gzip", 0, 1), "one shard runs everything");

	static const struct {
		const char *text;
		int ok, i, n;
	} cases[] = {
		{"0/4", 1, 0, 4}, {"3/4", 1, 3, 4}, {"0/1", 1, 0, 1}, {"4/4", 0, 0, 0},
		{"1/0", 0, 0, 0}, {"-1/4", 0, 0, 0}, {"1", 0, 0, 0},  {"1/", 0, 0, 0},
		{"a/4", 0, 0, 0}, {"1/4x", 0, 0, 0}, {"", 0, 0, 0},
	};
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		int i = -9, n = -9;
		struct strbuf err = {0};
		int rc = shard_parse(cases[k].text, &i, &n, &err);
		T_CHECK((rc == 0) == cases[k].ok && (!cases[k].ok || (i == cases[k].i && n == cases[k].n)),
			"shard '%s': rc %d i %d n %d", cases[k].text, rc, i, n);
		T_CHECK(rc == 0 || strstr(sb_str(&err), "I/N"), "shard '%s': %s", cases[k].text,
			sb_str(&err));
		sb_release(&err);
	}
}

static struct store open_db(const char *name)
{
	struct store st;
	struct strbuf err = {0};
	char *path = xasprintf("%s/%s", dir, name);
	remove(path);
	if (store_open(&st, path, 1, &err))
		fprintf(stderr, "%s\n", sb_str(&err));
	sb_release(&err);
	free(path);
	return st;
}

static void put_study(struct store *st, const char *study, int nconfigs)
{
	store_put_study(st, &(struct store_study){.name = study, .path = "/somewhere/study",
						   .metric = "time"});
	for (int c = 0; c < nconfigs; c++) {
		char id[16], label[16];
		snprintf(id, sizeof(id), "cfg%d", c);
		snprintf(label, sizeof(label), "O%d", c);
		struct store_config sc = {.study = study, .id = id, .label = label, .cc = "gcc",
					  .toolchain_id = "t", .toolchain_version = "12",
					  .cflags = label, .ldflags = "", .link = "default",
					  .is_baseline = c == 0, .order = c};
		store_put_config(st, &sc);
	}
}

static void put_runs(struct store *st, const char *config, const char *workload, double base,
		     double seconds)
{
	struct store_build b = {.study = "s", .config_id = config, .workload = workload,
				.key = "k", .status = "ok", .seconds = seconds, .cached = seconds == 0};
	store_put_build(st, &b);
	for (int rep = 1; rep <= 3; rep++) {
		struct store_metric m[] = {{"time", base + rep, "s"}, {"maxrss", 1000, "KiB"}};
		store_put_run(st, "s", config, workload, "", rep, "ok", NULL, m, 2);
	}
}

static long count(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	long n = -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

static void check_merge(void)
{
	/* shard a: cfg0 and cfg1 on w1; shard b: the same on w2; both hold the configs */
	struct store a = open_db("a.db"), b = open_db("b.db"), other = open_db("other.db");
	put_study(&a, "s", 2);
	put_study(&b, "s", 2);
	put_runs(&a, "cfg0", "w1", 10, 2.5);
	put_runs(&a, "cfg1", "w1", 20, 0);
	put_runs(&b, "cfg0", "w2", 30, 3);
	put_runs(&b, "cfg1", "w2", 40, 3);
	store_put_fact(&a, "s", "meter.rusage", "rusage: wall time");
	store_put_fact(&b, "s", "meter.rusage", "rusage: wall time");
	/* tables flagscope does not make: a copy of b with them is refused */
	struct store d = open_db("d.db");
	put_study(&d, "s", 2);
	put_runs(&d, "cfg0", "w2", 30, 3);
	sqlite3_exec(d.db, "CREATE TABLE notes(study TEXT, k TEXT, v TEXT, PRIMARY KEY(study, k));"
			   "INSERT INTO notes VALUES('s', 'x', '1');"
			   "CREATE TABLE log(line TEXT); INSERT INTO log VALUES('one'), ('two');",
		     NULL, NULL, NULL);
	put_study(&other, "t", 2);
	char *pa = xstrdup(a.path), *pb = xstrdup(b.path), *po = xstrdup(other.path);
	store_close(&a);
	store_close(&b);
	store_close(&other);
	char *pd = xstrdup(d.path);
	store_close(&d);

	struct strbuf sa = {0}, sb = {0}, so = {0}, err = {0};
	T_CHECK(!merge_signature(pa, &sa, &err) && !merge_signature(pb, &sb, &err) &&
			!merge_signature(po, &so, &err),
		"signatures: %s", sb_str(&err));
	T_CHECK(sa.len && !strcmp(sa.buf, sb.buf), "shards of one study differ:\n%s\n%s", sa.buf,
		sb.buf);
	T_CHECK(strcmp(sa.buf, so.buf), "another study has the same signature: %s", so.buf);
	char *readme = test_write(dir, "not-a-db", "hello\n");
	err.len = 0;
	T_CHECK(merge_signature(readme, &so, &err) == -1 && err.len, "a text file: %s",
		sb_str(&err));
	err.len = 0;

	struct store m = open_db("m.db");
	struct merge_report rep = {0};
	err.len = 0;
	T_CHECK(!merge_database(&m, pa, &rep, &err), "merge a: %s", sb_str(&err));
	T_CHECK(rep.conflicts == 0 && rep.added > 0, "merge a: %ld added %ld conflicts", rep.added,
		rep.conflicts);
	long after_a = rep.added;
	T_CHECK(!merge_database(&m, pb, &rep, &err), "merge b: %s", sb_str(&err));
	/* b's configs and study row are the same: duplicates, not conflicts
	 * (the study's path and time are not compared) */
	T_CHECK(rep.conflicts == 0 && rep.duplicates >= 3, "merge b: %ld dup %ld conflicts",
		rep.duplicates, rep.conflicts);
	T_CHECK(count(&m, "SELECT count(*) FROM samples WHERE metric = 'time'") == 12 &&
			count(&m, "SELECT count(DISTINCT workload) FROM runs") == 2 &&
			count(&m, "SELECT count(*) FROM configs") == 2,
		"merged rows");
	long before_d = count(&m, "SELECT count(*) FROM samples");
	err.len = 0;
	T_CHECK(merge_database(&m, pd, &rep, &err) == -1 &&
			strstr(sb_str(&err), "its table 'log' is not one flagscope makes") &&
			count(&m, "SELECT count(*) FROM samples") == before_d &&
			count(&m, "SELECT count(*) FROM sqlite_master WHERE name IN ('log', 'notes')") == 0,
		"tables flagscope does not make: %s", sb_str(&err));
	err.len = 0;
	/* cfg1 w1 was cached (0 s), the other three built */
	T_CHECK(count(&m, "SELECT built FROM last_run WHERE study = 's'") == 3 &&
			count(&m, "SELECT cached FROM last_run WHERE study = 's'") == 1 &&
			count(&m, "SELECT failed FROM last_run WHERE study = 's'") == 0,
		"last_run recounted");
	/* again: nothing new, nothing in conflict */
	merge_report_release(&rep);
	long rows = count(&m, "SELECT (SELECT count(*) FROM samples) + (SELECT count(*) FROM runs)"
			      "");
	T_CHECK(!merge_database(&m, pb, &rep, &err) && rep.added == 0 && rep.conflicts == 0 &&
			rep.duplicates > 0,
		"merge b twice: %ld added %ld conflicts: %s", rep.added, rep.conflicts, sb_str(&err));
	T_CHECK(rows == count(&m, "SELECT (SELECT count(*) FROM samples) + (SELECT count(*) FROM runs)"),
		"a second merge changed the rows");
	merge_report_release(&rep);

	/* a conflicting copy of a: one sample changed, one build's seconds */
	struct store c;
	char *pc = xasprintf("%s/c.db", dir);
	copy_tree(pa, pc);
	store_open(&c, pc, 0, &err);
	sqlite3_exec(c.db, "UPDATE samples SET value = 99 WHERE config_id = 'cfg0' AND rep = 2 "
			   "AND metric = 'time' AND workload = 'w1';"
			   "UPDATE builds SET seconds = 7 WHERE config_id = 'cfg0';"
			   "INSERT INTO samples VALUES('s', 'cfg0', 'w1', '', 4, 'time', 14, 's');",
		     NULL, NULL, NULL);
	store_close(&c);
	T_CHECK(!merge_database(&m, pc, &rep, &err) && rep.conflicts == 1 && rep.added == 1 &&
			rep.lines.n == 1,
		"conflict: %ld conflicts %ld added: %s", rep.conflicts, rep.added, sb_str(&err));
	if (rep.lines.n)
		T_CHECK(str_starts_with(rep.lines.v[0], "samples (s, cfg0, w1, , 2, time): value '12.0' "
							"kept, '99.0' dropped"),
			"conflict line: %s", rep.lines.v[0]);
	T_CHECK(count(&m, "SELECT value FROM samples WHERE config_id = 'cfg0' AND rep = 2 AND "
			  "metric = 'time' AND workload = 'w1'") == 12,
		"the first value is kept");
	merge_report_release(&rep);
	T_CHECK(after_a > 0, "merge a added nothing");
	store_close(&m);
	sb_release(&sa);
	sb_release(&sb);
	sb_release(&so);
	sb_release(&err);
	free(pa);
	free(pb);
	free(pc);
	free(po);
	free(pd);
	free(readme);
}

int main(void)
{
	dir = test_tmpdir("test_merge");
	check_shards();
	check_merge();
	free(dir);
	return test_summary("test_merge");
}
