/*
 * store.h - the results database (SQLite, WAL).  Every sample is committed
 * as it lands, so a killed study loses at most the run in flight, and a
 * rerun of the same study only runs what is missing.
 *
 * Tables: studies (with the auto-repeat settings), configs, builds,
 * build_sizes (one row per size metric of a build), runs (one row per
 * configuration, workload, run section and repetition, with its outcome),
 * samples (one row per metric of a run), last_run (counts of the latest
 * `run`), facts (meter facts such as which perf events were available),
 * machine (the machine's state during the study, harness/machine.h's
 * keys), baselines (named copies of a study, kept as the study
 * "baseline:NAME"), progress (per study and shard: the runs planned and
 * whether the last `run` went through to its end; progress_parts the same
 * per workload, what progress sums), search_* (a search's memory: their
 * rows are read and written through store_search.h).
 *
 * Provenance: every run row keeps the build that made it (runs.build_key,
 * runs.binary_hash: the build's cache key and the SHA-256 of its
 * binaries' files, builds.binary_hash the same of the build stored now).
 * A run counts only while it is the current build's: the temporary view
 * current_runs holds those (rows with an empty build_key, written without
 * one, count as before).  Runs an older flagscope stored get the key of
 * the build stored beside them when `run` stores that configuration's
 * build again (store_put_build), so a changed build never takes them.
 *
 * Membership: configs.in_study is 1 for the configurations of the study
 * as `run` last read it; a configuration edited away (its flags changed,
 * so its id) stays with in_study 0, its rows kept.
 *
 * Writes: every store_put_* returns 0, or -1 with nothing of it stored (a
 * failed statement or COMMIT is rolled back, never left half done) and
 * the cause in store_errmsg(): "database or disk is full", "database is
 * locked" (after waiting STORE_BUSY_MS for the other writer), "attempt to
 * write a readonly database".  A caller that stores results stops at the
 * first -1: a sample it cannot store is lost.  A struct store is used by
 * one thread at a time (callers with worker threads lock around it), and
 * store_errmsg() belongs to it.
 *
 * Outcomes in SQL: store_open() registers outcome_ranked(status) and
 * outcome_retried(status), which read base/outcome.h's table, so queries
 * never spell outcome names.
 */
#ifndef FLAGSCOPE_STORE_H
#define FLAGSCOPE_STORE_H

#include <sqlite3.h>

#include "base/outcome.h"
#include "base/util.h"

struct store {
	sqlite3 *db;
	char *path;
	int lock_fd; /* > 0 while store_lock() holds it */
	struct strbuf why; /* the cause of the last failed write */
	int code, sys_errno; /* its SQLite extended code and errno */
};

/* How long a write waits for another connection's lock before it fails
 * with "database is locked". */
#define STORE_BUSY_MS 10000

/* Open or create; 0 or -1 with a reason in err: "PATH: not a flagscope
 * results database: ..." only for a file that is not one, else "PATH:
 * cannot open results database: CAUSE (WHAT TO DO)".  Without create (a
 * reader), a database on a read-only or full filesystem, where SQLite
 * cannot make its PATH-shm, is opened read-only and immutable (its writes
 * fail as on a read-only file).  A database made by an older flagscope is
 * brought up to date (store_migrate()). */
int store_open(struct store *st, const char *path, int create, struct strbuf *err);
void store_close(struct store *st);
/* One writer per database: take PATH.lock (flock) for the life of the
 * store, so two runs never interleave their samples or share run
 * folders.  PATH is the database's realpath, so every spelling of it and
 * every symlink to it share the lock.  0, or -1 with "in use by another
 * flagscope run (pid N)". */
int store_lock(struct store *st, struct strbuf *err);
/* The lock file <path's real path><suffix> (".lock", ".search.lock"),
 * opened read-write, made if missing, never through a symbolic link, and
 * only when it is a regular file of ours that no one else can write: its
 * descriptor, or -1 with "PATH: ... (what to do)" in err.  Not locked. */
int store_open_lock_file(const char *path, const char *suffix, struct strbuf *err);

/* A configuration.  target, cpu, libc, sysroot and notes may be NULL
 * (stored as ""): a cross configuration's target triple (recommend's
 * CHOST), the emulator's CPU model, the libc level, the sysroot built for
 * it and the flags the harness had to add with why (struct config in
 * flagsets/matrix.h).  Databases made before these columns get them, empty,
 * when opened. */
struct store_config {
	const char *study, *id, *label, *cc, *toolchain_id, *toolchain_version, *cflags, *ldflags,
		*link;
	int is_baseline, order;
	const char *target, *cpu, *libc, *sysroot, *notes;
	int pgo; /* 1: a profile-guided build (the study's pgo = gen-use level) */
	int layout;            /* layouts = N: 0 plain, 1..N-1 a layout variant */
	const char *layout_of; /* a variant's plain configuration's id; NULL or "" */
};
/* The cause of the last failed store_put_* ("" when none failed): a
 * lower-case phrase without the path, for "PATH: cannot store ...: CAUSE". */
const char *store_errmsg(const struct store *st);
/* What to do about that cause, for the "(...)" of the same line: "free
 * space on its filesystem or pass another --db", "make the file and its
 * folder writable, ...", "another program holds it: ...". */
const char *store_errhint(const struct store *st);
/* The same for any SQLite connection's failure: its extended code and
 * sqlite3_system_errno(). */
const char *store_hint(int code, int sys_errno);

/* Bring data an older flagscope wrote into today's tables: sizes stored as
 * run "@build" rep 0 move to build_sizes, the fact "repeat.auto"
 * ("target=T min=N max=M") to the studies' repeat_* columns.  Runs inside
 * the caller's transaction when one is open (merge), else in its own.
 * 0, or -1 with the cause in store_errmsg(). */
int store_migrate(struct store *st);

/* Let the database grow to at most pages pages (SQLite's max_page_count),
 * so its writes then fail as on a full disk (SQLITE_FULL): the test hook
 * FLAGSCOPE_TEST_DB_MAX_PAGES (pipeline_init, tests/it_store_full.sh). */
void store_limit_pages(struct store *st, long pages);

/* A study.  repeat_target > 0 when the study repeats automatically
 * (`repeat = auto`): the relative width every median's 95% interval must
 * reach, starting with repeat_min repetitions and stopping at repeat_max;
 * 0 (stored as NULL) when it repeats a fixed number of times. */
struct store_study {
	const char *name, *path, *metric;
	double repeat_target;
	int repeat_min, repeat_max;
};
int store_put_study(struct store *st, const struct store_study *s);
int store_put_config(struct store *st, const struct store_config *c);

struct store_build {
	const char *study, *config_id, *workload, *key, *status, *detail, *facts;
	const char *binary_hash; /* over the binaries' files; NULL: not known */
	double seconds;
	int cached;
};
int store_put_build(struct store *st, const struct store_build *b);

struct store_metric {
	const char *name;
	double value;
	const char *unit;
};
/* A build's own metrics (section sizes: size.text, ...), one exact value
 * each, replacing what the build had; one transaction. */
int store_put_build_sizes(struct store *st, const char *study, const char *config_id,
			  const char *workload, const struct store_metric *sizes, size_t n);
/* One run and its metrics in one transaction (rep 0 = warm-up). */
int store_put_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep, const char *status,
		  const char *detail, const struct store_metric *metrics, size_t nmetrics);
/* One run and the build that made it (key and binary hash; NULL: not
 * known, stored as ""), with its metrics in one transaction: samples
 * another build stored for the repetition are removed, not kept beside. */
struct store_run {
	const char *study, *config_id, *workload, *run;
	int rep;
	const char *status, *detail, *build_key, *binary_hash;
	const char *layout; /* the run's layout (harness/layout.h's describe), or NULL */
};
int store_put_run_of(struct store *st, const struct store_run *r,
		     const struct store_metric *metrics, size_t nmetrics);

/* A stored repetition's outcome and its build.  0 when it is stored, -1
 * (outcome OUTCOME_COUNT, "" keys) when not. */
struct store_run_origin {
	enum outcome outcome;
	char build_key[65], binary_hash[65];
};
int store_run_origin(struct store *st, const char *study, const char *config_id,
		     const char *workload, const char *run, int rep, struct store_run_origin *o);
/* 1 when o was made by that build: the same key, and the same binary hash
 * where both are known.  A row stored without a build is no build's. */
int store_run_origin_is(const struct store_run_origin *o, const char *build_key,
			const char *binary_hash);
/* How many stored runs (warm-ups too) of (config, workload) another build
 * made; *same_key how many of them have build_key's key (another binary
 * under the same key: the build was made again). */
int store_runs_of_other_build(struct store *st, const char *study, const char *config_id,
			      const char *workload, const char *build_key,
			      const char *binary_hash, int *same_key);

/* What `run` planned for study in shard ("I/N", "" for the whole study),
 * per workload: its expected measured repetitions (rep >= 1); complete 1
 * when the run went through to its end (a stop, a kill or --build-only
 * leave 0).  Each part replaces its workload's row of progress_parts; the
 * shard's other workloads' rows are kept when only_these (`run
 * --workloads`: a partial run never decides for the rest), else dropped
 * (not in the study now).  The shard's progress row then sums the parts'
 * expected and is complete only when every part is.  A progress row with
 * no parts (an older flagscope's) stays, as part "*", when only_these. */
struct store_progress_part {
	const char *workload;
	int expected;
};
int store_put_progress(struct store *st, const char *study, const char *shard,
		       const struct store_progress_part *parts, size_t n, int only_these,
		       int complete);
/* Before `run` stores a study's configurations: every stored one is out
 * of the study (in_study 0) until store_put_config stores it again. */
int store_configs_leave_study(struct store *st, const char *study);

/* 1 when that repetition is already stored with an outcome a resume keeps
 * (any but the retried ones: board_fault), 0 if not. */
int store_has_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep);
/* The stored outcome of that repetition; OUTCOME_COUNT when none is
 * stored (or its name is no outcome's). */
enum outcome store_run_outcome(struct store *st, const char *study, const char *config_id,
			       const char *workload, const char *run, int rep);
/* A reference the baseline itself cannot reproduce judges nobody: where
 * baseline_id's run of a workload and run section is wrong_output with
 * OUTCOME_NOT_REPRODUCIBLE (base/outcome.h), every other configuration's
 * wrong_output of that run section becomes no_reference, its detail
 * "the baseline's own output is not reproducible (see BASELINE_LABEL
 * WORKLOAD[/RUN]: output not reproducible); not judged: ..." before the
 * difference it found.  The number of rows changed, or -1. */
int store_unreproducible_runs(struct store *st, const char *study, const char *baseline_id,
			      const char *baseline_label);
int store_put_last_run(struct store *st, const char *study, int built, int cached, int failed);
int store_put_fact(struct store *st, const char *study, const char *key, const char *value);

/* The values of one metric over the good repetitions (rep >= 1, a ranked
 * outcome: ok; made by the current build: current_runs) of a
 * configuration's run, in repetition order; heap array, *n set.
 * A metric that no repetition carries gives the good warm-up's value (rep
 * 0): the wrapping meters (perf, cachegrind: meter.h) measure one run
 * after the warm-up and store it there, so `metric = insns` with
 * `meters = cachegrind` ranks. */
double *store_get_samples(struct store *st, const char *study, const char *config_id,
			  const char *workload, const char *run, const char *metric, size_t *n);

/* The study stored most recently (for `report` without --study); heap
 * string or NULL. */
char *store_latest_study(struct store *st);

/* The names of the studies stored, newest first, into *out (a saved
 * baseline's too); 0, or -1 when the query failed. */
int store_study_names(struct store *st, struct strlist *out);

/* The machine state of a study: n keys and values in order (the keys of
 * harness/machine.h), replacing what the study had; one transaction. */
int store_put_machine(struct store *st, const char *study, const char *const *keys,
		      char *const *values, size_t n);
/* The stored machine state of a study, in the order it was stored,
 * appended to keys and values (nothing when none is stored). */
void store_get_machine(struct store *st, const char *study, struct strlist *keys,
		       struct strlist *values);

/* A stored build as its log is named (build_logs.h): its study, workload,
 * its configuration's label and its cache key. */
struct store_build_ref {
	char *study, *workload, *label, *key;
};
/* Every build with a cache key, by study, workload and configuration
 * order; heap array (*n set, NULL when none). */
struct store_build_ref *store_builds_keyed(struct store *st, size_t *n);
void store_build_refs_free(struct store_build_ref *b, size_t n);

/*
 * Baselines: `baseline save NAME` copies every row of a study (configs,
 * builds, sizes, runs, samples, facts, machine state, counts) to the study
 * STORE_BASELINE_PREFIX NAME and names it in the table baselines.  A
 * saved baseline is an ordinary stored study (report --study
 * baseline:NAME shows it), never the "latest" one unless alone.
 */
#define STORE_BASELINE_PREFIX "baseline:"
struct store_baseline {
	char *name, *study, *saved; /* saved: UTC "YYYY-MM-DD HH:MM:SS" */
	int runs;                   /* stored repetitions (rep >= 1) */
};
/* Copy study to baseline name, replacing one of that name (*replaced set
 * to 1 then); with clear, the study's runs and samples are deleted after
 * (the next `run` measures afresh; builds stay).  One transaction.  0, -1
 * with the cause in store_errmsg(), or 1 when the study has no runs. */
int store_baseline_save(struct store *st, const char *name, const char *study, int clear,
			int *replaced);
/* 1 when baseline name is saved, else 0. */
int store_baseline_exists(struct store *st, const char *name);
/* 0 deleted, 1 no such baseline, -1 failed (store_errmsg()). */
int store_baseline_delete(struct store *st, const char *name);
/* Every baseline, oldest first; heap array (*n set). */
struct store_baseline *store_baselines(struct store *st, size_t *n);
void store_baselines_free(struct store_baseline *b, size_t n);

#endif
