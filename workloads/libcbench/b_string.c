/*
 * b_string.c - libc-bench's string runs: strstr of a 26- or 33-byte needle
 * in a haystack of 10000 near-copies of it, and memset, strchr and strlen
 * over a 500000-byte buffer.  Sizes and loop counts are libc-bench's.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <stdlib.h>
#include <string.h>

#define COPIES 10000
#define BUFLEN 500000

/* The haystack is the needle 10000 times, each copy but the last with its
 * last byte changed (^1): every copy is a near match.  50 searches, each
 * after flipping the first byte so the call cannot be reused. */
check_t b_string_strstr(const char *needle)
{
	size_t l = strlen(needle);
	char *h = bench_alloc(l * COPIES + 1);
	if (!h)
		return BENCH_FAILED;
	check_t sum = 0;
	bench_start();
	for (size_t i = 0; i < COPIES - 1; i++) {
		memcpy(h + l * i, needle, l);
		h[l * i + l - 1] ^= 1;
	}
	memcpy(h + l * (COPIES - 1), needle, l + 1);
	for (int i = 0; i < 50; i++) {
		h[0] ^= 1;
		const char *f = strstr(h, needle);
		sum += f ? (check_t)(f - h) : 1;
	}
	bench_stop();
	free(h);
	return sum;
}

/* 100 memsets of BUFLEN-i bytes at offset i (every alignment of 0..99). */
check_t b_string_memset(const char *arg)
{
	(void)arg;
	unsigned char *b = bench_alloc(BUFLEN);
	if (!b)
		return BENCH_FAILED;
	bench_start();
	for (int i = 0; i < 100; i++) {
		memset(b + i, i, BUFLEN - (size_t)i);
		keep(b);
	}
	bench_stop();
	check_t sum = (check_t)b[BUFLEN - 1] + b[99];
	free(b);
	return sum;
}

/* A string of 'a's with a 'b' at its end; 100 times: change one of its
 * first 100 bytes (so no call can be reused) and search the whole string
 * for 'b' (strchr) or its end (strlen). */
static check_t scan(int use_strchr)
{
	char *b = bench_alloc(BUFLEN);
	if (!b)
		return BENCH_FAILED;
	check_t sum = 0;
	bench_start();
	memset(b, 'a', BUFLEN - 1);
	b[BUFLEN - 1] = 0;
	if (use_strchr)
		b[BUFLEN - 2] = 'b';
	for (int i = 0; i < 100; i++) {
		b[i] = (char)('0' + i % 8);
		if (use_strchr) {
			const char *f = strchr(b, 'b');
			sum += f ? (check_t)(f - b) : 1;
		} else {
			sum += strlen(b);
		}
	}
	bench_stop();
	free(b);
	return sum;
}

check_t b_string_strchr(const char *arg)
{
	(void)arg;
	return scan(1);
}

check_t b_string_strlen(const char *arg)
{
	(void)arg;
	return scan(0);
}
