/*
 * runner.h - where a measured program runs.  One const struct runner_ops
 * per runner, listed in runners[] (runner.c), the one registry: names,
 * selection and help texts come from it.
 *
 * A run is a struct run_job (the context every hook gets); execute_run
 * gives it to the first runner in runners[] whose select() takes it, then
 * calls prepare, exec, diagnose and release in that order.
 *
 * How to add a runner:
 *   1. write harness/runner_<name>.c with one const struct runner_ops
 *      filled with designated initializers (name, help, select, exec; the
 *      other hooks only when it needs them);
 *   2. declare it below;
 *   3. add it to runners[] in runner.c, before runner_native (native takes
 *      every run the others leave, so it stays last);
 *   4. runners_check() (run at start-up and by test_runner) says what is
 *      missing.
 * A runner whose machines outlive a run (the ssh runner's boards) also
 * fills the five study hooks (open_study, facts, perf, machines,
 * release_study): the pipeline and the perf meter reach those machines
 * only through them, on runner_for(the study's target).
 */
#ifndef FLAGSCOPE_RUNNER_H
#define FLAGSCOPE_RUNNER_H

#include "base/util.h"
#include "harness/layout.h"

#include <signal.h>

struct study; /* flagsets/study.h */

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
	const char *pin;         /* CPU list ("0", "0-1,3", base/cpulist.h); NULL: no pinning */
	int exit_memory;         /* stop the program at its exit (ptrace) and read
				    its memory figures while it still exists */
	const struct run_target *target; /* ssh: the board(s); NULL: run here */
	const char *emu_cpu;     /* qemu: the CPU model (NULL: QEMU's default) */
	const char *emu_counts;  /* qemu: where the plugin writes its counts */
	int emu_native;          /* qemu: argv[0] runs here (a script starting its guest
				    programs through $EMU, which argv already sets) */
	/* set from a signal handler (Ctrl-C): the run is killed with its group
	   within STOP_LOOK_MS and run_result.interrupted set; NULL: never */
	const volatile sig_atomic_t *stop;
	/* a wrapping meter's request to a runner that counts elsewhere
	 * (runner_ops.counts; meter_ops.remote): count these perf events
	 * around the program and write the counts to the local file
	 * count_out.  NULL: count nothing */
	const char *count_events, *count_out;
};

struct run_result {
	int exited;       /* 1: exit(status); 0: killed by signal */
	int status;       /* exit status when exited */
	int signal;       /* signal number when killed */
	int timed_out;    /* killed by the runner after timeout */
	int interrupted;  /* killed by the runner because *spec.stop was set */
	double wall;      /* seconds, CLOCK_MONOTONIC from fork to exit */
	double user, sys; /* seconds, from wait4 rusage */
	long maxrss_kb;   /* peak resident set, from wait4 rusage */
	/* with exit_memory, read at the exit stop; -1 when not read */
	long vm_peak_kb;   /* /proc/PID/status VmPeak: peak virtual size */
	long vm_hwm_kb;    /* /proc/PID/status VmHWM: peak resident size */
	long dirty_kb;     /* /proc/PID/smaps_rollup Private_Dirty */
	struct run_layout layout; /* ASLR and environment size (layout.h); known: 0 unless the runner says */
};

struct meter_ops;

/* One run, as the runner hooks see it. */
struct run_job {
	/* set by execute_run */
	struct run_spec spec;         /* what exec runs; prepare may rewrite argv and emu_* */
	const char *scratch;          /* path prefix for the run's own files (counts, wrappers) */
	char *const *guests;          /* the build's own programs, full paths, NULL-terminated */
	const char *cross;            /* the configuration's target; NULL: built for this machine */
	const char *cpu;              /* cross: the study's CPU model (NULL: the emulator's default) */
	const struct run_target *board; /* a study's boards over ssh; NULL: none */
	int warmup;                   /* the first run of a build, checked and diagnosed */
	/* set by the runner's hooks (heap; freed by runner_job_release) */
	char *emu_plain;  /* $EMU for uncounted steps (a recipe's tolerate), or NULL */
	char *note;       /* a fact every outcome of the run must carry (a stand-in CPU model) */
	char *where;      /* where it ran, when a pool chose (a board's name) */
	char *crash;      /* why a signal killed it, when the runner could tell */
	void *priv;       /* the runner's own state */
};

struct runner_ops {
	const char *name;
	const char *help;  /* one line: where and how programs run */
	int wraps;         /* wrapping meters (perf, cachegrind) may go in front of the program */
	int counts;        /* runs elsewhere, counting what a wrapping meter's remote op asks
			      (run_spec.count_events) instead of running its wrapper */
	int exit_stop;     /* can stop the program at its exit (the memory meter) */
	const struct meter_ops *meter; /* its own meter, on every run it makes; or NULL */
	/* 1 when this runner takes the job (runners[] is asked in order) */
	int (*select)(const struct run_job *job);
	/* Before the run (NULL: nothing to do).  1 ready; 0 the program
	 * cannot run this way (UNRUNNABLE, reason in why); -1 failed. */
	int (*prepare)(struct run_job *job, struct strbuf *why);
	/* Run spec to completion.  Returns 0 when the program ran (whatever its
	 * exit status), -1 with a reason in err when it could not be started,
	 * RUNNER_FAULT when the machine it runs on failed, not the program. */
	int (*exec)(const struct run_spec *spec, struct run_result *res, struct strbuf *err);
	/* After exec, whatever happened (rr NULL when exec failed): set
	 * job->where or job->crash when the runner knows more.  May be NULL. */
	void (*diagnose)(struct run_job *job, const struct run_result *rr);
	/* Free job->priv and whatever prepare left on disk.  May be NULL. */
	void (*release)(struct run_job *job);

	/* A study's life on machines that outlive a run (boards): the pipeline
	 * calls these on the runner that takes the study's runs (runner_for),
	 * with the study's run_target.  NULL for runners with nothing to keep
	 * (native, qemu): then nothing is called, or the answer is "none". */
	/* Before anything else of the study: its [run] options (per_board,
	 * helper_cc, cpu). */
	void (*open_study)(const struct study *s);
	/* Ask every machine of t: lines gets "NAME: FACTS" per one that
	 * answers, down (may be NULL) "NAME: REASON" per one that does not.
	 * 0 when one answers; -1 when none does (reasons in err). */
	int (*facts)(const struct run_target *t, struct strlist *lines, struct strlist *down,
		     struct strbuf *err);
	/* What t's machines count with their own perf: 1 some run it
	 * (*hardware: all count hardware events), 0 none, -1 none answers
	 * (err); which gets "NAME PERF" per machine. */
	int (*perf)(const struct run_target *t, int *hardware, struct strbuf *which,
		    struct strbuf *err);
	/* How many machines t names (0 when it names none it can use). */
	size_t (*machines)(const struct run_target *t);
	/* After the study's last run: connections closed, local state gone. */
	void (*release_study)(void);
};

/* exec's result when the machine failed (a board lost after its retries):
 * a resumed study runs it again */
#define RUNNER_FAULT (-2)

extern const struct runner_ops runner_native;
extern const struct runner_ops runner_ssh; /* runner_ssh.c */
extern const struct runner_ops runner_qemu; /* runner_qemu.c */

/* NULL when no runner has that name */
const struct runner_ops *runner_lookup(const char *name);
/* The runner that takes job: the first in runners[] whose select() does. */
const struct runner_ops *runner_select(const struct run_job *job);
/* The runner that takes a study's runs on target (NULL: here) before any
 * build is known: the one whose study hooks (open_study ...) apply. */
const struct runner_ops *runner_for(const struct run_target *target);
/* The registry in order, for lists and help: NULL past the end. */
const struct runner_ops *runner_at(size_t i);
/* "ssh qemu native" */
const char *runner_names(void);
/* 0, or -1 with what is wrong with runners[] in err (a programming error) */
int runners_check(struct strbuf *err);
/* Run the runner's release hook, then free the job's notes. */
void runner_job_release(const struct runner_ops *r, struct run_job *job);

#endif
