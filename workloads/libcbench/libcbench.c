/*
 * libcbench - flagscope's libc micro-benchmarks (malloc, string functions,
 * thread creation, locks, stdio, regex), written for comparing C libraries
 * (glibc, musl, dietlibc) and the flags they and the program are built with.
 *
 * Usage: libcbench NAME [PERCENT]     run one sub-benchmark
 *        libcbench list               print the sub-benchmark names
 *
 * PERCENT scales the iteration count (default 100; the tests use less).
 * stdout: "NAME iters N check V", deterministic for a given NAME and PERCENT.
 * stderr: "time: SECONDS", the CLOCK_MONOTONIC time of the measured part.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct bench {
	const char *name;
	long iters; /* at 100 percent: about 0.1 s at -O2 with glibc here */
	check_t (*run)(long iters);
} benches[] = {
	{ "malloc_sparse", 120, b_malloc_sparse },
	{ "malloc_bubble", 4000000, b_malloc_bubble },
	{ "malloc_tiny1", 200, b_malloc_tiny1 },
	{ "malloc_tiny2", 150, b_malloc_tiny2 },
	{ "malloc_big1", 40000, b_malloc_big1 },
	{ "malloc_big2", 100, b_malloc_big2 },
	{ "malloc_thread_stress", 1500000, b_malloc_thread_stress },
	{ "malloc_thread_local", 1600, b_malloc_thread_local },
	{ "strstr_abcd", 8000, b_strstr_abcd },
	{ "strstr_azby", 8000, b_strstr_azby },
	{ "strstr_ac", 4000, b_strstr_ac },
	{ "strstr_aaac", 600, b_strstr_aaac },
	{ "strstr_aaaaac", 600, b_strstr_aaaaac },
	{ "memset", 40000, b_memset },
	{ "strchr", 60000, b_strchr },
	{ "strlen", 5000, b_strlen },
	{ "pthread_serial1", 3000, b_pthread_serial1 },
	{ "pthread_serial2", 2000, b_pthread_serial2 },
	{ "pthread_minimal1", 4000, b_pthread_minimal1 },
	{ "pthread_minimal2", 2500, b_pthread_minimal2 },
	{ "pthread_create_serial1", 2000, b_pthread_create_serial1 },
	{ "pthread_uselesslock", 10000000, b_pthread_uselesslock },
	{ "stdio_putcgetc", 10000000, b_stdio_putcgetc },
	{ "stdio_putcgetc_unlocked", 20000000, b_stdio_putcgetc_unlocked },
	{ "regex_compile", 12000, b_regex_compile },
	{ "regex_search", 300, b_regex_search },
};

static struct timespec started;
static double elapsed;

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

void bench_start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &started);
}

void bench_stop(void)
{
	elapsed += seconds_since(&started);
}

void *bench_alloc(unsigned long n)
{
	void *p = malloc(n);
	if (!p)
		fprintf(stderr, "libcbench: cannot allocate %lu bytes\n", n);
	return p;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
			printf("%s\n", benches[i].name);
		return 0;
	}
	long percent = argc == 3 ? atol(argv[2]) : 100;
	if (argc < 2 || argc > 3 || percent <= 0) {
		fprintf(stderr, "usage: libcbench NAME [PERCENT] | libcbench list\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
		const struct bench *b = &benches[i];
		if (strcmp(argv[1], b->name) != 0)
			continue;
		long iters = b->iters * percent / 100;
		if (iters < 1)
			iters = 1;
		check_t check = b->run(iters);
		if (check == BENCH_FAILED)
			return 1;
		printf("%s iters %ld check %llu\n", b->name, iters, check);
		fprintf(stderr, "time: %.6f\n", elapsed);
		return 0;
	}
	fprintf(stderr, "libcbench: no sub-benchmark '%s' (see: libcbench list)\n", argv[1]);
	return 2;
}
