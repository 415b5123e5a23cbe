/*
 * b_regex.c - libc-bench's regex runs: "(a|b|c)*d*b" compiled (and freed)
 * 1000 times, and one search of a pattern ("(a|b|c)*d*b" or "a{25}b") in a
 * string of 259998 'a's and a 'b'.  The LC_CTYPE locale is the
 * environment's, as libc-bench sets it.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <locale.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#define COMPILES 1000
#define SEARCH_LEN 260000

static check_t regex_failed(const char *what, const char *pat, int err, regex_t *re)
{
	char msg[128];
	regerror(err, re, msg, sizeof msg);
	fprintf(stderr, "libcbench: %s(\"%s\"): %s\n", what, pat, msg);
	return BENCH_FAILED;
}

check_t b_regex_compile(const char *pattern)
{
	setlocale(LC_CTYPE, "");
	bench_start();
	for (int i = 0; i < COMPILES; i++) {
		regex_t re;
		int err = regcomp(&re, pattern, REG_EXTENDED);
		if (err)
			return regex_failed("regcomp", pattern, err, &re);
		regfree(&re);
	}
	bench_stop();
	return COMPILES;
}

check_t b_regex_search(const char *pattern)
{
	static char buf[SEARCH_LEN];
	regex_t re;
	setlocale(LC_CTYPE, "");
	bench_start();
	memset(buf, 'a', sizeof buf - 2);
	buf[sizeof buf - 2] = 'b';
	buf[sizeof buf - 1] = 0;
	int err = regcomp(&re, pattern, REG_EXTENDED);
	if (err)
		return regex_failed("regcomp", pattern, err, &re);
	/* both patterns match (a 'b' ends the string): 0 */
	err = regexec(&re, buf, 0, NULL, 0);
	regfree(&re);
	bench_stop();
	if (err && err != REG_NOMATCH)
		return regex_failed("regexec", pattern, err, &re);
	return err == 0 ? 1 : 2;
}
