/*
 * execute.h - one measured run of one built workload: argv from the
 * recipe, the runner (chosen from the runner registry, runner.h), the
 * meters (meter.h), validation against the reference, and the metrics the
 * recipe parses from the output.
 *
 * The steps of execute_run: lay out the run's folder and argv; select the
 * runner and let it prepare; run and judge the end (timeout, signal, exit
 * status, the runner's diagnosis); check the output (expect, reference,
 * tolerance, metrics); measure (timed meters, wrapped runs, the runner's
 * own meter); keep the reference.
 */
#ifndef FLAGSCOPE_EXECUTE_H
#define FLAGSCOPE_EXECUTE_H

#include "harness/build.h"
#include "harness/meter.h"
#include "harness/runner.h"

/* Shared by every run of a study; worker threads share one (read-only). */
struct exec_ctx {
	/* NULL or &runner_native: each run's runner is the one runner_select()
	 * picks (boards, emulation, here); another: every run goes to it */
	const struct runner_ops *runner;
	const struct meter_ops *meters[8]; /* the meters that probed usable */
	size_t nmeters;
	struct meter_state mstate;
	const char *pin; /* the measured programs' CPU list ("0-1,3"); NULL: none */
	const struct run_target *target; /* boards over ssh; NULL: here */
	double timeout; /* > 0 overrides the recipe's */
	/* set from a signal handler: the run in flight is killed and its
	   result says interrupted (runner.h, run_spec.stop); NULL: never */
	const volatile sig_atomic_t *stop;
	/* a meter's own result beyond measurements, by its contract (NULL: none);
	 * cachegrind_run's per-function counts.  Not for threads sharing ctx. */
	void *meter_out;
};

struct exec_result {
	enum outcome outcome;
	char *detail; /* heap, or NULL */
	struct measurements m;
	int interrupted; /* stopped by ctx->stop: no result, store nothing */
	struct run_layout layout; /* the measured run's (layout.h); known 0 when it did not run */
};

/* Run `run` of build b once (b->cfg may be NULL: a native run).  warmup: apply the wrapping meters (perf).
 * ref_dir: compare stdout and the run's outputs with the files there
 * (NULL: no comparison).  save_ref: copy the outputs there after a good
 * run (it becomes the reference).  Always fills res; returns 0. */
int execute_run(const struct exec_ctx *ctx, const struct build *b, const struct recipe_run *run,
		const char *in_dir, int warmup, const char *ref_dir, const char *save_ref,
		struct exec_result *res);
void exec_result_release(struct exec_result *res);

/* 1 when the run section declares metric.NAME or ratio.NAME = name */
int recipe_has_metric(const struct recipe_run *run, const char *name);

/* Name of a run section for storage and reports: "" for a plain [run]. */
const char *execute_run_name(const struct recipe_run *run);

#endif
