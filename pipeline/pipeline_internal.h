/*
 * pipeline_internal.h - what the files of pipeline/ share and nobody else
 * needs.
 */
#ifndef FLAGSCOPE_PIPELINE_INTERNAL_H
#define FLAGSCOPE_PIPELINE_INTERNAL_H

#include "analysis/results.h"
#include "harness/build.h"
#include "harness/execute.h"
#include "harness/machine.h"
#include "harness/runner.h"
#include "harness/toolchain.h"
#include "pipeline/pipeline.h"

/* pipeline_execute's steps (pipeline.h), one study's state through them */
struct pipeline {
	struct study_plan *plan;
	struct store *store;
	const struct pipeline_options *opt;
	const char *metric; /* what repeat = auto closes items on */
	struct exec_ctx exec;
	struct machine_state machine; /* read by pipeline_init, stored by pipeline_run */
	struct run_target target; /* [run] host: boards over ssh */
	int total_runs, runs_done;
	int runs_stored; /* of total_runs: found stored (a resume), not run now */
	double started;
	/* on boards the schedule's workers share the store, the counts and
	 * the events: they hold this to touch them */
	pthread_mutex_t lock;
	int store_failed;        /* the first failed write stops everything */
	struct strbuf store_error;
};

void pipeline_init(struct pipeline *pl, struct study_plan *p, struct store *st,
		   const struct pipeline_options *o);
void pipeline_release(struct pipeline *pl);

/* Store the study and its configurations, build everything (opt->jobs at a
 * time), store the builds and the counts (counts may be NULL). */
enum pipeline_status pipeline_build(struct pipeline *pl, struct pipeline_counts *counts,
				    struct strbuf *err);

/* Pick the meters, ask the boards, then every measured run: the baseline's
 * warm-ups first (they make the references), the other warm-ups, the
 * study's extra warm-ups, then the repetitions interleaved A B C A B C
 * (repeat = auto: until each item's interval on the study's metric is within the
 * target).  Stored repetitions are skipped, so a rerun resumes; a plan run
 * again in one process keeps the inputs it made.  On boards
 * each round's items run on one worker thread per board and per_board; a
 * round starts after the one before ends.  Native and qemu runs are one at
 * a time. */
enum pipeline_status pipeline_run(struct pipeline *pl, struct strbuf *err);

/* A line to keep, through o->ev.say (nothing when it is NULL). */
void pipeline_say(const struct pipeline_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A line that states a result, through o->ev.result (o->ev.say when it
 * is NULL). */
void pipeline_say_result(const struct pipeline_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Check one store write (rc from a store_put_*): on failure remember the
 * first cause and stop the study.  Returns rc.  Callers on worker threads
 * hold pl->lock. */
int pipeline_stored(struct pipeline *pl, int rc);

/* Fill plan->twin and store the "identical.CONFIG.WORKLOAD" facts
 * (identical.c). */
void pipeline_find_identical(struct pipeline *pl);

/* run --logs (o->logs_dir): every build of this run that has a log, kept
 * in that folder (build_logs.h), and the folder stored as the study's
 * fact build_logs; said in one line (build_logs.c). */
void pipeline_keep_logs(struct pipeline *pl);

/* run --logs: build_all's progress (user: the pipeline): each finished
 * build's log kept at once and its detail's log path made the kept copy's,
 * then the caller's build_done event (build_logs.c) */
void pipeline_build_kept(const struct build *b, size_t done, size_t total, void *user);

/* The measured runs (schedule.c). */
void pipeline_schedule(struct pipeline *pl);

/* Store what this run planned, per workload (the repetitions of every
 * build measured or copied here, at the study's repeat, its minimum for
 * repeat = auto or stable), and whether it went through to its end
 * (store.h: progress; a `run --workloads` replaces only its workloads'
 * parts).  Returns what store_put_progress returns. */
int pipeline_store_progress(struct pipeline *pl, int complete);

/* The section sizes every build stores, in store_builds' order
 * (metric_names.c). */
#define BUILD_NSIZES 5
extern const char *const build_size_names[BUILD_NSIZES];
/* A package's test-suite wall time (system = debian, harness/debpkg.h),
 * stored with the sizes as a build's own metric: the time of its own
 * test step, labelled so, never a benchmark's */
#define BUILD_TESTS_TIME RESULTS_TESTS_TIME

#endif
