/*
 * webload.h - the webservice workload's load client (webload.c: modes and
 * main; group.c: the servers' process group; http.c: connections).  Built
 * with the system compiler by the recipe's [input] step: it measures the
 * servers, it is not measured.
 */
#ifndef WEBLOAD_H
#define WEBLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/types.h>

#define MAX_SERVERS 4

double now(void);
void nap(double seconds);
/* 127.0.0.1:port (http.c) */
struct sockaddr_in loopback(int port);

/* ---- group.c: the servers, in one process group of their own ---- */

struct server {
	const char *var; /* environment variable that carries its port */
	const char *cmd; /* /bin/sh -c CMD (write "exec prog" to keep the pid) */
	int port;
	pid_t pid;
	int exited, status; /* once reaped */
};

struct cpu {
	double user, sys, total; /* seconds: clock ticks, and schedstat's nanoseconds */
};

/* Start every server in order, each with all earlier servers' port
 * variables set and its own, in one new process group; each child dies
 * with the client (PR_SET_PDEATHSIG), and group_stop() also runs at exit
 * and on every fatal signal.  Waits for each to accept on its port (at
 * most `seconds` each).  0, or -1 with a message on stderr. */
int group_start(struct server *s, int n, double seconds);
/* The first server that has exited (reaped), or NULL. */
struct server *group_exited(struct server *s, int n);
/* The sum of the live servers' CPU times (/proc/PID/stat and schedstat). */
void group_cpu(const struct server *s, int n, struct cpu *c);
/* SIGTERM to the group, SIGKILL after 5 s; reaps every server.  Safe to
 * call twice and from a signal handler. */
void group_stop(void);
pid_t group_id(void);

/* ---- http.c: one GET per new connection, checked ---- */

struct page {
	const char *path;
	uint64_t sum; /* FNV-1a of the body the first fetch got */
	size_t len;
};

/* GET path once (10 s at most): 0 and the page's sum and length, or -1
 * with the reason on stderr. */
int page_fetch(int port, struct page *pg);

struct load {
	int port;
	const struct page *pg;
	int total;          /* requests to start (closed loop), or the most (open loop) */
	int concurrency;    /* in flight at most */
	double rate;        /* new connections per second; 0: closed loop */
	double deadline;    /* now() value: nothing starts or waits after it */
	double req_timeout; /* seconds per request */
	int crash_after;    /* tests: raise SIGSEGV after this many answers (0: never) */
	/* results */
	int started, ok, failed, overflow;
	double *lat; /* seconds, one per answered request (ok ones) */
	double wall;
};

/* Drive one load; lat is allocated (free it). */
void load_run(struct load *ld);

#endif
