/* store.c - see store.h */
#include "analysis/store.h"

#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outcome.h"

static const char schema[] =
	"PRAGMA journal_mode=WAL;"
	"PRAGMA synchronous=NORMAL;"
	"CREATE TABLE IF NOT EXISTS studies(name TEXT PRIMARY KEY, path TEXT, metric TEXT,"
	"  updated TEXT, repeat_target REAL, repeat_min INT, repeat_max INT);"
	"CREATE TABLE IF NOT EXISTS configs(study TEXT, id TEXT, label TEXT, cc TEXT,"
	"  toolchain_id TEXT, toolchain_version TEXT, cflags TEXT, ldflags TEXT, link TEXT,"
	"  is_baseline INT, ord INT, target TEXT DEFAULT '', cpu TEXT DEFAULT '',"
	"  libc TEXT DEFAULT '', sysroot TEXT DEFAULT '', notes TEXT DEFAULT '',"
	"  pgo INT DEFAULT 0, in_study INT DEFAULT 1, PRIMARY KEY(study, id));"
	"CREATE TABLE IF NOT EXISTS builds(study TEXT, config_id TEXT, workload TEXT, key TEXT,"
	"  status TEXT, detail TEXT, seconds REAL, cached INT, facts TEXT, binary_hash TEXT DEFAULT '',"
	"  PRIMARY KEY(study, config_id, workload));"
	"CREATE TABLE IF NOT EXISTS build_sizes(study TEXT, config_id TEXT, workload TEXT,"
	"  metric TEXT, value REAL, unit TEXT, PRIMARY KEY(study, config_id, workload, metric));"
	"CREATE TABLE IF NOT EXISTS runs(study TEXT, config_id TEXT, workload TEXT, run TEXT,"
	"  rep INT, status TEXT, detail TEXT, build_key TEXT DEFAULT '', binary_hash TEXT DEFAULT '',"
	"  PRIMARY KEY(study, config_id, workload, run, rep));"
	"CREATE TABLE IF NOT EXISTS samples(study TEXT, config_id TEXT, workload TEXT, run TEXT,"
	"  rep INT, metric TEXT, value REAL, unit TEXT,"
	"  PRIMARY KEY(study, config_id, workload, run, rep, metric));"
	"CREATE TABLE IF NOT EXISTS last_run(study TEXT PRIMARY KEY, built INT, cached INT,"
	"  failed INT, finished TEXT);"
	"CREATE TABLE IF NOT EXISTS facts(study TEXT, key TEXT, value TEXT,"
	"  PRIMARY KEY(study, key));"
	"CREATE TABLE IF NOT EXISTS machine(study TEXT, ord INT, key TEXT, value TEXT,"
	"  PRIMARY KEY(study, key));"
	"CREATE TABLE IF NOT EXISTS baselines(name TEXT PRIMARY KEY, study TEXT, saved TEXT);"
	/* the search's memory (search/evalcache.h says what each row is) */
	"CREATE TABLE IF NOT EXISTS search_contexts(id TEXT PRIMARY KEY, description TEXT);"
	"CREATE TABLE IF NOT EXISTS search_evals(context TEXT, flags TEXT, status TEXT,"
	"  objective REAL, detail TEXT, batch TEXT, stored TEXT, PRIMARY KEY(context, flags));"
	"CREATE TABLE IF NOT EXISTS search_searches(id TEXT PRIMARY KEY, context TEXT,"
	"  strategy TEXT, seed INT, evals INT, elapsed REAL, best_flags TEXT, best_objective REAL,"
	"  state TEXT, updated TEXT);"
	"CREATE TABLE IF NOT EXISTS search_trace(search TEXT, seq INT, flags TEXT, objective REAL,"
	"  PRIMARY KEY(search, seq));"
	"CREATE TABLE IF NOT EXISTS search_probes(toolchain TEXT, flag TEXT, message TEXT,"
	"  PRIMARY KEY(toolchain, flag));"
	"CREATE TABLE IF NOT EXISTS search_drops(search TEXT, flag TEXT, PRIMARY KEY(search, flag));"
	/* no time column: two shards' rows that say the same merge as one */
	"CREATE TABLE IF NOT EXISTS progress(study TEXT, shard TEXT, expected INT, complete INT,"
	"  PRIMARY KEY(study, shard));"
	"CREATE TABLE IF NOT EXISTS progress_parts(study TEXT, shard TEXT, workload TEXT,"
	"  expected INT, complete INT, PRIMARY KEY(study, shard, workload));"
	/* per machine, not per study: flagscope calibrate (analysis/calibration.h) */
	"CREATE TABLE IF NOT EXISTS calibrations(machine TEXT, cpu TEXT, item TEXT, metric TEXT,"
	"  floor REAL, noise REAL, layout REAL, aslr REAL, env REAL, spread REAL, runs INT,"
	"  builds INT, study TEXT, stored TEXT, PRIMARY KEY(machine, item, metric));";

/* The runs whose samples count: made by the build stored for their
 * configuration and workload now (store.h, "Provenance").  A view, not a
 * table: merge copies tables only.  Made after the added columns. */
static const char current_runs_view[] =
	"CREATE TEMP VIEW IF NOT EXISTS current_runs AS SELECT r.* FROM runs r LEFT JOIN builds b"
	" ON b.study = r.study AND b.config_id = r.config_id AND b.workload = r.workload"
	" WHERE r.build_key = '' OR b.key IS NULL OR (r.build_key = b.key AND"
	" (r.binary_hash = '' OR b.binary_hash = '' OR r.binary_hash = b.binary_hash))";

/* Columns added to a table after databases were made with it: added when
 * missing, after the columns those databases have, so that both layouts
 * are the same. */
static const struct {
	const char *table, *column, *decl;
} added_columns[] = {
	{"configs", "target", "TEXT DEFAULT ''"},
	{"configs", "cpu", "TEXT DEFAULT ''"},
	{"configs", "libc", "TEXT DEFAULT ''"},
	{"configs", "sysroot", "TEXT DEFAULT ''"},
	{"configs", "notes", "TEXT DEFAULT ''"},
	{"configs", "pgo", "INT DEFAULT 0"},
	{"configs", "in_study", "INT DEFAULT 1"},
	{"configs", "layout", "INT DEFAULT 0"},
	{"configs", "layout_of", "TEXT DEFAULT ''"},
	{"builds", "binary_hash", "TEXT DEFAULT ''"},
	{"runs", "build_key", "TEXT DEFAULT ''"},
	{"runs", "binary_hash", "TEXT DEFAULT ''"},
	{"runs", "layout", "TEXT DEFAULT ''"},
	{"studies", "repeat_target", "REAL"},
	{"studies", "repeat_min", "INT"},
	{"studies", "repeat_max", "INT"},
};

static int has_column(sqlite3 *db, const char *table, const char *column)
{
	char *sql = xasprintf("SELECT 1 FROM pragma_table_info('%s') WHERE name='%s'", table,
			      column);
	sqlite3_stmt *s;
	int has = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		has = sqlite3_step(s) == SQLITE_ROW;
		sqlite3_finalize(s);
	}
	free(sql);
	return has;
}

static int add_missing_columns(sqlite3 *db, char **msg)
{
	for (size_t i = 0; i < ARRAY_SIZE(added_columns); i++) {
		if (has_column(db, added_columns[i].table, added_columns[i].column))
			continue;
		char *sql = xasprintf("ALTER TABLE %s ADD COLUMN %s %s", added_columns[i].table,
				      added_columns[i].column, added_columns[i].decl);
		int rc = sqlite3_exec(db, sql, NULL, NULL, msg);
		free(sql);
		if (rc != SQLITE_OK)
			return -1;
	}
	return 0;
}

/* outcome_ranked(status) and outcome_retried(status) in SQL: an unknown
 * or NULL status has neither meaning. */
static void sql_outcome(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	int (*meaning)(enum outcome) = (int (*)(enum outcome))sqlite3_user_data(ctx);
	const char *name = (const char *)sqlite3_value_text(argv[0]);
	sqlite3_result_int(ctx, meaning(outcome_parse(name)));
}

static int register_outcomes(sqlite3 *db, char **msg)
{
	static const struct {
		const char *name;
		int (*meaning)(enum outcome);
	} fns[] = {
		{"outcome_ranked", outcome_ranked},
		{"outcome_retried", outcome_retried},
	};
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++)
		if (sqlite3_create_function(db, fns[i].name, 1,
					    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
					    (void *)fns[i].meaning, sql_outcome, NULL,
					    NULL) != SQLITE_OK) {
			*msg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
			return -1;
		}
	return 0;
}

/* Remember why the last write failed, from the connection's error. */
static int write_failed(struct store *st)
{
	st->code = sqlite3_extended_errcode(st->db);
	st->sys_errno = sqlite3_system_errno(st->db);
	sb_release(&st->why);
	sb_add(&st->why, sqlite3_errmsg(st->db));
	if ((st->code & 0xff) == SQLITE_BUSY || (st->code & 0xff) == SQLITE_LOCKED)
		sb_addf(&st->why, ": another connection held it past %d s", STORE_BUSY_MS / 1000);
	else if ((st->code & 0xff) == SQLITE_IOERR && st->sys_errno)
		sb_addf(&st->why, ": %s", strerror(st->sys_errno));
	return -1;
}

const char *store_errmsg(const struct store *st)
{
	return sb_str(&st->why);
}

const char *store_errhint(const struct store *st)
{
	return store_hint(st->code, st->sys_errno);
}

const char *store_hint(int code, int sys_errno)
{
	switch (code & 0xff) {
	case SQLITE_FULL:
		return "free space on its filesystem or pass another --db";
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return "another program holds it: let it finish or close it";
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
		return "make the file and its folder writable, on a filesystem mounted read-write";
	case SQLITE_IOERR:
		if (sys_errno == ENOSPC || sys_errno == EDQUOT)
			return "free space on its filesystem or pass another --db";
		if (sys_errno == EROFS || sys_errno == EACCES || sys_errno == EPERM)
			return "make the file and its folder writable, on a filesystem mounted read-write";
	}
	return "check the file and its filesystem";
}

int store_open_lock_file(const char *path, const char *suffix, struct strbuf *err)
{
	/* keyed by the file, not its spelling: a symlink or another path to
	 * the same database takes the same lock */
	char *real = realpath(path, NULL);
	char *lock = xasprintf("%s%s", real ? real : path, suffix);
	free(real);
	/* never followed, and only a file of ours: the pid is written into
	 * it, so a link planted there would truncate what it points to */
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	free(lock);
	if (fd < 0) {
		int e = errno;
		sb_addf(err, "%s: cannot make its lock file %s%s: %s (%s)", path, path, suffix,
			e == ELOOP ? "it is a symbolic link, never followed" : strerror(e),
			e == ELOOP ? "remove the link" : store_hint(SQLITE_IOERR, e));
		return -1;
	}
	struct stat ls;
	if (fstat(fd, &ls) || !S_ISREG(ls.st_mode) || ls.st_uid != geteuid() || (ls.st_mode & 022)) {
		sb_addf(err, "%s: its lock file %s%s is not a file of yours that only you can write (remove it)",
			path, path, suffix);
		close(fd);
		return -1;
	}
	return fd;
}

int store_lock(struct store *st, struct strbuf *err)
{
	int fd = store_open_lock_file(st->path, ".lock", err);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		char pid[32] = "";
		ssize_t got = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[got > 0 ? got : 0] = '\0';
		sb_addf(err, "%s: in use by another flagscope run (pid %s) (wait for it, or use another --db)",
			st->path, *str_trim(pid) ? str_trim(pid) : "?");
		close(fd);
		return -1;
	}
	char text[32];
	int n = snprintf(text, sizeof(text), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)n, 0) != n) {
		/* the pid is only shown to a waiting user */
	}
	st->lock_fd = fd;
	return 0;
}

/* The schema, its newer columns and the outcome functions; -1 with the
 * connection's error (or *msg) when one fails. */
static int store_prepare(struct store *st, char **msg)
{
	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	return sqlite3_exec(st->db, schema, NULL, NULL, msg) != SQLITE_OK ||
			       add_missing_columns(st->db, msg) ||
			       sqlite3_exec(st->db, current_runs_view, NULL, NULL, msg) != SQLITE_OK ||
			       register_outcomes(st->db, msg)
		       ? -1
		       : 0;
}

/* A reader's way into a database it cannot write beside: a WAL database
 * needs PATH-shm, which a read-only or full filesystem cannot make.
 * immutable=1 reads the file alone (a PATH-wal left there, which only a
 * killed writer leaves, would have let the first open succeed). */
static int open_immutable(struct store *st, const char *path)
{
	if (access(path, R_OK))
		return -1;
	sqlite3_close(st->db);
	struct strbuf uri = {0};
	sb_add(&uri, "file:");
	for (const char *c = path; *c; c++) /* what a URI would read as its own */
		if (*c == '?' || *c == '#' || *c == '%')
			sb_addf(&uri, "%%%02X", (unsigned char)*c);
		else
			sb_addf(&uri, "%c", *c);
	sb_add(&uri, "?immutable=1");
	int rc = sqlite3_open_v2(sb_str(&uri), &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	sb_release(&uri);
	if (rc != SQLITE_OK)
		return -1;
	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	char *msg = NULL;
	rc = register_outcomes(st->db, &msg);
	sqlite3_free(msg);
	/* a database from before the build columns has no view: its queries
	 * then find nothing (results.c reads that as "nothing stored") */
	sqlite3_exec(st->db, current_runs_view, NULL, NULL, NULL);
	return rc;
}

/* Is this failure the file's content (not a database, or not ours)? */
static int not_ours(int code)
{
	code &= 0xff;
	return code == SQLITE_NOTADB || code == SQLITE_CORRUPT || code == SQLITE_ERROR;
}

/* Is it the filesystem's (full, read-only), where a reader may still read
 * the file immutable?  Not a lock: another writer may be changing it. */
static int filesystem_refused(int code)
{
	code &= 0xff;
	return code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_IOERR ||
	       code == SQLITE_FULL || code == SQLITE_PERM;
}

/* What to do when SQLite cannot open path at all. */
static const char *open_hint(const char *path, int create)
{
	struct stat sb;
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		return "it is a folder: pass the path of a file";
	if (!create)
		return "run a study first or pass --db";
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	int missing = stat(dir, &sb) != 0;
	free(dir);
	return missing ? "its folder does not exist: make it, or pass another --db"
		       : "make its folder writable, or pass another --db";
}

int store_open(struct store *st, const char *path, int create, struct strbuf *err)
{
	memset(st, 0, sizeof(*st));
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
		sb_addf(err, "%s: cannot open results database: %s (%s)", path,
			st->db ? sqlite3_errmsg(st->db) : "out of memory", open_hint(path, create));
		store_close(st);
		return -1;
	}
	char *msg = NULL;
	if (store_prepare(st, &msg)) {
		write_failed(st);
		int ours = !not_ours(st->code);
		if (!create && filesystem_refused(st->code) && !open_immutable(st, path)) {
			sqlite3_free(msg);
			st->path = xstrdup(path);
			return 0;
		}
		if (ours)
			sb_addf(err, "%s: cannot open results database: %s (%s)", path,
				store_errmsg(st), store_errhint(st));
		else
			sb_addf(err, "%s: not a flagscope results database: %s (use another --db path)",
				path, msg ? msg : store_errmsg(st));
		sqlite3_free(msg);
		store_close(st);
		return -1;
	}
	st->path = xstrdup(path);
	if (store_migrate(st)) {
		sb_addf(err, "%s: cannot bring a database of an older flagscope up to date: %s (make it writable, or free space)",
			path, store_errmsg(st));
		store_close(st);
		return -1;
	}
	return 0;
}

void store_close(struct store *st)
{
	if (st->db)
		sqlite3_close(st->db);
	if (st->lock_fd > 0)
		close(st->lock_fd);
	free(st->path);
	sb_release(&st->why);
	memset(st, 0, sizeof(*st));
}

/* Bind text/double/int parameters described by a format: 't' text,
 * 'd' double, 'i' int, 'n' a double stored as NULL when 0; then step
 * once.  0, or -1 with the cause recorded. */
static int exec_bound(struct store *st, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *stmt;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return write_failed(st);
	va_list ap;
	va_start(ap, fmt);
	int rc = SQLITE_OK;
	for (int i = 0; fmt[i] && rc == SQLITE_OK; i++) {
		double d;
		switch (fmt[i]) {
		case 't':
			rc = sqlite3_bind_text(stmt, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
			break;
		case 'd':
			rc = sqlite3_bind_double(stmt, i + 1, va_arg(ap, double));
			break;
		case 'n':
			d = va_arg(ap, double);
			rc = d != 0 ? sqlite3_bind_double(stmt, i + 1, d) : sqlite3_bind_null(stmt, i + 1);
			break;
		case 'i':
			rc = sqlite3_bind_int(stmt, i + 1, va_arg(ap, int));
			break;
		}
	}
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	int ok = rc == SQLITE_DONE || rc == SQLITE_ROW;
	if (!ok)
		write_failed(st);
	sqlite3_finalize(stmt);
	return ok ? 0 : -1;
}

static int exec_plain(struct store *st, const char *sql)
{
	return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : write_failed(st);
}

/* A write of several statements: begin, and end with commit when rc is
 * 0.  A failed statement or COMMIT rolls everything back, so a row is
 * stored whole or not at all; the first cause is kept. */
static int begin(struct store *st)
{
	return exec_plain(st, "BEGIN IMMEDIATE");
}

static int end(struct store *st, int rc)
{
	if (!rc && !exec_plain(st, "COMMIT"))
		return 0;
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_put_study(struct store *st, const struct store_study *s)
{
	int aut = s->repeat_target > 0;
	/* NULLs when the study repeats a fixed number of times */
	return exec_bound(st,
			  "INSERT OR REPLACE INTO studies(name, path, metric, updated, repeat_target, "
			  "repeat_min, repeat_max) VALUES(?,?,?,datetime('now'),?,?,?)",
			  "tttnnn", s->name, s->path, s->metric, aut ? s->repeat_target : 0.0,
			  aut ? (double)s->repeat_min : 0.0, aut ? (double)s->repeat_max : 0.0);
}
int store_put_config(struct store *st, const struct store_config *c)
{
	return exec_bound(st,
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
	int rc = begin(st);
	if (!rc)
		rc = exec_bound(st, "UPDATE runs SET build_key=(SELECT key FROM builds b WHERE "
				"b.study=?1 AND b.config_id=?2 AND b.workload=?3) WHERE study=?1 AND "
				"config_id=?2 AND workload=?3 AND build_key='' AND EXISTS(SELECT 1 "
				"FROM builds b WHERE b.study=?1 AND b.config_id=?2 AND b.workload=?3)",
				"ttt", b->study, b->config_id, b->workload);
	if (!rc)
		rc = exec_bound(st, "INSERT OR REPLACE INTO builds(study, config_id, workload, key, "
				"status, detail, seconds, cached, facts, binary_hash) "
				"VALUES(?,?,?,?,?,?,?,?,?,?)",
				"ttttttditt", b->study, b->config_id, b->workload, b->key, b->status,
				b->detail ? b->detail : "", b->seconds, b->cached,
				b->facts ? b->facts : "{}", b->binary_hash ? b->binary_hash : "");
	return end(st, rc);
}

int store_put_build_sizes(struct store *st, const char *study, const char *config_id,
			  const char *workload, const struct store_metric *sizes, size_t n)
{
	int rc = begin(st);
	if (!rc)
		rc = exec_bound(st, "DELETE FROM build_sizes WHERE study=? AND config_id=? AND workload=?",
				"ttt", study, config_id, workload);
	for (size_t i = 0; i < n && !rc; i++)
		rc = exec_bound(st, "INSERT INTO build_sizes VALUES(?,?,?,?,?,?)", "ttttdt", study,
				config_id, workload, sizes[i].name, sizes[i].value, sizes[i].unit);
	return end(st, rc);
}

int store_put_run_of(struct store *st, const struct store_run *r,
		     const struct store_metric *metrics, size_t nmetrics)
{
	int rc = begin(st);
	/* another build's samples of this repetition go with its row (a
	 * metric the new run lacks is not left behind as the new build's) */
	if (!rc && r->build_key && *r->build_key)
		rc = exec_bound(st, "DELETE FROM samples WHERE study=?1 AND config_id=?2 AND "
				"workload=?3 AND run=?4 AND rep=?5 AND EXISTS(SELECT 1 FROM runs u "
				"WHERE u.study=?1 AND u.config_id=?2 AND u.workload=?3 AND u.run=?4 "
				"AND u.rep=?5 AND u.build_key<>?6)",
				"ttttit", r->study, r->config_id, r->workload, r->run, r->rep,
				r->build_key);
	if (!rc)
		rc = exec_bound(st, "INSERT OR REPLACE INTO runs(study, config_id, workload, run, "
				"rep, status, detail, build_key, binary_hash, layout) VALUES(?,?,?,?,?,?,?,?,?,?)",
				"ttttittttt", r->study, r->config_id, r->workload, r->run, r->rep,
				r->status, r->detail ? r->detail : "", r->build_key ? r->build_key : "",
				r->binary_hash ? r->binary_hash : "", r->layout ? r->layout : "");
	for (size_t i = 0; i < nmetrics && !rc; i++)
		rc = exec_bound(st, "INSERT OR REPLACE INTO samples VALUES(?,?,?,?,?,?,?,?)",
				"ttttitdt", r->study, r->config_id, r->workload, r->run, r->rep,
				metrics[i].name, metrics[i].value, metrics[i].unit);
	return end(st, rc);
}

int store_put_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep, const char *status,
		  const char *detail, const struct store_metric *metrics, size_t nmetrics)
{
	struct store_run r = {study, config_id, workload, run, rep, status, detail, NULL, NULL};
	return store_put_run_of(st, &r, metrics, nmetrics);
}

/* What the older layouts left, moved in one pass (see store.h).  The
 * "repeat.auto" fact reads "target=T min=N max=M"; CAST takes the number
 * at the start of the text after each name. */
static const char *const migrations[] = {
	"INSERT OR REPLACE INTO build_sizes(study, config_id, workload, metric, value, unit) "
	"SELECT study, config_id, workload, metric, value, unit FROM samples "
	"WHERE run='@build' AND rep=0",
	"DELETE FROM samples WHERE run='@build'",
	"DELETE FROM runs WHERE run='@build'",
	"UPDATE studies SET "
	" repeat_target=(SELECT CAST(substr(value, instr(value, 'target=') + 7) AS REAL)"
	"  FROM facts WHERE study=name AND key='repeat.auto'),"
	" repeat_min=(SELECT CAST(substr(value, instr(value, 'min=') + 4) AS INT)"
	"  FROM facts WHERE study=name AND key='repeat.auto'),"
	" repeat_max=(SELECT CAST(substr(value, instr(value, 'max=') + 4) AS INT)"
	"  FROM facts WHERE study=name AND key='repeat.auto') "
	"WHERE repeat_target IS NULL AND name IN (SELECT study FROM facts WHERE key='repeat.auto')",
	"DELETE FROM facts WHERE key='repeat.auto'",
};

static int has_old_rows(struct store *st)
{
	sqlite3_stmt *s;
	int has = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT 1 WHERE EXISTS(SELECT 1 FROM runs WHERE run='@build') OR "
			       "EXISTS(SELECT 1 FROM facts WHERE key='repeat.auto')",
			       -1, &s, NULL) == SQLITE_OK) {
		has = sqlite3_step(s) == SQLITE_ROW;
		sqlite3_finalize(s);
	}
	return has;
}

int store_migrate(struct store *st)
{
	/* only a database with old rows is written: reading a current one
	 * (perhaps read-only) writes nothing */
	if (!has_old_rows(st))
		return 0;
	int own = sqlite3_get_autocommit(st->db);
	int rc = own ? begin(st) : 0;
	for (size_t i = 0; i < ARRAY_SIZE(migrations) && !rc; i++)
		rc = exec_plain(st, migrations[i]);
	return own ? end(st, rc) : rc;
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
	int rc = begin(st);
	/* an older flagscope's row says nothing per workload: it stands for
	 * the workloads this run leaves alone */
	if (!rc && only_these)
		rc = exec_bound(st, "INSERT INTO progress_parts SELECT study, shard, '*', expected, "
				    "complete FROM progress p WHERE study=?1 AND shard=?2 AND NOT "
				    "EXISTS (SELECT 1 FROM progress_parts q WHERE q.study=?1 AND "
				    "q.shard=?2)", "tt", study, shard);
	if (!rc && !only_these)
		rc = exec_bound(st, "DELETE FROM progress_parts WHERE study=? AND shard=?", "tt",
				study, shard);
	for (size_t i = 0; i < n && !rc; i++)
		rc = exec_bound(st, "INSERT OR REPLACE INTO progress_parts VALUES(?,?,?,?,?)", "tttii",
				study, shard, parts[i].workload, parts[i].expected, complete);
	if (!rc)
		rc = exec_bound(st, "INSERT OR REPLACE INTO progress SELECT ?1, ?2, "
				    "coalesce(sum(expected), 0), coalesce(min(complete), ?3) FROM "
				    "progress_parts WHERE study=?1 AND shard=?2", "tti", study, shard,
				complete);
	return end(st, rc);
}

int store_configs_leave_study(struct store *st, const char *study)
{
	return exec_bound(st, "UPDATE configs SET in_study=0 WHERE study=?", "t", study);
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
	int rc = exec_bound(
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
	return exec_bound(st, "INSERT OR REPLACE INTO last_run VALUES(?,?,?,?,datetime('now'))",
			  "tiii", study, built, cached, failed);
}

int store_put_fact(struct store *st, const char *study, const char *key, const char *value)
{
	return exec_bound(st, "INSERT OR REPLACE INTO facts VALUES(?,?,?)", "ttt", study, key,
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
	int rc = begin(st);
	if (!rc)
		rc = exec_bound(st, "DELETE FROM machine WHERE study=?", "t", study);
	for (size_t i = 0; i < n && !rc; i++)
		rc = exec_bound(st, "INSERT INTO machine VALUES(?,?,?,?)", "titt", study, (int)i,
				keys[i], values[i] ? values[i] : "unknown");
	return end(st, rc);
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
	int rc = exec_bound(st, del, "t", to);
	if (!rc)
		rc = exec_bound(st, ins, "tt", to, from);
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
	int rc = begin(st);
	for (size_t i = 0; i < ARRAY_SIZE(study_tables) && !rc; i++)
		rc = copy_study_rows(st, study_tables[i].table, study_tables[i].key, study, to);
	if (!rc)
		rc = exec_bound(st, "INSERT OR REPLACE INTO baselines VALUES(?,?,datetime('now'))",
				"tt", name, study);
	if (!rc && clear)
		rc = exec_bound(st, "DELETE FROM samples WHERE study=?", "t", study);
	if (!rc && clear)
		rc = exec_bound(st, "DELETE FROM runs WHERE study=?", "t", study);
	free(to);
	return end(st, rc);
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
	int rc = found ? begin(st) : 0;
	for (size_t i = 0; found && i < ARRAY_SIZE(study_tables) && !rc; i++) {
		char *sql = xasprintf("DELETE FROM %s WHERE %s=?", study_tables[i].table,
				      study_tables[i].key);
		rc = exec_bound(st, sql, "t", study);
		free(sql);
	}
	if (found && !rc)
		rc = exec_bound(st, "DELETE FROM baselines WHERE name=?", "t", name);
	free(study);
	if (!found)
		return 1;
	return end(st, rc);
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
