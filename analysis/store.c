/* store.c - see store.h: the database opened, locked, made and migrated,
 * and the write helpers the other store_*.c files share
 * (store_internal.h).  The study's rows are in store_rows.c, the named
 * baselines in store_baseline.c. */
#include "analysis/store.h"
#include "analysis/store_internal.h"

#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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
		sb_addf(&st->why, ": %s", strerror_lc(st->sys_errno));
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
			e == ELOOP ? "it is a symbolic link, never followed" : strerror_lc(e),
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

int store_exec(struct store *st, const char *sql, const char *fmt, ...)
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
		case 'I':
			rc = sqlite3_bind_int64(stmt, i + 1, va_arg(ap, sqlite3_int64));
			break;
		case 'o':
			d = va_arg(ap, double);
			rc = isfinite(d) ? sqlite3_bind_double(stmt, i + 1, d) : sqlite3_bind_null(stmt, i + 1);
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

int store_exec_plain(struct store *st, const char *sql)
{
	return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : write_failed(st);
}

int store_begin(struct store *st)
{
	return store_exec_plain(st, "BEGIN IMMEDIATE");
}

int store_end(struct store *st, int rc)
{
	if (!rc && !store_exec_plain(st, "COMMIT"))
		return 0;
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
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
	int rc = own ? store_begin(st) : 0;
	for (size_t i = 0; i < ARRAY_SIZE(migrations) && !rc; i++)
		rc = store_exec_plain(st, migrations[i]);
	return own ? store_end(st, rc) : rc;
}


void store_limit_pages(struct store *st, long pages)
{
	char *sql = xasprintf("PRAGMA max_page_count = %ld", pages);
	sqlite3_exec(st->db, sql, NULL, NULL, NULL);
	free(sql);
}
