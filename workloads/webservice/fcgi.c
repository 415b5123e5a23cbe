/*
 * fcgi.c - the FastCGI responder (fcgi.h).  Records are an 8-byte header
 * (version 1, type, request id, content length, padding length) and their
 * content; a request is BEGIN_REQUEST, PARAMS records ending with an empty
 * one, STDIN records ending with an empty one; the answer is STDOUT
 * records, an empty STDOUT and END_REQUEST.  The connection stays open for
 * another request when BEGIN_REQUEST asked (FCGI_KEEP_CONN).
 */
#define _GNU_SOURCE
#include "fcgi.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
	BEGIN_REQUEST = 1, ABORT_REQUEST = 2, END_REQUEST = 3, PARAMS = 4, STDIN = 5,
	STDOUT = 6, GET_VALUES = 9, GET_VALUES_RESULT = 10, UNKNOWN_TYPE = 11,
};
#define KEEP_CONN 1
#define RESPONDER 1
#define UNKNOWN_ROLE 3

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

void fcgi_put(struct fcgi_out *o, const char *s, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap < o->len + n)
			cap *= 2;
		char *b = realloc(o->buf, cap);
		if (!b)
			abort();
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

void fcgi_printf(struct fcgi_out *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		fcgi_put(o, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big)
		abort();
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	fcgi_put(o, big, (size_t)n);
	free(big);
}

/* One connection's state. */
struct conn {
	int fd;
	unsigned char in[8 + 65535 + 255];
	int id, keep, params_done;
	struct fcgi_out params, answer, wire;
};

/* All n bytes read (writing = 0) or written; -1 on EOF, an error, or a
 * read interrupted by SIGTERM. */
static int io_full(int fd, unsigned char *p, size_t n, int writing)
{
	while (n) {
		ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
		if (k < 0 && errno == EINTR && (writing || !stopping))
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int send_wire(int fd, const struct fcgi_out *wire)
{
	return io_full(fd, (unsigned char *)wire->buf, wire->len, 1);
}

static void record(struct fcgi_out *wire, int type, int id, const char *s, size_t n)
{
	unsigned char h[8] = {1, (unsigned char)type, (unsigned char)(id >> 8), (unsigned char)id,
			      (unsigned char)(n >> 8), (unsigned char)n, 0, 0};
	fcgi_put(wire, (const char *)h, 8);
	fcgi_put(wire, s, n);
}

/* A name-value pair length: one byte, or four with the top bit set. */
static size_t nv_len(const unsigned char **p, const unsigned char *end)
{
	if (*p >= end)
		return (size_t)-1;
	if (!(**p & 0x80))
		return *(*p)++;
	if (end - *p < 4)
		return (size_t)-1;
	size_t n = ((size_t)((*p)[0] & 0x7f) << 24) | ((size_t)(*p)[1] << 16) |
		   ((size_t)(*p)[2] << 8) | (*p)[3];
	*p += 4;
	return n;
}

/* QUERY_STRING from the request's params, as a new string. */
static char *query_string(const struct fcgi_out *params)
{
	const unsigned char *p = (const unsigned char *)params->buf, *end = p + params->len;
	while (p && p < end) {
		size_t nl = nv_len(&p, end), vl = nv_len(&p, end);
		if (nl == (size_t)-1 || vl == (size_t)-1 || (size_t)(end - p) < nl + vl)
			break;
		if (nl == 12 && !memcmp(p, "QUERY_STRING", 12))
			return strndup((const char *)p + nl, vl);
		p += nl + vl;
	}
	return strdup("");
}

static int answer(struct conn *c, fcgi_handler *handler, void *arg, int role_ok)
{
	c->wire.len = c->answer.len = 0;
	if (role_ok) {
		char *q = query_string(&c->params);
		handler(q ? q : "", &c->answer, arg);
		free(q);
		for (size_t off = 0; off < c->answer.len; off += 65535) {
			size_t n = c->answer.len - off < 65535 ? c->answer.len - off : 65535;
			record(&c->wire, STDOUT, c->id, c->answer.buf + off, n);
		}
		record(&c->wire, STDOUT, c->id, "", 0);
	}
	char end[8] = {0, 0, 0, 0, role_ok ? 0 : UNKNOWN_ROLE, 0, 0, 0};
	record(&c->wire, END_REQUEST, c->id, end, 8);
	return send_wire(c->fd, &c->wire);
}

/* One record; 1 when the connection is over, -1 on an error. */
static int conn_record(struct conn *c, fcgi_handler *handler, void *arg)
{
	unsigned char *h = c->in;
	if (io_full(c->fd, h, 8, 0) || h[0] != 1)
		return -1;
	int type = h[1], id = h[2] << 8 | h[3];
	size_t len = (size_t)(h[4] << 8 | h[5]), pad = h[6];
	const char *body = (const char *)h + 8;
	if (io_full(c->fd, h + 8, len + pad, 0))
		return -1;
	switch (type) {
	case BEGIN_REQUEST:
		if (len < 8)
			return -1;
		c->id = id;
		c->keep = h[10] & KEEP_CONN;
		c->params.len = 0;
		c->params_done = 0;
		if ((h[8] << 8 | h[9]) != RESPONDER)
			return answer(c, handler, arg, 0) || !c->keep;
		return 0;
	case PARAMS:
		if (len)
			fcgi_put(&c->params, body, len);
		else
			c->params_done = 1;
		return 0;
	case STDIN:
		if (len) /* a GET has no body; a POST's is not read */
			return 0;
		return answer(c, handler, arg, 1) ? -1 : !c->keep;
	case ABORT_REQUEST:
		c->answer.len = 0;
		return answer(c, handler, arg, 1) ? -1 : !c->keep;
	case GET_VALUES:
		c->wire.len = 0;
		record(&c->wire, GET_VALUES_RESULT, 0, "", 0);
		return send_wire(c->fd, &c->wire);
	default: {
		char unknown[8] = {(char)type};
		c->wire.len = 0;
		record(&c->wire, UNKNOWN_TYPE, 0, unknown, 8);
		return send_wire(c->fd, &c->wire);
	}
	}
}

int fcgi_serve(int fd, fcgi_handler *handler, void *arg)
{
	struct sigaction sa = {.sa_handler = on_stop}; /* no SA_RESTART: accept returns */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	struct conn *c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	int rc = 0;
	while (!stopping) {
		c->fd = accept(fd, NULL, NULL);
		if (c->fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("fcgi: accept");
			rc = -1;
			break;
		}
		while (!stopping && !conn_record(c, handler, arg))
			;
		close(c->fd);
	}
	free(c->params.buf);
	free(c->answer.buf);
	free(c->wire.buf);
	free(c);
	return rc;
}
