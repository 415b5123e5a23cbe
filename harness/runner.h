/*
 * runner.h - where a measured program runs.  One const struct runner_ops
 * per runner, listed in runners[] (runner.c).
 *
 * How to add a runner (qemu, ssh): write harness/runner-<name>.c with a
 * const struct runner_ops, declare it here, add it to runners[].
 */
#ifndef FLAGSCOPE_RUNNER_H
#define FLAGSCOPE_RUNNER_H

#include "harness/util.h"

struct run_spec {
	char *const *argv;       /* argv[0] is a path */
	const char *cwd;         /* the run's own directory */
	const char *stdin_path;  /* NULL: /dev/null */
	const char *stdout_path;
	const char *stderr_path;
	double timeout;          /* seconds */
	int pin_cpu;             /* -1: no pinning */
	int exit_memory;         /* stop the program at its exit (ptrace) and read
				    its memory figures while it still exists */
};

struct run_result {
	int exited;       /* 1: exit(status); 0: killed by signal */
	int status;       /* exit status when exited */
	int signal;       /* signal number when killed */
	int timed_out;    /* killed by the runner after timeout */
	double wall;      /* seconds, CLOCK_MONOTONIC from fork to exit */
	double user, sys; /* seconds, from wait4 rusage */
	long maxrss_kb;   /* peak resident set, from wait4 rusage */
	/* with exit_memory, read at the exit stop; -1 when not read */
	long vm_peak_kb;   /* /proc/PID/status VmPeak: peak virtual size */
	long vm_hwm_kb;    /* /proc/PID/status VmHWM: peak resident size */
	long dirty_kb;     /* /proc/PID/smaps_rollup Private_Dirty */
};

struct runner_ops {
	const char *name;
	/* Run spec to completion.  Returns 0 when the program ran (whatever its
	 * exit status), -1 with a reason in err when it could not be started. */
	int (*exec)(const struct run_spec *spec, struct run_result *res, struct strbuf *err);
};

extern const struct runner_ops runner_native;

/* NULL when no runner has that name */
const struct runner_ops *runner_lookup(const char *name);

#endif
