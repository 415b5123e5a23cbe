/*
 * b_malloc.c - malloc/free patterns: a heap with holes, a sliding window,
 * tiny blocks, blocks above the mmap threshold, and two threads at once.
 * Every block is written and read back so no compiler can drop the pair.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUND 4096 /* blocks per round in sparse/tiny */

/* Mark a block with its size at both ends; return what was read back. */
static check_t mark(unsigned char *p, size_t n)
{
	p[0] = (unsigned char)(n % 251);
	p[n - 1] = (unsigned char)(n / 7 % 253);
	keep(p);
	return (check_t)p[0] + p[n - 1];
}

/* The process ends right after a failure, so nothing is freed here. */
static check_t oom(void)
{
	fprintf(stderr, "libcbench: malloc returned NULL\n");
	return BENCH_FAILED;
}

/* Fill a heap, punch every other block out, refill the holes with blocks
 * twice as large (which do not fit them), then free everything. */
check_t b_malloc_sparse(long iters)
{
	static void *v[ROUND];
	unsigned rng = 12345;
	check_t sum = 0;
	bench_start();
	for (long it = 0; it < iters; it++) {
		for (int i = 0; i < ROUND; i++) {
			size_t n = 16 + bench_rand(&rng) % 512;
			if (!(v[i] = malloc(n)))
				return oom();
			sum += n + mark(v[i], n);
		}
		for (int i = 1; i < ROUND; i += 2)
			free(v[i]);
		for (int i = 1; i < ROUND; i += 2) {
			size_t n = 32 + bench_rand(&rng) % 1024;
			if (!(v[i] = malloc(n)))
				return oom();
			sum += n + mark(v[i], n);
		}
		for (int i = 0; i < ROUND; i++)
			free(v[i]);
	}
	bench_stop();
	return sum;
}

/* A window of 64 live blocks slides through the heap: each step allocates
 * one block and frees the oldest. */
check_t b_malloc_bubble(long iters)
{
	void *win[64] = { 0 };
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		size_t n = 16 + (size_t)(i * 37 % 240);
		free(win[i & 63]);
		if (!(win[i & 63] = malloc(n)))
			return oom();
		sum += mark(win[i & 63], n);
	}
	for (int i = 0; i < 64; i++)
		free(win[i]);
	bench_stop();
	return sum;
}

/* Tiny blocks (1 to 16 bytes): freed in the order they were allocated (1),
 * or every other first and then the rest from the end (2). */
static check_t tiny(long iters, int scattered)
{
	static void *v[ROUND * 4];
	const int n = ROUND * 4;
	unsigned rng = 777;
	check_t sum = 0;
	bench_start();
	for (long it = 0; it < iters; it++) {
		for (int i = 0; i < n; i++) {
			size_t sz = 1 + bench_rand(&rng) % 16;
			if (!(v[i] = malloc(sz)))
				return oom();
			sum += mark(v[i], sz);
		}
		if (!scattered) {
			for (int i = 0; i < n; i++)
				free(v[i]);
			continue;
		}
		for (int i = 0; i < n; i += 2)
			free(v[i]);
		for (int i = n - 1; i > 0; i -= 2)
			free(v[i]);
	}
	bench_stop();
	return sum;
}

check_t b_malloc_tiny1(long iters)
{
	return tiny(iters, 0);
}

check_t b_malloc_tiny2(long iters)
{
	return tiny(iters, 1);
}

/* One large block at a time, above glibc's initial mmap threshold; one
 * byte in every 64 KiB is written, so the cost is the allocator's (and the
 * mapping's, where the libc maps each block) more than page faults'. */
check_t b_malloc_big1(long iters)
{
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		size_t n = (size_t)(256 + (i & 3) * 64) << 10;
		unsigned char *p = malloc(n);
		if (!p)
			return oom();
		for (size_t o = 0; o < n; o += 65536)
			p[o] = (unsigned char)(o >> 16);
		sum += n + mark(p, n);
		free(p);
	}
	bench_stop();
	return sum;
}

/* Eight large blocks of different sizes live together, every page touched. */
check_t b_malloc_big2(long iters)
{
	unsigned char *v[8];
	check_t sum = 0;
	bench_start();
	for (long it = 0; it < iters; it++) {
		for (int i = 0; i < 8; i++) {
			size_t n = (size_t)(64 + ((it + i) % 8) * 48) << 10;
			if (!(v[i] = malloc(n)))
				return oom();
			for (size_t o = 0; o < n; o += 4096)
				v[i][o] = (unsigned char)o;
			sum += n + mark(v[i], n);
		}
		for (int i = 7; i >= 0; i--)
			free(v[i]);
	}
	bench_stop();
	return sum;
}

#define NTHREADS 2
#define NSLOTS 64

struct mthread {
	long iters;
	unsigned seed;
	check_t sum;
	int failed;
};

static _Atomic(void *) slots[NSLOTS];

/* Blocks are handed through shared slots, so most are freed by the other
 * thread than the one that allocated them. */
static void *stress_main(void *arg)
{
	struct mthread *t = arg;
	for (long i = 0; i < t->iters; i++) {
		unsigned r = bench_rand(&t->seed);
		size_t n = 1 + r % 512;
		void *p = malloc(n);
		if (!p) {
			t->failed = 1;
			break;
		}
		t->sum += n + mark(p, n);
		free(atomic_exchange(&slots[(r >> 9) % NSLOTS], p));
	}
	return NULL;
}

/* Each thread allocates a batch of 256 blocks and frees them itself. */
static void *local_main(void *arg)
{
	struct mthread *t = arg;
	void *v[256];
	for (long it = 0; it < t->iters; it++) {
		for (int i = 0; i < 256; i++) {
			size_t n = 1 + bench_rand(&t->seed) % 1024;
			if (!(v[i] = malloc(n))) {
				oom();
				t->failed = 1;
				return NULL;
			}
			t->sum += n + mark(v[i], n);
		}
		for (int i = 0; i < 256; i++)
			free(v[i]);
	}
	return NULL;
}

static check_t run_threads(long iters, void *(*fn)(void *))
{
	pthread_t tid[NTHREADS];
	struct mthread t[NTHREADS];
	check_t sum = 0;
	int failed = 0, started = 0;
	bench_start();
	for (int i = 0; i < NTHREADS; i++) {
		t[i] = (struct mthread){ .iters = iters, .seed = 99991u * (unsigned)(i + 1) };
		if (pthread_create(&tid[i], NULL, fn, &t[i]) != 0) {
			fprintf(stderr, "libcbench: pthread_create failed\n");
			failed = 1;
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		sum += t[i].sum;
		failed |= t[i].failed;
	}
	for (int i = 0; i < NSLOTS; i++)
		free(atomic_exchange(&slots[i], NULL));
	bench_stop();
	return failed ? BENCH_FAILED : sum;
}

check_t b_malloc_thread_stress(long iters)
{
	return run_threads(iters, stress_main);
}

check_t b_malloc_thread_local(long iters)
{
	return run_threads(iters, local_main);
}
