/*
 * runner_ssh_internal.h - what the ssh runner's files share; not for other
 * modules:
 *   runner_ssh.c          quoting, targets, facts, the pool, exec and retries
 *   runner_ssh_board.c    one board: connection, commands, uploads, probe,
 *                         the helper's build
 *   runner_ssh_files.c    the files a run needs, content-addressed
 *   runner_ssh_session.c  the helper's served session and its answers
 */
#ifndef FLAGSCOPE_RUNNER_SSH_INTERNAL_H
#define FLAGSCOPE_RUNNER_SSH_INTERNAL_H

#include <pthread.h>
#include <sys/types.h>

#include "harness/runner_ssh.h"

/* Results of board operations other than 0 */
enum {
	BOARD_ERROR = -1, /* the request itself is wrong: no other board would do better */
	BOARD_FAULT = -2, /* the board or its connection failed: retry elsewhere */
};

/* One served helper session on a board (`helper serve` over ssh): one
 * run at a time goes through it. */
struct board_session {
	pid_t pid; /* the ssh running `helper serve`, 0 when none */
	int in, out, err;
	struct session_reader *rd;
	int busy; /* a run holds it (under the pool lock) */
};

struct board {
	struct ssh_dest dest;
	char *identity, *known_hosts, *workdir_arg; /* copied from the target */
	char *key;     /* what makes two target entries the same board */
	char *control; /* ControlPath socket; NULL: a fresh connection per call */
	/* lock: taken by the run that connects, prepares, copies or
	 * disconnects, so that runs sharing the board (per_board > 1) never
	 * do those at once; the fields below up to sets change under it */
	pthread_mutex_t lock;
	pid_t master;  /* the ControlMaster ssh process, 0 when none */
	int ready;     /* connected, facts read, helper on the board */
	char *workdir; /* absolute on the board */
	char *helper;  /* absolute path of the helper on the board */
	struct board_facts facts;
	struct strlist sets; /* file sets known to exist under workdir/a */
	struct board_session *sessions; /* per_board of them */
	size_t nsessions;
	int busy; /* runs in progress (under the pool lock), at most nsessions */
	int faults;
	char *unreachable; /* why the board did not answer a survey, or NULL */
	unsigned long last_used;
};

/* What ssh keeps between runs (FLAGSCOPE_SSH_REUSE): "all" (default) a
 * ControlMaster connection and a served helper session per board;
 * "connection" the connection, a new session per run; "none" a fresh
 * connection per ssh call. */
enum ssh_reuse { REUSE_NONE, REUSE_CONNECTION, REUSE_ALL };
enum ssh_reuse ssh_reuse(void);

/* Counters for tests and bench/remote.sh (all boards, this process). */
struct runner_ssh_counts {
	long connects; /* ControlMaster connections started */
	long commands; /* ssh invocations */
	long uploads;  /* files copied to a board */
};
void runner_ssh_get_counts(struct runner_ssh_counts *c);
extern struct runner_ssh_counts ssh_counts; /* updated under the pool lock */
void ssh_counts_add(long *counter);

/* The local folder of control sockets (made once, removed at release). */
const char *ssh_control_dir(void);

/* ssh's argv for one call to the board: options, "--", destination, then
 * (when remote_cmd is not NULL) the command.  master: the ControlMaster
 * itself. */
void board_ssh_argv(const struct board *b, int master, const char *remote_cmd,
		    struct strlist *argv);

/* A running ssh: stdin is the file in_fd (or a pipe in `in` when in_fd <
 * 0), stdout a pipe in `out`, stderr a memory file read back at the end. */
struct ssh_proc {
	pid_t pid;
	int in, out, err;
};
int ssh_spawn(struct strlist *argv, int in_fd, struct ssh_proc *p, struct strbuf *err);
/* Wait for it (killing it at the deadline, a now_seconds() value); its
 * exit status, 255 for ssh's own failures, or -1 when killed.  The last
 * line of its stderr goes to why. */
int ssh_finish(struct ssh_proc *p, double deadline, struct strbuf *why);

/* Run remote_cmd on the board, stdin from in_fd (-1: nothing), stdout
 * into *out (may be NULL).  Returns the remote exit status (0..254), or
 * BOARD_FAULT with the reason in err. */
int board_command(struct board *b, const char *remote_cmd, int in_fd, double seconds, char **out,
		  struct strbuf *err);

/* Connect (start the ControlMaster when there is none or it died), read
 * the facts, make the work folders and put the helper there.  0,
 * BOARD_FAULT or BOARD_ERROR. */
int board_prepare(struct board *b, struct strbuf *err);
/* Stop the ControlMaster; the next board_prepare reconnects. */
void board_disconnect(struct board *b);
/* Copy a local file to workdir/o/HEX (atomically). 0 or BOARD_FAULT. */
int board_upload(struct board *b, const char *local, const char *hex, struct strbuf *err);

/* The folder part of a path (heap). */
char *ssh_dir_of(const char *path);

/* The helper built for a board machine (cached); heap path or NULL. */
char *ssh_helper_build(const char *machine, struct strbuf *err);

/* The files of one run: sets[0] the program (with its executable siblings
 * when it is a script, and the files of its folder named in the
 * arguments), then one set per other local file argument in argv order,
 * then stdin's.  Each set lands in workdir/a/ID on the board, ID the hash
 * of its names and contents. */
struct file_set {
	char *dir; /* the local folder they come from */
	struct strlist names, hexes, paths;
	char id[65];
};
struct run_files {
	struct file_set *sets;
	size_t n;
};
/* The remote argv of a run and what the runner must do around it. */
struct remote_argv {
	struct strlist words;
	char *stdin_path;                   /* on the board, or NULL */
	/* run_spec.count_events and count_out: the board's perf counts these
	 * events into this local file (the helper's "perf" frame) */
	const char *perf_events, *perf_out;
};
/* Hash and group the files spec needs: 0, or -1 (the reason in err) when
 * the program is missing or an argument names a local folder. */
int plan_files(const struct run_spec *spec, struct run_files *f, struct strbuf *err);
void run_files_release(struct run_files *f);
/* The board's words for spec, its files under workdir, its run folder's
 * cwd rcwd. */
void map_words(const struct run_spec *spec, const struct run_files *f, const char *workdir,
	       const char *rcwd, struct remote_argv *ra);
void remote_argv_release(struct remote_argv *ra);
/* Make every set exist on the board, copying only the objects it lacks:
 * 0, BOARD_FAULT or BOARD_ERROR. */
int board_sets(struct board *b, const struct run_files *f, struct strbuf *err);
/* Forget the remembered file hashes. */
void ssh_files_forget(void);

/* One run on a prepared board through the helper, over session s (one
 * of b->sessions, held by the caller): 0 (res filled, outputs written),
 * BOARD_FAULT (the board or the line failed: retry), or BOARD_ERROR (the
 * program cannot start there). */
int board_run(struct board *b, struct board_session *s, const struct run_spec *spec,
	      const struct run_files *f, struct run_result *res, struct strbuf *err);
/* End a served session (the helper on the board then ends too). */
void board_session_close(struct board_session *s);

/* The [run] options of the study (runner_ssh_set_options), read by the
 * board's files: the helper's compiler, the described CPU. */
const struct runner_ssh_options *ssh_options(void);

#endif
