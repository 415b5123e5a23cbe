/*
 * fcgi.h - a FastCGI responder (the protocol of FastCGI 1.0, responder
 * role only): enough for a web server's fastcgi module to send requests to
 * one process over TCP.  Built with the configuration's flags (it is part
 * of the measured dynamic page).
 */
#ifndef FCGI_H
#define FCGI_H

#include <stddef.h>

/* The output of one request: "Content-Type: ...\r\n\r\nbody". */
struct fcgi_out {
	char *buf;
	size_t len, cap;
};

void fcgi_put(struct fcgi_out *o, const char *s, size_t n);
void fcgi_printf(struct fcgi_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Called once per request with its QUERY_STRING ("" when absent); writes
 * the CGI answer (headers, blank line, body) into out. */
typedef void fcgi_handler(const char *query, struct fcgi_out *out, void *arg);

/* Accept connections on the listening socket fd and answer every request
 * on them with handler, one connection at a time, until SIGTERM or SIGINT
 * (then returns 0: a clean exit, so an emulator's counters are written);
 * -1 with a message on stderr on an error of the socket itself. */
int fcgi_serve(int fd, fcgi_handler *handler, void *arg);

#endif
