/*
 * validate.h - is a run's output the reference output?
 */
#ifndef FLAGSCOPE_VALIDATE_H
#define FLAGSCOPE_VALIDATE_H

#include "base/util.h"

/* Compare two files byte for byte.  Returns 0 when equal, 1 when they
 * differ (why: "stdout differs at byte 1234: 0x31 '1' instead of 0x32 '2'"
 * or "... is 10 bytes shorter"), -1 when one cannot be read, or is not a
 * regular file (why says which and the cause: a folder read as a file
 * reads as empty, and two empty reads must never pass as equal).
 * label names the output in the message. */
int validate_files(const char *label, const char *got, const char *want, struct strbuf *why);

/* Compare an output that may be a file, a folder or a symbolic link with
 * its reference: the same type; a file's bytes (validate_files); a link's
 * target text; a folder's entry names, and each entry compared the same
 * way, recursively.  Links are not followed.  0 equal, 1 different (why
 * names the first difference by its path under label: "out/b.txt: only
 * in the reference"), -1 when something cannot be read (why says what and
 * the cause). */
int validate_tree(const char *label, const char *got, const char *want, struct strbuf *why);

/* The first line where two files differ: *line its number (from 1),
 * *got_line and *want_line the two lines (heap, no newline, "" past a
 * file's end).  0 when found, -1 when one cannot be read or they are equal. */
int validate_line_difference(const char *got, const char *want, long *line, char **got_line,
			     char **want_line);

#endif
