/* build_pool.c - the build pool behind build_all (see build.h): key
 * locks shared with other flagscope processes, starting builds up to the
 * job limit, timeouts, the stop, and recording a finished build's status. */
#include "harness/build_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Take build b's lock without waiting: another flagscope (another shard
 * on the same cache, a second shell) may be building the same key.  0 when
 * another process holds it; else 1 with *fd the lock (-1 when the cache
 * cannot hold a lock file: the build goes on unlocked, as before locks).
 * The pool holds it until the build is verified and its status written,
 * so the other process never sees a finished script without its status
 * (it rebuilt the key in the same folder then). */
static int build_try_lock(const struct build *b, int *fd)
{
	char *lock = xasprintf("%s.lock", b->dir);
	char *parent = xstrdup(b->dir);
	*strrchr(parent, '/') = '\0';
	mkdir_p(parent, 0755);
	*fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(parent);
	free(lock);
	if (*fd >= 0 && flock(*fd, LOCK_EX | LOCK_NB)) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	return 1;
}

/* 1 when b's status says another process finished it (and its binaries
 * are the ones it recorded) */
static int build_done_elsewhere(const struct build *b)
{
	return build_status_trusted(b);
}

#define STOP_POLL_MS 100

/* Wait for one of the pool's own builds (pids[i] > 0) to end, and reap it.
 * Never waitpid(-1): the program using this library may have children of
 * its own (a board helper, a server under test) that are not ours to reap.
 * Blocks in poll() on pidfds; without them (before Linux 5.3, or a seccomp
 * profile that refuses pidfd_open) it looks every 20 ms.  With stop it
 * looks at *stop every STOP_POLL_MS too (the signal that set it may have
 * woken another thread) and returns -1 once it is set; -1 too once
 * now_seconds() reaches deadline (INFINITY: none). */
pid_t build_wait_child(const pid_t *pids, size_t n, int *status,
		       const volatile sig_atomic_t *stop, double deadline)
{
	struct pollfd *fds = xcalloc(n ? n : 1, sizeof(*fds));
	pid_t got = -1;
	while (got < 0 && now_seconds() < deadline) {
		size_t nfd = 0, alive = 0;
		for (size_t i = 0; i < n && got < 0; i++) {
			if (pids[i] <= 0)
				continue;
			pid_t w = waitpid(pids[i], status, WNOHANG);
			if (w == pids[i]) {
				got = w;
			} else if (w == 0 || errno == EINTR) {
				alive++;
			} else {
				/* reaped by someone else: its status is lost */
				*status = 127 << 8;
				got = pids[i];
			}
		}
		if (got >= 0 || !alive || (stop && *stop))
			break;
		for (size_t i = 0; i < n; i++) {
			int fd = pids[i] > 0 ? (int)syscall(SYS_pidfd_open, pids[i], 0) : -1;
			if (fd >= 0)
				fds[nfd++] = (struct pollfd){.fd = fd, .events = POLLIN};
		}
		int ms = nfd < alive ? 20 : stop ? STOP_POLL_MS : -1;
		double left = deadline - now_seconds();
		if (left < 1e6 && (ms < 0 || left * 1000 < ms))
			ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		poll(fds, nfd, ms);
		for (size_t i = 0; i < nfd; i++)
			close(fds[i].fd);
	}
	free(fds);
	return got;
}

/* The stop: kill the running builds' groups, reap them, let go of their
 * locks, and mark every build that did not finish. */
static void stop_builds(struct build *builds, pid_t *pids, int *locks, const char *finished,
			size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(-pids[i], SIGKILL);
	for (size_t i = 0; i < n; i++) {
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
		if (pids[i] > 0)
			debpkg_user_tree_remove(builds[i].dir); /* SIGKILL: its trap never ran */
		if (locks[i] >= 0)
			close(locks[i]);
		locks[i] = -1;
		if (!finished[i] && !builds[i].cached && !builds[i].settled) {
			builds[i].interrupted = 1;
			builds[i].outcome = OUTCOME_BUILD_FAILED;
		}
		pids[i] = 0;
	}
}

/* The pool's state: per build its child, its lock and whether it ended */
struct pool {
	struct build *builds;
	size_t n, todo, done;
	int jobs, running;
	pid_t *pids;
	int *locks;
	double *start;
	char *finished, *timed_out;
	build_progress_fn progress;
	void *user;
};

static void pool_finished(struct pool *p, size_t i)
{
	p->finished[i] = 1;
	p->done++;
	if (p->progress)
		p->progress(&p->builds[i], p->done, p->todo, p->user);
}

/* Start what may start, up to jobs at a time: a build whose lock another
 * process holds waits; one it finished meanwhile is reused as cached.
 * The number of builds waiting on another process. */
static size_t pool_start(struct pool *p)
{
	size_t waiting = 0;
	for (size_t i = 0; i < p->n && p->running < p->jobs; i++) {
		struct build *b = &p->builds[i];
		if (b->cached || b->settled || p->finished[i] || p->pids[i] > 0)
			continue;
		if (!build_try_lock(b, &p->locks[i])) {
			waiting++;
			continue;
		}
		if (build_done_elsewhere(b)) {
			if (p->locks[i] >= 0)
				close(p->locks[i]);
			p->locks[i] = -1;
			b->cached = 1;
			b->outcome = OUTCOME_OK;
			build_verify(b);
			pool_finished(p, i);
			continue;
		}
		/* few builds left: give each of them more make jobs */
		int left = (int)(p->todo - p->done) - p->running;
		int each = left >= p->jobs ? 1 : p->jobs / (left > 0 ? left : 1);
		p->start[i] = now_seconds();
		p->pids[i] = build_start(b, each, p->locks[i]);
		b->running_since = p->pids[i] > 0 ? p->start[i] : 0;
		if (p->pids[i] < 0) {
			p->pids[i] = 0;
			b->outcome = OUTCOME_BUILD_FAILED;
			b->detail = xasprintf("cannot start the build in %s", b->dir);
			if (p->locks[i] >= 0)
				close(p->locks[i]);
			p->locks[i] = -1;
			pool_finished(p, i);
		} else {
			p->running++;
		}
	}
	return waiting;
}

/* Our build i ended with status: verify it, mark it done, let go of it */
static void pool_reap(struct pool *p, size_t i, int status)
{
	struct build *b = &p->builds[i];
	p->pids[i] = 0;
	p->running--;
	b->running_since = 0;
	b->seconds = now_seconds() - p->start[i];
	build_finish(b, status);
	if (p->timed_out[i]) {
		b->outcome = OUTCOME_BUILD_FAILED;
		free(b->detail);
		b->detail = xasprintf("killed after %.0f s: the build ran past its timeout (raise "
				      "[build] timeout = in the recipe, or look for a step that waits "
				      "on input: %s/build.log)",
				      b->recipe->build_timeout, b->dir);
	}
	if (b->outcome == OUTCOME_OK || b->outcome == OUTCOME_FLAGS_NOT_APPLIED ||
	    b->outcome == OUTCOME_TESTS_FAILED) { /* verify reads them again when cached */
		char *st = xasprintf("%s/status", b->dir);
		char *hashes = build_binary_hashes(b);
		char *text = xasprintf("ok %.3f\n%s", b->seconds, hashes ? hashes : "");
		file_write(st, text, strlen(text));
		free(hashes);
		free(text);
		free(st);
	}
	if (p->locks[i] >= 0)
		close(p->locks[i]);
	p->locks[i] = -1;
	pool_finished(p, i);
}

/* When the first running build passes its recipe's timeout (INFINITY:
 * none runs with one) */
static double pool_deadline(const struct pool *p)
{
	double first = INFINITY;
	for (size_t i = 0; i < p->n; i++) {
		double t = p->builds[i].recipe->build_timeout;
		if (p->pids[i] > 0 && t > 0 && !p->timed_out[i] && p->start[i] + t < first)
			first = p->start[i] + t;
	}
	return first;
}

/* Kill the group of every build past its timeout; reaped as any other */
static void pool_expire(struct pool *p)
{
	for (size_t i = 0; i < p->n; i++) {
		double t = p->builds[i].recipe->build_timeout;
		if (p->pids[i] > 0 && t > 0 && now_seconds() >= p->start[i] + t &&
		    !p->timed_out[i]) {
			p->timed_out[i] = 1;
			kill(-p->pids[i], SIGKILL);
		}
	}
}

void build_all(struct build *builds, size_t n, int jobs, build_progress_fn progress, void *user,
	       const volatile sig_atomic_t *stop)
{
	size_t m = n ? n : 1;
	struct pool p = {
		.builds = builds, .n = n, .jobs = jobs < 1 ? 1 : jobs,
		.pids = xcalloc(m, sizeof(pid_t)), .locks = xcalloc(m, sizeof(int)),
		.start = xcalloc(m, sizeof(double)), .finished = xcalloc(m, 1),
		.timed_out = xcalloc(m, 1), .progress = progress, .user = user,
	};
	for (size_t i = 0; i < n; i++) {
		p.locks[i] = -1;
		if (!builds[i].cached && !builds[i].settled)
			p.todo++;
	}
	for (size_t i = 0; i < n; i++) {
		if (!builds[i].cached || builds[i].settled)
			continue;
		builds[i].outcome = OUTCOME_OK;
		build_verify(&builds[i]);
	}
	while (p.done < p.todo) {
		if (stop && *stop) {
			stop_builds(builds, p.pids, p.locks, p.finished, n);
			break;
		}
		size_t waiting = pool_start(&p);
		if (!p.running) {
			if (!waiting)
				break;
			/* another flagscope builds every key left: look again soon */
			poll(NULL, 0, STOP_POLL_MS);
			continue;
		}
		int status;
		double deadline = pool_deadline(&p);
		pid_t pid = build_wait_child(p.pids, n, &status, stop, deadline);
		if (pid < 0 && stop && *stop)
			continue; /* stopped at the top of the loop */
		if (pid < 0 && now_seconds() >= deadline) {
			pool_expire(&p);
			continue;
		}
		if (pid < 0)
			break;
		for (size_t i = 0; i < n; i++)
			if (p.pids[i] == pid) {
				pool_reap(&p, i, status);
				break;
			}
	}
	free(p.pids);
	free(p.locks);
	free(p.start);
	free(p.finished);
	free(p.timed_out);
}
