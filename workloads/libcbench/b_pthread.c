/*
 * b_pthread.c - libc-bench's thread runs: 2500 threads created and joined
 * one at a time or 50 at a time (default attributes, or the smallest stack
 * and no guard page), 2500 threads with 16 KiB stacks created and never
 * joined, and a mutex taken and released a million times by one thread.
 */
#define _XOPEN_SOURCE 700
#include "libcbench.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define NTHREADS 2500
#define BATCH 50

static void *empty(void *arg)
{
	return arg;
}

static check_t create_failed(void)
{
	fprintf(stderr, "libcbench: pthread_create failed\n");
	return BENCH_FAILED;
}

/* NTHREADS threads in batches of `batch`: all of a batch created, then
 * all joined. */
static check_t create_join(int batch, const pthread_attr_t *attr)
{
	check_t sum = 0;
	bench_start();
	for (int j = 0; j < NTHREADS / batch; j++) {
		pthread_t t[BATCH];
		for (int k = 0; k < batch; k++)
			if (pthread_create(&t[k], attr, empty, (void *)(uintptr_t)k) != 0)
				return create_failed();
		for (int k = 0; k < batch; k++) {
			void *r;
			pthread_join(t[k], &r);
			sum += (uintptr_t)r + 1;
		}
	}
	bench_stop();
	return sum;
}

check_t b_pthread_createjoin_serial1(const char *arg)
{
	(void)arg;
	return create_join(1, NULL);
}

check_t b_pthread_createjoin_serial2(const char *arg)
{
	(void)arg;
	return create_join(BATCH, NULL);
}

/* dietlibc has no pthread_attr_setguardsize: a weak reference links
 * there, and its threads keep their guard page. */
int pthread_attr_setguardsize(pthread_attr_t *attr, size_t size);
#pragma weak pthread_attr_setguardsize

/* A stack of one page and no guard page.  Like libc-bench, a refusal is
 * ignored: glibc refuses stacks below PTHREAD_STACK_MIN (16 KiB) and so
 * creates these threads with its default stack, as libc-bench's do. */
static check_t minimal(int batch)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	(void)pthread_attr_setstacksize(&a, (size_t)sysconf(_SC_PAGESIZE));
	if (pthread_attr_setguardsize)
		(void)pthread_attr_setguardsize(&a, 0);
	check_t sum = create_join(batch, &a);
	pthread_attr_destroy(&a);
	return sum;
}

check_t b_pthread_createjoin_minimal1(const char *arg)
{
	(void)arg;
	return minimal(1);
}

check_t b_pthread_createjoin_minimal2(const char *arg)
{
	(void)arg;
	return minimal(BATCH);
}

/* Created with a 16 KiB stack and never joined or detached: their stacks
 * stay until the process exits, as in libc-bench.  A libc whose minimum is
 * larger (glibc on aarch64: 128 KiB) refuses the size; libc-bench ignores
 * that and so gets the default stack, and so does this. */
check_t b_pthread_create_serial1(const char *arg)
{
	(void)arg;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	(void)pthread_attr_setstacksize(&attr, 16384);
	bench_start();
	for (int i = 0; i < NTHREADS; i++) {
		pthread_t t;
		if (pthread_create(&t, &attr, empty, NULL) != 0)
			return create_failed();
	}
	bench_stop();
	pthread_attr_destroy(&attr);
	return NTHREADS;
}

#define LOCKS 1000000

static void *lock_unlock(void *mut)
{
	for (long i = 0; i < LOCKS; i++) {
		pthread_mutex_lock(mut);
		pthread_mutex_unlock(mut);
	}
	return (void *)(uintptr_t)LOCKS;
}

/* In a second thread, as libc-bench does: the process is multi-threaded,
 * so no libc can take a single-threaded shortcut. */
check_t b_pthread_uselesslock(const char *arg)
{
	(void)arg;
	pthread_mutex_t mut = PTHREAD_MUTEX_INITIALIZER;
	pthread_t t;
	void *r = NULL;
	bench_start();
	if (pthread_create(&t, NULL, lock_unlock, &mut) != 0)
		return create_failed();
	pthread_join(t, &r);
	bench_stop();
	return (uintptr_t)r;
}
