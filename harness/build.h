/*
 * build.h - building one workload under one configuration, cached by key,
 * many at a time.
 *
 * Layout: <cache>/builds/<key>/{out/,build.log,status}.  status is written
 * last, so a build killed half-way is simply redone.  The key is a hash of
 * the workload's name, its recipe (every file of its folder), the source's
 * identity (or its override), the toolchain's identity, CFLAGS, LDFLAGS,
 * linkage, the target and sysroot, a build system's commands, and a
 * profile-guided build's phase and profile hash (harness/pgo.h).
 */
#ifndef FLAGSCOPE_BUILD_H
#define FLAGSCOPE_BUILD_H

#include <signal.h>

#include "flagsets/matrix.h"
#include "base/outcome.h"
#include "harness/debpkg.h"
#include "harness/toolchain.h"
#include "workloads/recipe.h"

/* harness/pgo.h: a gen-use configuration's measured build is PGO_USE, its
 * instrumented build PGO_GENERATE */
enum pgo_phase { PGO_NONE, PGO_GENERATE, PGO_USE };

struct build {
	/* in */
	const struct config *cfg;
	const struct toolchain *tc;
	const struct recipe *recipe;
	const char *src_dir;
	const char *src_id; /* covers the recipe's extra sources too */
	char *const *extra_dirs; /* recipe->extra[i]'s tree, recipe->nextra of them */
	enum pgo_phase pgo_phase; /* build_init: PGO_USE when cfg->pgo and not set */
	char *pgo_profile;        /* PGO_USE: the trained profile (pgo_train_all) */
	char pgo_profile_hash[65];
	char *pgo_train;          /* the training run used (recipe_run_fact) */
	/* out */
	char key[65];
	char *dir;     /* <cache>/builds/<key> */
	char *out_dir; /* dir/out: the build directory, binaries inside */
	enum outcome outcome;
	char *detail;  /* one line: why it failed, or what verify found */
	double seconds;
	double running_since; /* build_all: when it started (now_seconds()); 0 when not running */
	int cached;
	int config_seeded; /* configure ran from its group's proven cache */
	int settled; /* the outcome was decided before building (unsupported
			flag, missing compiler, no source): build_all skips it */
	int interrupted; /* build_all was stopped before this build finished: no
			    outcome (BUILD_FAILED in memory), nothing to store */
	char *facts_json; /* JSON array of ELF facts, one per binary */
	/* system = debian (harness/debpkg.h): what its test step said and its
	 * wall seconds (-1: no test ran) */
	enum debpkg_tests tests;
	double tests_seconds;
	/* section sizes summed over the binaries (bytes); -1 if unknown */
	double size_text, size_data, size_bss, size_rodata, size_file;
};

/* The folder of the build with this key, <cache>/builds/<key> (heap): the
 * one place that path is written; its out/ and build.log as above. */
char *build_dir_of_key(const char *key);

/* The files of b that are verified, hashed and run, relative to its out/
 * folder, appended to rel: the recipe's binaries, then for a package
 * (system = debian) the ELF files it ships (debpkg_shipped_files).  b->dir
 * must be set (build_init). */
void build_binaries(const struct build *b, struct strlist *rel);

/* Compute key, dir and out_dir; set cached when a finished build exists. */
void build_init(struct build *b);
void build_release(struct build *b);

/* Check that the configuration's compiler accepts its flags: compile and
 * link an empty program.  OUTCOME_OK, or OUTCOME_UNSUPPORTED_FLAG with the
 * compiler's message in *detail (heap). */
enum outcome build_probe_flags(const struct config *cfg, const struct toolchain *tc,
			       char **detail);

typedef void (*build_progress_fn)(const struct build *b, size_t done, size_t total,
				  void *user);

/* Build every build that is not cached, `jobs` at a time, then verify each
 * artifact (ELF facts, static when asked, switches of every unit: the
 * recipe's binaries, and a package's shipped files, debpkg.h), and read a
 * package's test step (OUTCOME_TESTS_FAILED when it failed).
 * Failures are recorded in the builds, not returned.  Each build runs in
 * its own process group.  Once *stop is set (a signal handler; stop may be
 * NULL) no build starts, the running ones are killed with their process
 * groups, and every build not finished is marked interrupted. */
void build_all(struct build *builds, size_t n, int jobs, build_progress_fn progress, void *user,
	       const volatile sig_atomic_t *stop);

/* The log's first error line (harness/build_log.h), else its last lines
 * joined by " | ", or the undefined symbols a link
 * failed on ("undefined symbols: cos sin"), or for a failure in LTO's
 * link-time step (lto1, lto-wrapper) "LTO link failed: " and the log's first
 * error line; heap string. */
char *build_log_summary(const char *log_text);

/* Make a workload's inputs once: <cache>/inputs/<recipe hash>/, running
 * the recipe's [input] script there.  *in_dir is set even without a
 * script.  0, or -1 with a reason in err. */
int workload_inputs(const struct recipe *r, char **in_dir, struct strbuf *err);
/* The same, stoppable: once *stop is set (a signal handler; stop may be
 * NULL) the input script is killed with its process group, nothing is
 * kept, and it returns -1 with "NAME: interrupted ..." in err. */
int workload_inputs_stop(const struct recipe *r, char **in_dir, const volatile sig_atomic_t *stop,
			 struct strbuf *err);

#endif
