/*
 * meter.h - what is measured around a run.  One const struct meter_ops per
 * meter, listed in meters[] (meter.c), the one registry: the names a study
 * may use, the default set and help texts come from it.
 *
 * Timed meters (rusage, memory) measure every repetition and add nothing
 * to the program's run.  Wrapping meters (perf, cachegrind) put a tool in
 * front of the program; they measure one more run after the warm-up, so
 * the timed repetitions never carry the tool's cost, and only where the
 * runner lets a tool wrap the program (runner_ops.wraps), or, on a runner
 * that runs elsewhere (runner_ops.counts: boards over ssh), where the meter
 * can say through its remote op what the run there must count.  A runner's own
 * meter (qemu-insn: the qemu runner's plugin counts) measures every run
 * that runner makes, listed or not.
 *
 * How to add a meter:
 *   1. write its probe / wrap / collect in harness/meter_<name>.c (or in
 *      meter.c if small) as one const struct meter_ops with designated
 *      initializers;
 *   2. declare it below;
 *   3. add it to meters[] in meter.c (by_default = 1 when a study that
 *      names no meters should get it);
 *      (metrics pushes the names collect gives);
 *   4. meters_check() (at start-up, and test_meter) says what is missing;
 *   5. a wrapping meter that can measure runs on boards (ssh) says what
 *      the board must count in its remote op: runners that run elsewhere
 *      (runner_ops.counts) take that, never the wrapper's argv.
 */
#ifndef FLAGSCOPE_METER_H
#define FLAGSCOPE_METER_H

#include "harness/runner.h"
#include "base/util.h"

struct measurement {
	char name[64];
	double value;
	char unit[16];
};

struct measurements {
	struct measurement *v;
	size_t n;
};
void measurements_add(struct measurements *m, const char *name, double value, const char *unit);
void measurements_release(struct measurements *m);

struct meter_state {
	char events[512]; /* perf: the events that count on this machine */
	int hardware;     /* perf: hardware counters work */
	char valgrind[256]; /* cachegrind: valgrind's path */
	/* boards over ssh: the runs happen there, so probe there (perf asks
	 * the boards' own perf); NULL: here */
	const struct run_target *target;
};

/* What a meter's wrap and collect see of one run. */
struct meter_run {
	const struct meter_state *st;
	const struct run_job *job;   /* the run; its runner's state in job->priv */
	const struct run_result *rr; /* the finished run (collect only) */
	const char *scratch;         /* a file path the wrapper may write */
	void *out;                   /* the caller's, by the meter's contract (exec_ctx.meter_out) */
};

/* What a wrapping meter asks of a runner that runs the program elsewhere
 * (runner_ops.counts): count these perf events around it there, and bring
 * the counts back (perf stat -x, lines) into the local file out, which
 * collect then reads as if the meter had wrapped a run here. */
struct meter_remote {
	const char *events; /* perf stat -e's list */
	const char *out;    /* a local path */
};

/* How fine a metric's values are: what the smallest step of its meter is
 * (meter_resolution).  The verdict never calls a difference of a few
 * steps significant (analysis/verdict.h, doc/statistics.md). */
enum metric_grain {
	GRAIN_EXACT, /* counted or sized exactly (instructions under a simulator) */
	GRAIN_CLOCK, /* seconds from CLOCK_MONOTONIC: clock_getres */
	GRAIN_TICK,  /* seconds of CPU time from rusage: the scheduler tick */
	GRAIN_PAGE,  /* KiB of memory the kernel counts in pages: one page */
	GRAIN_EVENT, /* events a real machine counted: one event */
	GRAIN_PERF_MSEC, /* perf's task-clock: ns, printed in msec with 2 decimals */
};

/* One metric of a meter, or every metric that starts with name's text
 * before a final '*' (perf's "perf/" and '*': every event it counts). */
struct meter_metric {
	const char *name;
	enum metric_grain grain;
};

struct meter_ops {
	const char *name;
	const char *help;  /* one line: what it measures */
	int by_default;    /* in the set a study that names none gets */
	int timed;         /* 1: every repetition; 0: one wrapped run after the warm-up */
	int exit_stop;     /* needs the runner to stop the program at its exit */
	int required;      /* a run it cannot measure fails (RUN_FAILED, or UNSUPPORTED on -2) */
	int own;           /* a runner's own meter (runner_ops.meter): only that runner's runs */
	/* 1 when usable here, 0 when not; appends a one-line fact either way */
	int (*probe)(struct meter_state *st, struct strbuf *fact);
	/* Append the wrapper's argv words (the program follows); NULL if none. */
	void (*wrap)(const struct meter_run *mr, struct strlist *prefix);
	/* A wrapping meter on a runner that counts elsewhere: fill in what
	 * the run there must count (struct meter_remote; pointers into mr's
	 * state and scratch).  NULL: such a run cannot be measured so (a tool
	 * that must run here, as cachegrind's valgrind); it is not made. */
	void (*remote)(const struct meter_run *mr, struct meter_remote *want);
	/* Read the figures of a finished run into out.  0 (note: a remark the
	 * run's detail carries, or nothing); -1 none could be read; -2 this run
	 * can never be measured so (a threaded guest); then note is the whole
	 * line a required meter's failed run carries. */
	int (*collect)(const struct meter_run *mr, struct measurements *out, struct strbuf *note);
	/* The metrics collect can give with their grains, ended by {NULL}:
	 * the one table of a meter's metrics.  Names with no '*' are what
	 * --metric may name before anything runs (test_meter holds collect
	 * to them). */
	const struct meter_metric *table;
	/* Push every metric name collect can give where the table cannot
	 * list them (perf's events); NULL: the table's names. */
	void (*metrics)(struct strlist *out);
};

extern const struct meter_ops meter_rusage;
extern const struct meter_ops meter_perf;
extern const struct meter_ops meter_memory;
extern const struct meter_ops meter_cachegrind; /* meter_cachegrind.c */
extern const struct meter_ops meter_qemu_insn;  /* runner_qemu.c */

/* Whether perf counts EVENT ("cycles") on this machine: 1 yes, 0 perf
 * says "<not supported>" (no hardware counters, as in most virtual
 * machines), -1 perf cannot tell (not installed, not allowed, an event it
 * does not know).  Runs `perf stat -e EVENT true` once. */
int meter_perf_counts(const char *event);

/* NULL when no meter has that name */
const struct meter_ops *meter_lookup(const char *name);
/* The registry in order: NULL past the end. */
const struct meter_ops *meter_at(size_t i);
/* The default set, "rusage perf memory": what a study that names no
 * meters uses. */
const char *meter_names(void);
/* Every meter a study may name, "rusage perf memory cachegrind qemu-insn". */
const char *meter_known_names(void);
/* Push the metric names m can give that out lacks. */
void meter_push_metrics(const struct meter_ops *m, struct strlist *out);
/* The same for the meters named in names (space-separated; NULL: the
 * default set).  A runner's own meter (runner_ops.meter) is not among
 * them: the runners a study's runs select bring theirs. */
void meter_metric_names(const char *names, struct strlist *out);
/* The resolution of metric as the table of the meter that gives it
 * declares (enum metric_grain), in the metric's unit (*unit when unit is
 * not NULL: "s", "KiB", "msec", "" for a count): 0 exact, > 0 its
 * smallest step on this machine; appends to how one line saying where
 * the figure comes from ("the scheduler tick, CONFIG_HZ=250
 * (/boot/config)").  -1 when no meter gives
 * metric (a recipe's metric.NAME: its resolution is not known).
 * meter_resolution.c. */
double meter_resolution(const char *metric, const char **unit, struct strbuf *how);
/* The row of m's table that declares metric; NULL none. */
const struct meter_metric *meter_table_find(const struct meter_ops *m, const char *metric);
/* The scheduler tick in seconds, and how it was found (static text, with
 * the figure): CONFIG_HZ from /boot/config-RELEASE, else measured from
 * /proc/timer_list's jiffies over 100 ms, else 1 / sysconf(_SC_CLK_TCK)
 * (USER_HZ, 100: no kernel ticks slower, so an upper bound).  Found once. */
double meter_tick(const char **how);

/* One line per meter, "  NAME  HELP", for --help texts (heap). */
char *meter_help_text(void);
/* 0, or -1 with what is wrong with meters[] in err (a programming error) */
int meters_check(struct strbuf *err);

#endif
