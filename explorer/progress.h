/*
 * progress.h - what a long study tells the user while it works, on stderr.
 *
 * On a terminal: one status line rewritten in place (builds done/total,
 * runs done/total, the current configuration and the time left), with
 * the lines worth keeping (a failed build, a failed run, facts) printed
 * above it.  Otherwise (a log file, a pipe, CI): every event is a line of
 * its own, "flagscope: ...", so the log shows the whole history.
 */
#ifndef FLAGSCOPE_PROGRESS_H
#define FLAGSCOPE_PROGRESS_H

#include "pipeline/pipeline.h"

/* quiet: print nothing at all.  tty: -1 asks isatty(stderr). */
void progress_init(int quiet, int tty);

/* 1 when the status line is in use (stderr is a terminal). */
int progress_is_tty(void);

/* A line to keep, "flagscope: <text>". */
void progress_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An event: on a terminal it only replaces the status line; otherwise it
 * is a line like progress_say. */
void progress_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Clear the status line (before the report is printed). */
void progress_end(void);

/* "about 1 min 20 s left" style estimate from elapsed seconds, done and
 * total counts; writes into buf (size n).  "" when nothing is done yet. */
void progress_eta(char *buf, unsigned long n, double elapsed, long done, long total);

/* The pipeline's events drawn as above (struct pipeline_events): a line
 * to keep; a build done (started: a double *, when the builds started);
 * a run done. */
void progress_say_line(const char *line, void *user);
/* A line that states a result: printed like a line to keep, also when
 * quiet (-q hides progress, never results). */
void progress_result_line(const char *line, void *user);
void progress_build(const struct build *b, size_t done, size_t total, void *started);
void progress_run(const struct pipeline_run_event *e, void *user);
/* While builds run: a status line naming each build in flight with its
 * elapsed seconds ("builds 0/2: building gcc O2 brotli 12 s, ..."), redrawn
 * every second on a terminal, a line every 15 s of building otherwise;
 * builds_end stops it (before anything else prints the builds' outcomes). */
void progress_builds_begin(const struct build *builds, size_t n, void *user);
void progress_builds_end(void *user);
/* progress_init(quiet, -1), and ev set to draw a study's events with the
 * functions above (started: when the builds started). */
void progress_start(struct pipeline_events *ev, int quiet, double *started);

#endif
