/*
 * group.c - the servers webload starts, in one process group of their own,
 * and the guarantee that none outlives the client: every server is killed
 * with the group (a) at the end of a load, (b) at exit(), (c) on a fatal
 * signal the client gets (SIGSEGV, SIGABRT, SIGTERM, SIGINT, ...), and (d)
 * by the kernel when the client dies without running any code
 * (SIGKILL): each server has PR_SET_PDEATHSIG = SIGKILL.  A server that
 * forks keeps its children in the group, so (a)-(c) reach them too.
 */
#define _GNU_SOURCE
#include "webload.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t pgid;          /* 0: no group yet */
static pid_t pids[MAX_SERVERS];
static int npids;

pid_t group_id(void)
{
	return pgid;
}

/* A port nobody listens on now: the kernel's pick for a bind to port 0. */
static int port_free(void)
{
	struct sockaddr_in a = loopback(0);
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int bound = !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
		    !getsockname(fd, (struct sockaddr *)&a, &len);
	close(fd);
	return bound ? ntohs(a.sin_port) : -1;
}

static int port_accepts(int port)
{
	struct sockaddr_in a = loopback(port);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	int ok = !connect(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

/* Async-signal-safe: it runs from the fatal-signal handler too. */
void group_stop(void)
{
	if (!pgid)
		return;
	kill(-pgid, SIGTERM);
	for (int tries = 0; tries < 500; tries++) {
		int left = 0;
		for (int i = 0; i < npids; i++) {
			if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == 0)
				left++;
			else
				pids[i] = 0;
		}
		if (!left)
			break;
		struct timespec ts = {0, 10000000L};
		nanosleep(&ts, NULL);
	}
	kill(-pgid, SIGKILL); /* the stragglers, and anything a server forked */
	for (int i = 0; i < npids; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	npids = 0;
	pgid = 0;
}

static void on_fatal(int sig)
{
	group_stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_install(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM,
				   SIGINT,  SIGHUP, SIGQUIT, SIGALRM, SIGXCPU};
	static int done;
	if (done++)
		return;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_fatal);
	atexit(group_stop);
}

static pid_t spawn(const char *cmd, pid_t parent)
{
	pid_t pid = fork();
	if (pid)
		return pid;
	setpgid(0, pgid);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) /* the client died before the line above */
		_exit(127);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1); /* the run's stdout is the pages' checksums only */
	}
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* 0 once it accepts, 1 when it exited first (the port was taken meanwhile,
 * or it cannot run), -1 after `seconds`. */
static int wait_ready(struct server *s, double seconds)
{
	double until = now() + seconds;
	while (now() < until) {
		int status;
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->exited = 1;
			s->status = status;
			return 1;
		}
		if (port_accepts(s->port))
			return 0;
		nap(0.01);
	}
	return -1;
}

static int start_one(struct server *s, double seconds)
{
	char val[16];
	for (int attempt = 0; attempt < 3; attempt++) {
		s->port = port_free();
		snprintf(val, sizeof(val), "%d", s->port);
		if (s->port < 0 || setenv(s->var, val, 1))
			break;
		s->exited = 0;
		s->pid = spawn(s->cmd, getpid());
		if (s->pid < 0)
			break;
		if (!pgid)
			pgid = s->pid;
		setpgid(s->pid, pgid); /* also here: whichever runs first */
		pids[npids++] = s->pid;
		int rc = wait_ready(s, seconds);
		if (!rc)
			return 0;
		if (rc < 0) {
			fprintf(stderr, "webload: '%s' did not accept on 127.0.0.1:%d within %.0f s\n",
				s->cmd, s->port, seconds);
			return -1;
		}
		npids--;
		if (pgid == s->pid && npids == 0)
			pgid = 0; /* its group ended with it: the retry starts another */
	}
	fprintf(stderr, "webload: '%s' exited before accepting connections (status %d)\n", s->cmd,
		s->status);
	return -1;
}

int group_start(struct server *s, int n, double seconds)
{
	guard_install();
	for (int i = 0; i < n; i++)
		if (start_one(&s[i], seconds))
			return -1;
	return 0;
}

struct server *group_exited(struct server *s, int n)
{
	for (int i = 0; i < n; i++) {
		if (!s[i].exited && waitpid(s[i].pid, &s[i].status, WNOHANG) == s[i].pid)
			s[i].exited = 1;
		if (s[i].exited)
			return &s[i];
	}
	return NULL;
}

static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

void group_cpu(const struct server *s, int n, struct cpu *c)
{
	double tick = (double)sysconf(_SC_CLK_TCK);
	char path[64], buf[1024];
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < n; i++) {
		unsigned long ut = 0, st = 0;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)s[i].pid);
		if (s[i].exited || read_small(path, buf, sizeof(buf)))
			continue;
		char *p = strrchr(buf, ')'); /* the command name may hold blanks */
		/* after it: state is field 3, utime 14, stime 15 */
		if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut,
				&st) == 2) {
			c->user += (double)ut / tick;
			c->sys += (double)st / tick;
		}
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)s[i].pid);
		c->total += read_small(path, buf, sizeof(buf)) ? ((double)ut + (double)st) / tick
							       : strtod(buf, NULL) / 1e9;
	}
}
