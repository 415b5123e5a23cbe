/*
 * guard.h - a child whose whole process group dies with the flagscope
 * that started it.  PR_SET_PDEATHSIG reaches the child alone, never the
 * make, compilers and sleeps under it, so a SIGKILLed flagscope (a node
 * lost, a batch system's hard stop, the OOM killer) left its builds
 * running, holding their locks.  The child therefore stays behind as a
 * guard: it leads the group, forks the worker that does the job, keeps one
 * descriptor the caller names (a build's lock: the kernel lets go of it
 * when the guard is gone, and only the guard holds it), and when its
 * parent dies it kills the group, itself included.
 */
#ifndef FLAGSCOPE_GUARD_H
#define FLAGSCOPE_GUARD_H

#include <sys/types.h>

/* In a freshly forked child that leads its own process group (setpgid(0,
 * 0)), async-signal-safe only: become the group's guard.
 *   - returns 0 in the worker, which carries on (and execs): its signal
 *     mask is the caller's, keep is close-on-exec there;
 *   - returns -1 when parent is already gone or the fork failed (the
 *     caller _exits);
 *   - in the guard it never returns: it closes every descriptor above 2
 *     but keep (-1: none) and exits as the worker did (its exit status, or
 *     128 + the signal that killed it); when parent (the thread that
 *     forked it) ends, or the guard gets SIGTERM, SIGINT or SIGHUP, it
 *     kills the whole group with SIGKILL.
 * A SIGKILL to the group (a stop, a timeout) ends guard and worker alike. */
int guard_fork(pid_t parent, int keep);

#endif
