/*
 * progress.c - the status line of long commands (see progress.h).
 */
#include "explorer/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/util.h"

static int quiet = 1;
static int tty;
static int status_shown;

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
	clear_status();
	say(fmt, ap);
	va_end(ap);
}

void progress_event(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
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
	va_end(ap);
}

void progress_end(void)
{
	if (!quiet)
		clear_status();
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
	clear_status();
	fprintf(stderr, "flagscope: %s\n", line);
}

void progress_build(const struct build *b, size_t done, size_t total, void *started)
{
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
	progress_eta(eta, sizeof(eta), e->elapsed, e->done, e->total);
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
		.user = started, .log = quiet ? NULL : stderr,
	};
}
