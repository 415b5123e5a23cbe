/*
 * libcbench.h - the sub-benchmarks of flagscope's libc micro-benchmark.
 *
 * How to add a sub-benchmark: write `check_t b_NAME(long iters)` in the
 * b_<area>.c file it belongs to, declare it below, add one line to
 * benches[] in libcbench.c with the iteration count that takes about 0.1 s
 * at -O2 with glibc, and add a `[run NAME]` section to recipe.ini.
 *
 * A sub-benchmark does `iters` units of work and returns a check value that
 * depends only on that work (counts, sums of results), never on addresses,
 * timing or the libc, so stdout can be compared across configurations.
 * It brackets the part worth timing with bench_start() / bench_stop() and
 * may call them more than once (setup stays outside); it returns
 * BENCH_FAILED after printing why on stderr if the libc refused something.
 */
#ifndef LIBCBENCH_H
#define LIBCBENCH_H

typedef unsigned long long check_t;

#define BENCH_FAILED ((check_t)-1)

void bench_start(void);
void bench_stop(void);

/* Makes the compiler assume the memory behind p is read, so that work on
 * it (a memset, a malloc'd block written once) is not optimised away. */
static inline void keep(const void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* allocation that reports failure on stderr and returns NULL */
void *bench_alloc(unsigned long n);

/* a deterministic xorshift32 stream; *state must start non-zero */
static inline unsigned bench_rand(unsigned *state)
{
	unsigned x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

check_t b_malloc_sparse(long iters);
check_t b_malloc_bubble(long iters);
check_t b_malloc_tiny1(long iters);
check_t b_malloc_tiny2(long iters);
check_t b_malloc_big1(long iters);
check_t b_malloc_big2(long iters);
check_t b_malloc_thread_stress(long iters);
check_t b_malloc_thread_local(long iters);

check_t b_strstr_abcd(long iters);
check_t b_strstr_azby(long iters);
check_t b_strstr_ac(long iters);
check_t b_strstr_aaac(long iters);
check_t b_strstr_aaaaac(long iters);
check_t b_memset(long iters);
check_t b_strchr(long iters);
check_t b_strlen(long iters);

check_t b_pthread_serial1(long iters);
check_t b_pthread_serial2(long iters);
check_t b_pthread_minimal1(long iters);
check_t b_pthread_minimal2(long iters);
check_t b_pthread_create_serial1(long iters);
check_t b_pthread_uselesslock(long iters);

check_t b_stdio_putcgetc(long iters);
check_t b_stdio_putcgetc_unlocked(long iters);
check_t b_regex_compile(long iters);
check_t b_regex_search(long iters);

#endif
