/*
 * runner_ssh.h - running measured programs on boards reached over ssh.
 *
 * runner_ssh.exec(spec, res, err) needs spec->target (harness/runner.h):
 * target->host names one board, or a pool of boards of the same kind
 * separated by blanks, each "[user@]host[:port]" ("[v6addr]:port" too);
 * target->port is the default port (0: ssh's).  For each run it
 *   - connects once per board (one ssh ControlMaster connection kept for
 *     the life of the process, BatchMode=yes, StrictHostKeyChecking=yes;
 *     with target->known_hosts only that file is trusted: the pin),
 *   - collects the board's facts once (kernel, machine, CPU model, MHz),
 *   - builds the measuring helper (harness/remote-helper/helper.c, static,
 *     with the compiler for the board's machine; the options' helper_cc,
 *     else FLAGSCOPE_HELPER_CC, overrides) and copies it once,
 *   - copies argv[0] (with its executable siblings when it is a script),
 *     every argument that names an existing local file, and stdin_path to
 *     content-addressed paths under target->workdir (default
 *     .cache/flagscope-remote in the remote home): a file already there is
 *     never copied again,
 *   - runs the program under the helper in a fresh remote folder, with the
 *     spec's timeout and CPU pinning, and brings stdout, stderr and every
 *     file the program wrote in its folder back to spec->stdout_path,
 *     spec->stderr_path and spec->cwd, so validation works unchanged.
 *     The helper serves one ssh session per board for all its runs: the
 *     run's words travel framed over it, so no shell ever parses them and
 *     a run costs no new session or shell start-up on the board.
 * A leading `perf stat ... -o FILE ... --` (the perf meter's wrapper) runs
 * the board's own perf with the wrapper's events; FILE gets its output,
 * or stays absent when the board has no perf: a board's counters are
 * never the host's.  exit_memory is not supported: vm_* stay -1.
 *
 * One run at a time per board (options.per_board: that many, each over
 * its own helper session); concurrent callers (threads) share a pool.
 * The connection and the helper session end with the thread that opened
 * them (PR_SET_PDEATHSIG), so call exec from threads that live as long as
 * the study; a session found gone is reopened, not counted as a fault.
 * A board that disconnects, reboots or stops answering loses that run
 * only: it is retried, on another board of the pool when one is free, up
 * to RUNNER_SSH_ATTEMPTS times; then exec returns RUNNER_SSH_FAULT with
 * every board's reason: a board fault, not the program's (the caller
 * records OUTCOME_BOARD_FAULT, which a resumed study runs again).  A
 * program that cannot start on the board is -1 at once (no retry), as in
 * the native runner.
 *
 * The few commands that do go through the board's shell (making folders,
 * copying, linking, starting the helper) carry every value as one quoted
 * word (sh_quote); host, identity and known_hosts values that ssh itself
 * would interpret (leading '-', blanks, quotes, '%') are refused before
 * any connection.
 *
 * Environment: FLAGSCOPE_SSH_REUSE=connection starts the helper afresh
 * for every run (one ssh session each, over the kept connection);
 * FLAGSCOPE_SSH_REUSE=none also makes every ssh call a fresh connection.
 * Both only serve to measure what the reuse saves (bench/remote.sh).
 */
/* The pipeline reaches the functions below through runner_ssh's study
 * hooks (harness/runner.h: open_study, facts, perf, machines,
 * release_study); tests call them directly. */
#ifndef FLAGSCOPE_RUNNER_SSH_H
#define FLAGSCOPE_RUNNER_SSH_H

#include "harness/runner.h"
#include "base/util.h"

#define RUNNER_SSH_ATTEMPTS 3
/* exec's result when no board could run it (see above); -1 stays "the
 * program or its files are wrong", as for every runner */
#define RUNNER_SSH_FAULT RUNNER_FAULT

/* sh_quote and sh_quote_argv (base/util.h) make every word that goes
 * through a remote shell one quoted word. */

/* One board of a target's host list, split and checked. */
struct ssh_dest {
	char *user_host; /* "user@host" or "host" for ssh's destination */
	int port;        /* 0: ssh's default */
	char *name;      /* "user@host:port" as shown in reasons and facts */
};
/* Split target->host into boards and check every value ssh would read
 * (host, identity, known_hosts, workdir).  0 with *dests (heap, *n set),
 * or -1 with the reason in err.  Free with ssh_dests_free. */
int ssh_target_parse(const struct run_target *t, struct ssh_dest **dests, size_t *n,
		     struct strbuf *err);
void ssh_dests_free(struct ssh_dest *dests, size_t n);

/* What a board says about itself. */
struct board_facts {
	char kernel[128];  /* uname -r */
	char machine[32];  /* uname -m */
	char cpu[160];     /* model name / cpu model / Model / Hardware */
	double mhz;        /* cpu MHz, else cpufreq's max; 0 when unknown */
	int cpus;          /* processor lines */
	char perf[16];     /* the board's perf: hardware, software (no hardware
			      counters), failed (counts nothing), absent;
			      "" when not asked */
};
/* Fill f from /proc/cpuinfo text and, when not NULL, the text of
 * /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq (kHz).
 * kernel and machine are left as they are. */
void board_facts_parse_cpuinfo(struct board_facts *f, const char *cpuinfo, const char *max_khz);
/* "kernel=... machine=... cpu=... mhz=... cpus=...[ perf=...]" */
void board_facts_format(const struct board_facts *f, struct strbuf *sb);

/* Connect to every board of t.  lines gets one line per board that
 * answers: "NAME: kernel=... machine=... cpu=... mhz=... cpus=...
 * perf=...", then " described=..." when the options name the CPU; down
 * (may be NULL) gets one "NAME: REASON" per board that does not.  A board
 * that does not answer is asked once per process, and left out of the
 * pool while another board of it answers.  For the study's facts (store
 * them once per study).  0 when at least one board answers; -1 when none
 * does (every reason in err) or t is wrong. */
int runner_ssh_facts(const struct run_target *t, struct strlist *lines, struct strlist *down,
		     struct strbuf *err);

/* What the boards of t that answer can count with their own perf (the
 * helper's perf-probe; see board_facts.perf): 1 when at least one runs
 * perf (*hardware: every one of those counts hardware events), 0 when
 * none does, -1 when no board answers (the reasons in err).  which gets
 * "NAME PERF" per answering board, comma-separated. */
int runner_ssh_perf(const struct run_target *t, int *hardware, struct strbuf *which,
		    struct strbuf *err);

/* The board that ran this thread's latest successful exec ("NAME" as in
 * runner_ssh_facts), or NULL.  Valid until the next exec on the thread. */
const char *runner_ssh_last_board(void);

/* What a study says about its boards beyond the run_target ([run]). */
struct runner_ssh_options {
	int per_board;         /* runs at a time on one board; 0 or 1: one */
	const char *helper_cc; /* the compiler command (blank-separated words,
				  run without a shell) that links the static
				  helper; NULL: FLAGSCOPE_HELPER_CC, else the
				  compiler for the board's machine */
	const char *cpu;       /* the study's words for the boards' CPU, kept
				  with their facts as described=...; NULL: none */
};
/* Use o (copied) for every board from now on.  Call before the first
 * exec or facts: per_board sizes a board when it is first met. */
void runner_ssh_set_options(const struct runner_ssh_options *o);

/* Close every ControlMaster connection and remove the local control
 * folder.  Call once at the end of a study; exec reconnects if called
 * again. */
void runner_ssh_release(void);

#endif
