/*
 * validate.h - is a run's output the reference output?
 */
#ifndef FLAGSCOPE_VALIDATE_H
#define FLAGSCOPE_VALIDATE_H

#include "base/util.h"

/* Compare two files byte for byte.  Returns 0 when equal, 1 when they
 * differ (why: "stdout differs at byte 1234: 0x31 '1' instead of 0x32 '2'"
 * or "... is 10 bytes shorter"), -1 when one cannot be read (why says so).
 * label names the output in the message. */
int validate_files(const char *label, const char *got, const char *want, struct strbuf *why);

#endif
