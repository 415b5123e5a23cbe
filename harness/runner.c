/* runner.c - the runner table and the native runner */
#include "harness/runner.h"

#include "base/cpulist.h"
#include "harness/strays.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A fixed environment: the same program with the same argv and env does
 * the same work.  Then the run's tag (strays.h), of the same length in
 * every run; last the layout padding (layout.h), NULL where ASLR already
 * moves the stack on every run. */
#define CLEAN_ENV(tag, pad)                                                             \
	{                                                                               \
		"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TZ=UTC",              \
			"HOME=/nonexistent", tag, pad, NULL,                            \
	}

static void child_exec(const struct run_spec *spec, char *const *env, int err_pipe, pid_t parent)
{
	setpgid(0, 0);
	if (spec->exit_memory)
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	cpu_set_t set;
	/* checked before the study (run --pin); a list that fails here runs unpinned */
	if (spec->pin && !cpulist_parse(spec->pin, &set, NULL))
		sched_setaffinity(0, sizeof(set), &set);
	if (spec->cwd && chdir(spec->cwd))
		goto fail;
	int in = open(spec->stdin_path ? spec->stdin_path : "/dev/null", O_RDONLY);
	int out = open(spec->stdout_path ? spec->stdout_path : "/dev/null",
		       O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int errfd = open(spec->stderr_path ? spec->stderr_path : "/dev/null",
			 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0 || errfd < 0)
		goto fail;
	dup2(in, 0);
	dup2(out, 1);
	dup2(errfd, 2);
	/* only 0-2 inherited; the program dies with flagscope (strays.h) */
	if (strays_child_setup(parent, 1))
		_exit(127);
	execve(spec->argv[0], spec->argv, env);
fail:;
	int e = errno;
	if (write(err_pipe, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static int finish_result(const struct run_spec *spec, struct run_result *res, pid_t pid,
			 const char *tag, int err_fd, int status, const struct rusage *ru,
			 struct strbuf *err);

static long proc_field_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* The process is stopped at its exit: its memory is still mapped. */
static void read_exit_memory(pid_t pid, struct run_result *res)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	char *text = file_read(path, NULL);
	if (text) {
		res->vm_peak_kb = proc_field_kb(text, "VmPeak:");
		res->vm_hwm_kb = proc_field_kb(text, "VmHWM:");
		free(text);
	}
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	text = file_read(path, NULL);
	if (text) {
		res->dirty_kb = proc_field_kb(text, "Private_Dirty:");
		free(text);
	}
}

static void kill_run(pid_t pid, struct run_result *res)
{
	res->timed_out = 1;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* how often a waiting runner looks at spec->stop (the signal that set it
 * may have woken another thread) */
#define STOP_LOOK_MS 100

static int stop_set(const volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

static void stop_run(pid_t pid, struct run_result *res)
{
	res->interrupted = 1;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* A thread that keeps a run's time: at the deadline it kills the run's
 * group unless the waiter said done first.  The waiter says done only
 * while the child is still unreaped, so the watchdog never kills a pid
 * reused by another process. */
struct watchdog {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct timespec deadline; /* CLOCK_MONOTONIC */
	int done;
	int expired; /* the deadline passed (or the stop came) before the child existed */
	pid_t pid; /* 0 until the child exists */
	struct run_result *res;
	const volatile sig_atomic_t *stop;
	pthread_t thread;
};

static struct timespec in_ms(int ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += (long)ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *watchdog_main(void *arg)
{
	struct watchdog *w = arg;
	pthread_mutex_lock(&w->lock);
	int rc = 0, stopped = 0;
	while (!w->done && !stopped) {
		struct timespec until = w->deadline, look;
		if (w->stop) {
			look = in_ms(STOP_LOOK_MS);
			if (ts_before(&look, &until))
				until = look;
		}
		rc = pthread_cond_timedwait(&w->cond, &w->lock, &until);
		stopped = stop_set(w->stop);
		if (rc == ETIMEDOUT && !ts_before(&until, &w->deadline))
			break;
	}
	if (!w->done && w->pid > 0)
		(stopped ? stop_run : kill_run)(w->pid, w->res);
	w->expired = !w->done ? 1 + stopped : 0;
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Start the clock of timeout seconds (<= 0: none; then only stop ends
 * it early); the run is named later with watchdog_arm.  Returns 0, or -1
 * when no thread could be started. */
static int watchdog_start(struct watchdog *w, double timeout, const volatile sig_atomic_t *stop,
			  struct run_result *res)
{
	memset(w, 0, sizeof(*w));
	w->res = res;
	w->stop = stop;
	if (timeout <= 0)
		timeout = 1e9; /* no timeout: only the stop */
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&w->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &w->deadline);
	double end = (double)w->deadline.tv_sec + (double)w->deadline.tv_nsec / 1e9 + timeout;
	w->deadline.tv_sec = (time_t)end;
	w->deadline.tv_nsec = (long)((end - (double)(time_t)end) * 1e9);
	/* signals go to the threads that wait for them, never to a watchdog */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&w->thread, NULL, watchdog_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		errno = rc;
		return -1;
	}
	return 0;
}

static void watchdog_arm(struct watchdog *w, pid_t pid)
{
	pthread_mutex_lock(&w->lock);
	w->pid = pid;
	if (w->expired)
		(w->expired == 2 ? stop_run : kill_run)(pid, w->res);
	pthread_mutex_unlock(&w->lock);
}

/* Call before the child is reaped. */
static void watchdog_stop(struct watchdog *w)
{
	pthread_mutex_lock(&w->lock);
	w->done = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

/* Wait for a traced child: the exec stop (set the exit-stop option), the
 * exit stop (read memory), signals (passed on), the end.  It sleeps in
 * waitid on this one child, never on SIGCHLD: the kernel hands a child's
 * SIGCHLD to any thread that waits for one, and two threads each waiting
 * on traced runs took each other's (a run then waited for a poll or its
 * timeout).  The watchdog w, when given, keeps the time; the child is
 * left unreaped (WNOWAIT) until the watchdog is stopped. */
static int traced_wait(pid_t pid, struct watchdog *w, struct run_result *res, int *status,
		       struct rusage *ru, double *t_exit)
{
	int exec_seen = 0;
	for (;;) {
		siginfo_t info;
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info, WEXITED | WSTOPPED | WNOWAIT | __WALL) < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			if (w)
				watchdog_stop(w);
			errno = e;
			return -1;
		}
		if (info.si_code == CLD_EXITED || info.si_code == CLD_KILLED ||
		    info.si_code == CLD_DUMPED) {
			if (w)
				watchdog_stop(w);
			while (wait4(pid, status, __WALL, ru) < 0)
				if (errno != EINTR)
					return -1;
			return 0;
		}
		/* a stop: take it (a stop is not reaped) */
		pid_t got;
		while ((got = wait4(pid, status, WNOHANG | __WALL, ru)) < 0 && errno == EINTR)
			;
		if (got != pid || !WIFSTOPPED(*status))
			continue;
		int sig = WSTOPSIG(*status), event = *status >> 16, pass = 0;
		if (event == PTRACE_EVENT_EXEC) {
			/* the program exec'd another (execl benchmarks) */
		} else if (event == PTRACE_EVENT_EXIT) {
			*t_exit = now_seconds();
			read_exit_memory(pid, res);
		} else if (sig == SIGTRAP && !exec_seen) {
			/* the exec stop: from here on, stop at exit */
			ptrace(PTRACE_SETOPTIONS, pid, NULL,
			       (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC |
					      PTRACE_O_EXITKILL));
			exec_seen = 1;
		} else {
			pass = sig;
		}
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)pass);
	}
}

/* Without a pidfd (kernels before 5.3, seccomp profiles that refuse
 * pidfd_open) a thread keeps the time.  The child is waited for without
 * being reaped (WNOWAIT), so the watchdog never kills a pid reused by
 * another process. */
static void wait_watched(pid_t pid, double timeout, const volatile sig_atomic_t *stop,
			 struct run_result *res)
{
	struct watchdog w;
	int started = !watchdog_start(&w, timeout, stop, res);
	if (started)
		watchdog_arm(&w, pid);
	siginfo_t info;
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	if (started)
		watchdog_stop(&w);
}

/* Return once pid has exited (not reaped), killing its group when timeout
 * seconds (<= 0: none) pass first (res->timed_out) or *stop is set
 * (res->interrupted). */
static void wait_bounded(pid_t pid, double timeout, const volatile sig_atomic_t *stop,
			 struct run_result *res)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		wait_watched(pid, timeout, stop, res);
		return;
	}
	double end = timeout > 0 ? now_seconds() + timeout : INFINITY;
	struct pollfd p = {.fd = pidfd, .events = POLLIN};
	for (;;) {
		double left = end - now_seconds();
		int ms = left > 0 ? (left > 1e6 ? -1 : (int)(left * 1000) + 1) : 0;
		if (stop && (ms < 0 || ms > STOP_LOOK_MS))
			ms = STOP_LOOK_MS;
		int rc = ms ? poll(&p, 1, ms) : 0;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0 && stop_set(stop))
			stop_run(pid, res);
		else if (rc == 0 && end - now_seconds() > 0)
			continue;
		else if (rc == 0)
			kill_run(pid, res);
		break;
	}
	close(pidfd);
	if (p.revents == 0 && !res->timed_out && !res->interrupted) /* poll failed */
		wait_watched(pid, timeout > 0 ? fmax(end - now_seconds(), 1e-3) : 0, stop, res);
}

static int native_exec(const struct run_spec *spec, struct run_result *res, struct strbuf *err)
{
	int pipefd[2];
	memset(res, 0, sizeof(*res));
	/* a traced run's clock starts before the fork: no run without one */
	struct watchdog w;
	int watched = spec->exit_memory && (spec->timeout > 0 || spec->stop);
	if (watched && watchdog_start(&w, spec->timeout, spec->stop, res)) {
		sb_addf(err, "cannot start the run's timeout thread: %s", strerror_lc(errno));
		return -1;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		sb_addf(err, "pipe: %s", strerror_lc(errno));
		if (watched)
			watchdog_stop(&w);
		return -1;
	}
	res->vm_peak_kb = res->vm_hwm_kb = res->dirty_kb = -1;
	char tag[STRAYS_TAG_SIZE];
	strays_tag(tag);
	layout_choose(&res->layout);
	char *pad = layout_pad_entry(res->layout.pad);
	char *const env[] = CLEAN_ENV(tag, pad);
	layout_env_finish(&res->layout, env);
	double t0 = now_seconds();
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid != 0)
		free(pad);
	if (pid < 0) {
		sb_addf(err, "fork: %s", strerror_lc(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		if (watched)
			watchdog_stop(&w);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		child_exec(spec, env, pipefd[1], parent);
	}
	close(pipefd[1]);
	int status;
	struct rusage ru;
	if (spec->exit_memory) {
		double t_exit = 0;
		if (watched)
			watchdog_arm(&w, pid);
		int rc = traced_wait(pid, watched ? &w : NULL, res, &status, &ru, &t_exit);
		res->wall = (t_exit > 0 ? t_exit : now_seconds()) - t0;
		if (rc) {
			sb_addf(err, "wait4: %s", strerror_lc(errno));
			close(pipefd[0]);
			return -1;
		}
		return finish_result(spec, res, pid, tag, pipefd[0], status, &ru, err);
	}
	if (spec->timeout > 0 || spec->stop)
		wait_bounded(pid, spec->timeout, spec->stop, res);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			sb_addf(err, "wait4: %s", strerror_lc(errno));
			close(pipefd[0]);
			return -1;
		}
	res->wall = now_seconds() - t0;
	return finish_result(spec, res, pid, tag, pipefd[0], status, &ru, err);
}

static int finish_result(const struct run_spec *spec, struct run_result *res, pid_t pid,
			 const char *tag, int err_fd, int status, const struct rusage *ru,
			 struct strbuf *err)
{
	/* the child's own group may still hold stragglers it forked, and
	 * others (setsid, a double fork) carry its tag */
	kill(-pid, SIGKILL);
	const char *const held[] = {spec->stdout_path, spec->stderr_path, NULL};
	strays_kill(tag, spec->stdout_path ? held : held + 1);
	int exec_errno = 0;
	ssize_t got = read(err_fd, &exec_errno, sizeof(exec_errno));
	close(err_fd);
	if (got == (ssize_t)sizeof(exec_errno)) {
		sb_addf(err, "cannot start %s: %s", spec->argv[0], strerror_lc(exec_errno));
		return -1;
	}
	res->exited = WIFEXITED(status);
	res->status = res->exited ? WEXITSTATUS(status) : 0;
	res->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	res->user = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6;
	res->sys = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	res->maxrss_kb = ru->ru_maxrss;
	return 0;
}

static int native_select(const struct run_job *job)
{
	(void)job;
	return 1;
}

const struct runner_ops runner_native = {
	.name = "native",
	.help = "here, in a fixed environment, with a timeout, optionally pinned and stopped at exit",
	.wraps = 1,
	.exit_stop = 1,
	.select = native_select,
	.exec = native_exec,
};

/* Asked in this order: the first whose select() takes a run runs it. */
static const struct runner_ops *const runners[] = {
	&runner_ssh,
	&runner_qemu,
	&runner_native,
};

const struct runner_ops *runner_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(runners); i++)
		if (!strcmp(runners[i]->name, name))
			return runners[i];
	return NULL;
}

const struct runner_ops *runner_select(const struct run_job *job)
{
	for (size_t i = 0; i < ARRAY_SIZE(runners); i++)
		if (runners[i]->select(job))
			return runners[i];
	return &runner_native;
}

const struct runner_ops *runner_for(const struct run_target *target)
{
	return runner_select(&(struct run_job){.board = target});
}

const struct runner_ops *runner_at(size_t i)
{
	return i < ARRAY_SIZE(runners) ? runners[i] : NULL;
}

static char runner_name_list[128];

static void list_runner_names(void)
{
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(runners) && len < sizeof(runner_name_list); i++)
		len += (size_t)snprintf(runner_name_list + len, sizeof(runner_name_list) - len, "%s%s",
					i ? " " : "", runners[i]->name);
}

const char *runner_names(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, list_runner_names);
	return runner_name_list;
}

int runners_check(struct strbuf *err)
{
	size_t before = err->len;
	for (size_t i = 0; i < ARRAY_SIZE(runners); i++) {
		const struct runner_ops *r = runners[i];
		if (!r->name || !*r->name || !r->help || !r->select || !r->exec)
			sb_addf(err, "%sthe runner at runners[%zu] lacks a name, help, select or exec",
				err->len ? "; " : "", i);
		int study_hooks = !!r->open_study + !!r->facts + !!r->perf + !!r->machines +
				  !!r->release_study;
		if (study_hooks && study_hooks < 5)
			sb_addf(err, "%srunner '%s' has some study hooks, not all five (open_study, "
				     "facts, perf, machines, release_study)",
				err->len ? "; " : "", r->name ? r->name : "?");
		for (size_t k = 0; k < i && r->name; k++)
			if (runners[k]->name && !strcmp(runners[k]->name, r->name))
				sb_addf(err, "%stwo runners are named '%s'", err->len ? "; " : "",
					r->name);
	}
	if (runners[ARRAY_SIZE(runners) - 1] != &runner_native)
		sb_addf(err, "%srunner_native must be the last of runners[]", err->len ? "; " : "");
	if (strlen(runner_names()) + 1 >= sizeof(runner_name_list))
		sb_addf(err, "%sthe runners' names do not fit in %zu bytes", err->len ? "; " : "",
			sizeof(runner_name_list));
	return err->len > before ? -1 : 0;
}

void runner_job_release(const struct runner_ops *r, struct run_job *job)
{
	if (r && r->release)
		r->release(job);
	free(job->emu_plain);
	free(job->note);
	free(job->where);
	free(job->crash);
	job->emu_plain = job->note = job->where = job->crash = NULL;
	job->priv = NULL;
}
