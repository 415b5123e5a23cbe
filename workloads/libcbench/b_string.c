/*
 * b_string.c - strstr with needles that defeat naive search, memset,
 * strchr over a long string, strlen over many short strings.
 *
 * Each call starts at an offset that changes with the iteration, so a
 * compiler cannot hoist the (pure) string function out of the loop.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <stdlib.h>
#include <string.h>

#define HAYSTACK (32 << 10)

/* The haystack repeats the needle without its last letter and ends with
 * the needle: "abcabc...abcd", "aaaa...ac".  Every position is a partial
 * match, the worst case for a naive search. */
static check_t strstr_bench(long iters, const char *needle)
{
	size_t nl = strlen(needle);
	char *h = bench_alloc(HAYSTACK + 1);
	if (!h)
		return BENCH_FAILED;
	for (size_t i = 0; i < HAYSTACK - nl; i++)
		h[i] = needle[i % (nl - 1)];
	memcpy(h + HAYSTACK - nl, needle, nl + 1);
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		const char *f = strstr(h + (i & 15), needle);
		sum += f ? (check_t)(f - h) : 1;
	}
	bench_stop();
	free(h);
	return sum;
}

check_t b_strstr_abcd(long iters)
{
	return strstr_bench(iters, "abcd");
}

check_t b_strstr_azby(long iters)
{
	return strstr_bench(iters, "azby");
}

check_t b_strstr_ac(long iters)
{
	return strstr_bench(iters, "ac");
}

check_t b_strstr_aaac(long iters)
{
	return strstr_bench(iters, "aaac");
}

check_t b_strstr_aaaaac(long iters)
{
	return strstr_bench(iters, "aaaaac");
}

#define MEMSET_BUF (256 << 10)

/* Lengths and alignments vary from call to call, 128 KiB to 256 KiB. */
check_t b_memset(long iters)
{
	unsigned char *b = bench_alloc(MEMSET_BUF);
	if (!b)
		return BENCH_FAILED;
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		size_t off = (size_t)(i & 63);
		size_t len = MEMSET_BUF / 2 + (size_t)(i * 4099 % (MEMSET_BUF / 2 - 64));
		memset(b + off, (int)(i & 255), len);
		keep(b);
		sum += b[off + len - 1] + b[off + len / 2];
	}
	bench_stop();
	free(b);
	return sum;
}

#define STRCHR_LEN (64 << 10)

/* A 64 KiB string of 'a'..'y'; even calls look for the 'z' at its end,
 * odd calls for a byte it does not contain. */
check_t b_strchr(long iters)
{
	char *s = bench_alloc(STRCHR_LEN + 2);
	if (!s)
		return BENCH_FAILED;
	for (size_t i = 0; i < STRCHR_LEN; i++)
		s[i] = (char)('a' + i % 25);
	s[STRCHR_LEN] = 'z';
	s[STRCHR_LEN + 1] = 0;
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		const char *f = strchr(s + (i & 63), (i & 1) ? '#' : 'z');
		sum += f ? (check_t)(f - s) : 7;
	}
	bench_stop();
	free(s);
	return sum;
}

#define STRLEN_BUF (256 << 10)

/* 256 KiB packed with NUL-terminated strings of 0 to 200 bytes; each
 * iteration walks them all with strlen. */
check_t b_strlen(long iters)
{
	char *b = bench_alloc(STRLEN_BUF);
	if (!b)
		return BENCH_FAILED;
	unsigned rng = 4242;
	size_t at = 0;
	while (at < STRLEN_BUF - 1) {
		size_t n = bench_rand(&rng) % 201;
		if (n > STRLEN_BUF - 1 - at)
			n = STRLEN_BUF - 1 - at;
		memset(b + at, 'x', n);
		b[at + n] = 0;
		at += n + 1;
	}
	b[STRLEN_BUF - 1] = 0;
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		const char *p = b + (i & 7), *end = b + STRLEN_BUF;
		while (p < end) {
			size_t n = strlen(p);
			sum += n + 1;
			p += n + 1;
		}
	}
	bench_stop();
	free(b);
	return sum;
}
