/*
 * webload.c - the webservice workload's load client: starts the servers
 * (group.c), fetches the page once and prints its checksum, then drives
 * loopback HTTP load (http.c) in one of two modes:
 *
 *   fixed: REQUESTS requests, CONCURRENCY in flight, each a new connection;
 *          tps = REQUESTS / wall time, p50/p99 latency, the servers' CPU
 *          per request;
 *   rate:  open-loop steps of STEP seconds at RATE new connections per
 *          second, RATE x FACTOR each step, until a step has an error or a
 *          p99 above P99; then REFINE bisection steps between the last rate
 *          that held and the first that did not.  max_tps is the last rate
 *          that held (the "maximum new transactions per second").
 *
 * Everything is bounded: SECONDS for the whole load, 2 s per request,
 * START seconds for each server to accept; and no server outlives the
 * client (group.c).  `webload --help` for the options.
 */
#define _GNU_SOURCE
#include "webload.h"

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void nap(double seconds)
{
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
	nanosleep(&ts, NULL);
}

struct opts {
	struct server servers[MAX_SERVERS];
	int nservers;
	const char *path;
	int requests, concurrency, rate_find, refine, crash_after;
	double seconds, start_seconds, rate_start, rate_factor, rate_max, step_seconds, p99_max;
	double req_timeout;
};

static const char usage[] =
	"usage: webload [OPTIONS] --server VAR=COMMAND... PATH\n"
	"Start the servers, GET PATH from the last one, print the page's checksum on\n"
	"stdout and drive loopback load; the figures go to stderr.\n"
	"  --server VAR=COMMAND  start /bin/sh -c COMMAND with $VAR set to a free loopback\n"
	"                        port and wait until it accepts there; repeatable, started\n"
	"                        in order (each sees the earlier ports), at most 4\n"
	"  --requests N          fixed mode: N requests (default 1000)\n"
	"  --concurrency C       requests in flight at most (default 16; 1..512)\n"
	"  --rate-find           rate mode instead of fixed mode\n"
	"  --rate-start R        first offered rate, new connections/s (default 50)\n"
	"  --rate-factor F       rate growth per step (default 1.25)\n"
	"  --rate-max R          stop stepping there (default 100000)\n"
	"  --step-seconds T      length of each step (default 1)\n"
	"  --p99-max MS          a step holds when it has no error and p99 <= MS (default 100)\n"
	"  --refine K            bisection steps after the first failing step (default 3)\n"
	"  --seconds S           bound on the whole load (default 120)\n"
	"  --start-seconds S     bound on each server's start (default 30)\n"
	"  --crash-after N       tests: the client raises SIGSEGV after N answers\n"
	"stdout: \"page PATH bytes N fnv1a HEX\".  stderr: pgid, requests, ok, failed,\n"
	"tps | max_tps, p50_ms, p99_ms, cpu_user_us, cpu_sys_us, cpu_us (per request).\n"
	"Exit 0; 1 when a fixed load had a failed request, no rate held, or a server\n"
	"exited during the load; 2 on a usage or start-up error.\n";

static double arg_num(const char *s, double lo, double hi, const char *what)
{
	char *end;
	double v = strtod(s, &end);
	if (*end || end == s || !(v >= lo && v <= hi)) {
		fprintf(stderr, "webload: %s must be %g..%g, not '%s'\n", what, lo, hi, s);
		exit(2);
	}
	return v;
}

static void add_server(struct opts *o, char *spec)
{
	char *eq = strchr(spec, '=');
	if (!eq || eq == spec || o->nservers == MAX_SERVERS) {
		fprintf(stderr, "webload: --server wants VAR=COMMAND (at most %d), not '%s'\n",
			MAX_SERVERS, spec);
		exit(2);
	}
	*eq = '\0';
	o->servers[o->nservers++] = (struct server){.var = spec, .cmd = eq + 1};
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{"server", 1, 0, 'S'},	      {"requests", 1, 0, 'n'},	    {"concurrency", 1, 0, 'c'},
		{"rate-find", 0, 0, 'R'},     {"rate-start", 1, 0, 'r'},    {"rate-factor", 1, 0, 'f'},
		{"rate-max", 1, 0, 'm'},      {"step-seconds", 1, 0, 't'},  {"p99-max", 1, 0, 'p'},
		{"refine", 1, 0, 'k'},	      {"seconds", 1, 0, 's'},	    {"start-seconds", 1, 0, 'w'},
		{"crash-after", 1, 0, 'x'},   {"help", 0, 0, 'h'},	    {0, 0, 0, 0},
	};
	*o = (struct opts){.requests = 1000, .concurrency = 16, .refine = 3, .seconds = 120,
			   .start_seconds = 30, .rate_start = 50, .rate_factor = 1.25,
			   .rate_max = 100000, .step_seconds = 1, .p99_max = 100, .req_timeout = 2};
	for (int ch; (ch = getopt_long(argc, argv, "", longs, NULL)) != -1;) {
		switch (ch) {
		case 'S': add_server(o, optarg); break;
		case 'n': o->requests = (int)arg_num(optarg, 1, 1e7, "--requests"); break;
		case 'c': o->concurrency = (int)arg_num(optarg, 1, 512, "--concurrency"); break;
		case 'R': o->rate_find = 1; break;
		case 'r': o->rate_start = arg_num(optarg, 1, 1e6, "--rate-start"); break;
		case 'f': o->rate_factor = arg_num(optarg, 1.01, 10, "--rate-factor"); break;
		case 'm': o->rate_max = arg_num(optarg, 1, 1e7, "--rate-max"); break;
		case 't': o->step_seconds = arg_num(optarg, 0.1, 60, "--step-seconds"); break;
		case 'p': o->p99_max = arg_num(optarg, 0.1, 60000, "--p99-max"); break;
		case 'k': o->refine = (int)arg_num(optarg, 0, 20, "--refine"); break;
		case 's': o->seconds = arg_num(optarg, 1, 86400, "--seconds"); break;
		case 'w': o->start_seconds = arg_num(optarg, 1, 3600, "--start-seconds"); break;
		case 'x': o->crash_after = (int)arg_num(optarg, 1, 1e7, "--crash-after"); break;
		case 'h': fputs(usage, stdout); exit(0);
		default: fputs(usage, stderr); exit(2);
		}
	}
	if (optind != argc - 1 || !o->nservers || argv[optind][0] != '/') {
		fputs(usage, stderr);
		exit(2);
	}
	o->path = argv[optind];
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile (nearest rank) of the answered requests' latencies, ms. */
static double quantile_ms(const struct load *ld, double q)
{
	if (!ld->ok)
		return 0;
	size_t rank = (size_t)ceil(q * ld->ok);
	return ld->lat[rank ? rank - 1 : 0] * 1e3;
}

static void print_cpu(const struct cpu *a, const struct cpu *b, int requests)
{
	double n = requests > 0 ? requests : 1;
	fprintf(stderr, "cpu_user_us: %.3f\ncpu_sys_us: %.3f\ncpu_us: %.3f\n",
		(b->user - a->user) / n * 1e6, (b->sys - a->sys) / n * 1e6,
		(b->total - a->total) / n * 1e6);
}

/* A load at one setting; its latencies sorted.  0, or -1 when a server
 * exited meanwhile. */
static int drive(const struct opts *o, struct load *ld, struct cpu *before, struct cpu *after)
{
	group_cpu(o->servers, o->nservers, before);
	load_run(ld);
	qsort(ld->lat, (size_t)ld->ok, sizeof(double), by_value);
	group_cpu(o->servers, o->nservers, after);
	struct server *gone = group_exited((struct server *)o->servers, o->nservers);
	if (gone) {
		int st = gone->status;
		fprintf(stderr, "webload: the server '%s' %s %d during the load\n", gone->cmd,
			WIFSIGNALED(st) ? "was killed by signal" : "exited with status",
			WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

static struct load load_base(const struct opts *o, const struct page *pg, double deadline)
{
	return (struct load){.port = o->servers[o->nservers - 1].port, .pg = pg,
			     .concurrency = o->concurrency, .deadline = deadline,
			     .req_timeout = o->req_timeout, .crash_after = o->crash_after};
}

static int fixed_mode(const struct opts *o, const struct page *pg)
{
	struct load ld = load_base(o, pg, now() + o->seconds);
	struct cpu a, b;
	ld.total = o->requests;
	int rc = drive(o, &ld, &a, &b);
	fprintf(stderr, "requests: %d\nok: %d\nfailed: %d\n", ld.started + 1, ld.ok, ld.failed);
	fprintf(stderr, "tps: %.1f\np50_ms: %.3f\np99_ms: %.3f\n", ld.ok / ld.wall,
		quantile_ms(&ld, 0.5), quantile_ms(&ld, 0.99));
	print_cpu(&a, &b, ld.ok);
	free(ld.lat);
	return rc || ld.failed ? 1 : 0;
}

struct step {
	double rate, p50, p99;
	int held, ok;
	struct cpu a, b;
};

/* One step at `rate`; 0 when it ran, -1 when out of time or a server is gone. */
static int rate_step(const struct opts *o, const struct page *pg, double rate, double end,
		     struct step *s, int *requests)
{
	double t = now();
	if (t + o->step_seconds + o->req_timeout > end)
		return -1;
	struct load ld = load_base(o, pg, t + o->step_seconds + o->req_timeout);
	ld.rate = rate;
	ld.total = (int)ceil(rate * o->step_seconds);
	int rc = drive(o, &ld, &s->a, &s->b);
	*requests += ld.started;
	s->rate = rate;
	s->ok = ld.ok;
	s->p50 = quantile_ms(&ld, 0.5);
	s->p99 = quantile_ms(&ld, 0.99);
	s->held = !rc && !ld.failed && ld.ok == ld.total && s->p99 <= o->p99_max;
	fprintf(stderr, "step: rate %.1f ok %d failed %d overflow %d p50_ms %.3f p99_ms %.3f %s\n",
		rate, ld.ok, ld.failed, ld.overflow, s->p50, s->p99, s->held ? "held" : "did not hold");
	free(ld.lat);
	return rc;
}

static int rate_mode(const struct opts *o, const struct page *pg)
{
	double end = now() + o->seconds, fail_rate = 0;
	struct step best = {0}, s;
	int requests = 1, rc = 0, refine = o->refine;
	for (double rate = o->rate_start; rate <= o->rate_max; rate *= o->rate_factor) {
		if ((rc = rate_step(o, pg, rate, end, &s, &requests)))
			break;
		if (!s.held) {
			fail_rate = rate;
			break;
		}
		best = s;
	}
	while (!rc && fail_rate > 0 && best.held && refine-- > 0) {
		double mid = sqrt(best.rate * fail_rate);
		if ((rc = rate_step(o, pg, mid, end, &s, &requests)))
			break;
		if (s.held)
			best = s;
		else
			fail_rate = mid;
	}
	int gone = group_exited((struct server *)o->servers, o->nservers) != NULL;
	fprintf(stderr, "requests: %d\nmax_tps: %.1f\np50_ms: %.3f\np99_ms: %.3f\n", requests,
		best.rate, best.p50, best.p99);
	if (best.held)
		print_cpu(&best.a, &best.b, best.ok);
	if (!best.held)
		fprintf(stderr, "webload: not even %g new connections/s held\n", o->rate_start);
	return gone || !best.held ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	parse_args(argc, argv, &o);
	signal(SIGPIPE, SIG_IGN);
	if (group_start(o.servers, o.nservers, o.start_seconds)) {
		group_stop();
		return 2;
	}
	fprintf(stderr, "pgid: %d\n", (int)group_id());
	struct page pg = {.path = o.path};
	if (page_fetch(o.servers[o.nservers - 1].port, &pg)) {
		group_stop();
		return 1;
	}
	printf("page %s bytes %zu fnv1a %016llx\n", pg.path, pg.len, (unsigned long long)pg.sum);
	fflush(stdout);
	int rc = o.rate_find ? rate_mode(&o, &pg) : fixed_mode(&o, &pg);
	group_stop();
	return rc;
}
