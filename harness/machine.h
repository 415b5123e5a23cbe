/*
 * machine.h - the state of the machine a study measures on, kept with
 * the study (analysis/store.h, table machine) so that a verdict can be
 * read with what the machine was doing: CPU model, cores, frequency
 * governor, turbo/boost, frequency range, kernel, whether it is a virtual
 * machine, the CPUs the measured programs were pinned to, and the
 * 1-minute load average before, during (the largest sample) and after
 * the runs.
 *
 * Every reader takes a root folder ("" for this machine) under which it
 * reads proc/... and sys/..., so tests give it a fake tree.  What cannot
 * be read (sysfs cpufreq is often absent in a VM) is "unknown": reading
 * the state never fails.  $FLAGSCOPE_MACHINE_ROOT replaces "" as the
 * root of a study's machine state (machine_root(); for tests: a fake
 * governor or load average).
 */
#ifndef FLAGSCOPE_MACHINE_H
#define FLAGSCOPE_MACHINE_H

#include <pthread.h>

#include "base/util.h"

enum machine_key {
	MACHINE_CPU,         /* "Intel(R) Xeon(R) ..." (model name) */
	MACHINE_CORES,       /* logical CPUs listed in cpuinfo: "2" */
	MACHINE_GOVERNOR,    /* cpu0's scaling_governor: "performance" */
	MACHINE_BOOST,       /* "on", "off" (intel_pstate no_turbo, cpufreq boost) */
	MACHINE_FREQ,        /* "800-3600 MHz" (cpufreq), "2400 MHz (cpuinfo)" */
	MACHINE_KERNEL,      /* osrelease: "6.1.0-18-amd64" */
	MACHINE_VM,          /* "yes (hypervisor flag, sys_vendor QEMU)", "no" */
	MACHINE_PIN,         /* the measured programs' CPUs: "0", or "none" */
	MACHINE_LOAD_BEFORE, /* 1-minute load average when the runs started */
	MACHINE_LOAD_MAX,    /* the largest of before, the samples and after */
	MACHINE_LOAD_AFTER,  /* when they ended */
	MACHINE_STARTED,     /* UTC, "2026-12-03T15:02:11" */
	MACHINE_FINISHED,
	MACHINE_NKEYS
};

/* The keys as stored and shown: "cpu", "cores", "governor", "boost",
 * "freq", "kernel", "vm", "pin", "load.before", "load.max", "load.after",
 * "started", "finished". */
extern const char *const machine_key_names[MACHINE_NKEYS];

struct machine_state {
	char *v[MACHINE_NKEYS]; /* heap; "unknown" when not read; NULL: not set yet */
};

/* $FLAGSCOPE_MACHINE_ROOT, or "" (this machine). */
const char *machine_root(void);

/* Read what does not change during a study (cpu .. vm) and the load now
 * (load.before, load.max), and started; pin as given (NULL: "none"). */
void machine_read(struct machine_state *m, const char *root, const char *pin);
/* The runs ended: load.after, load.max (at least max_sampled) and finished. */
void machine_finish(struct machine_state *m, const char *root, double max_sampled);
void machine_release(struct machine_state *m);

/* The 1-minute load average from root/proc/loadavg; NAN when unreadable. */
double machine_load(const char *root);
/* The logical CPUs of root/proc/cpuinfo; 0 when it lists none. */
int machine_cores(const char *root);

/*
 * The load during a study: a thread reads the 1-minute load average every
 * MACHINE_WATCH_SECONDS and keeps the largest.  Cheap (one small read per
 * sample).  start: 0, or -1 when no thread could be made (then stop
 * returns NAN and the study goes on).
 */
#define MACHINE_WATCH_SECONDS 5
struct machine_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	const char *root;
	int stop, started;
	double max;
};
int machine_watch_start(struct machine_watch *w, const char *root);
/* Stop the thread; the largest load it sampled, NAN if none. */
double machine_watch_stop(struct machine_watch *w);

/* `isolate = yes`: 0 when the 1-minute load average of root is at most
 * per_core x the cores; -1 with "the 1-minute load average is L, above
 * the isolate threshold T (P per core x N cores)" in why.  An unreadable
 * load passes (said nowhere: nothing is known to be busy). */
int machine_quiet_check(const char *root, double per_core, struct strbuf *why);

/* A pin list this process may use: 0, or -1 with why ("'0-3' is not a CPU
 * list (...)", "CPU 3 is not one this process may run on (allowed: 0-1)").
 * board: the runs are on boards over ssh; the list is only parsed here,
 * and each board's helper checks it against the CPUs the board lets it
 * use (a CPU it may not use fails that run, never pins to fewer). */
int machine_pin_check(const char *pin, int board, struct strbuf *why);

struct study;
/* What run and search check before a study starts: the pin (pin_option,
 * e.g. --pin, else the study's pin =) is one this process may use
 * (machine_pin_check), and with isolate = yes (unless force) the machine
 * is quiet (machine_quiet_check on machine_root()).  0, or -1 with one
 * line in err: "CMD: --pin: ...", "STUDY:LINE: pin: ..." or
 * "STUDY:LINE: isolate = yes: ... (what to do)". */
int machine_study_check(const struct study *s, const char *cmd, const char *pin_option, int force,
			struct strbuf *err);

#endif
