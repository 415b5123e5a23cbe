/*
 * progress.c - the status line of long commands (see progress.h).
 */
#include "explorer/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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
