/*
 * drive.c - the tcpsvd workload's measuring driver.  Built once by the
 * recipe's [input] script with the system compiler (never the
 * configuration's): the program under test is the SERVER it starts.
 *
 * usage: drive TCPSVD HANDLER [REQUESTS [CONCURRENCY [SECONDS]]]
 *
 *  1. starts TCPSVD listening on 127.0.0.1 on a free port (loopback only),
 *     running HANDLER for each connection, allowing CONCURRENCY handlers
 *     at once (-c), with the local name given (-l) so it asks no DNS;
 *  2. waits until it accepts (a probe connection that sends nothing);
 *  3. makes REQUESTS requests (default 10000), at most CONCURRENCY (default
 *     50) in flight: connect, send "req N\n", read to EOF, expect
 *     "ok req N\n".  Every loop is bounded: REQUESTS connections at most,
 *     each given 10 s, the whole load SECONDS (default 120);
 *  4. once the server has reaped its handlers, reads the server's own
 *     figures from /proc while it still runs: user and sys time
 *     (/proc/PID/stat, clock-tick resolution), CPU time (/proc/PID/schedstat,
 *     nanoseconds), VmPeak and VmHWM (status), Private_Dirty (smaps_rollup).
 *     The server's rusage from wait4 would add its handlers' time, which is
 *     why it is not used;
 *  5. stops the server (SIGTERM, SIGKILL after 5 s).
 *
 * stdout: "requests N ok K failed F" (deterministic when every request
 * succeeds).  stderr: server_user, server_sys, server_cpu (s),
 * server_rss_kb, server_virt_kb, server_dirty_kb, load_wall (s).  Exit 0
 * when every request got its answer, 1 when some failed, 2 on a usage or
 * start-up error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#define MAX_CONCURRENCY 1000
#define REQUEST_TIMEOUT 10.0 /* seconds per request */
#define START_ATTEMPTS 5     /* ports tried when the chosen one was taken meanwhile */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static struct sockaddr_in loopback(unsigned short port)
{
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* A port nobody listens on now: the kernel's choice for a bind to port 0. */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = loopback(0);
	socklen_t len = sizeof(a);
	int port = -1;
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* A binary written moments ago (the build just linked it) has dirty
 * page-cache pages until writeback, and smaps counts those as the
 * Private_Dirty of every process that maps them privately: the server's
 * text would read as dirty memory.  Writing it back first keeps
 * server_dirty_kb to the pages the server itself dirtied. */
static void write_back(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static pid_t start_server(const char *server, const char *handler, int port, int conc)
{
	char portstr[16], concstr[16], backlog[16];
	snprintf(portstr, sizeof(portstr), "%d", port);
	snprintf(concstr, sizeof(concstr), "%d", conc);
	snprintf(backlog, sizeof(backlog), "%d", conc * 2);
	pid_t pid = fork();
	if (pid)
		return pid;
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	signal(SIGPIPE, SIG_DFL);
	execl(server, server, "-c", concstr, "-b", backlog, "-l", "localhost", "127.0.0.1",
	      portstr, handler, (char *)NULL);
	fprintf(stderr, "drive: cannot run %s: %s\n", server, strerror(errno));
	_exit(127);
}

/* 0 once a connection is accepted, -1 when the server exited (the port was
 * taken, or it cannot run), -2 after 10 s without either. */
static int wait_ready(pid_t pid, int port)
{
	double until = now() + 10;
	struct sockaddr_in a = loopback((unsigned short)port);
	while (now() < until) {
		int status;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -1;
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -2;
		int rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
		close(fd);
		if (!rc)
			return 0;
		nap(10);
	}
	return -2;
}

struct conn {
	int fd; /* -1: slot free */
	int id;
	int sending; /* 1 until the request is written */
	double started;
	char req[32], resp[64];
	size_t reqlen, sent, got;
};

struct load {
	int ok, failed;
};

/* Close without leaving TIME_WAIT behind (the handler closed first, so
 * the reset only drops a finished connection): repeated runs of 10000
 * connections must not run the machine out of ephemeral ports. */
static void conn_close(struct conn *c)
{
	struct linger lg = {1, 0};
	setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(c->fd);
	c->fd = -1;
}

static void conn_end(struct conn *c, struct load *ld)
{
	char want[64];
	int n = snprintf(want, sizeof(want), "ok %s", c->req);
	if (!c->sending && c->got == (size_t)n && !memcmp(c->resp, want, (size_t)n))
		ld->ok++;
	else
		ld->failed++;
	conn_close(c);
}

static void conn_start(struct conn *c, int id, int port, struct load *ld)
{
	struct sockaddr_in a = loopback((unsigned short)port);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		ld->failed++;
		return;
	}
	c->id = id;
	c->sending = 1;
	c->started = now();
	c->reqlen = (size_t)snprintf(c->req, sizeof(c->req), "req %d\n", id);
	c->sent = c->got = 0;
	if (connect(c->fd, (struct sockaddr *)&a, sizeof(a)) && errno != EINPROGRESS) {
		ld->failed++;
		conn_close(c);
	}
}

/* One poll event of a connection; returns 1 when it is over. */
static int conn_step(struct conn *c, short revents)
{
	if (c->sending) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return 0;
		ssize_t w = write(c->fd, c->req + c->sent, c->reqlen - c->sent);
		if (w < 0)
			return errno != EAGAIN && errno != EINTR;
		c->sent += (size_t)w;
		c->sending = c->sent < c->reqlen;
		return 0;
	}
	if (!(revents & (POLLIN | POLLERR | POLLHUP)))
		return 0;
	if (c->got == sizeof(c->resp))
		return 1; /* longer than any right answer */
	ssize_t r = read(c->fd, c->resp + c->got, sizeof(c->resp) - c->got);
	if (r < 0)
		return errno != EAGAIN && errno != EINTR;
	c->got += (size_t)r;
	return r == 0;
}

static void run_load(int port, int total, int conc, double seconds, struct load *ld)
{
	struct conn *cs = calloc((size_t)conc, sizeof(*cs));
	struct pollfd *pfd = calloc((size_t)conc, sizeof(*pfd));
	int *slot = calloc((size_t)conc, sizeof(*slot));
	if (!cs || !pfd || !slot) {
		ld->failed = total;
		goto out;
	}
	for (int i = 0; i < conc; i++)
		cs[i].fd = -1;
	int next = 0, active = 0;
	double deadline = now() + seconds;
	while ((next < total || active) && now() < deadline) {
		for (int i = 0; i < conc && next < total; i++)
			if (cs[i].fd < 0)
				conn_start(&cs[i], next++, port, ld);
		int n = 0;
		for (int i = 0; i < conc; i++)
			if (cs[i].fd >= 0) {
				pfd[n] = (struct pollfd){cs[i].fd, cs[i].sending ? POLLOUT : POLLIN, 0};
				slot[n++] = i;
			}
		active = n;
		if (!n)
			continue;
		if (poll(pfd, (nfds_t)n, 100) < 0 && errno != EINTR)
			break;
		double t = now();
		for (int k = 0; k < n; k++) {
			struct conn *c = &cs[slot[k]];
			if (conn_step(c, pfd[k].revents) || t - c->started > REQUEST_TIMEOUT) {
				conn_end(c, ld);
				active--;
			}
		}
	}
	for (int i = 0; i < conc; i++)
		if (cs[i].fd >= 0) {
			ld->failed++;
			conn_close(&cs[i]);
		}
	ld->failed += total - next;
	if (now() >= deadline)
		fprintf(stderr, "drive: load stopped after %.0f s with %d requests not done\n",
			seconds, total - ld->ok);
out:
	free(cs);
	free(pfd);
	free(slot);
}

static char *read_text(const char *fmt, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), fmt, (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The value of "Key:   N kB" in a /proc file; -1 if absent. */
static double proc_kb(const char *text, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtod(p + klen + 1, NULL);
	return -1;
}

/* The server's handlers are reaped by the server itself on SIGCHLD; its
 * figures are read once it has none left (at most 5 s). */
static void settle(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(path, "r");
		if (!f) {
			nap(100); /* no children file on this kernel: a fixed pause */
			return;
		}
		int c = fgetc(f);
		fclose(f);
		if (c == EOF)
			return;
		nap(10);
	}
}

struct server_stats {
	double user, sys, cpu, rss_kb, virt_kb, dirty_kb;
};

static int read_stats(pid_t pid, struct server_stats *s)
{
	char *t = read_text("/proc/%d/stat", pid);
	char *p = t ? strrchr(t, ')') : NULL;
	unsigned long ut = 0, st = 0;
	/* after the command name: state is field 3, utime 14, stime 15 */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	double tick = (double)sysconf(_SC_CLK_TCK);
	s->user = (double)ut / tick;
	s->sys = (double)st / tick;
	t = read_text("/proc/%d/schedstat", pid);
	s->cpu = t ? strtod(t, NULL) / 1e9 : s->user + s->sys;
	t = read_text("/proc/%d/status", pid);
	s->virt_kb = t ? proc_kb(t, "VmPeak") : -1;
	s->rss_kb = t ? proc_kb(t, "VmHWM") : -1;
	t = read_text("/proc/%d/smaps_rollup", pid);
	s->dirty_kb = t ? proc_kb(t, "Private_Dirty") : -1;
	return s->virt_kb < 0 || s->rss_kb < 0 || s->dirty_kb < 0 ? -1 : 0;
}

static void stop_server(pid_t pid)
{
	kill(pid, SIGTERM);
	for (int i = 0; i < 500; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		nap(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int arg_int(const char *s, int lo, int hi, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < lo || v > hi) {
		fprintf(stderr, "drive: %s must be %d..%d, not '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 6) {
		fprintf(stderr, "usage: drive TCPSVD HANDLER [REQUESTS [CONCURRENCY [SECONDS]]]\n");
		return 2;
	}
	int total = argc > 3 ? arg_int(argv[3], 1, 1000000, "REQUESTS") : 10000;
	int conc = argc > 4 ? arg_int(argv[4], 1, MAX_CONCURRENCY, "CONCURRENCY") : 50;
	int seconds = argc > 5 ? arg_int(argv[5], 1, 3600, "SECONDS") : 120;
	signal(SIGPIPE, SIG_IGN);
	write_back(argv[1]);

	pid_t pid = -1;
	int port = -1, ready = -1;
	for (int attempt = 0; attempt < START_ATTEMPTS && ready == -1; attempt++) {
		port = free_port();
		if (port < 0 || (pid = start_server(argv[1], argv[2], port, conc)) < 0) {
			fprintf(stderr, "drive: cannot start the server: %s\n", strerror(errno));
			return 2;
		}
		ready = wait_ready(pid, port);
	}
	if (ready) {
		fprintf(stderr, "drive: %s never accepted on 127.0.0.1:%d\n", argv[1], port);
		if (ready == -2)
			stop_server(pid);
		return 2;
	}

	struct load ld = {0, 0};
	double t0 = now();
	run_load(port, total, conc, seconds, &ld);
	double wall = now() - t0;
	settle(pid);
	struct server_stats s;
	int stats = read_stats(pid, &s);
	stop_server(pid);

	printf("requests %d ok %d failed %d\n", total, ld.ok, ld.failed);
	fflush(stdout);
	if (stats) {
		fprintf(stderr, "drive: cannot read the server's figures from /proc\n");
		return 2;
	}
	fprintf(stderr, "server_user: %.2f\nserver_sys: %.2f\nserver_cpu: %.6f\n", s.user, s.sys,
		s.cpu);
	fprintf(stderr, "server_rss_kb: %.0f\nserver_virt_kb: %.0f\nserver_dirty_kb: %.0f\n",
		s.rss_kb, s.virt_kb, s.dirty_kb);
	fprintf(stderr, "load_wall: %.6f\n", wall);
	return ld.failed ? 1 : 0;
}
