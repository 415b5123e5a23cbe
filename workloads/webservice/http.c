/*
 * http.c - webload's requests: one HTTP/1.0 GET per new loopback
 * connection ("new transactions"), read to EOF, checked: status 200 and a
 * body whose FNV-1a sum and length equal the first fetch's.  A load is
 * closed (a new request as soon as one ends, `concurrency` in flight) or
 * open (new connections at `rate` per second from the start, on schedule,
 * whatever is in flight; an arrival with `concurrency` already in flight
 * is an overflow, counted as an error).  Latency is measured from the
 * scheduled start, so a server that falls behind shows it.
 */
#define _GNU_SOURCE
#include "webload.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RESP_MAX (64 << 10) /* the largest answer taken; the pages are a few KiB */

struct conn {
	int fd;    /* -1: slot free */
	int sending;
	double t0; /* scheduled start */
	size_t sent, got;
	char *buf; /* RESP_MAX bytes */
};

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return h;
}

static char request[512];
static size_t request_len;

static void request_set(const char *path)
{
	request_len = (size_t)snprintf(request, sizeof(request),
				       "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: webload\r\n\r\n", path);
}

/* The body of a complete 200 answer, or NULL. */
static const char *body_of(const char *buf, size_t got, size_t *len)
{
	if (got < 12 || memcmp(buf, "HTTP/1.", 7) || memcmp(buf + 8, " 200", 4))
		return NULL;
	const char *end = memmem(buf, got, "\r\n\r\n", 4);
	if (!end)
		return NULL;
	*len = got - (size_t)(end + 4 - buf);
	return end + 4;
}

struct sockaddr_in loopback(int port)
{
	return (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((unsigned short)port),
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
}

static int conn_open(struct conn *c, int port, double t0)
{
	struct sockaddr_in a = loopback(port);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	c->sending = 1;
	c->t0 = t0;
	c->sent = c->got = 0;
	if (c->fd < 0)
		return -1;
	if (connect(c->fd, (struct sockaddr *)&a, sizeof(a)) && errno != EINPROGRESS) {
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	return 0;
}

/* The server closed first (HTTP/1.0), so the reset only drops a finished
 * connection and leaves no TIME_WAIT: thousands of connections a second
 * must not run out of ephemeral ports. */
static void conn_close(struct conn *c)
{
	struct linger lg = {1, 0};
	setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(c->fd);
	c->fd = -1;
}

/* One poll event: 1 when the answer is complete (EOF), -1 on an error. */
static int conn_step(struct conn *c, short revents)
{
	if (c->sending) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return 0;
		ssize_t w = write(c->fd, request + c->sent, request_len - c->sent);
		if (w < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->sent += (size_t)w;
		c->sending = c->sent < request_len;
		return 0;
	}
	if (!(revents & (POLLIN | POLLERR | POLLHUP)))
		return 0;
	if (c->got == RESP_MAX)
		return -1;
	ssize_t r = read(c->fd, c->buf + c->got, RESP_MAX - c->got);
	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	c->got += (size_t)r;
	return r == 0;
}

static int answer_ok(const struct conn *c, const struct page *pg)
{
	size_t len;
	const char *body = body_of(c->buf, c->got, &len);
	return body && len == pg->len && fnv1a(body, len) == pg->sum;
}

int page_fetch(int port, struct page *pg)
{
	struct conn c = {.buf = malloc(RESP_MAX)};
	int rc = -1, done = 0;
	double until = now() + 10;
	request_set(pg->path);
	if (!c.buf || conn_open(&c, port, now()))
		goto out;
	while (!done && now() < until) {
		struct pollfd p = {c.fd, c.sending ? POLLOUT : POLLIN, 0};
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			break;
		done = conn_step(&c, p.revents);
	}
	size_t len;
	const char *body = done == 1 ? body_of(c.buf, c.got, &len) : NULL;
	if (body) {
		pg->sum = fnv1a(body, len);
		pg->len = len;
		rc = 0;
	} else {
		fprintf(stderr, "webload: GET %s: %s\n", pg->path,
			done == 1 ? "not a complete 200 answer" : "no answer within 10 s");
		if (c.got)
			fprintf(stderr, "webload: the answer began: %.*s\n",
				(int)(c.got < 200 ? c.got : 200), c.buf);
	}
	conn_close(&c);
out:
	free(c.buf);
	return rc;
}

static void slot_end(struct load *ld, struct conn *c, int ok, double t)
{
	if (ok)
		ld->lat[ld->ok++] = t - c->t0;
	else
		ld->failed++;
	conn_close(c);
	if (ld->crash_after && ld->ok + ld->failed >= ld->crash_after)
		raise(SIGSEGV); /* tests: the client crashing mid-load */
}

/* Start what is due: every free slot (closed loop), or every arrival the
 * schedule has reached (open loop). */
static void start_due(struct load *ld, struct conn *cs, double t, double t_start)
{
	int due = ld->total;
	if (ld->rate > 0) {
		double n = (t - t_start) * ld->rate + 1;
		due = n < ld->total ? (int)n : ld->total;
	}
	for (int i = 0; i < ld->concurrency && ld->started < due; i++) {
		if (cs[i].fd >= 0)
			continue;
		double t0 = ld->rate > 0 ? t_start + ld->started / ld->rate : t;
		ld->started++;
		if (conn_open(&cs[i], ld->port, t0))
			ld->failed++;
	}
	if (ld->rate > 0 && ld->started < due) { /* no free slot: the server is behind */
		ld->overflow += due - ld->started;
		ld->failed += due - ld->started;
		ld->started = due;
	}
}

static int poll_wait(const struct load *ld, double t, double t_start)
{
	if (ld->rate <= 0 || ld->started >= ld->total)
		return 100;
	double next = t_start + ld->started / ld->rate - t;
	return next <= 0 ? 0 : (int)(next * 1000) + 1 > 100 ? 100 : (int)(next * 1000) + 1;
}

void load_run(struct load *ld)
{
	struct conn *cs = calloc((size_t)ld->concurrency, sizeof(*cs));
	struct pollfd *pfd = calloc((size_t)ld->concurrency, sizeof(*pfd));
	int *slot = calloc((size_t)ld->concurrency, sizeof(*slot));
	ld->lat = calloc((size_t)ld->total + 1, sizeof(double));
	ld->started = ld->ok = ld->failed = ld->overflow = 0;
	request_set(ld->pg->path);
	int nbuf = 0;
	for (int i = 0; cs && i < ld->concurrency; i++, nbuf++) {
		cs[i].fd = -1;
		if (!(cs[i].buf = malloc(RESP_MAX)))
			break;
	}
	double t_start = now(), t = t_start;
	if (!cs || !pfd || !slot || !ld->lat || nbuf < ld->concurrency) {
		ld->failed = ld->total;
		goto out;
	}
	while (t < ld->deadline) {
		start_due(ld, cs, t, t_start);
		int n = 0;
		for (int i = 0; i < ld->concurrency; i++)
			if (cs[i].fd >= 0) {
				pfd[n] = (struct pollfd){cs[i].fd, cs[i].sending ? POLLOUT : POLLIN, 0};
				slot[n++] = i;
			}
		if (!n && ld->started >= ld->total)
			break;
		if (poll(pfd, (nfds_t)n, poll_wait(ld, t, t_start)) < 0 && errno != EINTR)
			break;
		t = now();
		for (int k = 0; k < n; k++) {
			struct conn *c = &cs[slot[k]];
			int rc = conn_step(c, pfd[k].revents);
			if (rc)
				slot_end(ld, c, rc == 1 && answer_ok(c, ld->pg), t);
			else if (t - c->t0 > ld->req_timeout)
				slot_end(ld, c, 0, t);
		}
	}
out:
	for (int i = 0; cs && i < nbuf; i++) {
		if (cs[i].fd >= 0) {
			ld->failed++;
			conn_close(&cs[i]);
		}
		free(cs[i].buf);
	}
	ld->failed += ld->total - ld->started > 0 && ld->rate <= 0 ? ld->total - ld->started : 0;
	ld->wall = now() - t_start;
	free(cs);
	free(pfd);
	free(slot);
}
