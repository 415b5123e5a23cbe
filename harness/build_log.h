/*
 * build_log.h - what a failed build's log says, for the one line a report
 * gives it: the first error line rather than whatever came last (a source
 * excerpt, a caret, a note), and where the whole log is.
 */
#ifndef FLAGSCOPE_BUILD_LOG_H
#define FLAGSCOPE_BUILD_LOG_H

/* The log's first error line, trimmed: a compiler's or configure's
 * "FILE:LINE:COL: error: ..." or "fatal error: ..." first, else CMake's
 * "CMake Error ..." with the line after it, else make's "make: *** ...".
 * NULL when the log has none.  Heap string. */
char *build_log_first_error(const char *log_text);

/* A failed build's detail: build_log_summary(log_text) (which puts the
 * first error line before the log's last lines) and " | log: LOG_PATH",
 * the file that holds the whole log.  Heap string. */
char *build_log_failure_detail(const char *log_text, const char *log_path);

/* complaint, and the compiler's "did you mean 'X'?" from a later line of
 * log_text (gcc puts -march's on a note line) when complaint lacks one.
 * Heap string. */
char *build_log_with_suggestion(const char *complaint, const char *log_text);

/* A build that ran but lacks the recipe's binary `missing`: "the build
 * did not produce MISSING", then the programs it did make under out_dir
 * (executable ELF files, at most a few, by path from out_dir) for
 * [build] binaries =, or that it made none, and " | log: LOG_PATH".  The
 * user's likeliest mistake is a program name of their guess.  Heap
 * string. */
char *build_log_missing_binary(const char *missing, const char *out_dir, const char *log_path);

#endif
