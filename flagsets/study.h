/*
 * study.h - a study file: which workloads, which axes and levels, which
 * combinations to skip, which configuration is the baseline.
 *
 * Format (fio-style INI, read with inih):
 *   [study]      name, workloads, repeat (stable, N or auto), max_repeat,
 *                max_seconds, target, tie_margin, stable_rule, baseline, warmup, layouts,
 *                timeout, metric,
 *                meters, description, pin (a CPU list), isolate (yes/no),
 *                isolate_load
 *   [axis NAME]  level = value; reserved axis names are in axis_kinds[];
 *                level.KEY = value sets a reserved key of that level
 *                (target, cpu, cc, ldflags, libc)
 *   [exclude]    rule-name = level level ...  (a configuration having all of
 *                the listed levels is skipped)
 *   [run]        host (or hosts, a pool), port, identity, workdir, known_hosts,
 *                per_board, helper_cc, cpu: run on boards over ssh
 *                (harness/runner_ssh.h)
 *   [sources]    workload = source spec: replaces the recipe's source =
 *                (a relative local:PATH is taken from the study's folder)
 *
 * The reserved axis pgo has the levels none and gen-use (a profile-guided
 * build: harness/pgo.h) and no values.
 *
 * How to add a reserved axis: one entry in axis_kinds[] (axis_kinds.c) with
 * check_level/read_value saying which names and values mean something
 * there, and the field it sets in struct config (matrix.h).
 */
#ifndef FLAGSCOPE_STUDY_H
#define FLAGSCOPE_STUDY_H

#include "base/util.h"

enum axis_kind {
	AXIS_FLAGS,   /* any other name: the level's value is added to CFLAGS */
	AXIS_CC,      /* the compiler command */
	AXIS_LDFLAGS, /* added to LDFLAGS */
	AXIS_LINK,    /* static | dynamic; the value adds LDFLAGS */
	AXIS_LIBC,    /* glibc | musl | dietlibc; the value adds CFLAGS */
	AXIS_TARGET,  /* the value is a target triple (cross compile, run emulated) */
	AXIS_CPU,     /* the value is the emulator's CPU model, e.g. Loongson-2F */
	AXIS_PGO,     /* none | gen-use: profile-guided builds (harness/pgo.h); no value */
};

struct axis_kind_info {
	const char *name; /* NULL for the generic kind */
	enum axis_kind kind;
	/* Reject a level; NULL when any level is fine.  Returns 0 or -1 with
	 * a reason (no file:line) in err. */
	int (*check_level)(const char *level, const char *value, struct strbuf *err);
	/* Read a level's whole value once the file is loaded (continuation
	 * lines joined): a word that names the level's own meaning
	 * (`musl = musl`, `static = static`) is taken as that meaning and
	 * leaves the value, never reaching the compiler (`native` in a target
	 * axis stays: matrix.c reads it as this machine); a value that cannot
	 * mean anything in this axis
	 * (`dynamic = static`, `O2 = O2`) is refused.  NULL: used as written.
	 * Returns 0 (*value may be replaced, heap) or -1 with a reason and
	 * what to write (no file:line) in err. */
	int (*read_value)(const char *level, char **value, struct strbuf *err);
};

const struct axis_kind_info *axis_kind_lookup(const char *axis_name);

/* Reserved keys a level may carry ("LEVEL.KEY = value" in its axis), so
 * values that belong together travel together: a Loongson 2F n64 level
 * names its own triple and CPU model. */
enum level_key { LKEY_TARGET, LKEY_CPU, LKEY_CC, LKEY_LDFLAGS, LKEY_LIBC, LKEY_COUNT };

struct level {
	char *name;
	char *value;
	int line;
	char *keys[LKEY_COUNT]; /* NULL when not set */
};

/* "target", "cpu", "cc", "ldflags", "libc" */
extern const char *const level_key_names[LKEY_COUNT];

struct axis {
	char *name;
	const struct axis_kind_info *kind;
	struct level *levels;
	size_t nlevels;
	int line;
};

struct exclude_rule {
	char *name;
	struct strlist levels;
	int line;
};

/* [sources]: a workload's source in place of its recipe's */
struct study_source {
	char *workload;
	char *spec;
	int line;
};

/* How repeat = stable splits its 5% over the looks it may take before
 * calling two configurations apart (analysis/rank.h, "Settled"). */
enum stable_rule {
	STABLE_OBRIEN_FLEMING, /* alpha spending, O'Brien-Fleming type (default:
				  settles real differences sooner, README) */
	STABLE_POCOCK,         /* alpha spending, Pocock type */
	STABLE_BONFERRONI,     /* 5% / the number of looks at every look */
};
/* "obrien-fleming", "pocock", "bonferroni" */
const char *stable_rule_name(int rule);
/* The rule called name; -1 for none. */
int stable_rule_parse(const char *name);

struct study {
	char *path;
	char *name;
	char *description;
	struct strlist workloads;
	int workloads_line;
	int repeat;      /* fixed repetitions, or the first round of repeat = auto */
	int repeat_auto; /* repeat = auto: go on until every interval is narrow */
	int repeat_stable; /* repeat = stable (a loaded study's default): go on
			      until every rank verdict is settled (rank.h) */
	int repeat_line, max_repeat_line; /* 0 when the study does not say */
	double max_seconds; /* stable: stop measuring after this long (300) */
	int noise_floor;    /* run --noise-floor: the matrix gets a copy of the
			       baseline (matrix.h) */
	int max_repeat;  /* auto: stop here (default 30); the rest is NOISY */
	double target;   /* auto: relative half-width of the median's 95% interval (0.01) */
	double tie_margin; /* a tie is settled when the geometric mean's
			      resamples lie within 1 +- this (0.01, analysis/rank.h) */
	int stable_rule; /* enum stable_rule: the level of an "apart" verdict
			    at each look of repeat = stable (analysis/rank.h) */
	int warmup;
	int layouts;    /* builds per configuration that differ only in code
			   addresses (1: the plain build only; doc/layout.md) */
	double timeout; /* seconds; 0 = the recipe's own */
	char *metric;   /* primary metric: "time", or "insns" when the study
			   runs emulated targets and does not say */
	int metric_set; /* the study named its metric */
	int metric_line; /* checked by pipeline_check_metric() (pipeline) */
	struct strlist meters;
	int meters_line; /* checked by study_check_names() (harness) */
	struct strlist baseline; /* level names */
	int baseline_line;
	struct axis *axes;
	size_t naxes;
	struct exclude_rule *excludes;
	size_t nexcludes;
	/* [run]: measure on boards over ssh instead of here */
	char *run_host;     /* "user@board[:port]", or a blank-separated pool */
	int run_port;       /* 0: ssh's default */
	char *run_identity, *run_workdir, *run_known_hosts;
	int run_per_board;  /* runs at a time on one board; 0: one */
	char *run_helper_cc; /* compiler words for the board's helper, or NULL */
	char *run_cpu;      /* the study's words for the boards' CPU, or NULL */
	int run_line;
	struct study_source *sources; /* [sources], in file order */
	char *pin;          /* pin = CPU-LIST for the measured programs, or NULL */
	int pin_line;
	/* packages = NAME ... or FILE: Debian source packages as workloads
	 * (system = debian, no recipe needed); study_load reads a FILE's
	 * names and adds each package to workloads too */
	struct strlist packages;
	int packages_line;
	int build_deps;     /* build_deps = install (0) | refuse (1): a package's apt-get build-dep */
	int isolate;        /* isolate = yes: refuse a busy machine (run --force) */
	int isolate_line;
	double isolate_load; /* the 1-minute load per core isolate allows (0.5) */
	size_t nsources;
	/* keys a command-line option set (study_override, settings.h): their
	 * value is the option's, setting_where() names the option */
	struct strlist overridden;
};

/* Load and check a study file: syntax, unknown keys, duplicate levels,
 * levels in baseline/exclude that no axis has, workloads that do not exist.
 * Returns 0, or -1 with one or more lines "file:line: what (what to do)"
 * in err.  Nothing is built before this succeeds. */
int study_load(const char *path, struct study *s, struct strbuf *err);
void study_release(struct study *s);

/*
 * A study made in memory (search's candidates) gets what a file gets:
 *
 *   study_init(&s, path);           // study_load's defaults; path's folder
 *                                   // holds its workloads/ and relative sources
 *   study_add_level(&s, "opt", &(struct level){.name = "O2", .value = "-O2"}, &err);
 *   s.name = xstrdup(...); ...      // other fields: heap, as study_load's
 *   study_check(&s, &err);          // study_load's checks and defaults
 *
 * Errors are study_load's, "path:line: ..." (a level's line; none when 0).
 */
void study_init(struct study *s, const char *path);

/* Add level l (name, value, line and keys; copied) to axis `axis`, made
 * when new, as the line "name = value" and its "name.KEY = value" lines in
 * [axis AXIS] would: level names unique across axes, the axis' own rules.
 * 0, or -1 with a reason in err. */
int study_add_level(struct study *s, const char *axis, const struct level *l, struct strbuf *err);

/* Check s as study_load checks a file it has read (workloads that exist,
 * each axis' values, baseline and exclude levels, [sources], [run]) and
 * fill what s leaves out (name from the path, metric from the axes).
 * 0, or -1 with one line per problem in err. */
int study_check(struct study *s, struct strbuf *err);

/* study_init() for one configuration of `from`: its path, workloads,
 * timeout, meters and [sources], and each of its axes with only the level
 * levels[a] (with its keys).  Not from's name, repeat, warmup, metric,
 * baseline, excludes or [run].  Add levels, set the rest, then
 * study_check().  0, or -1 with a reason in err. */
int study_init_reduced(struct study *s, const struct study *from, const size_t *levels,
		       struct strbuf *err);

struct recipe;

/* Replace the sources of the recipes that the study's [sources] names, then
 * those that `run --source NAME=SPEC` names (cli may be NULL; it wins).
 * NAME is a workload, or WORKLOAD.EXTRA for its recipe's source.EXTRA
 * (a workload named with a '.' wins over that reading).  A
 * relative local: path is taken from the study file's folder ([sources])
 * or the current folder (cli).  Returns 0, or -1 with one line per problem
 * ("file:line: ..." or "--source ...: ...") in err. */
int study_override_sources(const struct study *s, struct recipe **recipes, size_t n,
			   const struct strlist *cli, struct strbuf *err);

/* Find the axis and level index of a level name; -1 if none. */
int study_find_level(const struct study *s, const char *level, size_t *axis, size_t *index);

#endif
