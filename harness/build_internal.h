/*
 * build_internal.h - what build.c (a build's key, flags, script, checks)
 * and build_pool.c (locks, scheduling, timeouts, status) share.  Only
 * harness/build*.c include it.
 */
#ifndef FLAGSCOPE_BUILD_INTERNAL_H
#define FLAGSCOPE_BUILD_INTERNAL_H

#include <signal.h>
#include <sys/types.h>

#include "harness/build.h"

/* "sha256 HEX NAME" of each of the build's binaries in b's out folder,
 * one a line; NULL when one cannot be read (heap). */
char *build_binary_hashes(const struct build *b);
/* 1 when b's status says it finished and its binaries still hash to what
 * the status recorded. */
int build_status_trusted(const struct build *b);
/* Forks b's build script in its own process group, guarded by lock_fd
 * (guard.h), with jobs_each make jobs; the child's pid, or -1. */
pid_t build_start(struct build *b, int jobs_each, int lock_fd);
/* Checks b's binaries and records their facts; may set the outcome. */
void build_verify(struct build *b);
/* b's outcome from its script's wait status and the checks. */
void build_finish(struct build *b, int status);
/* Waits for one of pids[0..n) (> 0: ours) to end and reaps it: its pid,
 * or -1 once *stop is set or now_seconds() reaches deadline (INFINITY:
 * none).  Never waitpid(-1) (build_pool.c says why). */
pid_t build_wait_child(const pid_t *pids, size_t n, int *status,
		       const volatile sig_atomic_t *stop, double deadline);

#endif
