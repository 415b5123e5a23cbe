/*
 * b_regex.c - POSIX extended regular expressions: compiling a set of
 * patterns, and searching generated log-like lines with compiled ones.
 * Patterns stay inside what every libc here implements alike, and the
 * checks use match starts (unique) rather than ends.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const patterns[] = {
	"^[a-z]+@[a-z]+\\.(com|org|net)$",
	"([0-9]+\\.)+[0-9]+",
	"(foo|bar|baz)+qux",
	"[A-Za-z][A-Za-z0-9_]*",
	"a(b|c)*d+e?",
	"^(GET|POST|PUT) /[^ ]* HTTP/1\\.[01]$",
	"xx*y?z",
	"[^aeiou ][^aeiou ][^aeiou ][^aeiou ]+",
};

#define NPAT (sizeof patterns / sizeof patterns[0])

static check_t compile_failed(const char *pat, int err, regex_t *re)
{
	char msg[128];
	regerror(err, re, msg, sizeof msg);
	fprintf(stderr, "libcbench: regcomp(\"%s\"): %s\n", pat, msg);
	return BENCH_FAILED;
}

check_t b_regex_compile(long iters)
{
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		regex_t re;
		const char *pat = patterns[i % NPAT];
		int err = regcomp(&re, pat, REG_EXTENDED);
		if (err)
			return compile_failed(pat, err, &re);
		/* not re_nsub: dietlibc leaves it 0, and the check is about
		 * the work done, not about that */
		sum += i % NPAT + 1;
		regfree(&re);
	}
	bench_stop();
	return sum;
}

static const char *const words[] = {
	"GET", "POST", "alpha", "beta", "foo", "barqux", "abcdde", "xxyz", "host",
	"10.0.0.1", "mail", "org", "zzz", "strength", "rhythm", "a",
};

#define NWORDS (sizeof words / sizeof words[0])
#define NLINES 2000

/* NLINES lines of four to nine words, NUL-separated, from a fixed stream. */
static char *make_lines(void)
{
	char *text = bench_alloc(NLINES * 128);
	if (!text)
		return NULL;
	unsigned rng = 31337;
	char *p = text;
	for (int l = 0; l < NLINES; l++) {
		int n = 4 + (int)(bench_rand(&rng) % 6);
		for (int w = 0; w < n; w++) {
			const char *word = words[bench_rand(&rng) % NWORDS];
			size_t len = strlen(word);
			memcpy(p, word, len);
			p += len;
			*p++ = w + 1 < n ? ' ' : '\0';
		}
	}
	return text;
}

check_t b_regex_search(long iters)
{
	static const char *const search[] = { "(foo|bar)+qux", "[0-9]+\\.[0-9]+",
					      "a(b|c)*d+e?", "xx*y?z" };
	regex_t re[4];
	for (int k = 0; k < 4; k++) {
		int err = regcomp(&re[k], search[k], REG_EXTENDED);
		if (err)
			return compile_failed(search[k], err, &re[k]);
	}
	char *text = make_lines();
	if (!text)
		return BENCH_FAILED;
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		const char *line = text;
		for (int l = 0; l < NLINES; l++) {
			regmatch_t m;
			if (regexec(&re[(l + i) & 3], line, 1, &m, 0) == 0)
				sum += 1 + (check_t)m.rm_so;
			line += strlen(line) + 1;
		}
	}
	bench_stop();
	free(text);
	for (int k = 0; k < 4; k++)
		regfree(&re[k]);
	return sum;
}
