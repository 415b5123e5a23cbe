/*
 * pipeline_internal.h - what the files of pipeline/ share and nobody else
 * needs.
 */
#ifndef FLAGSCOPE_PIPELINE_INTERNAL_H
#define FLAGSCOPE_PIPELINE_INTERNAL_H

#include "pipeline/pipeline.h"

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
#define BUILD_TESTS_TIME "tests.time"

#endif
