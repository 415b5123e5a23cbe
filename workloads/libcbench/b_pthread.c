/*
 * b_pthread.c - thread creation and joining, one or two at a time, with the
 * default stack or the smallest one; creation of detached threads; and an
 * uncontended mutex taken and released.
 */
#define _POSIX_C_SOURCE 200809L
#include "libcbench.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* Small stacks: the libc's minimum where it is above 16 KiB. */
#ifdef PTHREAD_STACK_MIN
#define SMALL_STACK (PTHREAD_STACK_MIN > 16384 ? PTHREAD_STACK_MIN : 16384)
#else
#define SMALL_STACK 16384
#endif

static void *add_one(void *arg)
{
	return (void *)((uintptr_t)arg + 1);
}

static check_t create_join(long iters, int width, int small)
{
	pthread_attr_t attr, *ap = NULL;
	if (small) {
		pthread_attr_init(&attr);
		if (pthread_attr_setstacksize(&attr, SMALL_STACK) != 0) {
			fprintf(stderr, "libcbench: pthread_attr_setstacksize refused %ld\n",
				(long)SMALL_STACK);
			return BENCH_FAILED;
		}
		ap = &attr;
	}
	check_t sum = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		pthread_t t[2];
		for (int k = 0; k < width; k++) {
			if (pthread_create(&t[k], ap, add_one, (void *)(uintptr_t)(i & 1023)) != 0) {
				fprintf(stderr, "libcbench: pthread_create failed\n");
				return BENCH_FAILED;
			}
		}
		for (int k = 0; k < width; k++) {
			void *r;
			pthread_join(t[k], &r);
			sum += (uintptr_t)r;
		}
	}
	bench_stop();
	if (ap)
		pthread_attr_destroy(ap);
	return sum;
}

check_t b_pthread_serial1(long iters)
{
	return create_join(iters, 1, 0);
}

check_t b_pthread_serial2(long iters)
{
	return create_join(iters, 2, 0);
}

check_t b_pthread_minimal1(long iters)
{
	return create_join(iters, 1, 1);
}

check_t b_pthread_minimal2(long iters)
{
	return create_join(iters, 2, 1);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static long done;

static void *signal_done(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	done++;
	pthread_cond_signal(&done_cond);
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* Detached threads, created one after the other: each signals that it ran
 * before the next is created, and nobody joins it. */
check_t b_pthread_create_serial1(long iters)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	done = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		pthread_t t;
		if (pthread_create(&t, &attr, signal_done, NULL) != 0) {
			fprintf(stderr, "libcbench: pthread_create failed\n");
			return BENCH_FAILED;
		}
		pthread_mutex_lock(&lock);
		while (done <= i)
			pthread_cond_wait(&done_cond, &lock);
		pthread_mutex_unlock(&lock);
	}
	bench_stop();
	pthread_attr_destroy(&attr);
	return (check_t)done;
}

/* A mutex nobody else wants, taken and released around a counter. */
check_t b_pthread_uselesslock(long iters)
{
	static volatile long counter;
	counter = 0;
	bench_start();
	for (long i = 0; i < iters; i++) {
		pthread_mutex_lock(&lock);
		counter = counter + 1;
		pthread_mutex_unlock(&lock);
	}
	bench_stop();
	return (check_t)counter;
}
