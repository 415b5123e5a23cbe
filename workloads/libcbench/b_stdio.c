/*
 * b_stdio.c - a file written byte by byte with putc and read back with
 * getc, through the locking calls and through their _unlocked forms.  The
 * file lives in the current directory (the run's own directory).
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <stdio.h>

#define TMPNAME "libcbench-stdio.tmp"

static check_t putcgetc(long iters, int unlocked)
{
	FILE *f = fopen(TMPNAME, "w+");
	if (!f) {
		perror("libcbench: " TMPNAME);
		return BENCH_FAILED;
	}
	check_t sum = 0, count = 0;
	int c;
	bench_start();
	if (unlocked) {
		for (long i = 0; i < iters; i++)
			putc_unlocked((int)((i ^ i >> 9) & 255), f);
	} else {
		for (long i = 0; i < iters; i++)
			putc((int)((i ^ i >> 9) & 255), f);
	}
	rewind(f);
	if (unlocked) {
		while ((c = getc_unlocked(f)) != EOF) {
			sum += (check_t)c;
			count++;
		}
	} else {
		while ((c = getc(f)) != EOF) {
			sum += (check_t)c;
			count++;
		}
	}
	bench_stop();
	int bad = ferror(f);
	fclose(f);
	remove(TMPNAME);
	if (bad) {
		fprintf(stderr, "libcbench: i/o error on " TMPNAME "\n");
		return BENCH_FAILED;
	}
	return sum + (count << 32);
}

check_t b_stdio_putcgetc(long iters)
{
	return putcgetc(iters, 0);
}

check_t b_stdio_putcgetc_unlocked(long iters)
{
	return putcgetc(iters, 1);
}
