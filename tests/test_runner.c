/*
 * test_runner.c - the native runner and the validation of outputs: exit
 * status, signals, timeouts, the fixed environment, first differing byte.
 * Timeouts hold without pidfd_open too (a seccomp filter refuses it, as
 * older container profiles and kernels before 5.3 do).  Threads that
 * each wait on traced runs (the memory meter, parallel board runs) never
 * wait on one another's signals.
 */
#include <errno.h>
#include <linux/filter.h>
#include <pthread.h>
#include <signal.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "harness/runner.h"
#include "harness/validate.h"
#include "tests/testlib.h"

static int run_sh(const char *dir, const char *script, double timeout, struct run_result *r)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	char *out = xasprintf("%s/stdout", dir);
	struct run_spec spec = {.argv = argv, .cwd = dir, .stdout_path = out, .timeout = timeout};
	struct strbuf err = {0};
	int rc = runner_native.exec(&spec, r, &err);
	sb_release(&err);
	free(out);
	return rc;
}

static void check_runner(const char *dir)
{
	struct run_result r;
	T_CHECK(!run_sh(dir, "exit 3", 10, &r) && r.exited && r.status == 3, "exit 3: %d/%d",
		r.exited, r.status);
	T_CHECK(!run_sh(dir, "kill -SEGV $$", 10, &r) && !r.exited && r.signal == 11 && !r.timed_out,
		"segv: exited=%d signal=%d", r.exited, r.signal);
	T_CHECK(!run_sh(dir, "sleep 30", 0.3, &r) && r.timed_out && !r.exited && r.signal == 9,
		"timeout: timed_out=%d signal=%d", r.timed_out, r.signal);
	T_CHECK(r.wall < 20, "the timeout did not stop the run (%.1f s)", r.wall);
	/* and stopped at exit (the memory meter): the watchdog keeps its time */
	char *sleeper[] = {"/bin/sleep", "30", NULL};
	struct run_spec traced = {.argv = sleeper, .cwd = dir, .timeout = 0.3, .exit_memory = 1};
	struct strbuf terr = {0};
	T_CHECK(!runner_native.exec(&traced, &r, &terr) && r.timed_out && r.signal == 9 &&
			r.wall < 20,
		"traced timeout: timed_out=%d signal=%d wall %.1f %s", r.timed_out, r.signal,
		r.wall, sb_str(&terr));
	sb_release(&terr);
	char *exiting[] = {"/bin/sh", "-c", "exit 4", NULL};
	traced.argv = exiting;
	traced.timeout = 10;
	T_CHECK(!runner_native.exec(&traced, &r, &terr) && r.exited && r.status == 4 &&
			!r.timed_out && r.vm_hwm_kb > 0,
		"traced exit 4: exited=%d status=%d hwm %ld", r.exited, r.status, r.vm_hwm_kb);
	sb_release(&terr);
	/* a child of the program that outlives it is killed with its group */
	T_CHECK(!run_sh(dir, "sleep 0.2; echo done", 10, &r) && r.exited && r.status == 0 &&
			r.wall >= 0.2,
		"sleep: wall %.3f", r.wall);
	char *out = xasprintf("%s/stdout", dir);
	char *text = file_read(out, NULL);
	T_CHECK(text && !strcmp(text, "done\n"), "stdout '%s'", text ? text : "(none)");
	free(text);
	/* the environment is fixed, so runs see the same stack layout */
	T_CHECK(!run_sh(dir, "env | sort", 10, &r) && r.status == 0, "env");
	text = file_read(out, NULL);
	T_CHECK(text && strstr(text, "LC_ALL=C\n") && strstr(text, "TZ=UTC\n") &&
			strstr(text, "HOME=/nonexistent\n") && !strstr(text, "FLAGSCOPE_TEST"),
		"env:\n%s", text ? text : "");
	free(text);
	/* user time and peak RSS come back from wait4 */
	T_CHECK(!run_sh(dir, "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", 60, &r) &&
			r.user + r.sys > 0 && r.maxrss_kb > 0,
		"rusage user %.3f sys %.3f rss %ld", r.user, r.sys, r.maxrss_kb);
	/* a program that cannot start is an error, not a run */
	char *argv[] = {"/nonexistent/program", NULL};
	struct run_spec spec = {.argv = argv, .cwd = dir, .timeout = 5};
	struct strbuf err = {0};
	T_CHECK(runner_native.exec(&spec, &r, &err) == -1 && strstr(sb_str(&err), "cannot start"),
		"missing program: %s", sb_str(&err));
	sb_release(&err);
	/* pinning to CPU 0 still runs */
	char *argv2[] = {"/bin/true", NULL};
	struct run_spec pinned = {.argv = argv2, .cwd = dir, .timeout = 5, .pin = "0"};
	T_CHECK(!runner_native.exec(&pinned, &r, &err) && r.exited && r.status == 0, "pinned");
	sb_release(&err);
	free(out);
}

/* 1 when pid is gone or a zombie (its parent may be a container's init
 * that never reaps) */
static int process_gone(long pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	char *text = file_read(path, NULL);
	const char *paren = text ? strrchr(text, ')') : NULL;
	int gone = !paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X';
	free(text);
	return gone;
}

/* A program that leaves processes behind: in its own group (killed with
 * the group), in a session of its own (setsid, as a daemon does) and
 * after a double fork (reparented away from the program at once).  None
 * may outlive the run: they would run beside the next runs. */
static void check_strays(const char *dir)
{
	const struct {
		const char *what, *script;
	} cases[] = {
		{"a background child", "sleep 137 & echo $!"},
		/* the program ends once the child is in its own session */
		{"a setsid child", "rm -f up; setsid sh -c 'echo $$ >up; exec sleep 137' & "
				   "while [ ! -s up ]; do sleep 0.01; done; cat up"},
		{"a double-forked setsid child",
		 "rm -f up; (setsid sh -c 'echo $$ >up; exec sleep 137' &); "
		 "while [ ! -s up ]; do sleep 0.01; done; cat up"},
		/* no tag: found by the run's stdout it holds */
		{"a double-forked setsid child under env -i",
		 "rm -f up; (env -i /usr/bin/setsid /bin/sh -c 'echo $$ >up; exec sleep 137' &); "
		 "while [ ! -s up ]; do sleep 0.01; done; cat up"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		for (int traced = 0; traced < 2; traced++) {
			char *argv[] = {"/bin/sh", "-c", (char *)cases[i].script, NULL};
			char *out = xasprintf("%s/stdout", dir);
			struct run_spec spec = {.argv = argv, .cwd = dir, .stdout_path = out,
						.timeout = 10, .exit_memory = traced};
			struct strbuf err = {0};
			struct run_result r;
			int rc = runner_native.exec(&spec, &r, &err);
			char *text = file_read(out, NULL);
			long stray = text ? strtol(text, NULL, 10) : 0;
			T_CHECK(!rc && r.exited && r.status == 0 && stray > 0, "%s: rc %d, stdout '%s'",
				cases[i].what, rc, text ? text : "");
			int gone = 0;
			/* the runner kills before it returns; a zombie's parent may
			 * take a moment to be told */
			for (int k = 0; k < 50 && stray > 0 && !(gone = process_gone(stray)); k++)
				usleep(10000);
			T_CHECK(gone, "%s%s: process %ld outlived the run", cases[i].what,
				traced ? " (stopped at exit)" : "", stray);
			if (!gone && stray > 0)
				kill((pid_t)stray, SIGKILL);
			free(text);
			free(out);
			sb_release(&err);
		}
	}
}

/* Runs stopped at exit (the memory meter) from several threads at once.
 * The kernel hands a child's SIGCHLD to any thread of the process that
 * does not block it or waits for it, so a wait that sleeps until its own
 * thread takes the signal may sleep past its child's stop.  The runs here
 * stop often: the shell signals itself SIGNALLED_STOPS times, every
 * signal a stop the runner passes on.  Two threads run them beside a
 * thread that waits for SIGCHLD as a traced wait does and two busy
 * threads that take signals; a lost stop costs the waiting run a poll (20
 * ms in the old wait) or its timeout.  A round fails when its slowest run
 * took STALL_S more than the middle one; a loaded machine may do that
 * once, so the check fails only when three rounds in a row do. */
#define TRACED_RUNS 6
#define SIGNALLED_STOPS "1000"
#define STALL_S 0.15

static const char stops_script[] =
	"trap : USR1; i=0; while [ $i -lt " SIGNALLED_STOPS " ]; do kill -USR1 $$; i=$((i+1)); "
	"done";

struct traced_worker {
	const char *dir;
	double wall[TRACED_RUNS];
	int failed; /* runs that did not exit 0, timed out or lost their memory figures */
};

static void *traced_runs(void *arg)
{
	struct traced_worker *w = arg;
	char *argv[] = {"/bin/sh", "-c", (char *)stops_script, NULL};
	struct run_spec spec = {.argv = argv, .cwd = w->dir, .timeout = 60, .exit_memory = 1};
	for (int i = 0; i < TRACED_RUNS; i++) {
		struct run_result r;
		struct strbuf err = {0};
		if (runner_native.exec(&spec, &r, &err) || !r.exited || r.status || r.timed_out ||
		    r.vm_hwm_kb <= 0)
			w->failed++;
		sb_release(&err);
		w->wall[i] = r.wall;
	}
	return NULL;
}

/* Another traced wait's way of waiting: SIGCHLD blocked, sigtimedwait. */
static void *sigchld_waiter(void *arg)
{
	volatile int *stop = arg;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, NULL);
	struct timespec ts = {0, 5 * 1000 * 1000};
	while (!*stop)
		sigtimedwait(&chld, NULL, &ts);
	return NULL;
}

/* A busy thread with no signal blocked: the kernel may hand it SIGCHLD. */
static void *busy(void *arg)
{
	volatile int *stop = arg;
	while (!*stop)
		;
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One round; returns how much longer the slowest run took than the middle one. */
static double traced_round(const char *dir, int *failed)
{
	volatile int stop = 0;
	struct traced_worker workers[2] = {{.dir = dir}, {.dir = dir}};
	pthread_t waiter, spin[2], t[2];
	T_CHECK(!pthread_create(&waiter, NULL, sigchld_waiter, (void *)&stop), "thread");
	for (int i = 0; i < 2; i++)
		T_CHECK(!pthread_create(&spin[i], NULL, busy, (void *)&stop), "thread");
	for (int i = 0; i < 2; i++)
		T_CHECK(!pthread_create(&t[i], NULL, traced_runs, &workers[i]), "thread");
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	stop = 1;
	pthread_join(waiter, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(spin[i], NULL);
	double walls[2 * TRACED_RUNS];
	memcpy(walls, workers[0].wall, sizeof(workers[0].wall));
	memcpy(walls + TRACED_RUNS, workers[1].wall, sizeof(workers[1].wall));
	qsort(walls, 2 * TRACED_RUNS, sizeof(*walls), cmp_double);
	*failed += workers[0].failed + workers[1].failed;
	printf("traced runs of %s stops in two threads: wall %.3f s (middle) to %.3f s\n",
	       SIGNALLED_STOPS, walls[TRACED_RUNS], walls[2 * TRACED_RUNS - 1]);
	return walls[2 * TRACED_RUNS - 1] - walls[TRACED_RUNS];
}

static void check_traced_threads(const char *dir)
{
	int failed = 0, round = 0;
	double stall;
	do
		stall = traced_round(dir, &failed);
	while (stall >= STALL_S && ++round < 3);
	T_CHECK(!failed, "%d traced runs failed (exit, timeout or no memory figures)", failed);
	T_CHECK(stall < STALL_S,
		"a traced run waited for a signal another thread took: %.3f s over the middle "
		"run, three rounds in a row",
		stall);
}

/* Ctrl-C: a run in flight is killed once *stop is set, plain or stopped
 * at exit, with or without a timeout, and says it was interrupted (not
 * timed out): the pipeline stores nothing of it. */
struct stopper {
	volatile sig_atomic_t *stop;
	double after;
};

static void *set_stop_later(void *arg)
{
	struct stopper *s = arg;
	usleep((useconds_t)(s->after * 1e6));
	*s->stop = 1;
	return NULL;
}

static void check_stop(const char *dir)
{
	for (int traced = 0; traced < 2; traced++) {
		for (int timed = 0; timed < 2; timed++) {
			volatile sig_atomic_t stop = 0;
			char *argv[] = {"/bin/sleep", "30", NULL};
			struct run_spec spec = {.argv = argv, .cwd = dir, .timeout = timed ? 60 : 0,
						.exit_memory = traced, .stop = &stop};
			struct stopper s = {.stop = &stop, .after = 0.3};
			pthread_t t;
			T_CHECK(!pthread_create(&t, NULL, set_stop_later, &s), "thread");
			struct run_result r;
			struct strbuf err = {0};
			int rc = runner_native.exec(&spec, &r, &err);
			pthread_join(t, NULL);
			T_CHECK(!rc && r.interrupted && !r.timed_out && !r.exited && r.wall < 20,
				"stop (traced %d, timeout %d): rc %d interrupted %d timed_out %d "
				"exited %d wall %.1f %s",
				traced, timed, rc, r.interrupted, r.timed_out, r.exited, r.wall,
				sb_str(&err));
			sb_release(&err);
		}
	}
	/* set before the run: it does not run on */
	volatile sig_atomic_t stop = 1;
	char *argv[] = {"/bin/sleep", "30", NULL};
	struct run_spec spec = {.argv = argv, .cwd = dir, .timeout = 60, .exit_memory = 1,
				.stop = &stop};
	struct run_result r;
	struct strbuf err = {0};
	T_CHECK(!runner_native.exec(&spec, &r, &err) && r.interrupted && r.wall < 20,
		"stop set before: interrupted %d wall %.1f", r.interrupted, r.wall);
	sb_release(&err);
}

/* In a child process: pidfd_open fails with ENOSYS from here on. */
static int refuse_pidfd_open(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = ARRAY_SIZE(code), .filter = code};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return -1;
	return syscall(SYS_pidfd_open, getpid(), 0) < 0 && errno == ENOSYS ? 0 : -1;
}

static void check_no_pidfd(const char *dir)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (refuse_pidfd_open()) {
			printf("SKIP: no pidfd_open fallback case: cannot install a seccomp filter\n");
			_exit(77);
		}
		struct run_result r;
		T_CHECK(!run_sh(dir, "sleep 10", 0.3, &r) && r.timed_out && !r.exited && r.signal == 9,
			"no pidfd, timeout: timed_out=%d signal=%d", r.timed_out, r.signal);
		T_CHECK(r.wall < 5, "no pidfd: the timeout did not stop the run (%.1f s)", r.wall);
		T_CHECK(!run_sh(dir, "sleep 0.2; exit 3", 10, &r) && r.exited && r.status == 3 &&
				!r.timed_out && r.wall >= 0.2 && r.wall < 5,
			"no pidfd, exit 3: exited=%d status=%d wall %.3f", r.exited, r.status, r.wall);
		volatile sig_atomic_t stop = 0;
		char *argv[] = {"/bin/sleep", "30", NULL};
		struct run_spec spec = {.argv = argv, .cwd = dir, .stop = &stop};
		struct stopper s = {.stop = &stop, .after = 0.3};
		pthread_t t;
		T_CHECK(!pthread_create(&t, NULL, set_stop_later, &s), "thread");
		struct strbuf err = {0};
		T_CHECK(!runner_native.exec(&spec, &r, &err) && r.interrupted && r.wall < 20,
			"no pidfd, stop: interrupted %d wall %.1f", r.interrupted, r.wall);
		pthread_join(t, NULL);
		sb_release(&err);
		_exit(test_failures ? 1 : 0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	T_CHECK(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77),
		"the checks without pidfd_open failed (status 0x%x)", status);
}

/* The registry: checked, asked in order, and the source of the names. */
static void check_registry(void)
{
	struct strbuf err = {0};
	T_CHECK(!runners_check(&err), "runners[]: %s", sb_str(&err));
	sb_release(&err);
	T_CHECK(!strcmp(runner_names(), "ssh qemu native"), "names '%s'", runner_names());
	struct run_target board = {.host = "pi@board"};
	const struct {
		const char *what, *want;
		struct run_job job;
	} cases[] = {
		{"a native build", "native", {.cross = NULL}},
		{"a cross build", "qemu", {.cross = "mips64el-linux-gnuabi64"}},
		{"a cross build on boards", "ssh", {.cross = "aarch64-linux-gnu", .board = &board}},
		{"a native build on boards", "ssh", {.board = &board}},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct runner_ops *r = runner_select(&cases[i].job);
		T_CHECK(!strcmp(r->name, cases[i].want), "%s: %s, not %s", cases[i].what, r->name,
			cases[i].want);
	}
	for (size_t i = 0; runner_at(i); i++)
		T_CHECK(runner_lookup(runner_at(i)->name) == runner_at(i), "lookup %s",
			runner_at(i)->name);
	T_CHECK(!runner_lookup("telnet"), "an unknown runner was found");
	/* a study's runs on boards: the ssh runner's study hooks (the
	 * pipeline's only way to the boards); here: none */
	T_CHECK(runner_for(&board) == &runner_ssh && runner_ssh.facts && runner_ssh.release_study,
		"study on boards: %s", runner_for(&board)->name);
	T_CHECK(runner_for(NULL) == &runner_native && !runner_native.open_study &&
			!runner_qemu.facts,
		"study here: %s", runner_for(NULL)->name);
	T_CHECK(runner_ssh.machines(&(struct run_target){.host = "pi@a pi@b:2222"}) == 2,
		"two boards");
}

static void check_validate(const char *dir)
{
	char *a = test_write(dir, "a", "hello world\n");
	char *b = test_write(dir, "b", "hello world\n");
	char *c = test_write(dir, "c", "hello wOrld\n");
	char *d = test_write(dir, "d", "hello");
	struct strbuf why = {0};
	T_CHECK(validate_files("stdout", a, b, &why) == 0, "equal files differ: %s", sb_str(&why));
	T_CHECK(validate_files("stdout", c, a, &why) == 1 &&
			strstr(sb_str(&why), "at byte 7: 0x4f 'O' instead of 0x6f 'o'"),
		"%s", sb_str(&why));
	sb_release(&why);
	T_CHECK(validate_files("stdout", d, a, &why) == 1 &&
			strstr(sb_str(&why), "at byte 5: end of file instead of 0x20 ' '"),
		"%s", sb_str(&why));
	sb_release(&why);
	T_CHECK(validate_files("stdout", a, "/nonexistent", &why) == -1, "missing file");
	sb_release(&why);
	/* a folder read as a file reads empty: never "equal" */
	T_CHECK(validate_files("out", dir, dir, &why) == -1 && strstr(sb_str(&why), "a folder"),
		"two folders as files: %s", sb_str(&why));
	sb_release(&why);
	/* folders: names, types, contents, recursively; a fifo is not read */
	char *x = xasprintf("%s/x", dir), *y = xasprintf("%s/y", dir);
	char *xs = xasprintf("%s/x/sub", dir), *ys = xasprintf("%s/y/sub", dir);
	mkdir_p(xs, 0755);
	mkdir_p(ys, 0755);
	free(test_write(xs, "f", "1\n"));
	free(test_write(ys, "f", "1\n"));
	T_CHECK(validate_tree("out", x, y, &why) == 0, "equal folders differ: %s", sb_str(&why));
	sb_release(&why);
	free(test_write(ys, "f", "2\n"));
	T_CHECK(validate_tree("out", x, y, &why) == 1 &&
			strstr(sb_str(&why), "out/sub/f differs from the reference at byte 0"),
		"nested difference: %s", sb_str(&why));
	sb_release(&why);
	free(test_write(ys, "g", "2\n"));
	free(test_write(xs, "f", "2\n"));
	T_CHECK(validate_tree("out", x, y, &why) == 1 && strstr(sb_str(&why), "out/sub/g: only in"),
		"a missing file: %s", sb_str(&why));
	sb_release(&why);
	char *fifo = xasprintf("%s/g", xs);
	T_CHECK(mkfifo(fifo, 0644) == 0, "mkfifo");
	T_CHECK(validate_tree("out", x, y, &why) == 1 && strstr(sb_str(&why), "a special file"),
		"a fifo for a file: %s", sb_str(&why));
	sb_release(&why);
	free(fifo);
	free(x);
	free(y);
	free(xs);
	free(ys);
	free(a);
	free(b);
	free(c);
	free(d);
}

int main(void)
{
	char *dir = test_tmpdir("runner");
	check_runner(dir);
	check_no_pidfd(dir);
	check_traced_threads(dir);
	check_strays(dir);
	check_stop(dir);
	check_registry();
	check_validate(dir);
	free(dir);
	return test_summary("test_runner");
}
