/*
 * libcbench - flagscope's re-creation of musl's libc-bench (malloc, string
 * functions, threads, UTF-8 decoding, stdio, regex), for comparing C
 * libraries (glibc, musl, dietlibc) and the flags they and the program are
 * built with.  One sub-benchmark per process, as libc-bench forks one per
 * benchmark.
 *
 * Usage: libcbench NAME [PASSES]     run one sub-benchmark
 *        libcbench list              print the sub-benchmark names
 *
 * PASSES repeats libc-bench's work (default 1: exactly libc-bench's
 * workload; blocks a pass leaves allocated, as libc-bench's do, stay).
 * stdout: "NAME passes N check V", deterministic for a given NAME and N.
 * stderr: "time: SECONDS", the CLOCK_MONOTONIC time of the measured part,
 * then "heap_virt: KB", "heap_res: KB", "heap_dirty: KB": what libc-bench
 * prints after each benchmark (the figures of the published memory
 * tables), when /proc/self/smaps can be read.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct bench {
	const char *name;
	check_t (*run)(const char *arg);
	const char *arg; /* libc-bench's argument (its main.c) */
} benches[] = {
	{ "malloc_sparse", b_malloc_sparse, NULL },
	{ "malloc_bubble", b_malloc_bubble, NULL },
	{ "malloc_tiny1", b_malloc_tiny1, NULL },
	{ "malloc_tiny2", b_malloc_tiny2, NULL },
	{ "malloc_big1", b_malloc_big1, NULL },
	{ "malloc_big2", b_malloc_big2, NULL },
	{ "malloc_thread_stress", b_malloc_thread_stress, NULL },
	{ "malloc_thread_local", b_malloc_thread_local, NULL },
	{ "string_strstr_abc", b_string_strstr, "abcdefghijklmnopqrstuvwxyz" },
	{ "string_strstr_azby", b_string_strstr, "azbycxdwevfugthsirjqkplomn" },
	{ "string_strstr_a14c12", b_string_strstr, "aaaaaaaaaaaaaacccccccccccc" },
	{ "string_strstr_a25c", b_string_strstr, "aaaaaaaaaaaaaaaaaaaaaaaaac" },
	{ "string_strstr_a32c", b_string_strstr, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac" },
	{ "string_memset", b_string_memset, NULL },
	{ "string_strchr", b_string_strchr, NULL },
	{ "string_strlen", b_string_strlen, NULL },
	{ "pthread_createjoin_serial1", b_pthread_createjoin_serial1, NULL },
	{ "pthread_createjoin_serial2", b_pthread_createjoin_serial2, NULL },
	{ "pthread_createjoin_minimal1", b_pthread_createjoin_minimal1, NULL },
	{ "pthread_createjoin_minimal2", b_pthread_createjoin_minimal2, NULL },
	{ "pthread_create_serial1", b_pthread_create_serial1, NULL },
	{ "pthread_uselesslock", b_pthread_uselesslock, NULL },
	{ "utf8_bigbuf", b_utf8_bigbuf, NULL },
	{ "utf8_onebyone", b_utf8_onebyone, NULL },
	{ "stdio_putcgetc", b_stdio_putcgetc, NULL },
	{ "stdio_putcgetc_unlocked", b_stdio_putcgetc_unlocked, NULL },
	{ "regex_compile", b_regex_compile, "(a|b|c)*d*b" },
	{ "regex_search_abcdb", b_regex_search, "(a|b|c)*d*b" },
	{ "regex_search_a25b", b_regex_search, "a{25}b" },
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

/* libc-bench's memory figures: Size, Rss and Private_Dirty summed over the
 * mappings it counts as heap, read after the benchmark: anonymous (device
 * 00:00), not inaccessible (---p), and either [heap] or without a [name]
 * (so not [stack], [vdso], ...).  Thread stacks and mmapped blocks count. */
static void print_heap(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return;
	char line[512];
	unsigned long size = 0, rss = 0, dirty = 0;
	int in_heap = 0;
	while (fgets(line, sizeof line, f)) {
		/* a mapping's line starts with its lowercase hex start address,
		 * its fields' lines with a capitalised name ("Size:") */
		if (strchr("0123456789abcdef", line[0]) && line[0]) {
			/* start-end perms offset major:minor inode [path] */
			char perms[8] = "", dev[16] = "";
			const char *sp = strchr(line, ' ');
			in_heap = sp && sscanf(sp + 1, "%7s %*s %15s", perms, dev) == 2 &&
				  !strcmp(dev, "00:00") && strcmp(perms, "---p") &&
				  (strstr(line, "[heap]") || !strchr(line, '['));
			continue;
		}
		if (!in_heap)
			continue;
		unsigned long v;
		if (sscanf(line, "Size: %lu", &v) == 1)
			size += v;
		else if (sscanf(line, "Rss: %lu", &v) == 1)
			rss += v;
		else if (sscanf(line, "Private_Dirty: %lu", &v) == 1)
			dirty += v;
	}
	fclose(f);
	fprintf(stderr, "heap_virt: %lu\nheap_res: %lu\nheap_dirty: %lu\n", size, rss, dirty);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++)
			printf("%s\n", benches[i].name);
		return 0;
	}
	long passes = argc == 3 ? atol(argv[2]) : 1;
	if (argc < 2 || argc > 3 || passes <= 0) {
		fprintf(stderr, "usage: libcbench NAME [PASSES] | libcbench list\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
		const struct bench *b = &benches[i];
		if (strcmp(argv[1], b->name) != 0)
			continue;
		check_t check = 0;
		for (long n = 0; n < passes; n++) {
			check_t c = b->run(b->arg);
			if (c == BENCH_FAILED)
				return 1;
			check += c;
		}
		printf("%s passes %ld check %llu\n", b->name, passes, check);
		fprintf(stderr, "time: %.6f\n", elapsed);
		print_heap();
		return 0;
	}
	fprintf(stderr, "libcbench: no sub-benchmark '%s' (see: libcbench list)\n", argv[1]);
	return 2;
}
