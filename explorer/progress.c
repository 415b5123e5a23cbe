/*
 * progress.c - the status line of long commands (see progress.h).
 */
#include "explorer/progress.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "harness/build.h"
#include "harness/execute.h"

static int quiet = 1;
static int tty;
static int status_shown;
/* the ticker thread (builds in flight) prints too: one writer at a time */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

void progress_init(int q, int t)
{
	quiet = q;
	tty = t < 0 ? isatty(STDERR_FILENO) : t;
	status_shown = 0;
}

int progress_is_tty(void)
{
	return !quiet && tty;
}

static void clear_status(void)
{
	if (status_shown) {
		fputs("\r\033[K", stderr);
		status_shown = 0;
	}
}

static void say(const char *fmt, va_list ap)
{
	fputs("flagscope: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void progress_say(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&out_lock);
	clear_status();
	say(fmt, ap);
	pthread_mutex_unlock(&out_lock);
	va_end(ap);
}

static void event_locked(const char *fmt, va_list ap);

void progress_event(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&out_lock);
	event_locked(fmt, ap);
	pthread_mutex_unlock(&out_lock);
	va_end(ap);
}

static void event_locked(const char *fmt, va_list ap)
{
	if (!tty) {
		say(fmt, ap);
	} else {
		/* one terminal line: a status that wraps could not be
		 * rewritten in place */
		char line[512];
		vsnprintf(line, sizeof(line), fmt, ap);
		struct winsize ws;
		size_t cols = 80;
		if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
			cols = ws.ws_col;
		if (cols - 1 < sizeof(line))
			line[cols - 1] = '\0';
		fputs("\r\033[K", stderr);
		fputs(line, stderr);
		fflush(stderr);
		status_shown = 1;
	}
}

/* event_locked with its own arguments, for the ticker (holding out_lock) */
static void event_locked_f(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void event_locked_f(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	event_locked(fmt, ap);
	va_end(ap);
}

void progress_end(void)
{
	if (!quiet) {
		pthread_mutex_lock(&out_lock);
		clear_status();
		pthread_mutex_unlock(&out_lock);
	}
}

void progress_eta(char *buf, unsigned long n, double elapsed, long done, long total)
{
	if (done <= 0 || total <= done) {
		snprintf(buf, n, "%s", done > 0 ? "finishing" : "");
		return;
	}
	double left = elapsed / (double)done * (double)(total - done);
	if (left < 90)
		snprintf(buf, n, "about %.0f s left", left);
	else if (left < 5400)
		snprintf(buf, n, "about %.0f min left", left / 60);
	else
		snprintf(buf, n, "about %.1f h left", left / 3600);
}

/* ---- the pipeline's events (pipeline/pipeline.h) ---- */

void progress_say_line(const char *line, void *user)
{
	(void)user;
	progress_say("%s", line);
}

void progress_result_line(const char *line, void *user)
{
	(void)user;
	pthread_mutex_lock(&out_lock);
	clear_status();
	fprintf(stderr, "flagscope: %s\n", line);
	pthread_mutex_unlock(&out_lock);
}

/* ---- builds in flight: a builds' status line that ticks ---- */

/* A build of a minute was 18 s of silence then one line: while builds run,
 * the status line says which and for how long, every second on a terminal;
 * redirected, a line every TICK_LOG_S seconds of building. */
#define TICK_LOG_S 15
static struct {
	const struct build *builds;
	size_t n, done, total;
	double started;
	int stop;
	pthread_t thread;
	int running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
} tick = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

/* "gcc O2 brotli 12 s, gcc O3 brotli 11 s" into buf: the builds running now */
static void in_flight(char *buf, size_t size, double now)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < tick.n && len + 1 < size; i++) {
		double since;
		/* written by the building thread between ticks: read it whole */
		__atomic_load(&tick.builds[i].running_since, &since, __ATOMIC_RELAXED);
		if (since <= 0)
			continue;
		int w = snprintf(buf + len, size - len, "%s%s %s %.0f s", len ? ", " : "",
				 tick.builds[i].cfg->label, tick.builds[i].recipe->name, now - since);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

static void *ticker(void *arg)
{
	(void)arg;
	double last_log = now_seconds();
	pthread_mutex_lock(&tick.lock);
	while (!tick.stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&tick.wake, &tick.lock, &ts);
		if (tick.stop)
			break;
		double now = now_seconds();
		char what[400], eta[64];
		in_flight(what, sizeof(what), now);
		if (!*what || (!tty && now - last_log < TICK_LOG_S))
			continue;
		progress_eta(eta, sizeof(eta), now - tick.started, (long)tick.done, (long)tick.total);
		pthread_mutex_lock(&out_lock);
		event_locked_f("builds %zu/%zu: building %s%s%s", tick.done, tick.total, what,
			       *eta ? ", " : "", eta);
		pthread_mutex_unlock(&out_lock);
		last_log = now;
	}
	pthread_mutex_unlock(&tick.lock);
	return NULL;
}

void progress_builds_begin(const struct build *builds, size_t n, void *user)
{
	(void)user;
	if (quiet || tick.running)
		return;
	size_t todo = 0;
	for (size_t i = 0; i < n; i++)
		todo += !builds[i].cached && !builds[i].settled;
	tick.builds = builds;
	tick.n = n;
	tick.done = 0;
	tick.total = todo;
	tick.started = now_seconds();
	tick.stop = 0;
	tick.running = todo && !pthread_create(&tick.thread, NULL, ticker, NULL);
}

void progress_builds_end(void *user)
{
	(void)user;
	if (!tick.running)
		return;
	pthread_mutex_lock(&tick.lock);
	tick.stop = 1;
	pthread_cond_signal(&tick.wake);
	pthread_mutex_unlock(&tick.lock);
	pthread_join(tick.thread, NULL);
	tick.running = 0;
}

void progress_build(const struct build *b, size_t done, size_t total, void *started)
{
	pthread_mutex_lock(&tick.lock);
	tick.done = done;
	tick.total = total;
	pthread_mutex_unlock(&tick.lock);
	char eta[64];
	progress_eta(eta, sizeof(eta), now_seconds() - *(double *)started, (long)done, (long)total);
	if (b->outcome != OUTCOME_OK || !progress_is_tty())
		progress_say("[build %zu/%zu] %s %s: %s (%.1f s%s)%s%s", done, total, b->cfg->label,
			     b->recipe->name, outcome_name(b->outcome), b->seconds,
			     b->config_seeded ? ", configure from the group's proven cache" : "",
			     b->detail ? ": " : "", b->detail ? b->detail : "");
	if (progress_is_tty())
		progress_event("builds %zu/%zu: %s %s %s, %s", done, total, b->cfg->label,
			       b->recipe->name, outcome_name(b->outcome), eta);
}

void progress_run(const struct pipeline_run_event *e, void *user)
{
	(void)user;
	const struct build *b = e->build;
	const struct recipe_run *run = e->run;
	const struct exec_result *res = e->res;
	char eta[64], what[32];
	/* the time left from the runs made now, not the ones found stored */
	progress_eta(eta, sizeof(eta), e->elapsed, e->done - e->stored, e->total - e->stored);
	if (e->rep)
		snprintf(what, sizeof(what), "rep %d", e->rep);
	else
		snprintf(what, sizeof(what), "warm-up");
	if (res->outcome != OUTCOME_OK || !progress_is_tty())
		progress_say("[run %d/%d] %s %s%s%s %s: %s%s%s (%s)", e->done, e->total,
			     b->cfg->label, b->recipe->name, *run->name ? "/" : "", run->name, what,
			     outcome_name(res->outcome), res->detail ? ": " : "",
			     res->detail ? res->detail : "", eta);
	if (progress_is_tty())
		progress_event("builds %zu/%zu, runs %d/%d: %s %s%s%s %s, %s", e->builds_total,
			       e->builds_total, e->done, e->total, b->cfg->label, b->recipe->name,
			       *run->name ? "/" : "", run->name, what, eta);
}

void progress_start(struct pipeline_events *ev, int quiet, double *started)
{
	progress_init(quiet, -1);
	*ev = (struct pipeline_events){
		.say = progress_say_line, .result = progress_result_line,
		.build_done = progress_build, .run_done = progress_run,
		.builds_begin = progress_builds_begin, .builds_end = progress_builds_end,
		.user = started, .log = quiet ? NULL : stderr,
	};
}
