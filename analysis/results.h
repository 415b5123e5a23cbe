/*
 * results.h - reading one study's results back from the store: its
 * configurations, its items (workload and run section), the samples of a
 * metric and the outcome of an item.  Ranking, compare, recommend and why
 * all read through here, so "which samples count" is decided once:
 *
 *  - a sample counts when it belongs to a measured repetition (rep >= 1)
 *    whose run ended ok; a metric that only the warm-up carries (a
 *    wrapping meter's, perf or cachegrind: one run after the warm-up)
 *    counts the ok warm-up's value (store_get_samples);
 *  - size metrics (size.*) are properties of the build: one exact value,
 *    stored in build_sizes; so is a package's test-suite time (tests.time,
 *    system = debian): a metric no run stored is read from there.
 *
 * Every function returns heap memory the caller frees; none prints.
 */
#ifndef FLAGSCOPE_RESULTS_H
#define FLAGSCOPE_RESULTS_H

#include <stdio.h>

#include "analysis/store.h"
#include "base/outcome.h"

struct result_config {
	char *id, *label, *cc, *toolchain, *cflags, *ldflags, *link;
	/* what `run` stored of a cross configuration (store.h); "" when
	 * native or when the database predates them */
	char *target, *cpu, *libc, *sysroot, *notes;
	int is_baseline;
	int pgo; /* 1: profile-guided (pgo = gen-use); 0 also before the column */
};

/* The configurations of a study in study order; *n set (0 when the study
 * is not in the database).  Free with result_configs_free(). */
struct result_config *results_configs(struct store *st, const char *study, size_t *n);
void result_configs_free(struct result_config *c, size_t n);
/* The configurations stored for the study that are no longer in it (its
 * file was edited: a level's flags changed, a level removed); their rows
 * are kept, never ranked, compared or recommended.  *n set. */
struct result_config *results_configs_left(struct store *st, const char *study, size_t *n);

/* How far the study got (store.h: progress).  known 0: the database
 * predates progress (nothing can be said).  expected: the measured
 * repetitions `run` planned (over every shard merged in), done: those
 * stored for the study's configurations with an outcome a resume keeps,
 * made by their current build; complete 1 when every shard's last `run`
 * went through to its end, every shard of N is there and no stored run
 * waits to be made again (a retried outcome: input_failed, board_fault). */
struct result_progress {
	int known, complete;
	long expected, done;
	int shards, shards_missing; /* shards_missing: of a sharded study, not merged */
};
void results_progress(struct store *st, const char *study, struct result_progress *p);
/* For merge: 0 when the database at path is a finished run's (every
 * study's progress complete, no run waiting to be retried, its run lock
 * free), else -1 with "PATH: shard I/N of study S did not finish: N of M
 * runs stored (...)" or "PATH: still being written by a flagscope run (pid
 * N) (...)" in why.  A database without progress (an older flagscope's)
 * passes. */
int results_shard_unfinished(const char *path, struct strbuf *why);

/* "incomplete: N of M runs[, K shard(s) not merged] (...)" for a study
 * known to be incomplete, else NULL.  Heap string. */
char *results_progress_text(const struct result_progress *p);

/* ,"complete":true|false|null,"runs_done":N,"runs_expected":M for a JSON
 * object (null and no counts when the database predates progress). */
void results_progress_json(FILE *out, const struct result_progress *p);

/* One line per thing a reader of the study must know before its results,
 * ready for warn_msg: "study S is incomplete: N of M runs (...)", "study
 * S: K configuration(s) no longer in its file left out (...)"; NULL when
 * none.  Heap string, lines separated by '\n'. */
char *results_study_notes(struct store *st, const char *study);

/* Index of the configuration labelled `label`, or -1. */
int results_find_label(const struct result_config *c, size_t n, const char *label);

/* Every (workload, run section) of the study, sorted: the runs stored,
 * plus workloads whose builds never got to run ("" run).  Appended to the
 * two parallel lists. */
void results_items(struct store *st, const char *study, struct strlist *workloads,
		   struct strlist *runs);

/* The values of metric for one item, in repetition order (see the top of
 * this file); *n set, NULL when none.  *from_build (may be NULL) is set to
 * 1 when the value is the build's own (a size).  A configuration built in
 * layout variants (layouts = N, doc/layout.md) gives every variant's
 * values: its plain build's first, then variant 1's, and so on. */
double *results_samples(struct store *st, const char *study, const char *config_id,
			const char *workload, const char *run, const char *metric, size_t *n,
			int *from_build);
/* results_samples() and, in *layout (heap, the caller's; may be NULL), the
 * layout variant of each value: 0 the plain build's, then 1, 2, ... in
 * variant order (a variant with no value takes no number).  The verdicts
 * read this (analysis/verdict.h, struct sample_pair). */
double *results_samples_layouts(struct store *st, const char *study, const char *config_id,
				const char *workload, const char *run, const char *metric,
				size_t *n, int *from_build, int **layout);

/* The outcome of an item: the build's when it failed, else the first
 * failed repetition's (the warm-up included: its output is checked first);
 * OUTCOME_UNSUPPORTED "not built" when there is no build.  *detail is a
 * heap string ("" when none). */
enum outcome results_status(struct store *st, const char *study, const char *config_id,
			    const char *workload, const char *run, char **detail);

/* The note of an item that is ok: the detail of its first ok run that
 * was accepted by a tolerant check ("within tolerance: decoded PCM SNR
 * 32.9 dB ...") or ran on a stand-in CPU model ("stand-in CPU model:
 * ..."), or NULL.  Heap string. */
char *results_note(struct store *st, const char *study, const char *config_id,
		   const char *workload, const char *run);

/* The build key of (config, workload), or NULL. */
char *results_build_key(struct store *st, const char *study, const char *config_id,
			const char *workload);

/* The path of the study file the study was run from, as `run` recorded
 * it (relative to the folder it ran in), or NULL; heap string. */
char *results_study_path(struct store *st, const char *study);
/* The study's stored primary metric ("time" if none); heap string. */
char *results_study_metric(struct store *st, const char *study);
/* The unit a metric was stored with ("" if unknown); heap string. */
char *results_metric_unit(struct store *st, const char *study, const char *metric);
/* 1 when the recipe declared the metric higher-is-better. */
int results_higher_better(struct store *st, const char *study, const char *metric);
/* The auto-repeat target (the relative interval width `repeat = auto`
 * aimed at, 0.01 for 1%), or 0 when the study repeated a fixed number of
 * times. */
double results_repeat_target(struct store *st, const char *study);
/* A value of the facts table, or NULL; heap string. */
char *results_fact(struct store *st, const char *study, const char *key);
/* The resolution of metric (or of the metric a selector such as
 * "WORKLOAD/RUN/METRIC" ends in) stored with the study by the meter that
 * measured it (fact "resolution.METRIC" = "VALUE UNIT: how"), in the
 * metric's unit; 0 when exact, not stored (a recipe's metric, a database
 * from before) or not positive.  text, when given, gets it for a reader
 * ("4 ms"; heap) or NULL. */
double results_metric_resolution(struct store *st, const char *study, const char *metric,
				 char **text);
/* 1 when some sample of the study has this metric (a build's size
 * included). */
int results_has_metric(struct store *st, const char *study, const char *metric);

/* 1 for a metric that repeats exactly, so one run is a measurement and
 * zero spread is not luck: instruction counts (insns, insns.loads, ...:
 * the QEMU plugin, cachegrind) and section sizes (size.*).  Any other
 * metric (times, memory, perf counters, a recipe's score) is noisy. */
int results_metric_deterministic(const char *metric);

/* A package's test-suite wall time (system = debian): its debian/rules
 * test step, timed once per build and stored with it (build_sizes) as
 * sizes are.  Not a benchmark, and noisy: one value a side is never
 * significant, and `repeat` reruns [run] benchmarks, never a suite. */
#define RESULTS_TESTS_TIME "tests.time"
/* One line saying what metric is when a reader must be told (tests.time:
 * a test-suite time, not a benchmark; one per build), else NULL. */
const char *results_metric_caveat(const char *metric);

/*
 * A metric selector, as report, recommend, compare and --pareto take it:
 *
 *   METRIC               every item, that metric: time, size.text, perf/task-clock
 *   WORKLOAD             every item of the workload, the default metric
 *   WORKLOAD/RUN         one item, the default metric: libcbench/malloc_big1
 *   WORKLOAD/METRIC      every run of the workload: coremark/iterations_per_sec
 *   WORKLOAD/RUN/METRIC  one item, that metric: coremark/single/iterations_per_sec
 *
 * Names are matched against what the study stored, in this order: the
 * whole text as a stored metric name (so perf/task-clock stays a metric),
 * then a workload; after WORKLOAD/ a run name of it before a metric name.
 * The default metric is the study's own unless the caller gives another.
 */
struct result_select {
	char *text;     /* as given ("" when none was) */
	char *metric;   /* the metric to read */
	char *workload; /* NULL: every workload */
	char *run;      /* NULL: every run of the workload */
};

/* Resolve text (NULL: the default metric over every item).  0, or -1 with
 * "what is wrong (what to do)" in err: a workload without that run or
 * metric, or a metric the study never stored (the default metric, and any
 * metric of a study that stored no sample at all, are accepted: a study
 * whose every run failed still reports its failures). */
int results_select(struct store *st, const char *study, const char *text,
		   const char *default_metric, struct result_select *sel, struct strbuf *err);
/* 1 when the item (workload, run) is in the selector's scope. */
int results_select_match(const struct result_select *sel, const char *workload,
			 const char *run);
/* A selector text for another metric over the same items:
 * "libcbench/malloc_big1" + size.text -> "libcbench/malloc_big1/size.text",
 * no scope -> the metric itself.  Heap string. */
char *results_select_with(const struct result_select *sel, const char *metric);
/* The scope as words ("libcbench/malloc_big1", "coremark"), or NULL for
 * every item. */
char *results_select_scope(const struct result_select *sel);
void results_select_release(struct result_select *sel);

#endif
