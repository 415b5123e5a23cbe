/*
 * recipe.h - a workload's recipe (workloads/NAME/recipe.ini, format in
 * doc/recipe-format.md) and the list of workloads.
 *
 * How to add a workload: see doc/recipe-format.md.
 */
#ifndef FLAGSCOPE_RECIPE_H
#define FLAGSCOPE_RECIPE_H

#include "base/util.h"
#include "workloads/buildsys.h"
#include "workloads/searchpath.h"

struct recipe_metric {
	char *name;  /* "score": stored as metric "<run>/score" */
	char *regex; /* POSIX extended regex with one capture group */
	char *unit;  /* "" if not given */
	int higher_better;
	int optional; /* may be absent from the output (CoreMark/MHz without a known clock) */
	/* ratio.NAME = A / B: no regex; the run's measured A divided by its
	 * measured B (insns per request), added when both were measured */
	char *ratio_of, *ratio_by;
};

struct recipe_run {
	char *name;       /* "" for a plain [run] section */
	char *args;       /* argv template */
	char *stdin_file; /* relative to the input dir, or NULL */
	double timeout;   /* seconds */
	char *expect;     /* absolute path of the expected stdout, or NULL */
	struct strlist outputs;
	char *tolerate;   /* script that may accept an output that differs, or NULL */
	struct recipe_metric *metrics;
	size_t nmetrics;
	int line; /* of the section's first key */
};

/* [workload] source.NAME = SPEC: another tree the build needs (a library
 * the program links with, built with the same flags); fetched like the
 * main source, part of the build key, $SRC_NAME in the build script */
struct recipe_extra_source {
	char *name; /* letters, digits and '_' */
	char *spec; /* after any override */
	int line;   /* of recipe.ini */
	/* recipe_override_extra_source: where the replacement came from and
	 * the recipe's own spec; NULL without one */
	char *origin, *own;
};

struct recipe {
	char *name;
	char *dir; /* absolute folder of the recipe */
	char *description;
	char *source; /* "bundled", "debian:lame", ... (after any override) */
	int source_line; /* of recipe.ini; recipe_check_names() (harness) reads it */
	/* recipe_override_source: where the replacement came from ("--source",
	 * "study.study:12"), and the recipe's own source; NULL without one */
	char *source_origin, *source_own;
	struct recipe_extra_source *extra;
	size_t nextra;
	int slow;
	char *gentoo; /* the Gentoo package atom ("media-libs/flac"), or NULL */
	char *build_script;          /* or NULL when system.name is set */
	struct recipe_system system; /* [build] system = ...: see buildsys.h */
	struct strlist binaries;
	char *input_script; /* or NULL */
	/* [build] timeout and [input] timeout: seconds after which the build
	 * or the input script is killed with its children (a hung configure,
	 * a generator waiting on a terminal); recipe_load sets the defaults
	 * below, <= 0 is none (a recipe made in code) */
	double build_timeout, input_timeout;
	struct recipe_run *runs;
	size_t nruns;
	/* [train] and [train NAME]: the training runs of profile-guided builds
	 * (a study's pgo axis, harness/pgo.h), never measured; only args, stdin
	 * and timeout.  [workload] train = NAME picks one (default: the first). */
	struct recipe_run *trains;
	size_t ntrains;
	char *train;    /* train = NAME, or NULL */
	int train_line;
	/* sha256 of recipe.ini and every file in the folder: part of build keys */
	char hash[65];
};

#define RECIPE_BUILD_TIMEOUT 7200.0
#define RECIPE_INPUT_TIMEOUT 600.0

/* Load workload NAME, found on the search path as seen from study_file
 * (the study's path, or NULL: no study level; workloads/searchpath.h).
 * On error returns -1 and puts "file:line: what is wrong (what to do)" in
 * err. */
int recipe_load(const char *name, const char *study_file, struct recipe *r, struct strbuf *err);
void recipe_release(struct recipe *r);

/* The training run of a profile-guided build: [train NAME] of train =,
 * else the first [train] section; NULL when the recipe has none.
 * recipe_load() refused a training run equal to a measured run (same args
 * and stdin). */
const struct recipe_run *recipe_train_run(const struct recipe *r);

/* What the report says of a run of section kind `section` ("run",
 * "train"): "[train small] crc32 4 < in.bin" (heap string). */
char *recipe_run_fact(const char *section, const struct recipe_run *t);

/* workloads_list(study_file, names): workloads/searchpath.h */

/* spec (a source spec as in harness/fetch.h) as a recipe written elsewhere
 * can hold it: a relative local:PATH taken from base_dir (NULL: the current
 * directory) and made absolute (resolved by realpath when it exists), its
 * blanks kept; any other spec's words joined by one blank.  Heap string;
 * nothing is checked. */
char *source_spec_anchored(const char *spec, const char *base_dir);

/* Replace r's source with spec (a source spec as in fetch.h), for a study's
 * [sources] or `run --source`: a relative local:PATH is taken from base_dir
 * (the study file's folder, or the current directory) and made absolute.
 * origin says where the override was written, for messages and the report.
 * The build key then names the override (source_own is kept).  0, or -1
 * with "what is wrong (what to do)" in err and r unchanged. */
int recipe_override_source(struct recipe *r, const char *spec, const char *base_dir,
			   const char *origin, struct strbuf *err);

/* The same for the extra source NAME (source.NAME = SPEC): its spec is
 * replaced, origin and own kept; the build key then names the override.
 * 0, or -1 with why in err (no such extra source: its names listed; a
 * spec that is not KIND:WHERE) and r unchanged. */
int recipe_override_extra_source(struct recipe *r, const char *name, const char *spec,
				 const char *base_dir, const char *origin, struct strbuf *err);

/* What the report says of r's source: "debian:gzip", or for an override
 * "local:/src/coremark (from --source; the recipe's: git:URL commit=H)",
 * then each extra source " + NAME=SPEC", overridden ones with the same
 * parenthesis, and for a recipe of the user's (not in the bundled or
 * installed workloads folder: beside the study, $FLAGSCOPE_PATH, ...)
 * "; recipe DIR", so a report says which crc32 it measured.  Heap string. */
char *recipe_source_fact(const struct recipe *r);

#endif
