/*
 * store.h - the results database (SQLite, WAL).  Every sample is committed
 * as it lands, so a killed study loses at most the run in flight, and a
 * rerun of the same study only runs what is missing.
 *
 * Tables: studies, configs, builds, runs (one row per configuration,
 * workload, run section and repetition, with its outcome), samples (one
 * row per metric of a run), last_run (counts of the latest `run`), facts
 * (meter facts such as which perf events were available).
 */
#ifndef FLAGSCOPE_STORE_H
#define FLAGSCOPE_STORE_H

#include <sqlite3.h>

#include "base/util.h"

struct store {
	sqlite3 *db;
	char *path;
	int lock_fd; /* > 0 while store_lock() holds it */
	char *error; /* why the last write failed (SQLite's message), or NULL */
};

/* Open or create; 0 or -1 with a reason in err. */
int store_open(struct store *st, const char *path, int create, struct strbuf *err);
void store_close(struct store *st);
/* One writer per database: take PATH.lock (flock) for the life of the
 * store, so two runs never interleave their samples or share run
 * folders.  0, or -1 with "in use by another flagscope run (pid N)". */
int store_lock(struct store *st, struct strbuf *err);

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
};
/* The store_put_* functions return 0, or -1 with the cause (e.g.
 * "database or disk is full") in store_error(). */
const char *store_error(const struct store *st);
int store_put_study(struct store *st, const char *name, const char *path, const char *metric);
int store_put_config(struct store *st, const struct store_config *c);

struct store_build {
	const char *study, *config_id, *workload, *key, *status, *detail, *facts;
	double seconds;
	int cached;
};
int store_put_build(struct store *st, const struct store_build *b);

struct store_metric {
	const char *name;
	double value;
	const char *unit;
};
/* One run and its metrics in one transaction (rep 0 = warm-up).  A
 * build's own metrics (section sizes) are stored as run "@build", rep 0. */
int store_put_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep, const char *status,
		  const char *detail, const struct store_metric *metrics, size_t nmetrics);
/* 1 when that repetition is already stored with any outcome but
 * board_fault (a board that failed is tried again on resume), 0 if not. */
int store_has_run(struct store *st, const char *study, const char *config_id,
		  const char *workload, const char *run, int rep);
int store_put_last_run(struct store *st, const char *study, int built, int cached, int failed);
int store_put_fact(struct store *st, const char *study, const char *key, const char *value);

/* The values of one metric over the good repetitions (rep >= 1, status
 * ok) of a configuration's run, in repetition order; heap array, *n set. */
double *store_get_samples(struct store *st, const char *study, const char *config_id,
			  const char *workload, const char *run, const char *metric, size_t *n);

/* The study stored most recently (for `report` without --study); heap
 * string or NULL. */
char *store_latest_study(struct store *st);

#endif
