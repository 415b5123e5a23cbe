/*
 * pipeline.h - evaluating flag sets through the real pipeline: each batch
 * of candidates becomes a study made in memory (flagsets/study.h: the
 * user's study reduced to its baseline configuration, plus one axis whose
 * levels are the candidates' flags appended to the baseline's CFLAGS) that
 * the pipeline (pipeline/pipeline.h) builds, verifies, runs and validates
 * against the baseline into the search's database, in this process.  The
 * objective is then read from the stored results.
 *
 * A candidate is broken when any workload's build or run is not ok (wrong
 * output, crash, flags not applied, a compiler that rejects or crashes on
 * a flag): its objective is INFINITY and the outcome is the evidence.
 * When the compiler rejected or crashed on a candidate of several flags,
 * the flag to blame is found with the compiler alone (culprit.h: the
 * empty program of `run`'s flag probe for a rejection, the crashing file
 * of the build for a crash) and remembered, in the store and in *bad.
 *
 * Metrics (lower is better; the objective is the geometric mean over the
 * study's items of candidate / baseline):
 *   time   median wall time of `repeat` interleaved runs
 *   insns  instructions executed, counted by the meter the registry has
 *          for "insns" (pipeline_meters_for: cachegrind natively, the qemu
 *          runner's own plugin under an emulator); deterministic, so one
 *          run is enough
 *   size   .text bytes of the binaries
 *
 * A batch's study keeps the user's study file as its path (its workloads/
 * folder and relative [sources] are found from there, and the database
 * records it); its name is a hash of what its results depend on, so a
 * batch killed half-way resumes where the pipeline stopped.  The log of
 * each batch's builds and runs (what `run` would print) is kept in
 * DB.search/NAME.log.
 *
 * Layouts.  A study with layouts = N > 1 (doc/layout.md) asks that every
 * verdict count layout as a random effect.  The steps that decide a
 * verdict, the confirmation and the minimisation with a noisy metric
 * (time), build each flag set and the baseline as N layout variants (a
 * batch study with layouts = N: the pipeline builds, checks and runs them
 * as `run` does) and read every variant's samples with its layout
 * (search_pipeline_values' *layout), for analysis/verdict.h's nested rule.
 * The exploration (search_pipeline_evaluate) stays single-layout: it only
 * ranks candidates for the strategy, at N times less cost, and the
 * evaluation cache (evalcache.h) holds nothing else.  A batch's name
 * includes its layouts, and so does every variant's configuration id and
 * build key, so a layout batch and a single-layout one never share a
 * result.  Where the baseline's toolchain cannot build variants (no
 * ld.lld: the pipeline's probe calls them unsupported) init sets layouts
 * to 1 and says why in layouts_note.
 */
#ifndef FLAGSCOPE_SEARCH_PIPELINE_H
#define FLAGSCOPE_SEARCH_PIPELINE_H

#include <signal.h>

#include "flagsets/matrix.h"
#include "pipeline/pipeline.h"
#include "search/evalcache.h"

/* What a search can minimise (--metric NAME): one row per objective, the
 * one place that says how each is measured and judged. */
struct search_objective {
	const char *stored;  /* the metric's name in the store */
	const char *desc;    /* what the objective measures, for reports */
	int noisy;           /* repeated interleaved runs and a significance test;
				0: one exact value per flag set says it all */
	int counted;         /* a meter counts it: the confirmation reads it
				beside the time */
	const char *missing; /* what to check when nothing was measured */
};

/* The objectives' names, NULL-terminated (the --metric choices). */
extern const char *const search_objective_names[];

/* The objective called name, or NULL. */
const struct search_objective *search_objective_find(const char *name);

struct search_pipeline {
	/* set by the caller */
	const char *db;
	const char *study_path;
	const char *metric;     /* an objective's name: "time", "insns" or "size" */
	int repeat;             /* measured runs per candidate (time) */
	int jobs;
	volatile sig_atomic_t *stop;
	struct evalcache *ec;   /* where rejected flags are remembered; may be NULL */
	struct known_bad *bad;  /* and where this search learns them at once; may be NULL */
	/* set by search_pipeline_init */
	struct study study;
	struct matrix matrix;
	const struct config *base;
	struct study_plan plan;       /* the baseline alone, prepared as a dry run */
	const struct toolchain *tc;   /* the baseline's compiler, in plan */
	char *level;        /* the baseline's -O level: "-O2" */
	char *workdir;      /* DB.search: the batches' logs */
	char context[65];   /* hash of context_text */
	char *context_text; /* what the objective depends on */
	const struct search_objective *obj; /* metric's row */
	struct strlist base_items; /* insns: the baseline's counts, per item */
	double *base_values;
	size_t batches;     /* batch studies run in this session */
	int layouts;        /* layout variants per flag set when a verdict is
			       decided: the study's layouts = N, or 1 where the
			       toolchain cannot build variants (above) */
	char *layouts_note; /* why the study's layouts are not used, to say
			       once ("layouts = 3: ..."), or NULL */
};

/* Load the study, find its baseline, identify its compiler, compute the
 * context.  0, or -1 with "file:line: ..." lines in err. */
int search_pipeline_init(struct search_pipeline *pl, struct strbuf *err);
void search_pipeline_release(struct search_pipeline *pl);

/* The evaluator (search.h): ctx is a struct search_pipeline. */
int search_pipeline_evaluate(void *ctx, char *const *flags, size_t n, struct eval_result *res,
		      struct strbuf *err);

/* The sampler (minimise.h): ctx is a struct search_pipeline; the samples are
 * the pipeline's metric, per item, from one batch's study. */
struct eval_samples;
struct known_bad;
int search_pipeline_sample(void *ctx, char *const *flags, size_t n, int repeat, struct eval_samples *out,
		    struct strbuf *err);

/* Run a batch's study whose extra axis has the levels names[i] =
 * flags[i] (plus "base" = the baseline itself) with `repeat` measured
 * runs of each of `layouts` layout variants (1: the plain builds only);
 * *study gets its name (heap).  0, or -1 with a reason. */
int search_pipeline_run_levels(struct search_pipeline *pl, char *const *names, char *const *flags, size_t n,
			int repeat, int layouts, char **study, struct strbuf *err);

/* The per-item values of the objective's metric for level `name` of a
 * study made by search_pipeline_run_levels ("base" for the baseline): one heap
 * array of samples per item (time: every good repetition; insns, size:
 * one value; every layout variant's, results_samples_layouts), in the
 * order of *items; *layout (may be NULL) gets per item the layout variant
 * of each value (heap arrays) or NULL where every value is of one layout.
 * 0 and *status OUTCOME_OK, or -1
 * with a reason (the configuration broke: *status gets its outcome and err
 * the evidence; OUTCOME_RUN_FAILED when nothing was measured). */
int search_pipeline_values(struct search_pipeline *pl, const char *study, const char *name,
		    const char *metric, struct strlist *items, double ***values, size_t **counts,
		    int ***layout, enum outcome *status, struct strbuf *err);

#endif
