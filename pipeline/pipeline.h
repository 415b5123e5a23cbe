/*
 * pipeline.h - a study from plan to stored samples: plan -> prepare ->
 * build -> run, every result written to the store as it lands.
 *
 *   struct study_plan plan;
 *   study_plan_init(&plan, &study, NULL, &err); // matrix + recipes
 *   pipeline_prepare(&plan, &opt);             // toolchains, sysroots, sources,
 *                                              // final ids, shard, build keys
 *   pipeline_execute(&plan, &store, &opt, 0, &counts, &err);
 *                                              // store the study, build, store
 *                                              // builds, meters, boards, runs
 *   study_plan_release(&plan);
 *
 * pipeline_execute() is its steps (pipeline_init, _build, _run, _release:
 * pipeline_internal.h) in one call, for search's batches and `run`;
 * pipeline_plan_study() is `run`'s way from a study file to a prepared
 * plan (its options applied, the machine checked).
 *
 * The harness's types appear here only by pointer (struct toolchain,
 * build, exec_result), so a layer above the pipeline (search/) compiles
 * without harness/'s headers (CMakeLists.txt: its include tree has none);
 * what it asks of them goes through pipeline/parts.h.
 *
 * The pipeline prints nothing itself: what a user sees goes through the
 * callbacks of struct pipeline_events (explorer/progress.c draws them).
 * It never exits; a failed store write stops it at once with
 * PIPELINE_STORE_FAILED and "PATH: cannot store results: CAUSE (...)".
 */
#ifndef FLAGSCOPE_PIPELINE_H
#define FLAGSCOPE_PIPELINE_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#include "analysis/store.h"
#include "flagsets/matrix.h"
#include "flagsets/study.h"
#include "workloads/recipe.h"

struct build;       /* harness/build.h */
struct exec_result; /* harness/execute.h */
struct toolchain;   /* harness/toolchain.h */

/* One configuration of the plan.  cfg->id is final after
 * pipeline_prepare(): a hash of the compiler, flags, libc and sysroot it
 * really builds with (the libc driver, the cross compiler, flags a sysroot
 * adds), so equal ids mean equal builds and a resumed study finds its
 * results. */
struct plan_config {
	struct config *cfg; /* in plan->matrix */
	struct toolchain *tc;    /* its compiler (heap, the plan's), NULL until probed */
	int tc_ok;               /* tc was probed */
	int sysroot_pending;     /* a dry run: cfg->sysroot is not built yet */
	enum outcome outcome;    /* before building: unsupported flag / toolchain */
	char *detail;
};

/* One workload of the plan: its recipe, source and inputs. */
struct plan_workload {
	struct recipe recipe;
	char *src_dir;    /* NULL: the source could not be fetched */
	char src_id[65];  /* with extra sources: a hash over every tree's id */
	char **extra_dirs; /* recipe.extra[i]'s tree (NULL: not fetched) */
	char *src_error;  /* "source: ..." or NULL */
	char *deps_error; /* a package's build dependencies missing (debpkg.h), or NULL */
	char *in_dir;     /* made by pipeline_run */
	char *in_error;
	char *open;       /* repeat = auto: per config x run section, still measuring */
};

struct study_plan {
	struct study study;
	struct matrix matrix;
	struct plan_config *configs; /* matrix.n */
	struct plan_workload *workloads;
	size_t nconfigs, nworkloads;
	/* one per (configuration, workload), config-major, one array because
	 * build_all takes one: see plan_build() */
	struct build *builds;
	char *in_shard;  /* per build: this shard measures it */
	int *twin;       /* per build: the configuration whose build is the same
			    program (harness/identical.h), whose runs it reuses;
			    -1 none (set when the runs start) */
	char (*binary_hash)[65]; /* per build: its binaries' hash, "" when it
				    failed (set when the builds are stored) */
	int shard_i, shard_n;
	int shard_by_workload; /* pipeline_options' */
};

/* The build of configuration c and workload w. */
struct build *plan_build(const struct study_plan *p, size_t c, size_t w);

/* 1 when some workload has a run to measure, 0 when none has: Debian
 * packages without a recipe are built and tested, not measured or ranked. */
int plan_measures(const struct study_plan *p);

struct pipeline_run_event {
	const struct build *build;
	const struct recipe_run *run;
	int rep;   /* 0 a warm-up, >= 1 a repetition */
	const struct exec_result *res;
	int done, total;     /* runs */
	int stored;          /* of done: found stored (a resumed study), not run now */
	size_t builds_total;
	double elapsed;      /* seconds since the runs started */
};

/* What a user may want to see; any callback may be NULL. */
struct pipeline_events {
	void (*say)(const char *line, void *user);         /* a line to keep */
	/* a line that states a result (repeat = stable's end, a shard's
	 * share of the judging): shown with -q too; NULL: through say */
	void (*result)(const char *line, void *user);
	/* a build done (harness/build.h's build_progress_fn); user: events.user */
	void (*build_done)(const struct build *b, size_t done, size_t total, void *user);
	/* the builds build_all is about to make (their running_since says
	 * which are running) until builds_end; either may be NULL */
	void (*builds_begin)(const struct build *builds, size_t n, void *user);
	void (*builds_end)(void *user);
	void (*run_done)(const struct pipeline_run_event *e, void *user);
	void *user;
	FILE *log; /* a sysroot build's output, or NULL */
};

/* The study says which metric, meters and CPUs (run's options are applied
 * into it before planning: pipeline_plan_study). */
struct pipeline_options {
	int jobs;           /* builds at a time */
	int dry_run;        /* prepare without building (flags are still probed) */
	int shard_i, shard_n; /* 0/1: everything */
	int shard_by_workload; /* 1: a shard is whole workloads (every configuration of
				  each: one source fetch, one build-dependency install
				  per package), workload k in shard k mod n, study order;
				  0: a fixed share of the (configuration, workload) pairs */
	int no_ranking;     /* nothing will be ranked (run --build-only): the study's
			       metric is not checked unless an option set it */
	const char *logs_dir; /* run --logs: keep the builds' logs there (build_logs.h) */
	struct pipeline_events ev;
};

/* What `run` changes in a loaded study and checks before it is planned
 * (the rows of flagsets/settings.c with a .flag). */
struct run_overrides {
	int repeat;            /* > 0: exactly so many rounds (not auto, not stable) */
	const char *metric;    /* rank by this (and repeat = auto closes on it) */
	const char *meters;    /* "rusage perf": instead of the study's */
	int noise_floor;       /* add the baseline's copy (study.h) */
	const char *packages;  /* "A,B" or a file of names: these Debian source packages
				  replace the study's workloads (study.h packages) */
	const char *workloads; /* "A B": only these, each one of the study's; NULL: all */
	const char *pin;       /* CPU list: the study's pin = when NULL */
	int force;             /* start though isolate = yes finds the machine busy */
	struct strlist sources; /* NAME=SPEC (study_plan_init's source_args) */
};

/* `run`'s way to a prepared plan (overrides.c): study_load(path), o's
 * repeat, metric, meters, noise_floor and workloads applied into the study
 * (a workload the study does not have, a meter no registry has are
 * refused), the pin checked and applied (o->pin, else the study's pin =: CPUs
 * this process may use) and isolate = yes (the machine quiet, unless
 * o->force), study_plan_init with o->sources, pipeline_prepare.  0, or -1
 * with "what is wrong (what to do)" lines in err; the caller releases p
 * either way. */
int pipeline_plan_study(struct study_plan *p, const char *path, const struct run_overrides *o,
			const struct pipeline_options *po, struct strbuf *err);

/* Take the study (moved in: *study is cleared), expand its matrix and load
 * its recipes, their sources replaced as the study's [sources] and then
 * source_args ("NAME=SPEC" from `run --source`; may be NULL) say
 * (study_override_sources).  0, or -1 with "file:line: ..." lines in err. */
int study_plan_init(struct study_plan *p, struct study *study, const struct strlist *source_args,
		    struct strbuf *err);
void study_plan_release(struct study_plan *p);

/* Compilers (libc drivers, cross compilers, sysroots), flag probes (not on
 * a dry run), final configuration ids, sources, the shard and every build's
 * key.  What cannot be built is settled here with its outcome.  0, or -1
 * when two configurations turn out to build identically (err). */
int pipeline_prepare(struct study_plan *p, const struct pipeline_options *o, struct strbuf *err);

/* The study's metric (--metric, its metric =, else the default, time or
 * insns; a default or the file's not when o->no_ranking) names a metric the
 * study can give (the chosen meters', its recipes',
 * the build sizes; metric_names.c)?  0, or -1 with "--metric: ..." (or
 * "study-file:line: ...", setting_where) listing the names it can give in err.
 * pipeline_prepare checks it before anything is fetched or built. */
int pipeline_check_metric(const struct study_plan *p, const struct pipeline_options *o,
			  struct strbuf *err);

/* The dry run's listing: every configuration with its compiler and
 * flags, every build with its key and whether it is cached. */
void study_plan_print(const struct study_plan *p, FILE *out);

enum pipeline_status {
	PIPELINE_OK = 0,
	PIPELINE_FAILED = 1,       /* boards unreachable: err says which */
	PIPELINE_STORE_FAILED = 2, /* a store write failed; the study stopped */
};

/* Set by SIGINT/SIGTERM/SIGHUP handlers: no build, input script or run
 * starts after it, and the ones in flight are killed (nothing of them is
 * stored). */
extern volatile sig_atomic_t pipeline_interrupted;

struct pipeline_counts {
	int built, cached, failed;
	int runs_done, runs_total; /* pipeline_execute: the measured runs */
};

/* The whole of a prepared study into an open, locked store: pipeline_init,
 * pipeline_build, then (unless build_only, or pipeline_interrupted is set)
 * pipeline_run, pipeline_release.  counts as pipeline_build sets them, and
 * the runs done of the runs planned (may be NULL).  The first status that is not
 * PIPELINE_OK, with err. */
enum pipeline_status pipeline_execute(struct study_plan *p, struct store *st,
				      const struct pipeline_options *o, int build_only,
				      struct pipeline_counts *counts, struct strbuf *err);

/* The runs of a study pipeline_execute built in this process (build_only):
 * pipeline_init, pipeline_run, pipeline_release.  A plan may be run so
 * again and again (calibrate's rounds, a higher study.repeat each time):
 * stored repetitions are skipped, the inputs it made are kept.  counts
 * gets runs_done and runs_total (may be NULL). */
enum pipeline_status pipeline_execute_runs(struct study_plan *p, struct store *st,
					   const struct pipeline_options *o,
					   struct pipeline_counts *counts, struct strbuf *err);

#endif
