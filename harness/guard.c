/* guard.c - see guard.h */
#include "harness/guard.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every descriptor above 2 but keep: the guard lives as long as the build,
 * and a copy of another build's lock (flock: shared by every copy of the
 * descriptor) would keep that lock held after its build ended. */
static void close_all_but(int keep)
{
	unsigned from = 3;
	if (keep >= 3) {
		if (keep > 3 && syscall(SYS_close_range, 3U, (unsigned)keep - 1, 0U))
			for (int fd = 3; fd < keep; fd++)
				close(fd);
		from = (unsigned)keep + 1;
	}
	if (syscall(SYS_close_range, from, ~0U, 0U)) {
		long max = sysconf(_SC_OPEN_MAX);
		for (long fd = from; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
			close((int)fd);
	}
}

static void guard_wait(pid_t worker, const sigset_t *set)
{
	for (;;) {
		int sig = sigwaitinfo(set, NULL);
		int status;
		if (sig < 0)
			continue; /* EINTR: a signal not in the set, e.g. a stop */
		if (sig != SIGCHLD)
			break;
		if (waitpid(worker, &status, WNOHANG) != worker)
			continue;
		if (WIFEXITED(status))
			_exit(WEXITSTATUS(status));
		_exit(128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0));
	}
	/* the parent is gone, or someone asks the group to stop */
	kill(0, SIGKILL);
	_exit(137);
}

int guard_fork(pid_t parent, int keep)
{
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* blocked before the fork: a worker that ends at once is still seen */
	if (sigprocmask(SIG_BLOCK, &set, &old))
		return -1;
	/* after the prctl: a parent killed before it is seen here */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		return -1;
	pid_t worker = fork();
	if (worker < 0)
		return -1;
	if (worker == 0) {
		/* the parent-death signal is not inherited: the guard's alone */
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (keep >= 0)
			fcntl(keep, F_SETFD, FD_CLOEXEC);
		return 0;
	}
	close_all_but(keep);
	guard_wait(worker, &set);
	return -1; /* not reached */
}
