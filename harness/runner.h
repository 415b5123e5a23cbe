/*
 * runner.h - where a measured program runs.  One const struct runner_ops
 * per runner, listed in runners[] (runner.c).
 *
 * How to add a runner (qemu, ssh): write harness/runner-<name>.c with a
 * const struct runner_ops, declare it here, add it to runners[].
 */
#ifndef FLAGSCOPE_RUNNER_H
#define FLAGSCOPE_RUNNER_H

#include "base/util.h"

/* A board reached over ssh (runner_ssh.h).  host: "[user@]board[:port]",
 * or several separated by blanks for a pool of boards of the same kind;
 * port: the default port (0: ssh's); identity: a private key file
 * (NULL: ssh's defaults); workdir: the folder on the board (NULL:
 * .cache/flagscope-remote in the remote home); known_hosts: the only file
 * whose host keys are trusted (NULL: ssh's usual files). */
struct run_target {
	const char *host;
	int port;
	const char *identity;
	const char *workdir;
	const char *known_hosts;
};

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
	const struct run_target *target; /* ssh: the board(s); NULL: run here */
	const char *emu_cpu;     /* qemu: the CPU model (NULL: QEMU's default) */
	const char *emu_counts;  /* qemu: where the plugin writes its counts */
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
extern const struct runner_ops runner_ssh; /* runner_ssh.c */
extern const struct runner_ops runner_qemu; /* runner_qemu.c */

/* NULL when no runner has that name */
const struct runner_ops *runner_lookup(const char *name);

#endif
