/*
 * b_stdio.c - libc-bench's stdio runs: five million 'x' written with putc
 * to a tmpfile(), then read back with getc, through the locking calls and
 * through their _unlocked forms.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <stdio.h>

#define NCHARS 5000000

static check_t putcgetc(int unlocked)
{
	FILE *f = tmpfile();
	if (!f) {
		perror("libcbench: tmpfile");
		return BENCH_FAILED;
	}
	check_t sum = 0;
	bench_start();
	if (unlocked) {
		for (long i = 0; i < NCHARS; i++)
			putc_unlocked('x', f);
	} else {
		for (long i = 0; i < NCHARS; i++)
			putc('x', f);
	}
	fseek(f, 0, SEEK_SET);
	if (unlocked) {
		for (long i = 0; i < NCHARS; i++)
			sum += (check_t)getc_unlocked(f);
	} else {
		for (long i = 0; i < NCHARS; i++)
			sum += (check_t)getc(f);
	}
	bench_stop();
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		fprintf(stderr, "libcbench: i/o error on the tmpfile\n");
		return BENCH_FAILED;
	}
	return sum;
}

check_t b_stdio_putcgetc(const char *arg)
{
	(void)arg;
	return putcgetc(0);
}

check_t b_stdio_putcgetc_unlocked(const char *arg)
{
	(void)arg;
	return putcgetc(1);
}
