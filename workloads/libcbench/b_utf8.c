/*
 * b_utf8.c - libc-bench's UTF-8 runs: a buffer of every 2-byte sequence
 * with lead byte C3..DF, every 3-byte one with lead E1..EC and 4-byte ones
 * F1..F3 80 xx xx (63296 characters, 200 KiB), decoded 50 times, with
 * mbstowcs into a wide buffer (bigbuf) or mbrtowc one character at a time
 * (onebyone), in a UTF-8 locale.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define BUFSZ 500000
#define ROUNDS 50

/* The first UTF-8 locale of libc-bench's list; 0 when there is none. */
static int utf8_locale(void)
{
	static const char *const names[] = { "C.UTF-8", "en_US.UTF-8", "en_GB.UTF-8",
					     "en.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (setlocale(LC_CTYPE, names[i]))
			break;
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static char *make_text(void)
{
	if (!utf8_locale()) {
		fprintf(stderr, "libcbench: no UTF-8 locale (the codeset is %s)\n",
			nl_langinfo(CODESET));
		return NULL;
	}
	unsigned char *b = bench_alloc(BUFSZ);
	if (!b)
		return NULL;
	size_t l = 0;
	for (unsigned i = 0xc3; i < 0xe0; i++)
		for (unsigned j = 0x80; j < 0xc0; j++) {
			b[l++] = (unsigned char)i;
			b[l++] = (unsigned char)j;
		}
	for (unsigned i = 0xe1; i < 0xed; i++)
		for (unsigned j = 0x80; j < 0xc0; j++)
			for (unsigned k = 0x80; k < 0xc0; k++) {
				b[l++] = (unsigned char)i;
				b[l++] = (unsigned char)j;
				b[l++] = (unsigned char)k;
			}
	for (unsigned i = 0xf1; i < 0xf4; i++)
		for (unsigned j = 0x80; j < 0xc0; j++)
			for (unsigned k = 0x80; k < 0xc0; k++) {
				b[l++] = (unsigned char)i;
				b[l++] = (unsigned char)j;
				b[l++] = 0x80;
				b[l++] = (unsigned char)k;
			}
	b[l] = 0;
	return (char *)b;
}

check_t b_utf8_bigbuf(const char *arg)
{
	(void)arg;
	char *b = make_text();
	wchar_t *w = b ? malloc(BUFSZ * sizeof *w) : NULL;
	if (!w) {
		free(b);
		return BENCH_FAILED;
	}
	check_t sum = 0;
	bench_start();
	for (int i = 0; i < ROUNDS; i++) {
		size_t n = mbstowcs(w, b, BUFSZ);
		if (n == (size_t)-1) {
			fprintf(stderr, "libcbench: mbstowcs refused the text\n");
			return BENCH_FAILED;
		}
		sum += n;
	}
	bench_stop();
	free(w);
	free(b);
	return sum;
}

check_t b_utf8_onebyone(const char *arg)
{
	(void)arg;
	char *b = make_text();
	if (!b)
		return BENCH_FAILED;
	check_t sum = 0;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	bench_start();
	for (int i = 0; i < ROUNDS; i++) {
		for (size_t j = 0; b[j];) {
			wchar_t wc;
			size_t n = mbrtowc(&wc, b + j, 4, &st);
			if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
				fprintf(stderr, "libcbench: mbrtowc refused byte %zu\n", j);
				return BENCH_FAILED;
			}
			j += n;
			sum++;
		}
	}
	bench_stop();
	free(b);
	return sum;
}
