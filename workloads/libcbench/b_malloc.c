/*
 * b_malloc.c - libc-bench's malloc patterns: a sparse heap and a bubble of
 * 4000-byte blocks, tiny blocks freed in order and scattered, 16-64 KiB
 * blocks that all live at once, and two threads sharing (or not) a table
 * of blocks.  Counts and sizes are libc-bench's; see recipe.ini.
 * Like libc-bench, the tiny and big blocks are never written: the cost is
 * the allocator's, not page faults'.  Blocks libc-bench leaves allocated
 * (sparse, bubble) stay allocated here too.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBLOCKS 10000     /* sparse, bubble, tiny */
#define NBIG 2000         /* big1, big2 */
#define KEEP_EVERY 150    /* sparse keeps every 150th block */
#define SCATTER_STEP 57   /* tiny2, big2 free in steps of 57 (mod the count) */

/* The process ends right after a failure, so nothing is freed here. */
static check_t oom(size_t n)
{
	fprintf(stderr, "libcbench: malloc(%zu) returned NULL\n", n);
	return BENCH_FAILED;
}

/* 4000-byte blocks, each zeroed; then every block but one in 150 (sparse)
 * or all but the last (bubble) is freed. */
static check_t blocks4000(int sparse)
{
	static void *p[NBLOCKS];
	check_t kept = 0;
	bench_start();
	for (int i = 0; i < NBLOCKS; i++) {
		if (!(p[i] = malloc(4000)))
			return oom(4000);
		memset(p[i], 0, 4000);
		keep(p[i]);
	}
	for (int i = 0; i < NBLOCKS; i++) {
		if (sparse ? i % KEEP_EVERY != 0 : i < NBLOCKS - 1)
			free(p[i]);
		else
			kept++;
	}
	bench_stop();
	return kept;
}

check_t b_malloc_sparse(const char *arg)
{
	(void)arg;
	return blocks4000(1);
}

check_t b_malloc_bubble(const char *arg)
{
	(void)arg;
	return blocks4000(0);
}

/* count blocks of (i%4+1)*unit bytes, all allocated, then all freed: in
 * allocation order, or scattered (from index 1 in steps of 57 modulo the
 * count until it comes back to 0; block 0 stays, as in libc-bench). */
static check_t alloc_free(void **p, int count, size_t unit, int scattered)
{
	check_t bytes = 0;
	bench_start();
	for (int i = 0; i < count; i++) {
		size_t n = (size_t)(i % 4 + 1) * unit;
		if (!(p[i] = malloc(n)))
			return oom(n);
		keep(p[i]);
		bytes += n;
	}
	if (!scattered) {
		for (int i = 0; i < count; i++)
			free(p[i]);
	} else {
		for (int i = 1; i; i = (i + SCATTER_STEP) % count)
			free(p[i]);
	}
	bench_stop();
	return bytes;
}

check_t b_malloc_tiny1(const char *arg)
{
	static void *p[NBLOCKS];
	(void)arg;
	return alloc_free(p, NBLOCKS, 16, 0);
}

check_t b_malloc_tiny2(const char *arg)
{
	static void *p[NBLOCKS];
	(void)arg;
	return alloc_free(p, NBLOCKS, 16, 1);
}

check_t b_malloc_big1(const char *arg)
{
	static void *p[NBIG];
	(void)arg;
	return alloc_free(p, NBIG, 16384, 0);
}

check_t b_malloc_big2(const char *arg)
{
	static void *p[NBIG];
	(void)arg;
	return alloc_free(p, NBIG, 16384, 1);
}

#define LOOPS 100000
#define SLOTS 300
#define MAX_SZ 500

struct slot {
	pthread_mutex_t lock;
	void *mem;
};

struct stress_arg {
	struct slot *slots;
	unsigned seed;
	int failed;
};

static unsigned lcg(unsigned *r)
{
	return *r = *r * 1103515245u + 12345u;
}

/* LOOPS times: pick a slot and a size below 500; take the slot's block
 * and free it, or, when the slot was empty, allocate one and put it there
 * (freeing it if the other thread filled the slot meanwhile). */
static void *stress(void *argp)
{
	struct stress_arg *a = argp;
	unsigned r = a->seed;
	for (int i = 0; i < LOOPS; i++) {
		struct slot *s = &a->slots[lcg(&r) % SLOTS];
		size_t sz = lcg(&r) % MAX_SZ;
		pthread_mutex_lock(&s->lock);
		void *p = s->mem;
		s->mem = NULL;
		pthread_mutex_unlock(&s->lock);
		free(p);
		if (p)
			continue;
		/* malloc(0) may return NULL: that is not a failure */
		if (!(p = malloc(sz)) && sz) {
			a->failed = 1;
			break;
		}
		pthread_mutex_lock(&s->lock);
		if (!s->mem) {
			s->mem = p;
			p = NULL;
		}
		pthread_mutex_unlock(&s->lock);
		free(p);
	}
	return NULL;
}

/* Two threads over one table of 300 slots (stress: blocks are freed by
 * the other thread as often as not) or each over its own (local).
 * libc-bench seeds each thread from pthread_self(); here the seeds are
 * fixed, so the sequence of sizes is the same in every run. */
static check_t two_threads(int shared)
{
	static struct slot table[2][SLOTS];
	struct stress_arg a[2];
	pthread_t td[2];
	int started = 0, failed = 0;
	for (int t = 0; t < 2; t++)
		for (int i = 0; i < SLOTS; i++) {
			pthread_mutex_init(&table[t][i].lock, NULL);
			table[t][i].mem = NULL;
		}
	bench_start();
	for (int t = 0; t < 2; t++) {
		a[t] = (struct stress_arg){ .slots = table[shared ? 0 : t], .seed = 1u + (unsigned)t };
		if (pthread_create(&td[t], NULL, stress, &a[t]) != 0) {
			fprintf(stderr, "libcbench: pthread_create failed\n");
			failed = 1;
			break;
		}
		started++;
	}
	for (int t = 0; t < started; t++) {
		pthread_join(td[t], NULL);
		failed |= a[t].failed;
	}
	bench_stop();
	if (failed)
		return BENCH_FAILED;
	return 2 * LOOPS;
}

check_t b_malloc_thread_stress(const char *arg)
{
	(void)arg;
	return two_threads(1);
}

check_t b_malloc_thread_local(const char *arg)
{
	(void)arg;
	return two_threads(0);
}
