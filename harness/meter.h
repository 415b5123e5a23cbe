/*
 * meter.h - what is measured around a run.  One const struct meter_ops per
 * meter, listed in meters[] (meter.c).
 *
 * Timed meters (rusage) measure every repetition and add nothing to the
 * program's run.  Wrapping meters (perf) put a tool in front of the
 * program; they measure the warm-up run only, so the timed repetitions
 * never carry the tool's start-up cost.
 *
 * How to add a meter: write its probe/wrap/collect in harness/meter-<name>.c
 * (or here if small), declare it below, add it to meters[].
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
	/* boards over ssh: the runs happen there, so probe there (perf asks
	 * the boards' own perf); NULL: here */
	const struct run_target *target;
};

struct meter_ops {
	const char *name;
	int timed; /* 1: every repetition; 0: the warm-up run only (wrapping) */
	int exit_stop; /* needs the runner to stop the program at its exit */
	/* 1 when usable here, 0 when not; appends a one-line fact either way */
	int (*probe)(struct meter_state *st, struct strbuf *fact);
	/* Append the wrapper's argv words (the program follows); NULL if none. */
	void (*wrap)(const struct meter_state *st, const char *scratch, struct strlist *prefix);
	/* Read the figures of a finished run.  0, or -1 if none could be read. */
	int (*collect)(const struct meter_state *st, const struct run_result *r,
		       const char *scratch, struct measurements *out);
};

extern const struct meter_ops meter_rusage;
extern const struct meter_ops meter_perf;
extern const struct meter_ops meter_memory;

const struct meter_ops *meter_lookup(const char *name);
/* "rusage perf memory" */
const char *meter_names(void);

#endif
