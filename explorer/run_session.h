/*
 * run_session.h - one `flagscope run` in progress, shared by cmd_run.c
 * (loading, preparing, building, reporting) and run_schedule.c (the order
 * of the measured runs).
 */
#ifndef FLAGSCOPE_RUN_SESSION_H
#define FLAGSCOPE_RUN_SESSION_H

#include <pthread.h>
#include <signal.h>

#include "analysis/store.h"
#include "flagsets/matrix.h"
#include "flagsets/study.h"
#include "harness/build.h"
#include "harness/execute.h"
#include "harness/runner.h"
#include "harness/toolchain.h"
#include "workloads/recipe.h"

struct session {
	struct study study;
	struct matrix matrix;
	struct recipe *recipes;
	size_t nrecipes;
	char **src_dirs;
	char (*src_ids)[65];
	char **src_errors;
	char **in_dirs;
	char **in_errors;
	struct toolchain *tcs; /* one per configuration (copies share nothing) */
	int *tc_ok;
	enum outcome *cfg_outcome; /* before building: unsupported flag / toolchain */
	char **cfg_detail;
	struct build *builds; /* config-major: builds[c * nrecipes + w] */
	char *in_shard;       /* per build: this run measures it (--shard) */
	int shard_i, shard_n; /* 0/1 without --shard */
	struct store store;
	struct exec_ctx exec;
	struct run_target target; /* [run] host: boards over ssh */
	int total_runs, runs_done;
	/* on boards, run_all's workers share the store, runs_done and the
	 * progress output: they hold this to touch them */
	pthread_mutex_t lock;
	size_t builds_total;
	double started;
};

/* Set by SIGINT/SIGTERM: the schedule stops after the run in flight. */
extern volatile sig_atomic_t run_interrupted;

/* Every measured run of the session: the baseline's warm-ups first (they
 * make the references), the other warm-ups, the study's extra warm-ups,
 * then the repetitions interleaved A B C A B C (repeat = auto: until each
 * item's interval is within the target).  Stored repetitions are skipped,
 * so a rerun resumes.  On boards (s->exec.target) each round's items (the
 * other warm-ups, each extra warm-up, each repetition) run on one worker
 * thread per board of the pool and per_board, and a round starts after
 * the one before ends; the baseline's warm-ups stay first and one at a
 * time.  Native and qemu runs are one at a time (two at once would disturb
 * each other's timings). */
void run_all(struct session *s);

#endif
