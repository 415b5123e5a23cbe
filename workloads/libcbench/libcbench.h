/*
 * libcbench.h - the sub-benchmarks of flagscope's re-creation of musl's
 * libc-bench.  Each one does the work libc-bench's function of the same
 * name does (block sizes, counts, strings, loop structure: recipe.ini
 * tells, per sub-benchmark, how it maps), written anew for this project.
 *
 * How to add a sub-benchmark: write `check_t b_NAME(const char *arg)` in
 * the b_<area>.c file it belongs to, declare it below, add one line to
 * benches[] in libcbench.c (its argument: libc-bench's, e.g. a needle),
 * and add a `[run NAME]` section to recipe.ini.  A sub-benchmark that takes
 * a libc-bench name does libc-bench's workload; anything else gets another
 * name.
 *
 * A sub-benchmark does one pass of its work and returns a check value that
 * depends only on that work (counts, offsets, sums of results), never on
 * addresses, timing or the libc, so stdout can be compared across
 * configurations.  It brackets the part worth timing with bench_start() /
 * bench_stop() (setup stays outside; libc-bench times its whole function,
 * and so does a sub-benchmark whose setup is part of libc-bench's timed
 * work); it returns BENCH_FAILED after printing why on stderr if the libc
 * refused something.
 */
#ifndef LIBCBENCH_H
#define LIBCBENCH_H

typedef unsigned long long check_t;

#define BENCH_FAILED ((check_t)-1)

void bench_start(void);
void bench_stop(void);

/* Makes the compiler assume the memory behind p is read, so that work on
 * it (a malloc/free pair, a memset) is not optimised away. */
static inline void keep(const void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* allocation that reports failure on stderr and returns NULL */
void *bench_alloc(unsigned long n);

check_t b_malloc_sparse(const char *arg);
check_t b_malloc_bubble(const char *arg);
check_t b_malloc_tiny1(const char *arg);
check_t b_malloc_tiny2(const char *arg);
check_t b_malloc_big1(const char *arg);
check_t b_malloc_big2(const char *arg);
check_t b_malloc_thread_stress(const char *arg);
check_t b_malloc_thread_local(const char *arg);

check_t b_string_strstr(const char *needle);
check_t b_string_memset(const char *arg);
check_t b_string_strchr(const char *arg);
check_t b_string_strlen(const char *arg);

check_t b_pthread_createjoin_serial1(const char *arg);
check_t b_pthread_createjoin_serial2(const char *arg);
check_t b_pthread_createjoin_minimal1(const char *arg);
check_t b_pthread_createjoin_minimal2(const char *arg);
check_t b_pthread_create_serial1(const char *arg);
check_t b_pthread_uselesslock(const char *arg);

check_t b_utf8_bigbuf(const char *arg);
check_t b_utf8_onebyone(const char *arg);

check_t b_stdio_putcgetc(const char *arg);
check_t b_stdio_putcgetc_unlocked(const char *arg);

check_t b_regex_compile(const char *pattern);
check_t b_regex_search(const char *pattern);

#endif
